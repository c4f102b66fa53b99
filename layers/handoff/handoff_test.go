package handoff

import (
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l1"
)

func exit(n int) *int { return &n }

// TestFromKeepsWhereTheWorkStood: the last request, how it came out, the
// command still failing (not one that failed and then passed), the files
// edited, and what the agent said comes next and asked; memkeep's own
// commands and subagents' work are not the session's state.
func TestFromKeepsWhereTheWorkStood(t *testing.T) {
	recs := []l1.Record{
		{TS: "2026-03-01T09:00:00.000Z", Kind: l1.KindPrompt, Text: "Make the importer skip duplicate rows"},
		{TS: "2026-03-01T09:01:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./importer/", Exit: exit(1), Res: "--- FAIL: TestDedup", Err: true},
		{TS: "2026-03-01T09:02:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "importer/rows.go"},
		{TS: "2026-03-01T09:03:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./importer/", Exit: exit(0), Res: "ok"},
		{TS: "2026-03-01T09:04:00.000Z", Kind: l1.KindPrompt, Text: "Now wire it into the nightly job"},
		{TS: "2026-03-01T09:05:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "jobs/nightly.go"},
		{TS: "2026-03-01T09:06:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./jobs/", Exit: exit(1), Res: "--- FAIL: TestNightly (timeout)", Err: true},
		{TS: "2026-03-01T09:06:30.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "memkeep l2 add --session x", Exit: exit(1), Err: true, Res: "refused"},
		{TS: "2026-03-01T09:06:40.000Z", Kind: l1.KindTool, Tool: "Edit", File: "scratch/notes.go", Agent: "a1b2c3"},
		{TS: "2026-03-01T09:07:00.000Z", Kind: l1.KindText, Text: "The job now calls the importer. TestNightly times out against the real queue.\n\nNext I will add a fake queue for the test. Should the job run before or after the backup?"},
		{TS: "2026-03-01T09:07:30.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "memkeep l2 add <<'EOF'", Exit: exit(0)},
		{TS: "2026-03-01T09:08:00.000Z", Kind: l1.KindText, Text: "Project memory updated."},
	}
	h := From(recs)
	if h == nil {
		t.Fatal("no handoff")
	}
	if h.Doing != "Now wire it into the nightly job" || h.Time != "2026-03-01T09:08:00Z" {
		t.Errorf("doing %q at %q", h.Doing, h.Time)
	}
	if !strings.HasPrefix(h.Outcome, "The job now calls the importer.") {
		t.Errorf("outcome %q: want the answer to the user, not the memory bookkeeping after it", h.Outcome)
	}
	if !strings.Contains(h.Failing, "go test ./jobs/") || !strings.Contains(h.Failing, "TestNightly") || strings.Contains(h.Failing, "importer") {
		t.Errorf("failing %q: want the jobs test, which never passed, and not the importer's, which did", h.Failing)
	}
	if strings.Join(h.Edited, ",") != "importer/rows.go,jobs/nightly.go" {
		t.Errorf("edited %v: want the session's own files, sorted", h.Edited)
	}
	if len(h.Next) != 1 || !strings.Contains(h.Next[0], "fake queue") {
		t.Errorf("next %v", h.Next)
	}
	if len(h.Questions) != 1 || !strings.Contains(h.Questions[0], "before or after the backup") {
		t.Errorf("questions %v", h.Questions)
	}
	if From(nil) != nil {
		t.Error("a handoff from nothing")
	}
}

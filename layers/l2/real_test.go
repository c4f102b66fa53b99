package l2

import (
	"os"
	"slices"
	"testing"

	"github.com/memkeep/memkeep/layers/l1"
)

const realSession = "../../../shared/transcripts/spotter-2.1.39/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl"

// TestExtractRealSession checks the subconscious path against what the
// transcript really did. The expected files and commands were read off the
// raw transcript by hand (the Edit/Write file_path and Bash command inputs
// between each prompt and its commit).
func TestExtractRealSession(t *testing.T) {
	if _, err := os.Stat(realSession); err != nil {
		t.Skip("real transcripts not available:", err)
	}
	recs, _, err := l1.RefineFile(realSession, l1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	xs := Extract(recs, "2026-02-12_1536_fa812bfe")
	find := func(summary string) *Exchange {
		for i := range xs {
			if xs[i].Summary == summary {
				return &xs[i]
			}
		}
		t.Fatalf("no exchange %q among %d", summary, len(xs))
		return nil
	}

	a := find("feat: add lifecycle hooks and active session registry (spotter-a0y.1)")
	wantFiles := []string{
		"lib/spotter/application.ex",
		"lib/spotter/services/active_session_registry.ex",
		"lib/spotter_web/controllers/hooks_controller.ex",
		"lib/spotter_web/controllers/session_hook_controller.ex",
		"lib/spotter_web/router.ex",
		"spotter-plugin/hooks/hooks.json",
		"spotter-plugin/scripts/notify-session-end.sh",
		"test/spotter/services/active_session_registry_test.exs",
		"test/spotter_web/controllers/session_hook_controller_test.exs",
	}
	if !slices.Equal(a.Files, wantFiles) {
		t.Errorf("a0y.1 files:\n got %q\nwant %q", a.Files, wantFiles)
	}
	if a.L1Range[0] != 1 || a.Commands[0] != "bd show spotter-a0y" {
		t.Errorf("a0y.1 starts at L1 line %d with %q; want line 1, bd show spotter-a0y", a.L1Range[0], a.Commands[0])
	}
	for _, c := range []string{"mix compile --warnings-as-errors 2>&1", "git push 2>&1", "git push --set-upstream origin spotter-a0y 2>&1"} {
		if !slices.Contains(a.Commands, c) {
			t.Errorf("a0y.1 commands lack %q: %q", c, a.Commands)
		}
	}
	if a.Type != TypeIteration || a.Significance < 0.5 || !slices.Contains(a.Tags, "fail-then-fix") {
		t.Errorf("a0y.1: type %s significance %v tags %v; want an iteration (credo failed, then passed) worth 0.5+", a.Type, a.Significance, a.Tags)
	}
	if want := "`mix credo --strict"; len(a.Problem) < len(want) || a.Problem[:len(want)] != want {
		t.Errorf("a0y.1 problem %q; want the credo failure that edits fixed", a.Problem)
	}

	b := find("feat: add single-session bootstrap sync and incremental ingest (spotter-a0y.2)")
	wantB := []string{
		"lib/spotter/transcripts/jobs/sync_transcripts.ex",
		"lib/spotter/transcripts/message.ex",
		"lib/spotter/transcripts/session.ex",
		"lib/spotter_web/controllers/session_hook_controller.ex",
		"lib/spotter_web/live/session_live.ex",
		"priv/repo/migrations/20260212165422_add_unique_index_messages_session_uuid.exs",
		"test/spotter/transcripts/jobs/sync_transcripts_test.exs",
	}
	if !slices.Equal(b.Files, wantB) {
		t.Errorf("a0y.2 files:\n got %q\nwant %q", b.Files, wantB)
	}
	for _, c := range []string{"bd show spotter-a0y.2", "mix ash.codegen --name add_message_upsert_identity 2>&1", "MIX_ENV=test mix ecto.migrate 2>&1", "mix test test/spotter/transcripts/jobs/sync_transcripts_test.exs 2>&1"} {
		if !slices.Contains(b.Commands, c) {
			t.Errorf("a0y.2 commands lack %q: %q", c, b.Commands)
		}
	}
	if b.L1Range[0] != a.L1Range[1]+3 {
		// Line 92 is a background-task notice, 93 the reply, 94 the
		// prompt "continue until all are done".
		t.Errorf("a0y.2 starts at L1 line %d; want %d (the next typed prompt)", b.L1Range[0], a.L1Range[1]+3)
	}

	for _, x := range xs {
		if x.Summary[:min(len(x.Summary), 16)] == "Background task:" && x.Significance >= MinSignificance {
			t.Errorf("background notice %q scored %v; want below %v (not stored)", x.Summary, x.Significance, MinSignificance)
		}
	}
	// Extraction is deterministic: ids and content do not depend on the run.
	again := Extract(recs, "2026-02-12_1536_fa812bfe")
	for i := range xs {
		if !sameContent(xs[i], again[i]) || xs[i].Updated != again[i].Updated {
			t.Fatalf("extraction differs between runs at %d", i)
		}
	}
}

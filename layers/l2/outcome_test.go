package l2

import (
	"slices"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l1"
)

// TestSummaryIsTheOutcome: an exchange that did work is summarised by
// what the assistant said it did, not by the request, nor by what it said
// after memkeep's own bookkeeping, which is not the user's work.
func TestSummaryIsTheOutcome(t *testing.T) {
	exit0 := 0
	recs := []l1.Record{
		{TS: "2026-03-01T10:00:00Z", Kind: l1.KindPrompt, Text: "The cart total is wrong for two items; please fix cart.Total."},
		{TS: "2026-03-01T10:00:01Z", Kind: l1.KindText, Text: "Let me read the cart package."},
		{TS: "2026-03-01T10:00:02Z", Kind: l1.KindTool, Tool: "Edit", File: "cart/cart.go", Diff: "+1 -1 for i := 0; i < len(p); i++ {"},
		{TS: "2026-03-01T10:00:03Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./cart/", Exit: &exit0},
		{TS: "2026-03-01T10:00:04Z", Kind: l1.KindText, Text: "Fixed: cart.Total skipped the first price because its loop started at 1. The test passes."},
		{TS: "2026-03-01T10:00:05Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "memkeep l3 assign x-00000001 --new cart", Exit: &exit0},
		{TS: "2026-03-01T10:00:06Z", Kind: l1.KindText, Text: "Project memory updated."},
	}
	xs := Extract(recs, "2026-03-01_1000_abcd1234")
	if len(xs) != 1 {
		t.Fatalf("%d exchanges", len(xs))
	}
	x := xs[0]
	if !strings.HasPrefix(x.Summary, "Fixed: cart.Total skipped the first price") {
		t.Errorf("summary %q, want the outcome", x.Summary)
	}
	if !strings.Contains(x.Details, "The cart total is wrong") {
		t.Errorf("details %q lack the request", x.Details)
	}
	if slices.ContainsFunc(x.Commands, func(c string) bool { return strings.Contains(c, "memkeep") }) {
		t.Errorf("memkeep's own command recorded as work: %q", x.Commands)
	}
}

// TestOutcomeIsAStatement: an exchange's outcome is the assistant's last
// text that states something. A plan, a progress note or a question is
// passed over for an earlier statement, and so is a status too short to
// say what was done ("Clean compile."); an acknowledgement is dropped; a
// plan after a short statement is not joined to it.
func TestOutcomeIsAStatement(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  string
	}{
		{[]string{"All 7 tasks are closed. Let me close the epic:"}, ""},
		{[]string{"I have enough context now."}, ""},
		{[]string{"The upload handler now returns 400 for an empty file instead of a nil dereference.", "Clean compile."}, "The upload handler now returns 400 for an empty file instead of a nil dereference."},
		{[]string{"Good - the duplicate helpers are now unused since the shared component handles them."}, "The duplicate helpers are now unused since the shared component handles them."},
		{[]string{"The pre-commit hook rejects the commit because mix format was not run.", "Still compiling test dependencies (first time compilation)."}, "The pre-commit hook rejects the commit because mix format was not run."},
		{[]string{"Let me mark this task as in progress:"}, ""},
		{[]string{"Should I also update the docs?"}, ""},
		{[]string{"Done. The retry wraps the upload in three attempts."}, "Done. The retry wraps the upload in three attempts."},
	} {
		if got := outcomeOf(c.texts); got != c.want {
			t.Errorf("outcomeOf(%q) = %q, want %q", c.texts, got, c.want)
		}
	}
}

// TestCorrectionLinksWhatItCorrects: the user's "no, …" is typed
// correction and linked to the exchange it corrects.
func TestCorrectionLinksWhatItCorrects(t *testing.T) {
	exit0 := 0
	recs := []l1.Record{
		{TS: "2026-03-01T10:00:00Z", Kind: l1.KindPrompt, Text: "Make remove_item raise when the stock goes below zero."},
		{TS: "2026-03-01T10:00:02Z", Kind: l1.KindTool, Tool: "Edit", File: "inv/stock.py", Diff: "+2 -1 raise ValueError"},
		{TS: "2026-03-01T10:00:03Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "pytest", Exit: &exit0},
		{TS: "2026-03-01T10:00:04Z", Kind: l1.KindText, Text: "Done: remove_item raises ValueError below zero."},
		{TS: "2026-03-01T10:01:00Z", Kind: l1.KindPrompt, Text: "No, that breaks the nightly importer: clamp at zero and log a warning instead."},
		{TS: "2026-03-01T10:01:02Z", Kind: l1.KindTool, Tool: "Edit", File: "inv/stock.py", Diff: "+2 -2 log.warning"},
		{TS: "2026-03-01T10:01:04Z", Kind: l1.KindText, Text: "Done: remove_item now clamps at zero and logs a warning, so the nightly importer keeps working."},
	}
	f := &File{}
	f.Update(recs, "2026-03-01_1000_abcd1234", UpdateOptions{})
	var work, fix *Exchange
	for i := range f.Exchanges {
		switch e := &f.Exchanges[i]; e.L1Range[0] {
		case 1:
			work = e
		case 5:
			fix = e
		}
	}
	if work == nil || fix == nil {
		t.Fatalf("exchanges: %+v", f.Exchanges)
	}
	if fix.Type != TypeCorrection || !slices.Contains(fix.Links, work.ID) {
		t.Fatalf("the correction (%s, links %v) is not linked to %s", fix.Type, fix.Links, work.ID)
	}
}

// TestSlashCommandRequest: a slash command's request is its name and its
// arguments, its message (the name again) left out.
func TestSlashCommandRequest(t *testing.T) {
	in := "<command-message>beads:create</command-message>\n<command-name>/beads:create</command-name>\n<command-args>set up credo and dialyzer</command-args>"
	if got, want := cleanPrompt(in), "/beads:create set up credo and dialyzer"; got != want {
		t.Errorf("cleanPrompt = %q, want %q", got, want)
	}
}

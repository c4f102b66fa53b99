package render

import (
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/handoff"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

func handoffMemory() Memory {
	s1 := &l2.File{L1: "2026-03-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{
		{ID: "x-11111111", Summary: "Clamp stock counts at zero", Type: l2.TypeDecision, Details: "Clamp and log a warning because raising breaks the nightly importer.", Files: []string{"inv/stock.py"}, Significance: 0.8},
	}}
	s2 := &l2.File{L1: "2026-03-02_0900_bbbb0002.l1.jsonl", Exchanges: []l2.Exchange{
		{ID: "x-22222222", Summary: "Add the Slack notifier", Type: l2.TypeIteration, Files: []string{"inv/notify.py"}, Significance: 0.6},
	}, Handoff: &handoff.Handoff{Branch: "feature/notify", Time: "2026-03-02T10:00:00Z", Doing: "Add a Slack notifier for low stock",
		Outcome: "The notifier posts to Slack.", Failing: "`pytest tests/test_notify.py`: 1 failed", Uncommitted: []string{"inv/notify.py"},
		Next: []string{"Next I will retry on rate limits."}}}
	return Memory{
		Facts: &l4.Facts{Rules: []l4.Rule{
			{ID: "r-11111111", Text: "Always run make lint before committing.", Source: l4.SourceUser, Confidence: 1},
			{ID: "r-22222222", Text: "Never edit files under generated/.", Source: l4.SourceUser, Confidence: 1},
			{ID: "r-33333333", Text: "Prefer small commits.", Source: "extracted", Confidence: 0.4},
		}},
		Concepts: &l3.File{Concepts: []l3.Concept{{ID: "c-11111111", Name: "notifier", Summary: "Slack notifications", Exchanges: []string{"x-22222222"}, Files: []string{"inv/notify.py"}}}},
		Sessions: []*l2.File{s1, s2},
	}
}

// TestContextOpensWithTheHandoff: the session start says first where the
// last session on the branch left off (its request, outcome, what is
// unfinished, what comes next), then the memory about the branch's files,
// then the user's rules as rules, decisions with their reasons; inferred
// candidates come last; no line twice.
func TestContextOpensWithTheHandoff(t *testing.T) {
	got := Context(handoffMemory(), ContextOptions{Budget: 6000, Branch: "feature/notify", Files: []string{"inv/notify.py"}, Source: "startup"})
	order := []string{"## Where we left off", "Add a Slack notifier for low stock", "still failing: `pytest tests/test_notify.py`", "edited, not committed: inv/notify.py", "retry on rate limits",
		"memory about the files it and the last session changed", "Add the Slack notifier", "## Rules", "Always run make lint", "Never edit files under generated/",
		"## Decisions", "Clamp stock counts at zero — because raising breaks the nightly importer", "## Candidate rules", "Prefer small commits"}
	at := 0
	for _, w := range order {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("context lacks %q after position %d:\n%s", w, at, got)
		}
		at += i
	}
	if strings.Contains(got, "(candidate)") {
		t.Errorf("a rule the user stated is shown as a candidate:\n%s", got)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "- ") && seen[line] {
			t.Errorf("line shown twice: %q", line)
		}
		seen[line] = true
	}
}

// TestContextAfterCompaction: after a compaction only the handoff and the
// rules are given again.
func TestContextAfterCompaction(t *testing.T) {
	got := Context(handoffMemory(), ContextOptions{Budget: 6000, Branch: "feature/notify", Source: "compact"})
	if !strings.Contains(got, "Where we left off") || !strings.Contains(got, "make lint") {
		t.Errorf("compact context lacks the handoff or the rules:\n%s", got)
	}
	for _, no := range []string{"Decisions", "Concepts", "Recent", "Candidate"} {
		if strings.Contains(got, no) {
			t.Errorf("compact context repeats %q:\n%s", no, got)
		}
	}
}

// TestContextSaysWhatWasLeftOut: what does not fit is counted in a last
// line that names memkeep recall, within the budget.
func TestContextSaysWhatWasLeftOut(t *testing.T) {
	m := handoffMemory()
	for i := range 60 {
		m.Facts.Rules = append(m.Facts.Rules, l4.Rule{ID: "r-" + strings.Repeat("a", 7) + string(rune('a'+i%26)), Text: strings.Repeat("Always keep rule text long enough to fill the budget. ", 2) + string(rune('A'+i%26)), Source: l4.SourceUser})
	}
	got := Context(m, ContextOptions{Budget: 1500})
	if len(got) > 1500 || !strings.Contains(got, "more memories did not fit; `memkeep recall") {
		t.Errorf("%d characters, want ≤ 1500 ending with what was left out:\n%s", len(got), got)
	}
}

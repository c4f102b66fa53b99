package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

func sample() Memory {
	return Memory{
		Facts: &l4.Facts{
			Rules: []l4.Rule{
				{ID: "r-2", Text: "Always use tabs.", Sessions: []string{"a"}, Confidence: 0.1, Contradictions: 5, Review: true},
				{ID: "r-1", Text: "Run gofmt before committing.", Source: l4.SourceManual, Confidence: 0.9, Promoted: true},
			},
			Solutions: []l4.Solution{{ID: "s-1", Problem: "database is locked", Solution: "edited store/tx.go", Sessions: []string{"a", "b", "c"}, Confidence: 0.6}},
		},
		Concepts: &l3.File{Concepts: []l3.Concept{{ID: "c-1", Name: "store", Summary: "SQLite store", Exchanges: []string{"x-1"}, Files: []string{"store/db.go"}}}},
		Sessions: []*l2.File{{L1: "2026-03-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{
			{ID: "x-1", Summary: "Fix locked database", Type: "iteration", Significance: 0.75, L1Range: [2]int{1, 9}},
		}}},
	}
}

func TestMarkdownIsStableAndComplete(t *testing.T) {
	a, b := Markdown(sample()), Markdown(sample())
	if !bytes.Equal(a, b) {
		t.Fatal("two renders differ")
	}
	md := string(a)
	for _, want := range []string{
		"## Rules\n\n- Run gofmt before committing. *(added by hand, confidence 0.90)* `r-1`\n",
		"### Candidate rules", "contradicted 5 times, **needs review**",
		"- **database is locked** → edited store/tx.go *(3 sessions, confidence 0.60)* `s-1`",
		"- **store** (1 exchange): SQLite store — `store/db.go` `c-1`",
		"### 2026-03-01_0900_aaaa0001\n\n- Fix locked database *(iteration, 0.75)* `x-1`\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("memory.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.HasSuffix(md, "\n") || strings.HasSuffix(md, "\n\n") {
		t.Error("memory.md must end with exactly one newline")
	}
}

func TestContextOrderAndBudget(t *testing.T) {
	full := Context(sample(), ContextOptions{Budget: 5000, Files: []string{"store/db.go"}})
	c, r, x := strings.Index(full, "store: SQLite"), strings.Index(full, "Run gofmt"), strings.Index(full, "Fix locked database")
	if c < 0 || r < c || x < r {
		t.Errorf("context not in order memory about the branch's files → rules → recent:\n%s", full)
	}
	if strings.Count(full, "store: SQLite") != 1 {
		t.Errorf("a concept shown twice:\n%s", full)
	}
	// Without changed files the concepts come after the rules.
	plain := Context(sample(), ContextOptions{Budget: 5000})
	if r, c := strings.Index(plain, "Run gofmt"), strings.Index(plain, "store: SQLite"); r < 0 || c < r {
		t.Errorf("context not in order rules → concepts:\n%s", plain)
	}
	for n := 0; n < len(full); n += 7 {
		if got := Context(sample(), ContextOptions{Budget: n}); len(got) > n {
			t.Fatalf("budget %d: got %d characters", n, len(got))
		}
	}
}

// TestContextSkipsWhatDoesNotFit: an item too long for what is left of the
// budget is skipped, and the shorter ones after it still come.
func TestContextSkipsWhatDoesNotFit(t *testing.T) {
	m := sample()
	m.Facts.Rules = []l4.Rule{
		{ID: "r-a", Text: "Always run gofmt.", Promoted: true},
		{ID: "r-b", Text: "Always use this logging config: " + strings.Repeat("level: debug ", 1200), Promoted: true},
		{ID: "r-c", Text: "Never push to main.", Promoted: true},
	}
	got := Context(m, ContextOptions{Budget: 2000})
	for _, want := range []string{"## Rules\n- Always run gofmt.\n- Never push to main.\n", "store: SQLite", "Fix locked database"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "logging config") {
		t.Errorf("the rule longer than the budget is in the context:\n%s", got)
	}
	// A section none of whose items fit has no heading.
	m.Facts.Rules = m.Facts.Rules[1:2]
	if got := Context(m, ContextOptions{Budget: 2000}); strings.Contains(got, "## Rules") {
		t.Errorf("a Rules heading without rules:\n%s", got)
	}
}

// TestExpiryCountsFromLatestActivity: an exchange past its TTL measured
// from the project's newest record leaves memory.md's recent list and the
// session-start context; one within it stays, however old both are by
// the calendar (history imported months late, a project left alone).
func TestExpiryCountsFromLatestActivity(t *testing.T) {
	old := l2.Exchange{ID: "x-old", Summary: "Tuned the retry backoff", Type: "iteration", Significance: 0.4, Source: l2.Subconscious,
		Created: "2025-01-02T10:00:00Z", Updated: "2025-01-02T10:00:00Z"}
	fresh := l2.Exchange{ID: "x-new", Summary: "Split the importer into stages", Type: "iteration", Significance: 0.4, Source: l2.Subconscious,
		Created: "2025-03-01T10:00:00Z", Updated: "2025-03-01T10:00:00Z"}
	old.SetTTL()
	fresh.SetTTL()
	m := sample()
	m.Sessions = []*l2.File{
		{L1: "2025-01-02_1000_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{old}},
		{L1: "2025-03-01_1000_bbbb0002.l1.jsonl", Exchanges: []l2.Exchange{fresh}},
	}
	for name, out := range map[string]string{"memory.md": string(Markdown(m)), "context": Context(m, ContextOptions{Budget: 6000})} {
		if !strings.Contains(out, fresh.Summary) {
			t.Errorf("%s lacks the newest session's exchange, a year and more after it:\n%s", name, out)
		}
		if strings.Contains(out, old.Summary) {
			t.Errorf("%s shows an exchange 58 days older than the latest activity, past its 7-day TTL:\n%s", name, out)
		}
	}
}

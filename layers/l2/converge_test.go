package l2

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/memkeep/memkeep/layers/l2/terms"
)

type corpusRecord struct {
	Summary  string   `json:"summary"`
	Details  string   `json:"details"`
	Prompt   string   `json:"prompt"`
	Files    []string `json:"files"`
	Read     []string `json:"read"`
	Commands []string `json:"commands"`
	Problem  string   `json:"problem"`
	Fix      string   `json:"fix"`
	Created  string   `json:"created"`
	Updated  string   `json:"updated"`
	L1Range  [2]int   `json:"l1_range"`
}

type corpusPair struct {
	Name         string       `json:"name"`
	Converge     bool         `json:"converge"`
	Conscious    corpusRecord `json:"conscious"`
	Subconscious corpusRecord `json:"subconscious"`
}

// TestConvergenceCorpus measures the detector on fixtures/convergence:
// precision and recall must both reach 0.9.
func TestConvergenceCorpus(t *testing.T) {
	b, err := os.ReadFile("../../fixtures/convergence/pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct{ Pairs []corpusPair }
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	var tp, fp, fn, tn int
	for _, p := range corpus.Pairs {
		c := Exchange{ID: "x-c", Source: Conscious, Summary: p.Conscious.Summary, Details: p.Conscious.Details,
			Files: p.Conscious.Files, Created: p.Conscious.Created, Updated: p.Conscious.Created, L1Range: p.Conscious.L1Range}
		s := Exchange{ID: "x-s", Source: Subconscious, Summary: p.Subconscious.Summary, Files: p.Subconscious.Files,
			Read: p.Subconscious.Read, Commands: p.Subconscious.Commands, Problem: p.Subconscious.Problem, Fix: p.Subconscious.Fix,
			Created: p.Subconscious.Created, Updated: p.Subconscious.Updated, L1Range: p.Subconscious.L1Range,
			// Extraction ranks keywords from the request and the files;
			// the corpus gives the request, so use its words.
			Keywords: terms.NewSet(terms.Words(p.Subconscious.Prompt), terms.Words(p.Subconscious.Summary)).Sorted()}
		f := File{L1: "s.l1.jsonl", Exchanges: []Exchange{c, s}}
		got := Converge(&f) == 1
		score, why := ConvergenceScore(&c, &s)
		switch {
		case got && p.Converge:
			tp++
		case got && !p.Converge:
			fp++
			t.Logf("false positive %s: %.2f %v", p.Name, score, why)
		case !got && p.Converge:
			fn++
			t.Logf("false negative %s: %.2f %v", p.Name, score, why)
		default:
			tn++
		}
		if got {
			x, y := f.Exchanges[0], f.Exchanges[1]
			if !x.Convergent || !y.Convergent || x.Links[0] != y.ID || y.Links[0] != x.ID {
				t.Errorf("%s: converged pair not marked and linked both ways: %+v / %+v", p.Name, x, y)
			}
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(max(tp+fn, 1))
	t.Logf("convergence corpus: %d pairs, tp=%d fp=%d fn=%d tn=%d, precision %.2f, recall %.2f", len(corpus.Pairs), tp, fp, fn, tn, precision, recall)
	if precision < 0.9 || recall < 0.9 {
		t.Errorf("precision %.2f, recall %.2f: both must be at least 0.9", precision, recall)
	}
}

func TestConvergeBoostsOnceAndLinks(t *testing.T) {
	f := File{L1: "b.l1.jsonl", Exchanges: []Exchange{
		{ID: "x-s", Source: Subconscious, Summary: "Modified auth.c", Files: []string{"src/auth.c"}, Significance: 0.5, Created: "2026-03-01T10:00:00Z", Updated: "2026-03-01T10:20:00Z"},
		{ID: "x-c", Source: Conscious, Summary: "Fixed authentication bug in login flow", Significance: 0.7, Created: "2026-03-01T10:21:00Z", Updated: "2026-03-01T10:21:00Z"},
	}}
	if n := Converge(&f); n != 1 {
		t.Fatalf("first Converge linked %d pairs, want 1", n)
	}
	if n := Converge(&f); n != 0 {
		t.Fatalf("second Converge linked %d pairs, want 0 (idempotent)", n)
	}
	if s, c := f.Exchanges[0], f.Exchanges[1]; s.Significance != 0.6 || c.Significance != 0.8 {
		t.Errorf("significances after convergence = %v, %v; want 0.6, 0.8 (boosted once)", s.Significance, c.Significance)
	}
}

package render

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

var update = flag.Bool("update", false, "rewrite the golden memory.md files in testdata/")

// hostile is user text that means something to Markdown or HTML: the
// renderers must carry it through without changing memory.md's bytes and
// without letting it become markup in the HTML view.
const hostile = "Never *ever* run <script>alert(1)</script> & \"quote\" 'it' with `rm -rf` _x_ **y**"

// goldenCases are the inputs whose memory.md bytes are pinned in
// testdata/: between them they reach every branch of Markdown.
func goldenCases() map[string]Memory {
	return map[string]Memory{
		"sample": sample(),
		"empty":  {Facts: &l4.Facts{}, Concepts: &l3.File{}},
		"rules": {
			Facts: &l4.Facts{Rules: []l4.Rule{
				{ID: "r-a", Text: "Stated in sessions.", Source: l4.SourceUser, Sessions: []string{"s1", "s2", "s3"}, Confidence: 0.8, Promoted: true},
				{ID: "r-b", Text: "Added by hand.", Source: l4.SourceManual, Confidence: 1, Promoted: true},
				{ID: "r-c", Text: "Neither sessions nor manual.", Source: l4.SourceUser, Confidence: 0.8, Promoted: true},
				{ID: "r-d", Text: "Contradicted, under review.", Sessions: []string{"s1", "s2", "s3", "s4"}, Confidence: 0.333, Contradictions: 7, Promoted: true, Review: true},
				{ID: "r-e", Text: "Contradicted once.", Sessions: []string{"s1"}, Confidence: 0.25, Contradictions: 1},
				{ID: "r-f", Text: "Manual candidate with review.", Source: l4.SourceManual, Confidence: 0.25, Review: true},
				{ID: "r-g", Text: "  Spaces\tand\nnew lines stay raw.  ", Sessions: []string{"s2"}, Confidence: 0.005},
			}},
			Concepts: &l3.File{},
		},
		"candidates-only": {
			Facts: &l4.Facts{Rules: []l4.Rule{
				{ID: "r-2", Text: "Prefer table tests.", Sessions: []string{"s1", "s2"}, Confidence: 0.4},
				{ID: "r-1", Text: "Prefer small commits.", Sessions: []string{"s1"}, Confidence: 0.4},
			}},
			Concepts: &l3.File{},
		},
		"solutions": {
			Facts: &l4.Facts{Solutions: []l4.Solution{
				{ID: "s-b", Problem: "flaky   test\nin CI", Solution: "  retry with -count=1 ", Sessions: []string{"a"}, Confidence: 0.5},
				{ID: "s-a", Problem: "build fails", Solution: "run go generate", Sessions: []string{"a", "b"}, Confidence: 0.5, Review: true},
				{ID: "s-c", Problem: "", Solution: "", Confidence: 0.999},
			}},
			Concepts: &l3.File{},
		},
		"core-logic": {
			Facts: &l4.Facts{CoreLogic: []l4.CoreLogic{
				{ID: "k-1", Text: "Many files", Files: []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go"}, Sessions: []string{"1", "2", "3"}},
				{ID: "k-2", Text: "Exactly four", Files: []string{"a.go", "b.go", "c.go", "d.go"}, Sessions: []string{"1", "2", "3", "4"}},
				{ID: "k-3", Text: "Five files", Files: []string{"a.go", "b.go", "c.go", "d.go", "e.go"}},
				{ID: "k-4", Text: "No\nfiles"},
			}},
			Concepts: &l3.File{},
		},
		"concepts": {Facts: &l4.Facts{}, Concepts: manyConcepts()},
		"sessions": {Facts: &l4.Facts{}, Concepts: &l3.File{}, Sessions: manySessions()},
		"hostile": {
			Facts: &l4.Facts{
				Rules: []l4.Rule{
					{ID: "r-<1>", Text: hostile, Sessions: []string{"a"}, Confidence: 0.9, Promoted: true},
					{ID: "r-&2", Text: hostile, Confidence: 0.1, Review: true},
				},
				Solutions: []l4.Solution{{ID: "s-`1`", Problem: hostile, Solution: hostile, Sessions: []string{"a"}, Confidence: 0.5, Review: true}},
				CoreLogic: []l4.CoreLogic{{ID: "k-1", Text: hostile, Files: []string{"<b>.go", "a&b.go", "`x`.go", "\"q\".go", "e.go"}}},
			},
			Concepts: &l3.File{Concepts: []l3.Concept{{ID: "c-<i>", Name: "<img src=x onerror=alert(1)>", Summary: hostile, Exchanges: []string{"x"}, Files: []string{"<script>.go"}}}},
			Sessions: []*l2.File{{L1: "<script>alert(1)</script>.l1.jsonl", Exchanges: []l2.Exchange{
				{ID: "x-&amp;", Summary: hostile, Type: "<type>", Significance: 0.5, Convergent: true},
			}}},
		},
	}
}

// manyConcepts has more concepts than memory.md shows, ties broken by
// Updated and then ID, and file lists around the cut of 3.
func manyConcepts() *l3.File {
	var f l3.File
	for i := range 15 {
		c := l3.Concept{
			ID:        fmt.Sprintf("c-%02d", i),
			Name:      fmt.Sprintf("concept %d", i),
			Summary:   fmt.Sprintf("summary\nof   %d", i),
			Exchanges: make([]string, 1+i%4),
			Updated:   fmt.Sprintf("2026-03-%02d", 1+i%3),
		}
		for j := range i % 6 {
			c.Files = append(c.Files, fmt.Sprintf("pkg/f%d.go", j))
		}
		f.Concepts = append(f.Concepts, c)
	}
	return &f
}

// manySessions has more sessions than memory.md shows, some without
// exchanges (skipped), and more exchanges than one session shows, with
// significance ties broken by L1 range and ID, and convergent ones.
func manySessions() []*l2.File {
	var ss []*l2.File
	for i := range 8 {
		s := &l2.File{L1: fmt.Sprintf("2026-03-%02d_0900_%08d.l1.jsonl", i+1, i)}
		if i == 5 {
			ss = append(ss, s) // no exchanges: not a recent session
			continue
		}
		for j := range i {
			s.Exchanges = append(s.Exchanges, l2.Exchange{
				ID:           fmt.Sprintf("x-%d-%d", i, j),
				Summary:      fmt.Sprintf("exchange  %d\nof session %d", j, i),
				Type:         []string{"iteration", "decision", "fix"}[j%3],
				Significance: float64(j%3) / 4,
				L1Range:      [2]int{10 - j, 12},
				Convergent:   j%2 == 1,
			})
		}
		ss = append(ss, s)
	}
	return ss
}

// TestMarkdownGolden pins memory.md's exact bytes: the files are committed
// in users' repositories, so any change of bytes would be a spurious diff
// there. -update rewrites testdata/ (only for an intended format change).
func TestMarkdownGolden(t *testing.T) {
	for name, m := range goldenCases() {
		got := Markdown(m)
		p := filepath.Join("testdata", name+".md")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (run `go test ./render -update`)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: memory.md differs from golden file %s (run with -update only if the change is intended):\n%s", name, p, got)
		}
	}
}

package l4

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
	"github.com/memkeep/memkeep/layers/l3"
)

// Hit is one memory relevant to a query.
type Hit struct {
	Layer string  `json:"layer"` // L4, L3 or L2
	Kind  string  `json:"kind"`  // rule, solution, core_logic, concept, exchange, fact
	ID    string  `json:"id"`
	Text  string  `json:"text"`
	Score float64 `json:"score"`
	// Source says where the memory comes from: the sessions of an L4
	// item, the session file and L1 lines of an exchange.
	Source string `json:"source,omitempty"`
}

// SearchOptions bound a search.
type SearchOptions struct {
	Threshold float64 // least score kept, 0–1
	Max       int     // most hits; 0 means all
}

// Layer weights: at equal relevance the more permanent memory ranks first
// (L4 → L3 → L2), as SPEC §4 orders recall.
const (
	weightL4 = 1.0
	weightL3 = 0.9
	weightL2 = 0.8
)

// Search ranks the memories relevant to a query — a prompt, a question,
// file paths — by how much of the query's terms (words, stems, path
// words, abbreviations) each memory covers, weighted by layer and by the
// memory's confidence or significance. A query of one or two terms proves
// little and is damped, so "tests?" does not pull in every exchange that
// ran tests.
func Search(f *Facts, concepts *l3.File, sessions []*l2.File, query string, opts SearchOptions) []Hit {
	q := queryTerms(query)
	if len(q) == 0 {
		return nil
	}
	var hits []Hit
	consider := func(h Hit, weight, strength float64, lists ...[]string) {
		s := coverage(q, terms.NewSet(lists...))
		h.Score = round2(s * weight * (0.6 + 0.4*strength))
		if h.Score >= opts.Threshold && h.Score > 0 {
			hits = append(hits, h)
		}
	}
	for _, r := range f.Rules {
		consider(Hit{Layer: "L4", Kind: "rule", ID: r.ID, Text: r.Text, Source: "sessions " + strings.Join(r.Sessions, ", ")}, weightL4, r.Confidence, terms.Words(r.Text))
	}
	for _, s := range f.Solutions {
		consider(Hit{Layer: "L4", Kind: "solution", ID: s.ID, Text: s.Problem + " → " + s.Solution, Source: "sessions " + strings.Join(s.Sessions, ", ")}, weightL4, s.Confidence,
			terms.Words(s.Problem), terms.Words(s.Solution), pathWords(s.Files))
	}
	for _, k := range f.CoreLogic {
		consider(Hit{Layer: "L4", Kind: "core_logic", ID: k.ID, Text: k.Text, Source: "sessions " + strings.Join(k.Sessions, ", ")}, weightL4, k.Confidence,
			terms.Words(k.Text), pathWords(k.Files))
	}
	for _, c := range concepts.Concepts {
		consider(Hit{Layer: "L3", Kind: "concept", ID: c.ID, Text: c.Name + ": " + c.Summary}, weightL3, 0.8,
			terms.Words(c.Name), terms.Words(c.Summary), c.Keywords, pathWords(c.Files))
	}
	for _, s := range sessions {
		for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
			for _, e := range l {
				kind := "exchange"
				if e.IsFact() {
					kind = "fact"
				}
				src := s.L1
				if e.L1Range[0] > 0 {
					src += " lines " + itoa(e.L1Range[0]) + "-" + itoa(e.L1Range[1])
				}
				consider(Hit{Layer: "L2", Kind: kind, ID: e.ID, Text: e.Summary, Source: src}, weightL2, e.Significance,
					terms.Words(e.Summary), e.Keywords, pathWords(e.Files), terms.Words(e.Problem), terms.Words(e.Rule))
			}
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Or(strings.Compare(a.Layer, b.Layer)*-1, strings.Compare(a.ID, b.ID))
	})
	if opts.Max > 0 && len(hits) > opts.Max {
		hits = hits[:opts.Max]
	}
	return hits
}

// queryTerms are the words of the query and the path words of anything in
// it that looks like a path.
func queryTerms(q string) terms.Set {
	lists := [][]string{terms.Words(q)}
	for _, f := range strings.Fields(q) {
		if strings.ContainsAny(f, "/.") && len(f) > 3 {
			lists = append(lists, terms.PathWords(strings.Trim(f, "`'\",;:()")))
		}
	}
	return terms.NewSet(lists...)
}

// coverage is the share of the query's terms a memory holds, damped for
// very short queries.
func coverage(q, doc terms.Set) float64 {
	if len(doc) == 0 {
		return 0
	}
	var sum float64
	for _, t := range q.Sorted() {
		best := 0.0
		if _, ok := doc[t]; ok {
			best = 1
		} else {
			for u := range doc {
				if m := terms.Match(t, u); m > best {
					best = m
				}
			}
		}
		sum += best
	}
	s := sum / float64(len(q))
	switch len(q) {
	case 1:
		s *= 0.6
	case 2:
		s *= 0.8
	}
	return s
}

func pathWords(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, terms.PathWords(f)...)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

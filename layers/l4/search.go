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
//
// Search reads every memory; an Index answers the same query from terms
// compiled beforehand.
func Search(f *Facts, concepts *l3.File, sessions []*l2.File, query string, opts SearchOptions) []Hit {
	q := queryTerms(query)
	if len(q) == 0 {
		return nil
	}
	qs := q.Sorted()
	var hits []Hit
	scan := func(docs []doc) {
		for _, d := range docs {
			if h, ok := d.score(qs, opts); ok {
				hits = append(hits, h)
			}
		}
	}
	scan(factDocs(f))
	scan(conceptDocs(concepts))
	for _, s := range sessions {
		scan(sessionDocs(s))
	}
	return rank(hits, opts)
}

// doc is one searchable memory: the hit it makes, the weight of its layer,
// its confidence or significance, and the terms it is found by.
type doc struct {
	hit      Hit
	weight   float64
	strength float64
	terms    terms.Set
}

// score is the doc's hit for the query terms qs (sorted), if it scores at
// least the threshold.
func (d doc) score(qs []string, opts SearchOptions) (Hit, bool) {
	h := d.hit
	h.Score = finalScore(coverage(qs, d.terms), d.weight, d.strength)
	return h, h.Score >= opts.Threshold && h.Score > 0
}

// finalScore weighs a coverage by layer and strength, to two decimals.
func finalScore(coverage, weight, strength float64) float64 {
	return round2(coverage * weight * (0.6 + 0.4*strength))
}

func factDocs(f *Facts) []doc {
	var docs []doc
	for _, r := range f.Rules {
		docs = append(docs, doc{Hit{Layer: "L4", Kind: "rule", ID: r.ID, Text: r.Text, Source: "sessions " + strings.Join(r.Sessions, ", ")}, weightL4, r.Confidence,
			terms.NewSet(terms.Words(r.Text))})
	}
	for _, s := range f.Solutions {
		docs = append(docs, doc{Hit{Layer: "L4", Kind: "solution", ID: s.ID, Text: s.Problem + " → " + s.Solution, Source: "sessions " + strings.Join(s.Sessions, ", ")}, weightL4, s.Confidence,
			terms.NewSet(terms.Words(s.Problem), terms.Words(s.Solution), pathWords(s.Files))})
	}
	for _, k := range f.CoreLogic {
		docs = append(docs, doc{Hit{Layer: "L4", Kind: "core_logic", ID: k.ID, Text: k.Text, Source: "sessions " + strings.Join(k.Sessions, ", ")}, weightL4, k.Confidence,
			terms.NewSet(terms.Words(k.Text), pathWords(k.Files))})
	}
	return docs
}

func conceptDocs(concepts *l3.File) []doc {
	var docs []doc
	for _, c := range concepts.Concepts {
		docs = append(docs, doc{Hit{Layer: "L3", Kind: "concept", ID: c.ID, Text: c.Name + ": " + c.Summary}, weightL3, 0.8,
			terms.NewSet(terms.Words(c.Name), terms.Words(c.Summary), c.Keywords, pathWords(c.Files))})
	}
	return docs
}

func sessionDocs(s *l2.File) []doc {
	var docs []doc
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
			docs = append(docs, doc{Hit{Layer: "L2", Kind: kind, ID: e.ID, Text: e.Summary, Source: src}, weightL2, e.Significance,
				terms.NewSet(terms.Words(e.Summary), e.Keywords, pathWords(e.Files), terms.Words(e.Problem), terms.Words(e.Rule))})
		}
	}
	return docs
}

// rank orders hits best first (at equal score the more permanent layer,
// then by id; the rest only makes the order total, so that every way of
// finding the same hits gives them in the same order) and keeps opts.Max.
func rank(hits []Hit, opts SearchOptions) []Hit {
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Or(strings.Compare(b.Layer, a.Layer), strings.Compare(a.ID, b.ID),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Text, b.Text), strings.Compare(a.Source, b.Source))
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

// coverage is the share of the query's terms (qs, sorted) a memory holds,
// damped for very short queries.
func coverage(qs []string, doc terms.Set) float64 {
	if len(doc) == 0 {
		return 0
	}
	var sum float64
	for _, t := range qs {
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
	return damp(sum, len(qs))
}

// damp turns the summed best matches of n query terms into a coverage.
func damp(sum float64, n int) float64 {
	s := sum / float64(n)
	switch n {
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

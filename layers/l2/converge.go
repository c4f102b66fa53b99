package l2

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/layers/l2/terms"
)

// ConvergeThreshold is the score at which a conscious and a subconscious
// record are taken to describe the same experience. It was set on the
// corpus in fixtures/convergence (see converge_test.go).
const ConvergeThreshold = 0.5

// ConvergenceBoost is added to the significance of both records of a
// convergent pair.
const ConvergenceBoost = 0.1

// Evidence weights. No single weak signal reaches the threshold alone:
// being close in time is not enough (a note can be about something else
// done at the same time), nor is one shared word; the same L1 lines or the
// same changed file is.
const (
	wSameLines   = 0.45 // the conscious record names L1 lines of the exchange
	wTimeInside  = 0.25 // written during the exchange or right after it
	wTimeNear    = 0.1  // within the hour
	wSameFile    = 0.45 // a file the exchange changed
	wReadFile    = 0.25 // a file the exchange only read
	wPathSimilar = 0.2  // a file whose path words match a changed file's
	wText        = 0.5  // times the soft overlap of the two texts' terms
	// sharedForFull is the number of shared terms that count as full
	// textual agreement.
	sharedForFull = 3.0
)

// ConvergenceScore says how likely a conscious record c and a
// subconscious record s describe the same experience, from 0 up, with the
// reasons. Both must be of the same session (the caller's business).
func ConvergenceScore(c, s *Exchange) (float64, []string) {
	var score float64
	var why []string
	if c.L1Range[0] > 0 && s.L1Range[0] > 0 && c.L1Range[0] <= s.L1Range[1] && s.L1Range[0] <= c.L1Range[1] {
		score += wSameLines
		why = append(why, "same L1 lines")
	}
	if ct, err := time.Parse(time.RFC3339, c.Created); err == nil {
		start, err1 := time.Parse(time.RFC3339, s.Created)
		end, err2 := time.Parse(time.RFC3339, s.Updated)
		if err1 == nil && err2 == nil {
			switch {
			case !ct.Before(start.Add(-2*time.Minute)) && !ct.After(end.Add(10*time.Minute)):
				score += wTimeInside
				why = append(why, "written during the exchange")
			case ct.After(start.Add(-time.Hour)) && ct.Before(end.Add(time.Hour)):
				score += wTimeNear
				why = append(why, "written within the hour")
			}
		}
	}
	switch f, kind := sharedFile(c.Files, s); kind {
	case "changed":
		score += wSameFile
		why = append(why, "same file "+f)
	case "read":
		score += wReadFile
		why = append(why, "file read "+f)
	case "path":
		score += wPathSimilar
		why = append(why, "similar path "+f)
	}
	// Text: the larger of the share of the shorter text found in the other
	// and the number of shared terms (three make a full match), so that a
	// long note naming the two things an exchange was about still counts.
	ct, st := consciousTerms(c), subconsciousTerms(s)
	ov, matched := terms.Overlap(ct, st)
	ov = max(ov, min(1, terms.Matched(ct, st)/sharedForFull))
	if ov > 0 {
		score += wText * ov
		why = append(why, fmt.Sprintf("words %s (%.2f)", strings.Join(matched, ","), ov))
	}
	return score, why
}

// sharedFile finds the strongest file relation between a conscious
// record's files and an exchange.
func sharedFile(files []string, s *Exchange) (string, string) {
	for _, f := range files {
		if slices.Contains(s.Files, f) {
			return f, "changed"
		}
	}
	for _, f := range files {
		if slices.Contains(s.Read, f) {
			return f, "read"
		}
	}
	for _, f := range files {
		a := terms.NewSet(terms.PathWords(f))
		for _, g := range s.Files {
			if ov, _ := terms.Overlap(a, terms.NewSet(terms.PathWords(g))); ov >= 0.8 {
				return f, "path"
			}
		}
	}
	return "", ""
}

func consciousTerms(c *Exchange) terms.Set {
	set := terms.NewSet(terms.Words(c.Summary), terms.Words(c.Details), terms.Words(c.Rule))
	for _, f := range c.Files {
		set = terms.NewSet(set.Sorted(), terms.PathWords(f))
	}
	return set
}

func subconsciousTerms(s *Exchange) terms.Set {
	lists := [][]string{terms.Words(s.Summary), s.Keywords, terms.Words(s.Problem), terms.Words(s.Fix), terms.Words(s.Rule)}
	for _, f := range s.Files {
		lists = append(lists, terms.PathWords(f))
	}
	for _, c := range s.Commands {
		lists = append(lists, terms.CommandWords(c))
	}
	return terms.NewSet(lists...)
}

// Converge links each conscious record of the file (exchange or fact) to
// the subconscious exchange that describes the same experience, when one
// scores at least ConvergeThreshold: both are marked convergent, linked to
// each other and boosted by ConvergenceBoost. A pair already linked is
// left alone, so Converge can run after every extraction. It returns the
// number of new links.
func Converge(f *File) int {
	n := 0
	for _, list := range []*[]Exchange{&f.Exchanges, &f.Facts} {
		for i := range *list {
			c := &(*list)[i]
			if c.Source != Conscious {
				continue
			}
			best, bestScore := -1, 0.0
			for j := range f.Exchanges {
				s := &f.Exchanges[j]
				if s.Source != Subconscious {
					continue
				}
				if sc, _ := ConvergenceScore(c, s); sc >= ConvergeThreshold && sc > bestScore {
					best, bestScore = j, sc
				}
			}
			if best < 0 {
				continue
			}
			s := &f.Exchanges[best]
			if slices.Contains(c.Links, s.ID) {
				continue
			}
			link(c, s)
			n++
		}
	}
	return n
}

func link(c, s *Exchange) {
	for _, p := range [][2]*Exchange{{c, s}, {s, c}} {
		a, b := p[0], p[1]
		a.Links = sortedSet(append(a.Links, b.ID))
		a.Convergent = true
		a.Significance = round2(clamp01(a.Significance + ConvergenceBoost))
		if b.Updated > a.Updated {
			a.Updated = b.Updated
		}
	}
	s.SetTTL()
}

// Speakers maps each subconscious exchange of es that a conscious record
// of es links to the conscious record: the agent's record that speaks for
// memkeep's record of the same exchange.
func Speakers(es []Exchange) map[string]*Exchange {
	var byID map[string]*Exchange
	out := map[string]*Exchange{}
	for i := range es {
		c := &es[i]
		if c.Source != Conscious || len(c.Links) == 0 {
			continue
		}
		if byID == nil {
			byID = make(map[string]*Exchange, len(es))
			for j := range es {
				byID[es[j].ID] = &es[j]
			}
		}
		for _, x := range c.Links {
			if s := byID[x]; s != nil && s.Source == Subconscious {
				out[x] = c
			}
		}
	}
	return out
}

// Voiced is what a reader is shown of a session's exchanges when both
// paths recorded the same one: the agent's record speaks, with the files,
// commands, problem and fix of memkeep's record it links when it names
// none itself, and memkeep's record is left out. Records without a
// counterpart are kept as they are, in their order.
func Voiced(es []Exchange) []Exchange {
	speakers := Speakers(es)
	if len(speakers) == 0 {
		return es
	}
	spoken := map[string]*Exchange{} // memkeep's records an agent's speaks for
	for i := range es {
		if speakers[es[i].ID] != nil {
			spoken[es[i].ID] = &es[i]
		}
	}
	out := make([]Exchange, 0, len(es)-len(spoken))
	for _, e := range es {
		if spoken[e.ID] != nil {
			continue
		}
		for _, x := range e.Links {
			s := spoken[x]
			if s == nil || e.Source != Conscious {
				continue
			}
			if len(e.Files) == 0 {
				e.Files = s.Files
			}
			if len(e.Commands) == 0 {
				e.Commands = s.Commands
			}
			if e.Problem == "" {
				e.Problem, e.Fix, e.MoreProblems = s.Problem, s.Fix, s.MoreProblems
			}
			e.Significance = max(e.Significance, s.Significance)
		}
		out = append(out, e)
	}
	return out
}

// Package render writes what people and the agent read of the memory:
// memory.md, the digest committed beside the JSON files; the SessionStart
// context, the same memory cut to a character budget and ordered by what
// matters now; and a browsable HTML view. Everything here is a pure
// function of the memory files, so the output is byte-stable.
package render

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

// Memory is the memory as render reads it.
type Memory struct {
	Facts    *l4.Facts
	Concepts *l3.File
	Sessions []*l2.File // in start order
}

// Limits of memory.md.
const (
	topConcepts       = 12
	perSessionRecords = 5
)

// Markdown renders memory.md: rules (promoted, flagged, candidates),
// solutions, core logic, the top concepts and the recent sessions' most
// significant exchanges.
func Markdown(m Memory) []byte { return document(m).markdown() }

// document describes memory.md once, for both Markdown and HTML.
func document(m Memory) *doc {
	d := &doc{}
	d.heading(1, text("Project memory"))
	d.comment("Rendered by memkeep from facts.json, concepts.json and sessions/*.l2.json. You may edit it in a pull request: reword a rule, delete a rule or concept line, or add a rule as a new line under Rules; the next consolidation carries the edit into facts.json and concepts.json and renders this file again. Other edits are left in place and named by memkeep status.")

	promoted, candidates := splitRules(m.Facts.Rules)
	section(d, "Rules", len(promoted) == 0, text("No rules yet. State one with "), code("memkeep l4 add-rule TEXT"), text(", or tell the agent \"always …\" / \"never …\"."))
	for _, r := range promoted {
		d.item(append([]span{text(r.Text)}, ruleNote(r)...)...)
	}
	if len(candidates) > 0 {
		d.heading(3, text("Candidate rules"))
		d.paragraph(text("Stated in fewer than 3 sessions so far."))
		for _, r := range candidates {
			d.item(append([]span{text(r.Text)}, ruleNote(r)...)...)
		}
	}

	sols := slices.Clone(m.Facts.Solutions)
	slices.SortFunc(sols, func(a, c l4.Solution) int {
		return cmp.Or(cmp.Compare(c.Confidence, a.Confidence), strings.Compare(a.ID, c.ID))
	})
	section(d, "Solutions", len(sols) == 0, text("No recurring problem solved yet."))
	for _, s := range sols {
		d.item(strong(text(oneLine(s.Problem))), text(" → "+oneLine(s.Solution)+" "),
			note(fmt.Sprintf("%s, confidence %.2f", plural(len(s.Sessions), "session"), s.Confidence), s.Review), text(" "), code(s.ID))
	}

	section(d, "Core logic", len(m.Facts.CoreLogic) == 0, text("No feature changed in 3 or more sessions yet."))
	for _, k := range m.Facts.CoreLogic {
		sp := append([]span{text(oneLine(k.Text))}, fileSpans(k.Files, 4)...)
		d.item(append(sp, text(" "), note(plural(len(k.Sessions), "session"), false), text(" "), code(k.ID))...)
	}

	cs := topConceptList(m.Concepts, topConcepts)
	section(d, "Concepts", len(cs) == 0, text("No concepts yet: "), code("memkeep l3 assign"), text(" groups exchanges into them."))
	for _, c := range cs {
		sp := []span{strong(text(c.Name)), text(fmt.Sprintf(" (%s): %s", plural(len(c.Exchanges), "exchange"), oneLine(c.Summary)))}
		sp = append(sp, fileSpans(c.Files, 3)...)
		d.item(append(sp, text(" "), code(c.ID))...)
	}

	ss := recent(m.Sessions, DigestSessions)
	section(d, "Recent sessions", len(ss) == 0, text("No session consolidated yet."))
	at := l2.LatestActivity(m.Sessions)
	for _, s := range ss {
		es := topExchanges(s, perSessionRecords, at)
		if len(es) == 0 {
			continue
		}
		d.heading(3, text(s.Base()))
		for _, e := range es {
			mark := ""
			if e.Convergent {
				mark = ", convergent"
			}
			d.item(text(oneLine(e.Summary)+" "), note(fmt.Sprintf("%s, %.2f%s", e.Type, e.Significance, mark), false), text(" "), code(e.ID))
		}
	}
	return d
}

// section starts a top-level section, saying none when it is empty.
func section(d *doc, title string, empty bool, none ...span) {
	d.heading(2, text(title))
	if empty {
		d.paragraph(none...)
	}
}

func splitRules(rules []l4.Rule) (promoted, candidates []l4.Rule) {
	rs := slices.Clone(rules)
	slices.SortFunc(rs, func(a, c l4.Rule) int {
		return cmp.Or(cmp.Compare(c.Confidence, a.Confidence), strings.Compare(a.ID, c.ID))
	})
	for _, r := range rs {
		if r.Promoted {
			promoted = append(promoted, r)
		} else {
			candidates = append(candidates, r)
		}
	}
	return promoted, candidates
}

// ruleNote is what follows a rule's text: how it was established, its
// confidence, its contradictions and review flag, then its ID.
func ruleNote(r l4.Rule) []span {
	var parts []string
	if n := len(r.Sessions); n > 0 {
		parts = append(parts, plural(n, "session"))
	} else if r.Source == l4.SourceManual {
		parts = append(parts, "added by hand")
	}
	parts = append(parts, fmt.Sprintf("confidence %.2f", r.Confidence))
	if r.Contradictions > 0 {
		parts = append(parts, fmt.Sprintf("contradicted %d times", r.Contradictions))
	}
	return []span{text(" "), note(strings.Join(parts, ", "), r.Review), text(" "), code(r.ID)}
}

// note is an emphasised parenthesis, "(body)", ending in a strong "needs
// review" when the item is flagged.
func note(body string, review bool) span {
	if review {
		return emphasis(text("("+body+", "), strong(text("needs review")), text(")"))
	}
	return emphasis(text("(" + body + ")"))
}

// fileSpans lists the first n files as code, then how many more there are.
func fileSpans(files []string, n int) []span {
	if len(files) == 0 {
		return nil
	}
	sp := []span{text(" — ")}
	for i, f := range files[:min(n, len(files))] {
		if i > 0 {
			sp = append(sp, text(", "))
		}
		sp = append(sp, code(f))
	}
	if len(files) > n {
		sp = append(sp, text(fmt.Sprintf(" +%d", len(files)-n)))
	}
	return sp
}

func topConceptList(f *l3.File, n int) []l3.Concept {
	cs := slices.Clone(f.Concepts)
	slices.SortFunc(cs, func(a, c l3.Concept) int {
		return cmp.Or(cmp.Compare(len(c.Exchanges), len(a.Exchanges)), strings.Compare(c.Updated, a.Updated), strings.Compare(a.ID, c.ID))
	})
	return cs[:min(n, len(cs))]
}

func recent(ss []*l2.File, n int) []*l2.File {
	var out []*l2.File
	for i := len(ss) - 1; i >= 0 && len(out) < n; i-- {
		if len(ss[i].Exchanges) > 0 {
			out = append(out, ss[i])
		}
	}
	return out
}

// topExchanges is the session's n most significant exchanges among those
// still fresh at the project's latest activity at: an expired exchange is
// still memory (recall finds it) but no longer shown unasked.
func topExchanges(s *l2.File, n int, at time.Time) []l2.Exchange {
	es := slices.DeleteFunc(l2.Voiced(slices.Clone(s.Exchanges)), func(e l2.Exchange) bool { return e.Expired(at) })
	slices.SortFunc(es, func(a, c l2.Exchange) int {
		return cmp.Or(cmp.Compare(c.Significance, a.Significance), cmp.Compare(a.L1Range[0], c.L1Range[0]), strings.Compare(a.ID, c.ID))
	})
	return es[:min(n, len(es))]
}

// oneLine keeps text on one Markdown line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Write renders memory.md to path when its bytes differ, and reports
// whether it wrote.
func Write(path string, m Memory) (bool, error) {
	want := Markdown(m)
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, want) {
		return false, nil
	}
	return true, atomicfile.WriteFile(path, want, 0o644)
}

// ContextSessions and DigestSessions are the numbers of recent sessions
// (those with exchanges) the SessionStart context and memory.md show; they
// show nothing else of L2.
const (
	ContextSessions = 3
	DigestSessions  = 5
)

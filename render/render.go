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
	"path/filepath"
	"slices"
	"strings"

	"github.com/yuin/goldmark"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
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
	recentSessions    = 5
	perSessionRecords = 5
)

// Markdown renders memory.md: rules (promoted, flagged, candidates),
// solutions, core logic, the top concepts and the recent sessions' most
// significant exchanges.
func Markdown(m Memory) []byte {
	var b bytes.Buffer
	b.WriteString("# Project memory\n\n")
	b.WriteString("<!-- Rendered by memkeep from facts.json, concepts.json and sessions/*.l2.json. Do not edit: change the memory with memkeep commands (remember, l4 add-rule, forget) and run memkeep render. -->\n")

	promoted, candidates := splitRules(m.Facts.Rules)
	section(&b, "Rules", len(promoted) == 0, "No rules yet. State one with `memkeep l4 add-rule TEXT`, or tell the agent \"always …\" / \"never …\".")
	for _, r := range promoted {
		fmt.Fprintf(&b, "- %s%s\n", r.Text, ruleNote(r))
	}
	if len(candidates) > 0 {
		b.WriteString("\n### Candidate rules\n\nStated in fewer than 3 sessions so far.\n\n")
		for _, r := range candidates {
			fmt.Fprintf(&b, "- %s%s\n", r.Text, ruleNote(r))
		}
	}

	sols := slices.Clone(m.Facts.Solutions)
	slices.SortFunc(sols, func(a, c l4.Solution) int {
		return cmp.Or(cmp.Compare(c.Confidence, a.Confidence), strings.Compare(a.ID, c.ID))
	})
	section(&b, "Solutions", len(sols) == 0, "No recurring problem solved yet.")
	for _, s := range sols {
		fmt.Fprintf(&b, "- **%s** → %s *(%d sessions, confidence %.2f%s)* `%s`\n", oneLine(s.Problem), oneLine(s.Solution), len(s.Sessions), s.Confidence, reviewMark(s.Review), s.ID)
	}

	section(&b, "Core logic", len(m.Facts.CoreLogic) == 0, "No feature changed in 3 or more sessions yet.")
	for _, k := range m.Facts.CoreLogic {
		fmt.Fprintf(&b, "- %s%s *(%d sessions)* `%s`\n", oneLine(k.Text), filesNote(k.Files, 4), len(k.Sessions), k.ID)
	}

	cs := topConceptList(m.Concepts, topConcepts)
	section(&b, "Concepts", len(cs) == 0, "No concepts yet: `memkeep l3 assign` groups exchanges into them.")
	for _, c := range cs {
		fmt.Fprintf(&b, "- **%s** (%d exchanges): %s%s `%s`\n", c.Name, len(c.Exchanges), oneLine(c.Summary), filesNote(c.Files, 3), c.ID)
	}

	ss := recent(m.Sessions, recentSessions)
	section(&b, "Recent sessions", len(ss) == 0, "No session consolidated yet.")
	for i, s := range ss {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", s.Base())
		for _, e := range topExchanges(s, perSessionRecords) {
			mark := ""
			if e.Convergent {
				mark = ", convergent"
			}
			fmt.Fprintf(&b, "- %s *(%s, %.2f%s)* `%s`\n", oneLine(e.Summary), e.Type, e.Significance, mark, e.ID)
		}
	}
	return b.Bytes()
}

func section(b *bytes.Buffer, title string, empty bool, none string) {
	fmt.Fprintf(b, "\n## %s\n\n", title)
	if empty {
		b.WriteString(none + "\n")
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

func ruleNote(r l4.Rule) string {
	var parts []string
	if n := len(r.Sessions); n > 0 {
		parts = append(parts, fmt.Sprintf("%d sessions", n))
	} else if r.Source == l4.SourceManual {
		parts = append(parts, "added by hand")
	}
	parts = append(parts, fmt.Sprintf("confidence %.2f", r.Confidence))
	if r.Contradictions > 0 {
		parts = append(parts, fmt.Sprintf("contradicted %d times", r.Contradictions))
	}
	return fmt.Sprintf(" *(%s%s)* `%s`", strings.Join(parts, ", "), reviewMark(r.Review), r.ID)
}

func reviewMark(review bool) string {
	if review {
		return ", **needs review**"
	}
	return ""
}

func filesNote(files []string, n int) string {
	if len(files) == 0 {
		return ""
	}
	var q []string
	for _, f := range files[:min(n, len(files))] {
		q = append(q, "`"+f+"`")
	}
	more := ""
	if len(files) > n {
		more = fmt.Sprintf(" +%d", len(files)-n)
	}
	return " — " + strings.Join(q, ", ") + more
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

func topExchanges(s *l2.File, n int) []l2.Exchange {
	es := slices.Clone(s.Exchanges)
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

// Current reports whether the file at path holds exactly what Markdown
// renders now.
func Current(path string, m Memory) bool {
	have, err := os.ReadFile(path)
	return err == nil && bytes.Equal(have, Markdown(m))
}

// HTML writes a browsable view of memory.md into dir as index.html.
func HTML(dir string, m Memory) (string, error) {
	var body bytes.Buffer
	if err := goldmark.Convert(Markdown(m), &body); err != nil {
		return "", err
	}
	page := "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Project memory</title>\n" +
		"<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>\n" +
		"</head><body>\n" + body.String() + "</body></html>\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, "index.html")
	return p, atomicfile.WriteFile(p, []byte(page), 0o644)
}

// ContextOptions say what the session is about to work on.
type ContextOptions struct {
	Budget int      // characters, hard
	Files  []string // files changed in the work tree or on the branch
	Branch string   // the branch name, whose words hint at the topic
}

// Context is what SessionStart injects: L4 rules first (promoted, then
// candidates), then the concepts relevant to the changed files and the
// branch, then solutions and core logic, then the most significant recent
// exchanges — each line only if it fits, so the result never exceeds the
// budget.
func Context(m Memory, opts ContextOptions) string {
	var b strings.Builder
	left := opts.Budget
	add := func(s string) bool {
		if len(s) > left {
			return false
		}
		b.WriteString(s)
		left -= len(s)
		return true
	}
	if !add("# Project memory (memkeep)\n") {
		return ""
	}
	heading := func(h string) func() bool {
		done := false
		return func() bool {
			if done {
				return true
			}
			done = true
			return add("\n## " + h + "\n")
		}
	}
	promoted, candidates := splitRules(m.Facts.Rules)
	h := heading("Rules")
	for _, r := range append(promoted, candidates...) {
		line := "- " + oneLine(r.Text)
		if !r.Promoted {
			line += " (candidate)"
		}
		if r.Review {
			line += " (contradicted: check with the user)"
		}
		if !h() || !add(line+"\n") {
			break
		}
	}

	probe := l2.Exchange{Files: opts.Files, Keywords: terms.Words(strings.NewReplacer("/", " ", "-", " ", "_", " ").Replace(opts.Branch))}
	type scored struct {
		c l3.Concept
		s float64
	}
	var rel []scored
	for _, c := range m.Concepts.Concepts {
		if s := l3.Similarity(&probe, &c); s > 0 {
			rel = append(rel, scored{c, s})
		}
	}
	slices.SortFunc(rel, func(a, c scored) int { return cmp.Or(cmp.Compare(c.s, a.s), strings.Compare(a.c.ID, c.c.ID)) })
	if len(rel) == 0 {
		for _, c := range topConceptList(m.Concepts, 5) {
			rel = append(rel, scored{c, 0})
		}
	}
	h = heading("Concepts")
	for _, x := range rel {
		if !h() || !add(fmt.Sprintf("- %s: %s%s\n", x.c.Name, oneLine(x.c.Summary), filesNote(x.c.Files, 3))) {
			break
		}
	}
	h = heading("Solutions and core logic")
	for _, s := range m.Facts.Solutions {
		if !h() || !add(fmt.Sprintf("- %s → %s\n", oneLine(s.Problem), oneLine(s.Solution))) {
			break
		}
	}
	for _, k := range m.Facts.CoreLogic {
		if !h() || !add("- "+oneLine(k.Text)+"\n") {
			break
		}
	}
	h = heading("Recent")
	for _, s := range recent(m.Sessions, 3) {
		for _, e := range topExchanges(s, 3) {
			if !h() || !add(fmt.Sprintf("- %s (%s)\n", oneLine(e.Summary), s.Base())) {
				return b.String()
			}
		}
	}
	return b.String()
}

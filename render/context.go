package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/layers/handoff"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

// ContextOptions say what the session is about to work on.
type ContextOptions struct {
	Budget int      // characters, hard
	Files  []string // files the branch changes against the default branch
	Branch string   // the branch name, whose words hint at the topic
	// Source is how the session starts: startup, resume, clear or
	// compact. After a compaction the conversation still holds most of
	// the memory; only the rules and the handoff are given again.
	Source string
}

// Context is what SessionStart injects, in the order a colleague taking
// over would want it: where the work stood (the handoff of the latest
// session on this branch), memory about this branch's files, the rules
// (stated by the user, as rules; inferred candidates apart, last),
// decisions with their reasons, solutions and core logic, concepts, and
// recent exchanges. Each memory is shown once; an item that does not fit
// is skipped, not cut, and the last line says how much was left out and
// how to reach it. The result never exceeds the budget.
func Context(m Memory, opts ContextOptions) string {
	c := &contextWriter{left: opts.Budget, shown: map[string]bool{}}
	if !c.add("# Project memory (memkeep)\n") {
		return ""
	}
	at := l2.LatestActivity(m.Sessions)
	// Of L2 the context shows only the most recent sessions (the caller
	// reads no others: see consolidate.Context).
	rs := recent(m.Sessions, ContextSessions)
	slices.Reverse(rs)
	c.handoffs(rs, opts.Branch)
	user, candidates := ruleGroups(m.Facts.Rules)
	if opts.Source == "compact" {
		c.rules("Rules", user)
		return c.String()
	}
	// The files of the last session count as what the work is about, as
	// the branch's do.
	for i := len(rs) - 1; i >= 0; i-- {
		if h := rs[i].Handoff; !h.Empty() {
			opts.Files = append(slices.Clone(opts.Files), h.Edited...)
			break
		}
	}
	c.branch(rs, m.Concepts, opts)
	c.rules("Rules", user)
	c.decisions(rs)
	item := c.section("Solutions and core logic")
	for _, s := range m.Facts.Solutions {
		item(s.ID, s.Problem, fmt.Sprintf("- %s → %s\n", oneLine(s.Problem), oneLine(s.Solution)))
	}
	for _, k := range m.Facts.CoreLogic {
		item(k.ID, k.Text, "- "+oneLine(k.Text)+"\n")
	}
	item = c.section("Concepts")
	for _, x := range relevantConcepts(m.Concepts, opts) {
		item(x.ID, x.Summary, fmt.Sprintf("- %s: %s%s\n", x.Name, oneLine(x.Summary), markdownInline(fileSpans(x.Files, 3))))
	}
	item = c.section("Recent")
	for i := len(rs) - 1; i >= 0; i-- {
		s := rs[i]
		for _, e := range topExchanges(s, 3, at) {
			item(e.ID, e.Summary, fmt.Sprintf("- %s (%s)\n", oneLine(e.Summary), s.Base()))
		}
	}
	c.rules("Candidate rules (inferred, not yet confirmed)", candidates)
	return c.String()
}

// contextWriter fills the budget, remembering what it showed and counting
// what it had to leave out.
type contextWriter struct {
	b       strings.Builder
	left    int
	shown   map[string]bool // ids and lines already shown
	omitted int
}

func (c *contextWriter) add(s string) bool {
	if len(s) > c.left {
		return false
	}
	c.b.WriteString(s)
	c.left -= len(s)
	return true
}

// reserve is room kept for the closing line.
const reserve = 110

// section returns the function that adds an item (its id, the text of
// the memory it shows, its line) under the heading h, written with the
// first item that fits. A memory already shown, by id or by its text (a
// concept whose summary is an exchange's, core logic named after a
// concept), is not shown again.
func (c *contextWriter) section(h string) func(id, text, line string) {
	head := "\n## " + h + "\n"
	return func(id, text, line string) {
		key := strings.ToLower(oneLine(text))
		if name, rest, ok := strings.Cut(key, ": "); ok && !strings.Contains(name, " ") {
			key = rest // "concept-name: its summary" is that summary
		}
		if key == "" {
			key = strings.ToLower(oneLine(line))
		}
		if id != "" && c.shown[id] || c.shown[key] {
			return
		}
		need := len(line)
		if head != "" {
			need += len(head)
		}
		if need > c.left-reserve {
			c.omitted++
			return
		}
		if head != "" {
			c.add(head)
			head = ""
		}
		c.add(line)
		c.shown[id], c.shown[key] = true, true
	}
}

func (c *contextWriter) String() string {
	if c.omitted > 0 {
		c.add(fmt.Sprintf("\n_%d more memories did not fit; `memkeep recall \"<topic>\"` finds them._\n", c.omitted))
	}
	return c.b.String()
}

// handoffs opens the context with where the latest session on the branch
// left off (and the latest session elsewhere, when it is newer).
func (c *contextWriter) handoffs(sessions []*l2.File, branch string) {
	var here, other *l2.File
	for i := len(sessions) - 1; i >= 0; i-- {
		s := sessions[i]
		if s.Handoff.Empty() {
			continue
		}
		if here == nil && (branch == "" || s.Handoff.Branch == "" || s.Handoff.Branch == branch) {
			here = s
		} else if other == nil && here == nil {
			other = s
		}
	}
	item := c.section("Where we left off")
	for _, s := range []*l2.File{here, other} {
		if s != nil {
			item("handoff:"+s.Base(), "", handoffLines(s.Base(), s.Handoff))
		}
	}
}

func handoffLines(base string, h *handoff.Handoff) string {
	var b strings.Builder
	on := ""
	if h.Branch != "" {
		on = " on " + h.Branch
	}
	fmt.Fprintf(&b, "- Session %s%s, last active %s. The request: %s\n", base, on, strings.Replace(strings.TrimSuffix(h.Time, "Z"), "T", " ", 1), h.Doing)
	if h.Outcome != "" {
		fmt.Fprintf(&b, "  Outcome: %s\n", h.Outcome)
	}
	var open []string
	if h.Failing != "" {
		open = append(open, "still failing: "+h.Failing)
	}
	if len(h.Uncommitted) > 0 {
		open = append(open, "edited, not committed: "+strings.Join(h.Uncommitted, ", "))
	}
	if len(open) > 0 {
		fmt.Fprintf(&b, "  Unfinished: %s\n", strings.Join(open, "; "))
	}
	if len(h.Next) > 0 {
		fmt.Fprintf(&b, "  Next: %s\n", strings.Join(h.Next, " "))
	}
	if len(h.Questions) > 0 {
		fmt.Fprintf(&b, "  Open questions: %s\n", strings.Join(h.Questions, " "))
	}
	return b.String()
}

// branch shows the memory about the files the branch changes: the
// exchanges that changed them, with why, and their concepts.
func (c *contextWriter) branch(sessions []*l2.File, concepts *l3.File, opts ContextOptions) {
	if len(opts.Files) == 0 {
		return
	}
	changed := map[string]bool{}
	for _, f := range opts.Files {
		changed[f] = true
	}
	touches := func(files []string) []string {
		var out []string
		for _, f := range files {
			if changed[f] {
				out = append(out, f)
			}
		}
		return out
	}
	title := "Memory about the files of this branch and the last session"
	if opts.Branch != "" {
		title = "Branch " + opts.Branch + ": memory about the files it and the last session changed"
	}
	item := c.section(title)
	for i := len(sessions) - 1; i >= 0; i-- {
		for _, e := range l2.Voiced(sessions[i].Exchanges) {
			if fs := touches(e.Files); len(fs) > 0 {
				item(e.ID, e.Summary, fmt.Sprintf("- %s (%s)%s\n", oneLine(e.Summary), strings.Join(fs, ", "), why(e)))
			}
		}
	}
	for _, x := range concepts.Concepts {
		if fs := touches(x.Files); len(fs) > 0 {
			item(x.ID, x.Summary, fmt.Sprintf("- %s: %s (%s)\n", x.Name, oneLine(x.Summary), strings.Join(fs, ", ")))
		}
	}
}

// rules lists rules under title.
func (c *contextWriter) rules(title string, rs []l4.Rule) {
	item := c.section(title)
	for _, r := range rs {
		line := "- " + oneLine(r.Text)
		if r.Review {
			line += " (contradicted: check with the user)"
		}
		item(r.ID, r.Text, line+"\n")
	}
}

// decisions lists the decisions of the recent sessions with their reasons.
func (c *contextWriter) decisions(sessions []*l2.File) {
	item := c.section("Decisions")
	for i := len(sessions) - 1; i >= 0; i-- {
		for _, e := range l2.Voiced(sessions[i].Exchanges) {
			if e.Type != l2.TypeDecision && e.Type != l2.TypeCorrection && !slices.Contains(e.Tags, "decision") {
				continue
			}
			// A decision is worth its line with its reason, or when
			// someone recorded it as one (memkeep decide, the agent).
			w := why(e)
			if w == "" && e.Source != l2.Conscious && reasonAt(strings.ToLower(e.Summary)) < 0 {
				continue
			}
			item(e.ID, e.Summary, fmt.Sprintf("- %s%s\n", oneLine(e.Summary), w))
		}
	}
}

// why is " — because …": the reason an exchange's details give, if any.
func why(e l2.Exchange) string {
	d := oneLine(e.Details)
	i := reasonAt(strings.ToLower(d))
	if i < 0 {
		return ""
	}
	r := d[i:]
	if j := strings.IndexAny(r, ".;"); j > 0 {
		r = r[:j]
	}
	if len(r) > 200 {
		r = r[:200] + "…"
	}
	if strings.Contains(strings.ToLower(e.Summary), strings.ToLower(r)) {
		return "" // the summary says it already
	}
	return " — " + r
}

// reasonAt is where the reason a lower-cased text gives begins, or -1.
func reasonAt(low string) int {
	for _, cue := range []string{"why: ", "because ", "since ", "so that ", "otherwise ", "as it ", "to avoid "} {
		if i := strings.Index(low, cue); i >= 0 {
			return i
		}
	}
	return -1
}

// ruleGroups splits rules into those to give as rules (stated by the
// user, added by hand, or promoted by reflection) and inferred candidates.
func ruleGroups(rules []l4.Rule) (rules_, candidates []l4.Rule) {
	promoted, cands := splitRules(rules)
	rules_ = promoted
	for _, r := range cands {
		if r.Source == l4.SourceUser || r.Source == l4.SourceManual {
			rules_ = append(rules_, r)
		} else {
			candidates = append(candidates, r)
		}
	}
	return rules_, candidates
}

// relevantConcepts orders concepts by their likeness to the branch name
// and the changed files, then by size.
func relevantConcepts(f *l3.File, opts ContextOptions) []l3.Concept {
	probe := l2.Exchange{Files: opts.Files, Keywords: terms.Words(strings.NewReplacer("/", " ", "-", " ", "_", " ").Replace(opts.Branch))}
	type scored struct {
		c l3.Concept
		s float64
	}
	var all []scored
	for _, c := range f.Concepts {
		all = append(all, scored{c, l3.Similarity(&probe, &c)})
	}
	slices.SortFunc(all, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.s, a.s), cmp.Compare(len(b.c.Exchanges), len(a.c.Exchanges)), strings.Compare(a.c.ID, b.c.ID))
	})
	out := make([]l3.Concept, 0, len(all))
	for _, x := range all {
		out = append(out, x.c)
	}
	return out
}

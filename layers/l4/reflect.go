package l4

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
	"github.com/memkeep/memkeep/layers/l3"
)

// PromoteSessions is how many sessions a pattern must be seen in to become
// permanent; ReviewContradictions how many contradictions flag an item for
// a person's review.
const (
	PromoteSessions      = 3
	ReviewContradictions = 5
)

// Similarity thresholds of reflection.
const (
	sameRule    = 0.5  // two statements of one rule (words without polarity)
	sameProblem = 0.45 // two occurrences of one problem
)

// Report says what a reflection changed.
type Report struct {
	RulesAdded, RulesPromoted, RulesFlagged int
	SolutionsAdded, SolutionsUpdated        int
	CoreAdded, CoreUpdated                  int
}

// statement is one rule stated in one session.
type statement struct {
	key, text, sid, time string
	negative             bool
}

// Reflect derives permanent memory from every session's L2 and the
// concepts:
//
//   - Concepts drop members that no longer exist and are refreshed. L2
//     records are never removed for their age: a TTL decides what is
//     injected and how it ranks (see l2.Exchange.Expired), only forget
//     removes a memory.
//   - Rules: each statement of a rule ("always …", "never …") joins the
//     rule it restates or starts one, promoted at once with confidence 1
//     (the user said it); a later statement of the opposite polarity on
//     the same topic supersedes it (the old rule forgotten, with the
//     reason), an earlier one counts as a contradiction, and
//     ReviewContradictions contradictions flag a rule for review.
//   - Solutions: a problem solved in PromoteSessions sessions becomes a
//     solution, with the fixes tried.
//   - Core logic: a concept whose files were changed in PromoteSessions
//     sessions is a central feature.
//   - The keyword index and the counts are rebuilt.
//
// Every statement and occurrence is recorded as evidence, so reflecting
// twice gives the same bytes.
func Reflect(f *Facts, sessions []*l2.File, concepts *l3.File) Report {
	var rep Report
	byID, sidOf, ids := index(sessions)
	reflectRules(f, byID, sidOf, ids, &rep)
	reflectSolutions(f, byID, sidOf, ids, &rep)
	concepts.Refresh(byID)
	reflectCore(f, concepts, byID, sidOf, &rep)

	f.Keywords = map[string][]string{}
	for _, c := range concepts.Concepts {
		for _, k := range c.Keywords {
			f.Keywords[k] = append(f.Keywords[k], c.ID)
		}
	}
	for _, id := range ids {
		for _, k := range byID[id].Keywords {
			f.Keywords[k] = append(f.Keywords[k], id)
		}
	}
	f.Stats = Stats{Exchanges: len(byID), Concepts: len(concepts.Concepts), Sessions: len(sessions)}
	return rep
}

// index maps every record id to its record and its session, and lists
// the ids in order.
func index(sessions []*l2.File) (map[string]*l2.Exchange, map[string]string, []string) {
	byID := map[string]*l2.Exchange{}
	sidOf := map[string]string{}
	for _, s := range sessions {
		sid := sid8(s.Base())
		for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
			for j := range l {
				byID[l[j].ID] = &l[j]
				sidOf[l[j].ID] = sid
			}
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return byID, sidOf, ids
}

// StatementKey identifies one statement of a rule in one session; the
// prompt hook and L2 extraction give the same key for the same prompt.
func StatementKey(session, rule string) string {
	return sid8(session) + "#" + hash8(normText(rule))
}

var polarityWords = sync.OnceValue(func() terms.Set { return terms.NewSet(terms.Words("always never avoid stop longer ever must should")) })

// ruleTopic is a rule's words without the words that give its polarity,
// so that "always use tabs" and "never use tabs" share a topic.
func ruleTopic(text string) terms.Set {
	s := terms.Set{}
	for _, w := range terms.Words(text) {
		if _, p := polarityWords()[w]; !p {
			s[w] = struct{}{}
		}
	}
	return s
}

func reflectRules(f *Facts, byID map[string]*l2.Exchange, sidOf map[string]string, ids []string, rep *Report) {
	var sts []statement
	for _, id := range ids {
		e := byID[id]
		if e.Rule == "" {
			continue
		}
		// One rule per line: a prompt may state several.
		for rule := range strings.SplitSeq(e.Rule, "\n") {
			sts = append(sts, statement{key: StatementKey(sidOf[id], rule), text: rule, sid: sidOf[id], time: e.Created, negative: l2.Negative(rule)})
		}
	}
	slices.SortFunc(sts, func(a, b statement) int { return strings.Compare(a.time+a.key, b.time+b.key) })
	before := map[string][]byte{}
	for _, r := range f.Rules {
		before[r.ID] = encodeRule(r)
	}
	for _, st := range sts {
		applyStatement(f, st)
	}
	finishRules(f, before, rep)
}

// Observe records one statement of a rule at once — the prompt hook calls
// it when the user says "always …" — under the key reflection will give
// the same statement, so it is never counted twice.
func (f *Facts) Observe(session, rule string, at time.Time) {
	before := map[string][]byte{}
	for _, r := range f.Rules {
		before[r.ID] = encodeRule(r)
	}
	applyStatement(f, statement{key: StatementKey(session, rule), text: rule, sid: sid8(session), time: l2.Timestamp(at), negative: l2.Negative(rule)})
	finishRules(f, before, &Report{})
}

// finishRules derives each rule's counts, promotion, review flag and
// confidence from its evidence, and counts what changed against before.
func finishRules(f *Facts, before map[string][]byte, rep *Report) {
	for i := range f.Rules {
		r := &f.Rules[i]
		r.Contradictions = len(set(r.ContradictedBy))
		wasPromoted, wasReview := r.Promoted, r.Review
		r.Promoted = r.Promoted || r.Source == SourceManual || r.Source == SourceUser || len(set(r.Sessions)) >= PromoteSessions
		r.Review = r.Contradictions >= ReviewContradictions
		base := 0.5 + 0.1*float64(len(set(r.Sessions))-1)
		switch r.Source {
		case SourceUser:
			base = 1.0 // the user said so
		case SourceManual:
			base = 0.9
		}
		r.Confidence = round2(math.Max(0.1, math.Min(1.0, base)-0.1*float64(r.Contradictions)))
		old, existed := before[r.ID]
		switch {
		case !existed:
			rep.RulesAdded++
		case !bytes.Equal(old, encodeRule(*r)):
			if r.Promoted && !wasPromoted {
				rep.RulesPromoted++
			}
			if r.Review && !wasReview {
				rep.RulesFlagged++
			}
		}
		if !existed && r.Promoted {
			rep.RulesPromoted++
		}
		if !existed && r.Review {
			rep.RulesFlagged++
		}
	}
}

func encodeRule(r Rule) []byte {
	r.Updated = ""
	return l2.EncodeJSON(r)
}

// applyStatement folds one statement into the rules, once.
func applyStatement(f *Facts, st statement) {
	for _, r := range f.Rules {
		if slices.Contains(r.Evidence, st.key) || slices.Contains(r.ContradictedBy, st.key) {
			return
		}
	}
	id := "r-" + hash8(normText(st.text))
	if f.forgotten(id) {
		return // forgotten, or superseded: it neither counts nor contradicts
	}
	topic := ruleTopic(st.text)
	same, bestSim := -1, 0.0
	var superseded []string
	stale := false
	for i := range f.Rules {
		r := &f.Rules[i]
		sim := terms.Jaccard(topic, ruleTopic(r.Text))
		if sim < sameRule {
			continue
		}
		if l2.Negative(r.Text) != st.negative {
			r.ContradictedBy = append(r.ContradictedBy, st.key)
			r.Updated = max(r.Updated, st.time)
			switch {
			case r.Source != SourceUser:
			case st.time >= r.LastValidated:
				// The user said otherwise since: the later statement stands.
				superseded = append(superseded, r.ID)
			default:
				stale = true // the user has since said otherwise
			}
			continue
		}
		if sim > bestSim {
			same, bestSim = i, sim
		}
	}
	for _, id := range superseded {
		_, _ = f.Forget(id, "superseded by the user's later statement: "+st.text, timeOf(st.time))
		if same >= 0 && same < len(f.Rules) && f.Rules[same].ID == id {
			same = -1
		}
	}
	if len(superseded) > 0 && same >= 0 {
		// Forget reordered the rules: find the one this statement restates.
		same = slices.IndexFunc(f.Rules, func(r Rule) bool {
			return terms.Jaccard(topic, ruleTopic(r.Text)) >= sameRule && l2.Negative(r.Text) == st.negative
		})
	}
	if same >= 0 {
		r := &f.Rules[same]
		r.Evidence = append(r.Evidence, st.key)
		if !slices.Contains(r.Sessions, st.sid) {
			r.Sessions = append(r.Sessions, st.sid)
		}
		r.LastValidated = max(r.LastValidated, st.time)
		r.Updated = max(r.Updated, st.time)
		return
	}
	if stale {
		return
	}
	// A rule the user states is a rule at once: promotion over sessions is
	// for what memkeep infers.
	f.Rules = append(f.Rules, Rule{ID: id, Text: st.text, Source: SourceUser, Sessions: []string{st.sid},
		Evidence: []string{st.key}, LastValidated: st.time, Updated: st.time, Promoted: true})
}

// occurrence is one problem solved in one session.
type occurrence struct {
	id, sid, problem, fix, time string
	key                         string // the exchange id, and which of its problems
	files                       []string
	words                       terms.Set
}

func reflectSolutions(f *Facts, byID map[string]*l2.Exchange, sidOf map[string]string, ids []string, rep *Report) {
	var occ []occurrence
	solved := make([]terms.Set, len(f.Solutions))
	for i, s := range f.Solutions {
		solved[i] = problemWords(s.Problem)
	}
	for _, id := range ids {
		e := byID[id]
		for n, pf := range e.Problems() {
			o := occurrence{id: id, key: id, sid: sidOf[id], problem: pf.Problem, fix: pf.Fix, time: e.Created, words: problemWords(pf.Problem)}
			// The files of a solution are those its fix edited, not every
			// file the exchange changed.
			for _, file := range e.Files {
				if strings.Contains(pf.Fix, file) {
					o.files = append(o.files, file)
				}
			}
			if n > 0 {
				// An exchange's second problem may start a solution of
				// its own: its id must differ from the first's.
				o.key = id + "#" + strconv.Itoa(n+1)
			}
			// An occurrence already counted is the evidence of a
			// solution it matches.
			counted := false
			for i, s := range f.Solutions {
				counted = counted || slices.Contains(s.Evidence, id) && terms.Jaccard(solved[i], o.words) >= sameProblem
			}
			if counted {
				continue
			}
			occ = append(occ, o)
		}
	}
	// By time, and an exchange's problems in their order: the first
	// occurrence names a solution.
	slices.SortStableFunc(occ, func(a, b occurrence) int { return strings.Compare(a.time+a.id, b.time+b.id) })

	var clusters [][]occurrence
	for _, o := range occ {
		if i := bestSolution(solved, o.words); i >= 0 {
			s := &f.Solutions[i]
			addOccurrence(s, o)
			s.Updated = max(s.Updated, o.time)
			s.Confidence = solutionConfidence(len(set(s.Sessions)))
			rep.SolutionsUpdated++
			continue
		}
		placed := false
		for i := range clusters {
			if terms.Jaccard(clusters[i][0].words, o.words) >= sameProblem {
				clusters[i] = append(clusters[i], o)
				placed = true
				break
			}
		}
		if !placed {
			clusters = append(clusters, []occurrence{o})
		}
	}
	for _, c := range clusters {
		sessions := map[string]bool{}
		for _, o := range c {
			sessions[o.sid] = true
		}
		if len(sessions) < PromoteSessions {
			continue // not yet a pattern: L2 still holds the occurrences
		}
		id := "s-" + hash8(c[0].key)
		if f.forgotten(id) {
			continue
		}
		s := Solution{ID: id, Problem: c[0].problem}
		for _, o := range c {
			addOccurrence(&s, o)
		}
		s.Updated = s.LastValidated
		s.Confidence = solutionConfidence(len(sessions))
		f.Solutions = append(f.Solutions, s)
		rep.SolutionsAdded++
	}
}

// addOccurrence counts an occurrence as evidence of s.
func addOccurrence(s *Solution, o occurrence) {
	s.Evidence = appendNew(s.Evidence, o.id)
	s.Sessions = appendNew(s.Sessions, o.sid)
	s.Files = append(s.Files, o.files...)
	if o.fix != "" {
		s.Attempts = appendNew(s.Attempts, o.fix)
		s.Solution = preferFix(s.Problem, s.Solution, o.fix)
	}
	s.LastValidated = max(s.LastValidated, o.time)
}

// splitProblem parts an L2 problem into the command that failed (between
// backticks; "" for another tool's failure) and its message.
func splitProblem(p string) (cmd, msg string) {
	if strings.HasPrefix(p, "`") {
		if end := strings.Index(p[1:], "`"); end >= 0 {
			return p[1 : end+1], p[end+2:]
		}
	}
	return "", p
}

// preferFix gives the fix a solution shows once fix, newer than the one
// it shows, has been seen: the one that answers the error, sharing as
// many words with its message ("hint: Use -f" and a fix that forced the
// add; "Run 'mix format'" and one that ran it), the newer of two alike.
// A fix that merely worked last may have gone round the problem (the
// file left out of the commit).
func preferFix(problem, shown, fix string) string {
	if shown == "" {
		return fix
	}
	_, message := splitProblem(problem) // not the command that failed
	msg := fixWords(message)
	answers := func(f string) int {
		n := 0
		for w := range fixWords(f) {
			if _, ok := msg[w]; ok {
				n++
			}
		}
		return n
	}
	if answers(fix) >= answers(shown) {
		return fix
	}
	return shown
}

// fixWords are the words and flags of a fix or an error message, as
// written (a flag such as -f is the answer to a hint that names it),
// without the short and function words any two sentences share.
func fixWords(s string) terms.Set {
	out := terms.Set{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '/' || r == '`' || r == '\'' || r == '"' || r == ',' || r == ':' || r == '(' || r == ')' || r == '[' || r == ']'
	}) {
		w = strings.TrimRight(w, ".;")
		if len(w) < 3 && !strings.HasPrefix(w, "-") {
			continue // "to", "is", "a": a commit message and an error share them by chance
		}
		switch w {
		case "passed", "again", "with", "without", "then", "ran", "edited", "&&", "2>&1",
			"the", "and", "for", "you", "your", "this", "that", "are", "was", "not", "has":
			continue
		}
		out[w] = struct{}{}
	}
	return out
}

// problemWords are the terms of a problem that tell it from another: a
// command's program and subcommand (its arguments, the files of one
// commit, differ each time the problem recurs) and the message, without
// the words every failure report has.
func problemWords(p string) terms.Set {
	cmd, msg := splitProblem(p)
	if keys := l2.CommandKeys(cmd); len(keys) > 0 {
		msg = keys[0] + " " + msg
	}
	s := terms.Set{}
	for _, w := range terms.Words(msg) {
		switch w {
		case "exit", "fail", "error", "2>&1":
			continue
		}
		s[w] = struct{}{}
	}
	return s
}

// bestSolution gives the solution whose problem words (solved) are most
// like words, or -1 when none is the same problem.
func bestSolution(solved []terms.Set, words terms.Set) int {
	best, bestSim := -1, 0.0
	for i, s := range solved {
		if sim := terms.Jaccard(s, words); sim >= sameProblem && sim > bestSim {
			best, bestSim = i, sim
		}
	}
	return best
}

func solutionConfidence(sessions int) float64 {
	return round2(math.Min(0.9, 0.6+0.1*float64(sessions-PromoteSessions)))
}

func reflectCore(f *Facts, concepts *l3.File, byID map[string]*l2.Exchange, sidOf map[string]string, rep *Report) {
	for _, c := range concepts.Concepts {
		sessions := map[string]bool{}
		last := ""
		for _, id := range c.Exchanges {
			e := byID[id]
			if e == nil || len(e.Files) == 0 {
				continue
			}
			sessions[sidOf[id]] = true
			last = max(last, e.Updated)
		}
		if len(sessions) < PromoteSessions {
			continue
		}
		id := "k-" + hash8(c.ID)
		if f.forgotten(id) {
			continue
		}
		var sids []string
		for s := range sessions {
			sids = append(sids, s)
		}
		k := CoreLogic{ID: id, Text: c.Name + ": " + c.Summary, Concept: c.ID, Files: capList(c.Files, 8),
			Sessions: set(sids), Confidence: round2(math.Min(0.9, 0.5+0.1*float64(len(sessions)-PromoteSessions))),
			LastValidated: last, Updated: last}
		i := slices.IndexFunc(f.CoreLogic, func(x CoreLogic) bool { return x.ID == id })
		if i < 0 {
			f.CoreLogic = append(f.CoreLogic, k)
			rep.CoreAdded++
			continue
		}
		old := f.CoreLogic[i]
		k.Sessions = set(append(k.Sessions, old.Sessions...))
		k.Contradictions, k.Review = old.Contradictions, old.Review
		if !bytes.Equal(l2.EncodeJSON(k), l2.EncodeJSON(old)) {
			f.CoreLogic[i] = k
			rep.CoreUpdated++
		}
	}
}

func appendNew(l []string, s string) []string {
	if slices.Contains(l, s) {
		return l
	}
	return append(l, s)
}

func capList(l []string, n int) []string {
	if len(l) > n {
		return l[:n]
	}
	return l
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// Changes is the number of changes a reflection made.
func (r Report) Changes() int {
	return r.RulesAdded + r.RulesPromoted + r.RulesFlagged + r.SolutionsAdded + r.SolutionsUpdated + r.CoreAdded + r.CoreUpdated
}

// timeOf parses a record timestamp; the zero time when it has none.
func timeOf(ts string) time.Time {
	t, _ := time.Parse(time.RFC3339, ts)
	return t
}

package l2

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2/terms"
)

// Caps keep one record readable however long the exchange ran.
const (
	maxCommands = 25
	maxRead     = 30
	maxKeywords = 8
	maxSummary  = 140
	// maxMoreProblems bounds the problems kept beside the first.
	maxMoreProblems = 4
)

// Extract is the subconscious path: it reads a session's L1 records and
// returns one exchange per user-request → resolution cycle, scored, typed
// and explained, without any model. A long request that the agent worked
// through as several committed pieces ("continue until all are done") is
// split after each successful git commit, so each piece is remembered by
// its own commit message. Records are returned whatever their
// significance: convergence with conscious records may still lift them
// over MinSignificance, which the caller applies.
//
// base is the session's file stem; it goes into the ids, which depend
// only on it and the first L1 line of the exchange, so re-extracting a
// session that grew updates records in place.
func Extract(recs []l1.Record, base string) []Exchange {
	return ExtractFrom(recs, 0, base)
}

// ExtractFrom is Extract over the part of a session's L1 that starts at
// an exchange: recs are the L1 lines first+1, first+2, … and recs[0]
// starts an exchange (StartsExchange) unless first is 0. An exchange
// depends only on its own lines, so the result is exactly the part of
// Extract(all records) from that line on: ids and l1_range count from the
// file's first line. The Stop hook extracts only the exchange still open.
func ExtractFrom(recs []l1.Record, first int, base string) []Exchange {
	var out []Exchange
	for _, ep := range episodes(recs) {
		out = append(out, describe(recs, ep, first, base))
	}
	return out
}

// StartsExchange reports whether an L1 record starts an exchange: a
// prompt typed in the main conversation.
func StartsExchange(r l1.Record) bool { return r.Kind == l1.KindPrompt && r.Agent == "" }

// span is a range of record indexes [from, to).
type span struct {
	from, to int
	prompt   int // index of the exchange's prompt, -1 before the first
	first    bool
}

// episodes cuts the records at typed prompts and after commits.
func episodes(recs []l1.Record) []span {
	var out []span
	start, prompt := 0, -1
	for i := 0; i <= len(recs); i++ {
		if i < len(recs) && !StartsExchange(recs[i]) {
			continue
		}
		if i > start {
			out = append(out, splitAtCommits(recs, start, i, prompt)...)
		}
		start, prompt = i, i
	}
	return out
}

// splitAtCommits splits the exchange [from, to) after each successful git
// commit that is followed by more work than housekeeping (push, status,
// closing the ticket).
func splitAtCommits(recs []l1.Record, from, to, prompt int) []span {
	var out []span
	cur := from
	for i := from; i < to; i++ {
		if !isCommit(recs[i]) || !ok(recs[i]) {
			continue
		}
		j := i + 1
		for j < to && (recs[j].Kind == l1.KindText || isHousekeeping(recs[j])) {
			j++
		}
		if j < to {
			out = append(out, span{from: cur, to: j, prompt: prompt, first: cur == from})
			cur = j
			i = j - 1
		}
	}
	return append(out, span{from: cur, to: to, prompt: prompt, first: cur == from})
}

func isCommit(r l1.Record) bool {
	return r.Tool == "Bash" && gitCommitIn(r.Cmd)
}

// isHousekeeping recognises the commands that close a piece of work
// without starting the next one.
func isHousekeeping(r l1.Record) bool {
	if r.Tool != "Bash" {
		return false
	}
	c := strings.TrimSpace(r.Cmd)
	for _, p := range []string{"git push", "git status", "git log", "git diff --stat", "bd sync", "bd close", "bd ready", "bd list"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// ok reports whether a tool call succeeded.
func ok(r l1.Record) bool { return !r.Err && (r.Exit == nil || *r.Exit == 0) }

// cancelled reports whether Claude Code did not run a call because
// another call of the same message failed: it was never attempted.
func cancelled(r l1.Record) bool {
	return r.Err && strings.Contains(r.Res, "Sibling tool call errored")
}

var editTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// projectFile reports whether an L1 path is inside the project: L1 writes
// those repo-relative and everything else absolute or from ~.
func projectFile(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "..")
}

// describe builds the exchange of one episode.
// first is the number of L1 lines before recs[0].
func describe(recs []l1.Record, sp span, first int, base string) Exchange {
	ev := gather(recs, sp)
	e := Exchange{
		ID:       MakeID("x", base, fmt.Sprintf("sub:%d", first+sp.from+1)),
		Source:   Subconscious,
		L1Range:  [2]int{first + sp.from + 1, first + sp.to},
		Files:    ev.edited,
		Read:     capList(ev.read, maxRead),
		Commands: capList(ev.commands, maxCommands),
		Created:  normTS(recs[sp.from].TS),
		Updated:  normTS(recs[sp.to-1].TS),
		Rule:     ev.rule,
	}
	if ev.first >= 0 {
		e.Problem, e.Fix = ev.problems[ev.first].Problem, ev.problems[ev.first].Fix
		for i, pf := range ev.problems {
			if i != ev.first && len(e.MoreProblems) < maxMoreProblems {
				e.MoreProblems = append(e.MoreProblems, pf)
			}
		}
	}
	sc := score(ev)
	e.Significance = sc.value
	e.Type = sc.typ
	e.Tags = sc.tags
	e.Summary = summaryOf(ev, sp, sc.typ)
	e.Keywords = keywordsOf(ev)
	e.Details = detailsOf(ev, sc)
	e.Normalize()
	return e
}

// evidence is what one episode did, read off its L1 records.
type evidence struct {
	prompt       string // the user's request (cleaned), "" when not typed by a person
	notification string // summary of a background-task notification prompt
	commit       string // subject of the last commit
	firstText    string // first assistant sentence
	texts        []string
	// workTexts are the texts before memkeep's own commands (bookkeeping).
	workTexts    []string
	bookkeeping  bool
	edited, read []string
	commands     []string
	added, rem   int
	failures     int
	unresolved   bool // the last attempt of something still failed
	// problems are every failure recovered from, one per fix, in order;
	// first is the one worth remembering first (-1 for none).
	problems   []ProblemFix
	first      int
	decision   string
	insight    string
	rule       string
	correction bool
	usedAgents bool
	ranTests   bool
}

// recovered reports whether a failure was followed by a success of the
// same kind.
func (ev *evidence) recovered() bool { return ev.first >= 0 }

func gather(recs []l1.Record, sp span) evidence {
	ev := evidence{first: -1}
	if sp.prompt >= 0 {
		p := recs[sp.prompt].Text
		if n, isNote := notification(p); isNote {
			ev.notification = n
		} else {
			ev.prompt = cleanPrompt(p)
			// A decision the user states with its reason ("we decided to
			// read it from the environment because …") is the exchange's
			// decision; the agent's own comes second.
			ev.decision = decisionIn(ev.prompt)
			if sp.first {
				ev.correction = isCorrection(ev.prompt)
				// Every rule the prompt states, one per line.
				ev.rule = strings.Join(RuleStatements(ev.prompt), "\n")
			}
		}
	}
	edited, read := map[string]bool{}, map[string]bool{}
	cmds := map[string]bool{}
	type attempt struct {
		key    string
		failed bool
		rec    l1.Record
		idx    int
	}
	var attempts []attempt
	for i := sp.from; i < sp.to; i++ {
		r := recs[i]
		switch r.Kind {
		case l1.KindText:
			if r.Agent != "" {
				continue
			}
			ev.texts = append(ev.texts, r.Text)
			if !ev.bookkeeping {
				ev.workTexts = append(ev.workTexts, r.Text)
			}
			if ev.firstText == "" {
				ev.firstText = firstSentence(r.Text)
			}
			if ev.decision == "" {
				ev.decision = decisionIn(r.Text)
			}
			if ev.insight == "" {
				ev.insight = findSentence(r.Text, &insightWords)
			}
			continue
		case l1.KindTool:
		default:
			continue
		}
		switch {
		case editTools[r.Tool]:
			if projectFile(r.File) {
				edited[r.File] = true
			}
			a, d := diffCounts(r.Diff)
			ev.added += a
			ev.rem += d
		case r.Tool == "Read":
			if projectFile(r.File) {
				read[r.File] = true
			}
		case r.Tool == "Task" || r.Tool == "Agent":
			ev.usedAgents = true
		case r.Tool == "Bash" && isMemkeep(r.Cmd):
			// memkeep's own bookkeeping, which Stop asked for: not the
			// user's work, and what is said after it is about memory.
			ev.bookkeeping = true
			continue
		case r.Tool == "Bash":
			c := commandLine(r.Cmd)
			if c != "" && !cmds[c] {
				cmds[c] = true
				ev.commands = append(ev.commands, c)
			}
			if testWords.match(c) {
				ev.ranTests = true
			}
			if isCommit(r) && ok(r) {
				if s := commitSubject(r.Cmd); s != "" {
					ev.commit = s
				}
			}
		}
		if cancelled(r) {
			continue
		}
		for _, k := range attemptKeys(r) {
			attempts = append(attempts, attempt{key: k, failed: !ok(r), rec: r, idx: i})
		}
	}
	for f := range edited {
		ev.edited = append(ev.edited, f)
		delete(read, f)
	}
	for f := range read {
		ev.read = append(ev.read, f)
	}
	slices.Sort(ev.edited)
	slices.Sort(ev.read)

	// A failure is recovered when a later attempt of the same kind (the
	// same command, or an edit of the same file) succeeds; the work in
	// between is the fix.
	problemByEdit := false
	fixes := map[int]bool{}
	for i, a := range attempts {
		if !a.failed {
			continue
		}
		ev.failures++
		fixed := -1
		for j := i + 1; j < len(attempts); j++ {
			if attempts[j].key == a.key && !attempts[j].failed {
				fixed = j
				break
			}
		}
		if fixed < 0 {
			last := true
			for j := i + 1; j < len(attempts); j++ {
				if attempts[j].key == a.key {
					last = false
				}
			}
			if last {
				ev.unresolved = true
			}
			continue
		}
		// Failures one success recovered from are one problem: the first.
		if fixes[fixed] {
			continue
		}
		fixes[fixed] = true
		pf := ProblemFix{problemText(a.rec), fixText(a.rec, recs[a.idx+1:attempts[fixed].idx+1])}
		at := slices.IndexFunc(ev.problems, func(o ProblemFix) bool { return o.Problem == pf.Problem })
		if at < 0 {
			at = len(ev.problems)
			ev.problems = append(ev.problems, pf)
		}
		// The problem worth remembering first is the first one whose fix
		// took changes to the project; a retry with other flags is a
		// lesser one.
		fixedByEdit := editsBetween(recs, a.idx, attempts[fixed].idx)
		if !ev.recovered() || (fixedByEdit && !problemByEdit) {
			problemByEdit = fixedByEdit
			ev.first = at
			ev.problems[at] = pf // a compound command's part fixed by edits
		}
	}
	return ev
}

// attemptKeys groups tool calls that retry the same thing: a command by
// its program and subcommand, an edit by its file. A compound command
// ("mix compile && mix credo") is an attempt of each part: its success
// is the success of every part.
func attemptKeys(r l1.Record) []string {
	switch {
	case r.Tool == "Bash":
		var keys []string
		for _, k := range CommandKeys(r.Cmd) {
			keys = append(keys, "bash:"+k)
		}
		return keys
	case editTools[r.Tool] && r.File != "":
		return []string{"edit:" + r.File}
	}
	return nil
}

// CommandKeys names what each part of a command runs, as failures and
// retries are grouped: its program and subcommand ("go test"), past the
// variables set for it; a change of directory is no part.
func CommandKeys(cmd string) []string {
	var keys []string
	for _, f := range commandParts(cmd) {
		keys = append(keys, strings.Join(f[:min(2, len(f))], " "))
	}
	return keys
}

// commandParts splits a command's first line into the commands it runs
// one after another ("a && b; c"), each as its fields: past the
// variables set for it, without what a pipe feeds the output to ("mix
// deps.get | tail -5" runs mix deps.get) or a fallback after "||"; a
// change of directory is no part.
func commandParts(cmd string) [][]string {
	var parts [][]string
	line := strings.NewReplacer("&&", "\x00", ";", "\x00").Replace(commandLine(cmd))
	for seg := range strings.SplitSeq(line, "\x00") {
		if i := strings.IndexByte(seg, '|'); i >= 0 {
			seg = seg[:i]
		}
		f := strings.Fields(seg)
		for len(f) > 0 && strings.Contains(f[0], "=") {
			f = f[1:] // VAR=value prefixes
		}
		if len(f) == 0 || f[0] == "cd" {
			continue
		}
		parts = append(parts, f)
	}
	return parts
}

// editsBetween reports whether a project file was changed between two
// record indexes.
func editsBetween(recs []l1.Record, from, to int) bool {
	for _, r := range recs[from+1 : to] {
		if editTools[r.Tool] && projectFile(r.File) {
			return true
		}
	}
	return false
}

func problemText(r l1.Record) string {
	what := r.Tool
	if r.Tool == "Bash" {
		what = "`" + cutCommand(firstLine(r.Cmd), 80) + "`"
	} else if r.File != "" {
		what = r.Tool + " " + r.File
	}
	msg := strings.TrimSpace(strings.ReplaceAll(r.Res, `\n`, " "))
	if r.Exit != nil && *r.Exit != 0 {
		if msg == "" {
			return fmt.Sprintf("%s exited %d", what, *r.Exit)
		}
		return fmt.Sprintf("%s exited %d: %s", what, *r.Exit, Truncate(msg, 120))
	}
	if msg == "" {
		return what + " failed"
	}
	return what + " failed: " + Truncate(msg, 120)
}

// fixText says what was done after a failure until the same command or
// file worked: the files edited, the commands run that repaired
// something (a formatter, an install), and the command that passed. A
// long command that passed is told by how it differs from the one that
// failed ("with -f", "without priv/static/app.css"): cut at its start,
// two commits of many files read alike, and the difference is the fix.
func fixText(failed l1.Record, steps []l1.Record) string {
	var edits []string
	seen := map[string]bool{}
	last := -1
	for i, r := range steps {
		if editTools[r.Tool] && r.File != "" && !seen[r.File] {
			seen[r.File] = true
			edits = append(edits, r.File)
		}
		if r.Tool == "Bash" {
			last = i
		}
	}
	var did []string
	if len(edits) > 0 {
		did = append(did, "edited "+strings.Join(capList(edits, 5), ", "))
	}
	if last >= 0 {
		for _, step := range repairSteps(steps[:last]) {
			did = append(did, "ran `"+step+"`")
		}
		passed := passedText(firstLine(failed.Cmd), firstLine(steps[last].Cmd))
		if len(did) == 0 {
			return passed
		}
		return strings.Join(did, ", ") + ", then " + passed
	}
	return strings.Join(did, ", ")
}

// maxFixCmd is the longest command a fix shows whole; maxFixDiff the
// most words by which a longer one may differ from the failed command to
// be told by its difference.
const (
	maxFixCmd  = 80
	maxFixDiff = 4
)

// passedText shows the command that passed after failed did.
func passedText(failed, passed string) string {
	was, now := strings.Fields(failed), strings.Fields(passed)
	if len(passed) <= maxFixCmd || len(was) < 2 || len(now) < 2 || was[0] != now[0] || was[1] != now[1] {
		return "`" + cutCommand(passed, maxFixCmd) + "` passed"
	}
	var with, without []string
	for _, w := range now {
		if !slices.Contains(was, w) && !slices.Contains(with, w) {
			with = append(with, w)
		}
	}
	for _, w := range was {
		if !slices.Contains(now, w) && !slices.Contains(without, w) {
			without = append(without, w)
		}
	}
	shown := cutCommand(passed, maxFixCmd)
	visible := len(without) == 0 && !slices.ContainsFunc(with, func(w string) bool { return !strings.Contains(shown, w) })
	// A command cut in L1 hides what follows the cut: its difference is
	// not known.
	cut := strings.HasSuffix(passed, "…") || strings.HasSuffix(failed, "…")
	if n := len(with) + len(without); n == 0 || n > maxFixDiff || visible || cut {
		return "`" + shown + "` passed"
	}
	t := "`" + now[0] + " " + now[1] + "` again"
	if len(with) > 0 {
		t += " with `" + strings.Join(with, " ") + "`"
	}
	if len(without) > 0 {
		if len(with) > 0 {
			t += ","
		}
		t += " without `" + strings.Join(without, " ") + "`"
	}
	return t + " passed"
}

// The phrases are matched like the regular expressions each set replaces
// (see phraseSet), which match_test.go keeps as the sets' test oracle:
// testExpr, decisionExpr, reasonExpr and insightExpr.
var (
	testWords = phraseSet{phrases: []string{"test", "pytest", "jest", "vitest", "rspec", "ctest"}}
	// A decision is a choice with its reason in one sentence: "I'll use
	// the full path because credo…", "decided to keep X rather than Y".
	decisionWords = phraseSet{fold: true, phrases: []string{
		"i'll", "i will", "we'll", "we will", "let's", "decided", "decide to", "chose", "choosing", "going with",
		"opted for", "opt for", "prefer", "switched to", "switch to", "instead of", "rather than",
	}}
	reasonWords = phraseSet{fold: true, phrases: []string{
		"because", "since", "so that", "to avoid", "instead of", "rather than", "trade-off", "tradeoff",
	}}
	insightWords = phraseSet{fold: true, phrases: []string{
		"turns out", "root cause", "the problem was", "the problem is", "the issue was", "the issue is",
		"the reason", "known bug", "known issue", "this means", "the cause",
	}}
)

// isCorrection recognises a user correcting the agent at the start of a
// prompt.
func isCorrection(p string) bool {
	l := strings.ToLower(strings.TrimSpace(p))
	for _, s := range []string{"no,", "no ", "nope", "don't", "do not", "stop", "wrong", "that's wrong", "that's not", "that is not", "not what i", "actually,", "actually ", "instead", "revert", "undo", "why did you", "you should not", "you shouldn't"} {
		if strings.HasPrefix(l, s) {
			return true
		}
	}
	return strings.Contains(l, "that's not what i") || strings.Contains(l, "i said ") || strings.Contains(l, "i told you")
}

// notification recognises the prompts Claude Code injects when a
// background task finishes, which no person typed.
func notification(p string) (string, bool) {
	if !strings.HasPrefix(strings.TrimSpace(p), "<task-notification>") {
		return "", false
	}
	s := p
	if i := strings.Index(s, "<summary>"); i >= 0 {
		s = s[i+len("<summary>"):]
		if j := strings.Index(s, "</summary>"); j >= 0 {
			s = s[:j]
		}
		return strings.TrimSpace(s), true
	}
	return "background task finished", true
}

// PromptRules finds every rule a user's prompt states, as extraction would
// record them, so that the prompt hook and consolidation agree on their
// text.
func PromptRules(prompt string) []string {
	if _, isNote := notification(prompt); isNote {
		return nil
	}
	return RuleStatements(cleanPrompt(prompt))
}

// cleanPrompt drops the markup Claude Code wraps around slash commands and
// collapses white space.
func cleanPrompt(p string) string {
	// A slash command's message repeats its name ("<command-message>x
	// </command-message><command-name>/x</command-name>"): the request
	// is the name and its arguments.
	for {
		i := strings.Index(p, "<command-message>")
		j := strings.Index(p, "</command-message>")
		if i < 0 || j < i {
			break
		}
		p = p[:i] + p[j+len("</command-message>"):]
	}
	p = stripTags(p)
	return strings.Join(strings.Fields(p), " ")
}

// commandLine is the first line of a command, which is what identifies it.
func commandLine(c string) string { return Truncate(firstLine(c), 160) }

// firstLine is a command's first line, trimmed.
func firstLine(c string) string {
	c = strings.TrimSpace(c)
	if i := strings.IndexByte(c, '\n'); i >= 0 {
		c = strings.TrimSpace(c[:i])
	}
	return c
}

// commitSubject extracts the subject line of a git commit command's
// message, from -m "…", -m '…' or a here-document.
func commitSubject(cmd string) string {
	m, _ := commitMessage(cmd)
	if m = strings.TrimSpace(m); m == "" {
		return ""
	}
	return Truncate(m, maxSummary)
}

func diffCounts(d string) (add, rem int) {
	fmt.Sscanf(d, "+%d -%d", &add, &rem)
	return add, rem
}

func summaryOf(ev evidence, sp span, typ string) string {
	if ev.commit != "" {
		return ev.commit
	}
	// A correction is the user's words; other work is told by its outcome.
	if typ != TypeCorrection && (len(ev.edited) > 0 || len(ev.commands) > 0) {
		// What was done, in the assistant's closing words ("Fixed:
		// cart.Total skipped the first price …"), says more than the
		// request's first words, which Details keeps.
		if out := outcomeOf(ev.workTexts); out != "" {
			return Truncate(out, maxSummary)
		}
	}
	switch {
	case ev.notification != "":
		return Truncate("Background task: "+ev.notification, maxSummary)
	case ev.prompt != "" && sp.first:
		return Truncate(firstSentence(ev.prompt), maxSummary)
	case ev.firstText != "" && !planLike(firstSentence(ev.firstText)):
		return Truncate(ev.firstText, maxSummary)
	case ev.prompt != "":
		return Truncate(firstSentence(ev.prompt), maxSummary)
	}
	return "Session activity"
}

// keywordsOf ranks the terms of the request, the commit, the edited
// files' paths and the assistant's words, and keeps the strongest.
func keywordsOf(ev evidence) []string {
	w := map[string]float64{}
	add := func(ts []string, weight float64) {
		for _, t := range ts {
			w[t] += weight
		}
	}
	add(terms.Words(ev.prompt), 3)
	add(terms.Words(ev.commit), 3)
	add(terms.Words(ev.notification), 1)
	for _, f := range ev.edited {
		add(terms.PathWords(f), 2)
	}
	for _, t := range ev.texts {
		add(terms.Words(t), 0.5)
	}
	type kv struct {
		k string
		v float64
	}
	var all []kv
	for k, v := range w {
		if len(k) >= 3 {
			all = append(all, kv{k, v})
		}
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.v != b.v {
			if a.v > b.v {
				return -1
			}
			return 1
		}
		return strings.Compare(a.k, b.k)
	})
	var out []string
	for i := 0; i < len(all) && i < maxKeywords; i++ {
		out = append(out, all[i].k)
	}
	return out
}

func detailsOf(ev evidence, sc scored) string {
	var parts []string
	if ev.prompt != "" {
		parts = append(parts, "Asked: "+Truncate(ev.prompt, 200))
	}
	if len(ev.edited) > 0 {
		parts = append(parts, fmt.Sprintf("Changed %d file(s), +%d -%d lines.", len(ev.edited), ev.added, ev.rem))
	}
	if ev.first >= 0 {
		pf := ev.problems[ev.first]
		parts = append(parts, "Problem: "+pf.Problem+". Fix: "+pf.Fix+".")
	} else if ev.unresolved {
		parts = append(parts, "Left failing.")
	}
	if ev.decision != "" {
		parts = append(parts, "Decision: "+Truncate(ev.decision, 200))
	}
	if ev.insight != "" && ev.insight != ev.decision {
		parts = append(parts, "Insight: "+Truncate(ev.insight, 200))
	}
	parts = append(parts, sc.explain())
	return strings.Join(parts, " ")
}

// firstSentence is the text up to the first sentence end or line break.
// isMemkeep reports whether a shell command runs memkeep itself.
func isMemkeep(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return false
	}
	prog := f[0]
	if i := strings.LastIndexByte(prog, '/'); i >= 0 {
		prog = prog[i+1:]
	}
	return prog == "memkeep"
}

// outcomeOf is the assistant's closing statement of a piece of work: its
// last text that states something, not a question, a plan, a progress
// note ("Still compiling…") or a bare acknowledgement; the last few texts
// are tried, newest first.
func outcomeOf(texts []string) string {
	for i := len(texts) - 1; i >= 0 && i >= len(texts)-4; i-- {
		if out := statement(texts[i]); out != "" {
			return out
		}
	}
	return ""
}

// statement is the first sentence of an assistant's text when it states
// an outcome or a finding, "" otherwise; an opening acknowledgement
// ("Good - ", "Perfect! ") is dropped.
func statement(text string) string {
	last := strings.TrimSpace(text)
	for _, ack := range []string{"good", "great", "perfect", "excellent", "nice", "okay", "ok", "alright", "all right"} {
		if len(last) > len(ack) && strings.EqualFold(last[:len(ack)], ack) {
			if rest := strings.TrimLeft(last[len(ack):], " -–—!,.:"); rest != last[len(ack):] && rest != "" {
				last = strings.ToUpper(rest[:1]) + rest[1:]
			}
			break
		}
	}
	first := firstSentence(last)
	if len(first) > 0 && len(first) < 12 && strings.HasSuffix(first, ".") {
		// "Done." reads with what follows it.
	} else if planLike(first) {
		return ""
	}
	// A short first sentence ("Done.") reads with the next.
	if len(first) < 40 {
		rest := strings.TrimSpace(strings.TrimPrefix(last, first))
		if next := firstSentence(rest); next != "" && !planLike(next) {
			first += " " + next
		}
	}
	if len(first) < 12 || len(terms.Words(first)) < 3 {
		// Too few words to say what was done: a status ("Clean
		// compile.", "All 7 tasks are closed.", "I have enough context
		// now.") tells a later session nothing.
		return ""
	}
	return first
}

// planLike reports whether a sentence announces what comes next, reports
// progress or asks, rather than stating what is.
func planLike(first string) bool {
	lower := strings.ToLower(first)
	switch {
	case len(first) < 12, strings.HasSuffix(first, "?"), strings.HasSuffix(first, ":"):
		return true
	}
	for _, p := range []string{"let me", "i'll", "i will", "now ", "next", "first", "let's", "i need", "i'm going", "looking", "checking", "reading",
		"still ", "waiting", "the build is still", "compiling", "running ", "i see", "i can see", "i'm "} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i+1] == ' ' {
			return strings.TrimSpace(s[:i+1])
		}
	}
	return strings.TrimSpace(strings.Trim(s, "*#> "))
}

// decisionIn returns the first sentence of text that states a choice
// together with its reason.
func decisionIn(text string) string {
	for _, s := range sentences(text) {
		if decisionWords.match(s) && reasonWords.match(s) {
			return strings.TrimSpace(strings.Trim(s, "*#>- "))
		}
	}
	return ""
}

// findSentence returns the sentence of text where the first of the
// phrases occurs.
func findSentence(text string, phrases *phraseSet) string {
	start, end := phrases.index(text)
	if start < 0 {
		return ""
	}
	for start > 0 && !strings.ContainsRune(".!?\n", rune(text[start-1])) {
		start--
	}
	for end < len(text) && !strings.ContainsRune(".!?\n", rune(text[end])) {
		end++
	}
	if end < len(text) && text[end] != '\n' {
		end++
	}
	return strings.TrimSpace(strings.Trim(text[start:end], "*#>- "))
}

// Truncate cuts s to at most n bytes at a rune boundary, marking the cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// cutCommand cuts a command to about n bytes, keeping what each command
// it chains runs: the first whole as far as it fits, the others by their
// program and subcommand ("git add lib/a.ex lib/b.ex … && git commit …"
// says a commit failed, where a plain cut ends inside the file list).
func cutCommand(c string, n int) string {
	if len(c) <= n {
		return c
	}
	parts := strings.Split(c, " && ")
	if len(parts) == 1 {
		return Truncate(c, n)
	}
	rest := parts[1:]
	for i, p := range rest {
		if f := strings.Fields(p); len(f) > 2 {
			rest[i] = f[0] + " " + f[1] + " …"
		}
	}
	tail := " && " + strings.Join(rest, " && ")
	return Truncate(parts[0], max(n-len(tail), 16)) + tail
}

func capList(l []string, n int) []string {
	if len(l) > n {
		return l[:n]
	}
	return l
}

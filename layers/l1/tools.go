package l1

import (
	"bytes"
	"encoding/json"
	"github.com/memkeep/memkeep/layers/redact"
	"github.com/memkeep/memkeep/layers/scrub"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/memkeep/memkeep/internal/jsonscan"
	"github.com/memkeep/memkeep/internal/wordmark"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Limits on what a tool record keeps. L1 is a memory of what happened, not
// a copy of the output: the transcript stays on disk for the details.
// A command keeps room for a commit's message, an edit for its first few
// changed lines: the value set, the function declared, the key added are
// what a later question about the change asks for, and they cost 11.7 %
// more L1 (the real transcripts refine to 3.03 % of their size, against
// 2.72 % with the first changed line and 300 bytes of a command).
const (
	maxCmd       = 600
	maxArg       = 160
	maxRes       = 160
	maxOkRes     = 100
	maxDiffLn    = 80
	maxDiffMore  = 8   // changed lines kept after the first
	maxDiffBytes = 640 // their bytes in all
)

// toolInput holds the input fields of the tools L1 summarises.
type toolInput struct {
	Command      string         `json:"command"`
	FilePath     string         `json:"file_path"`
	NotebookPath string         `json:"notebook_path"`
	Path         string         `json:"path"`
	Pattern      string         `json:"pattern"`
	Offset       jsontext.Value `json:"offset"`
	Limit        jsontext.Value `json:"limit"`
	OldString    string         `json:"old_string"`
	NewString    string         `json:"new_string"`
	Content      string         `json:"content"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
	Description  string `json:"description"`
	SubagentType string `json:"subagent_type"`
	Model        string `json:"model"`
	URL          string `json:"url"`
	Query        string `json:"query"`
	Skill        string `json:"skill"`
	Todos        []any  `json:"todos"`
	Questions    []struct {
		Options []struct {
			Label string `json:"label"`
		} `json:"options"`
	} `json:"questions"`
}

func (r *Refiner) toolCall(b block, f topFields, off int64) Record {
	rec := Record{TS: f.timestamp, Kind: KindTool, Off: off, Agent: agentOf(f), Tool: b.Name}
	var in toolInput
	_ = jsonv2.Unmarshal(b.Input, &in, decodeOpts) // unknown shapes fall back to Arg
	file := in.FilePath
	if file == "" {
		file = in.NotebookPath
	}
	switch b.Name {
	case "Bash":
		rec.Cmd = r.cleanCut(in.Command, maxCmd)
	case "Read":
		rec.File = r.path(file)
		if o, ok := jsonInt(in.Offset); ok {
			l, lok := jsonInt(in.Limit)
			if lok && l > 0 {
				rec.Lines = strconv.Itoa(o) + "-" + strconv.Itoa(o+l-1)
			} else {
				rec.Lines = strconv.Itoa(o) + "-"
			}
		}
	case "Edit":
		rec.File = r.path(file)
		rec.Diff = r.diffSummary(in.OldString, in.NewString)
	case "MultiEdit":
		rec.File = r.path(file)
		var olds, news []string
		for _, e := range in.Edits {
			olds = append(olds, e.OldString)
			news = append(news, e.NewString)
		}
		rec.Diff = r.diffSummary(strings.Join(olds, "\n"), strings.Join(news, "\n"))
	case "Write":
		rec.File = r.path(file)
		rec.Diff = r.diffSummary("", in.Content)
	case "NotebookEdit":
		rec.File = r.path(file)
	case "Grep", "Glob":
		rec.Pat = r.cleanCut(in.Pattern, maxArg)
		if in.Path != "" {
			rec.File = r.path(in.Path)
		}
	case "Task", "Agent":
		// The model a helper ran on, when the call chose one, is part of
		// what was asked of it ("Plan (haiku): Draft beads …").
		kind := in.SubagentType
		if in.Model != "" {
			kind = strings.TrimSpace(kind + " (" + in.Model + ")")
		}
		rec.Arg = r.cleanCut(strings.TrimSpace(kind+": "+in.Description), maxArg)
	case "WebFetch":
		rec.Arg = r.cleanCut(in.URL, maxArg)
	case "WebSearch":
		rec.Arg = r.cleanCut(in.Query, maxArg)
	case "Skill":
		rec.Arg = r.cleanCut(in.Skill, maxArg)
	case "TodoWrite":
		rec.Arg = strconv.Itoa(len(in.Todos)) + " todos"
	case "AskUserQuestion":
		// What was offered; the questions are told with their answers
		// (fillResult).
		var labels []string
		for _, q := range in.Questions {
			for _, o := range q.Options {
				labels = append(labels, oneLine(o.Label))
			}
		}
		if len(labels) == 0 {
			rec.Arg = r.cleanCut(compactJSON(b.Input), maxArg)
			break
		}
		rec.Arg = r.cleanCut("options: "+strings.Join(labels, "; "), maxArg)
	default:
		rec.Arg = r.cleanCut(compactJSON(b.Input), maxArg)
	}
	return rec
}

// resultMeta is what L1 reads from a line's toolUseResult: edit hunks and
// search counts. Only those members are decoded; the rest (whole file
// bodies in originalFile or file.content) is skipped by the scanner.
type resultMeta struct {
	patch                          []patchHunk
	numFiles, numLines, numMatches int
	hasFiles, hasLines, hasMatches bool
	startLine                      int // file.startLine of a Read
	fileLines                      int // file.numLines of a Read
}

type patchHunk struct {
	NewStart int `json:"newStart"`
	NewLines int `json:"newLines"`
}

func readResultMeta(v []byte) resultMeta {
	var m resultMeta
	if len(v) == 0 || v[0] != '{' {
		return m
	}
	_ = jsonscan.Members(v, func(key, val []byte) {
		switch string(key) {
		case "structuredPatch":
			_ = jsonv2.Unmarshal(val, &m.patch, decodeOpts)
		case "numFiles":
			m.numFiles, m.hasFiles = atoi(val)
		case "numLines":
			m.numLines, m.hasLines = atoi(val)
		case "numMatches":
			m.numMatches, m.hasMatches = atoi(val)
		case "file":
			_ = jsonscan.Members(val, func(k, v []byte) {
				switch string(k) {
				case "startLine":
					m.startLine, _ = atoi(v)
				case "numLines":
					m.fileLines, _ = atoi(v)
				}
			})
		}
	})
	return m
}

func atoi(v []byte) (int, bool) {
	n, err := strconv.Atoi(string(v))
	return n, err == nil
}

func (r *Refiner) toolResult(out []Record, b block, f topFields) []Record {
	idx := -1
	for i, p := range r.st.Tools {
		if p.ID == b.ToolUseID && !p.Done {
			idx = i
			break
		}
	}
	if idx < 0 {
		r.st.Stats.skip("orphan_tool_result")
		return out
	}
	r.fillResult(&r.st.Tools[idx].Rec, b, f)
	r.st.Tools[idx].Done = true
	return r.emitDone(out)
}

// fillResult completes a tool record from its tool_result block and the
// line's toolUseResult.
func (r *Refiner) fillResult(rec *Record, b block, f topFields) {
	text := resultText(b.Content)
	rec.Err = b.IsError
	switch rec.Tool {
	case "Bash":
		code := 0
		if rest, ok := strings.CutPrefix(text, "Exit code "); ok {
			num, tail, _ := strings.Cut(rest, "\n")
			if n, err := strconv.Atoi(strings.TrimSpace(num)); err == nil {
				code = n
				text = tail
			}
		} else if b.IsError {
			code = -1 // failed without a status (interrupted, denied, timed out)
		}
		if code >= 0 {
			rec.Exit = &code
		}
		rec.Err = b.IsError || code != 0
		rec.Res = r.short(text, rec.Err)
		// A command piped through head, tail or grep exits 0 whatever
		// crashed (`mix test 2>&1 | head -100` printing "** (Mix) Could
		// not start application opentelemetry" under its progress
		// lines): the crash is what a later question about the run
		// quotes, and the first line never says it.
		if _, rest, _ := strings.Cut(strings.TrimSpace(text), "\n"); !rec.Err && piped(rec.Cmd) {
			if c := crashLine(rest); c != "" {
				rec.Res += " … " + r.cleanCut(c, maxRes)
			}
		}
		if rec.Res != "" && !rec.Err && redact.PrintsSecret(rec.Cmd) {
			rec.Res = redact.CommandOutput
		}
	case "Read":
		if rec.Lines == "" && !rec.Err {
			// A whole-file read: Claude Code says which lines it returned;
			// older versions did not, and then the result is counted.
			if meta := readResultMeta(f.toolUseResult); meta.fileLines > 0 {
				rec.Lines = strconv.Itoa(max(meta.startLine, 1)) + "-" + strconv.Itoa(max(meta.startLine, 1)+meta.fileLines-1)
			} else if full := jsonscan.String(b.Content); full != "" {
				rec.Lines = "1-" + strconv.Itoa(strings.Count(strings.TrimSuffix(full, "\n"), "\n")+1)
			}
		}
		if rec.Err {
			rec.Res = r.short(text, true)
		}
	case "Edit", "MultiEdit", "Write":
		meta := readResultMeta(f.toolUseResult)
		if len(meta.patch) > 0 {
			first := meta.patch[0]
			last := meta.patch[len(meta.patch)-1]
			end := last.NewStart + last.NewLines - 1
			if end < first.NewStart {
				end = first.NewStart
			}
			rec.Lines = strconv.Itoa(first.NewStart) + "-" + strconv.Itoa(end)
		} else if rec.Tool == "Write" && !rec.Err {
			rec.Lines = "1-" + strconv.Itoa(countLines(rec.Diff))
		}
		if rec.Err {
			rec.Res = r.short(text, true)
		}
	case "Grep", "Glob":
		meta := readResultMeta(f.toolUseResult)
		switch {
		case rec.Err:
			rec.Res = r.short(text, true)
		case meta.hasMatches:
			rec.Res = strconv.Itoa(meta.numMatches) + " matches"
		case meta.hasLines && meta.numLines > 0:
			rec.Res = strconv.Itoa(meta.numLines) + " lines"
		case meta.hasFiles:
			rec.Res = strconv.Itoa(meta.numFiles) + " files"
		default:
			rec.Res = r.short(text, false)
		}
	case "AskUserQuestion":
		// The user's answers are the user's own words, a decision often
		// ("main was clean; fix the issues" to a question of skipping a
		// hook): kept whole, each with its question, where a result of
		// another tool keeps a line.
		if !rec.Err {
			if a := r.answers(f.toolUseResult); a != "" {
				rec.Res = a
				break
			}
		}
		rec.Res = r.short(text, rec.Err)
	default:
		rec.Res = r.short(text, rec.Err)
	}
}

// Limits on the answers to AskUserQuestion L1 keeps: each question is cut
// as an argument is, each answer kept up to maxAnswer.
const (
	maxQuestion = maxArg
	maxAnswer   = 400
)

// answers gives the answers of an AskUserQuestion result, each as
// `"answer" (asked: "question")`, in the order of the result's answers
// object; "" when it holds none. The answer comes first: a line shown
// cut (an excerpt of an answer) keeps it.
func (r *Refiner) answers(v []byte) string {
	if len(v) == 0 || v[0] != '{' {
		return ""
	}
	var parts []string
	_ = jsonscan.Members(v, func(key, val []byte) {
		if string(key) != "answers" || len(val) == 0 || val[0] != '{' {
			return
		}
		_ = jsonscan.Members(val, func(q, a []byte) {
			// A key is given raw, without its quotes.
			question := oneLine(jsonscan.String(append(append([]byte{'"'}, q...), '"')))
			answer := oneLine(jsonscan.String(a))
			if answer == "" {
				return
			}
			parts = append(parts, `"`+r.cleanCut(answer, maxAnswer)+`" (asked: "`+r.cleanCut(question, maxQuestion)+`")`)
		})
	})
	return strings.Join(parts, "; ")
}

// oneLine gives s on one line, its runs of white space one space each.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// emitDone writes the finished tool calls at the head of the queue, so that
// records keep the order of the calls even when results arrive out of order
// (parallel tool calls).
func (r *Refiner) emitDone(out []Record) []Record {
	n := 0
	for n < len(r.st.Tools) && r.st.Tools[n].Done {
		out = r.emit(out, r.st.Tools[n].Rec)
		n++
	}
	r.st.Tools = r.st.Tools[n:]
	if len(r.st.Tools) == 0 {
		r.st.Tools = nil
	}
	return out
}

// countLines reads the added-line count back out of a Write's diff summary.
func countLines(diff string) int {
	if n, err := strconv.Atoi(strings.TrimPrefix(strings.Fields(diff + " 0")[0], "+")); err == nil && n > 0 {
		return n
	}
	return 1
}

// short keeps the first meaningful line of a result.
func (r *Refiner) short(s string, isErr bool) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	limit := maxOkRes
	if isErr {
		limit = maxRes
	}
	line, rest, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	if isErr && !failureLine(line) {
		// A failed command's first line is often its progress
		// ("Compiling 4 files (.ex)"): the error is the first line that
		// says what failed ("error: undefined function get/2"), which
		// questions about the failure quote.
		for l := range strings.Lines(rest) {
			if l = bareLine(l); failureLine(l) {
				line, rest = l, ""
				break
			}
		}
	}
	// An error whose first line introduces what follows ("The following
	// paths are ignored by one of your .gitignore files:") is told by the
	// lines it introduces, as far as the limit allows.
	if isErr && strings.HasSuffix(line, ":") {
		for rest != "" && len(line) < limit {
			var next string
			next, rest, _ = strings.Cut(rest, "\n")
			if next = strings.TrimSpace(next); next != "" {
				line += " " + next
			}
		}
	}
	out := r.cleanCut(line, limit)
	// A test run is told by its tally, the last line of its output
	// ("14 doctests, 297 tests, 11 failures"): how many failed is what a
	// later question about the run asks ("the tests went red with 11
	// failures"), and neither the first line nor the first failure line
	// says it. A run piped through tail exits 0 whatever failed.
	if t := testTally(s); t != "" && !strings.Contains(out, t) {
		out += " … " + r.cleanCut(t, maxTally)
	}
	return out
}

// maxTally bounds the test tally a command's result keeps.
const maxTally = 80

// tallyReach is how many of the last lines of a result are read for a
// test tally: a runner prints it at the end, a timing line or two after.
const tallyReach = 6

// testTally gives the tally a test runner printed at the end of out: a
// line counting failures ("11 failures", "2 failed", "1 error") beside
// what it ran ("297 tests", "5 passed", "6 total"); "" if none of the
// last lines is one.
func testTally(out string) string {
	rest := strings.TrimRight(out, "\n ")
	for range tallyReach {
		if rest == "" {
			break
		}
		line := rest
		if i := strings.LastIndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[i+1:], rest[:i]
		} else {
			rest = ""
		}
		if l := strings.Trim(strings.TrimSpace(line), "=-* "); tallyLine(l) {
			return strings.Join(strings.Fields(l), " ")
		}
	}
	return ""
}

// tallyLine reports whether a line is a test tally: a number before a
// word of failing, and a number before a word of what ran.
func tallyLine(l string) bool {
	failed, ran := false, false
	words := strings.FieldsFunc(strings.ToLower(l), func(r rune) bool {
		return r == ' ' || r == ',' || r == ';' || r == '|' || r == '(' || r == ')' || r == '\t'
	})
	for i := 1; i < len(words); i++ {
		if !allDigits(words[i-1]) {
			continue
		}
		switch strings.TrimSuffix(words[i], ".") {
		case "failure", "failures", "failed", "error", "errors":
			failed = true
		case "test", "tests", "doctest", "doctests", "passed", "total", "example", "examples", "spec", "specs":
			ran = true
		}
	}
	return failed && ran
}

// allDigits reports whether s is a number of digits only.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// bareLine gives a line of output without the gutter a compiler draws
// before it ("     │", "> ") and its spaces.
func bareLine(l string) string { return strings.TrimSpace(strings.TrimLeft(l, " │|>")) }

// crashLine gives the first line of out that says a program crashed or
// stopped on an error, as it begins: "** (Mix) Could not start
// application", "error: could not compile", "fatal: not a git
// repository", "panic:", a Python traceback; "" if none does. A line that
// only holds a word of failure (a test named "handles errors") is none.
func crashLine(out string) string {
	for l := range strings.Lines(out) {
		l = bareLine(l)
		lower := strings.ToLower(l)
		if strings.HasPrefix(l, "** (") || slices.ContainsFunc(crashOpens, func(p string) bool { return strings.HasPrefix(lower, p) }) {
			return l
		}
	}
	return ""
}

// piped reports whether a shell command pipes a program's output into
// another, whose status is the command's.
func piped(cmd string) bool {
	return strings.Contains(strings.ReplaceAll(cmd, "||", ""), "|")
}

// crashOpens open a line of output that stops a program, lower case.
var crashOpens = []string{"error:", "fatal:", "panic:", "traceback (most recent call last)"}

// failureLine reports whether a line of output says what failed: it
// holds a word of failure at a word's start ("error:", "** (KeyError)",
// "fatal: not a git repository", "FAILED").
func failureLine(line string) bool {
	return wordmark.Opens(line, failureMarks) || strings.HasPrefix(line, "** (")
}

// failureMarks are the words with which output says what failed.
var failureMarks = []string{"error", "fail", "fatal", "exception", "panic", "traceback", "cannot", "can't", "could not",
	"undefined", "not found", "no such", "denied", "refused", "timed out", "rejected", "invalid", "aborted", "killed"}

// maxResultRead bounds how much of a tool result is unquoted: L1 keeps
// only its first line, and a result can hold a whole file.
const maxResultRead = 64 << 10

// resultText returns the head of a tool_result's content (a string, or the
// text blocks of an array): at most about maxResultRead bytes of it.
func resultText(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		return jsonscan.String(stringHead(v, maxResultRead))
	case '[':
		var sb strings.Builder
		_ = jsonscan.Elements(v, func(el []byte) {
			if sb.Len() >= maxResultRead {
				return
			}
			var typ string
			var text []byte
			_ = jsonscan.Members(el, func(key, val []byte) {
				switch string(key) {
				case "type":
					typ = jsonscan.String(val)
				case "text":
					text = val
				}
			})
			if typ == "text" && len(text) > 2 {
				if sb.Len() > 0 {
					sb.WriteByte('\n')
				}
				sb.WriteString(jsonscan.String(stringHead(text, maxResultRead)))
			}
		})
		return sb.String()
	}
	return ""
}

// stringHead cuts a raw JSON string value to about n bytes, never inside an
// escape sequence, and closes it again.
func stringHead(v []byte, n int) []byte {
	if len(v) <= n+2 {
		return v
	}
	cut := n
	// Step back over a cut escape: a run of backslashes must be even, and
	// a \uXXXX must be whole.
	for i := cut - 1; i >= cut-6 && i > 0; i-- {
		if v[i] == '\\' {
			bs := 0
			for j := i; j > 0 && v[j] == '\\'; j-- {
				bs++
			}
			if bs%2 == 1 {
				cut = i
			}
			break
		}
	}
	out := make([]byte, 0, cut+1)
	return append(append(out, v[:cut]...), '"')
}

// diffSummary says how many lines an edit added and removed, and shows the
// first changed lines of the new text (of the old one when nothing was
// added, each marked "-"), one per line.
func (r *Refiner) diffSummary(old, new string) string {
	// The changed line shown may be the body of a private key whose
	// BEGIN line did not change: key bodies match no rule on their own, so
	// the texts are cleaned whole first (a key block becomes one mark).
	// Beyond maxDiffClean a text is not cleaned whole, and a key in it
	// hides the line.
	cleaned := len(old) <= maxDiffClean && len(new) <= maxDiffClean
	if cleaned {
		old, new = r.clean(old), r.clean(new)
	}
	ol, nl := splitLines(old), splitLines(new)
	// Trim the common prefix and suffix so "+A -R" counts changed lines.
	p := 0
	for p < len(ol) && p < len(nl) && ol[p] == nl[p] {
		p++
	}
	s := 0
	for s < len(ol)-p && s < len(nl)-p && ol[len(ol)-1-s] == nl[len(nl)-1-s] {
		s++
	}
	added, removed := nl[p:len(nl)-s], ol[p:len(ol)-s]
	sum := "+" + strconv.Itoa(len(added)) + " -" + strconv.Itoa(len(removed))
	lines, other, mark := added, removed, ""
	first, at := firstSaying(lines)
	if first == "" {
		lines, other, mark = removed, added, "-"
		first, at = firstSaying(lines)
	}
	switch {
	case first == "":
		return sum
	case cleaned:
		sum += " " + mark + truncate(first, maxDiffLn)
	case strings.Contains(old, "PRIVATE KEY") || strings.Contains(new, "PRIVATE KEY"):
		return sum + " [REDACTED:private-key]"
	default:
		// A text too long to clean whole is cleaned line by line, and a
		// secret over several lines could pass: only its first line shows.
		return sum + " " + mark + r.cleanCut(first, maxDiffLn)
	}
	// The room goes first to the lines the edit wrote anew, then to those
	// it only moved or indented again (the body of a pipeline wrapped in
	// "args ="), which would otherwise take the room of the new code
	// below them (the helper the edit added), and last to the items of a
	// list, one per line (":uuid,"), which would take the room of the
	// options after the list (upsert_fields [:content, :type, :role]);
	// they are shown in the edit's order.
	rest := lines[at+1:]
	fresh := newLines(rest, other)
	// Each line as shown, and its turn: 0 written anew, 1 moved, 2 more
	// for a list's item; -1 for a line that says nothing.
	shown := make([]string, len(rest))
	turn := make([]int, len(rest))
	for i, l := range rest {
		t := strings.TrimSpace(l)
		shown[i] = mark + truncate(t, maxDiffLn)
		switch {
		case !saying(t) || blockWord(t):
			turn[i] = -1
			continue
		case !fresh[i]:
			turn[i] = 1
		}
		if listItem(t) {
			turn[i] += 2
		}
	}
	take := make([]bool, len(rest))
	kept, size := 0, 0
	for want := range 4 {
		for i := range rest {
			if turn[i] != want {
				continue
			}
			if kept == maxDiffMore || size+len(shown[i]) > maxDiffBytes {
				break
			}
			take[i] = true
			kept++
			size += len(shown[i])
		}
	}
	for i := range rest {
		if take[i] {
			sum += "\n" + shown[i]
		}
	}
	return sum
}

// newLines marks the lines of a that b does not hold, told apart by
// their text without the spaces around it, each line of b matching one
// of a.
func newLines(a, b []string) []bool {
	held := map[string]int{}
	for _, l := range b {
		held[strings.TrimSpace(l)]++
	}
	out := make([]bool, len(a))
	for i, l := range a {
		if t := strings.TrimSpace(l); held[t] > 0 {
			held[t]--
			continue
		}
		out[i] = true
	}
	return out
}

// firstSaying gives the first of lines that says something, and where it
// is: that holds a letter or a digit, not only the punctuation that opens
// a comment or closes a block ("/**", "},"), which tells a reader nothing
// of the edit; failing that, the first that is not blank.
func firstSaying(lines []string) (string, int) {
	blank, blankAt := "", 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if saying(t) {
			return t, i
		}
		if blank == "" {
			blank, blankAt = t, i
		}
	}
	return blank, blankAt
}

// blockWord reports whether a line is only a word that opens, turns or
// closes a block (do, else, end, fi, done): it says nothing of the edit,
// and a changed line kept in its place could.
func blockWord(t string) bool {
	switch strings.TrimRight(t, ";") {
	case "end", "do", "else", "fi", "done", "esac", "then", "begin", "endif", "endfor", "endwhile":
		return true
	}
	return false
}

// listItem reports whether a line is one item of a list written one per
// line: a single word and its comma (":uuid,", "\"debug\",").
func listItem(t string) bool {
	item, ok := strings.CutSuffix(t, ",")
	return ok && item != "" && !strings.ContainsAny(item, " \t")
}

// saying reports whether a line holds a letter or a digit.
func saying(t string) bool {
	return strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func jsonInt(v jsontext.Value) (int, bool) {
	if len(v) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.Trim(string(v), `"`))
	return n, err == nil
}

func compactJSON(v jsontext.Value) string {
	if len(v) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}

// cleanCut is clean and then truncate: cut first, a secret that straddles
// the cut would lose the tail its redaction rule recognises it by, and its
// head would be kept. scrub.Bound keeps the cleaning of a huge text short.
func (r *Refiner) cleanCut(s string, n int) string {
	return truncate(r.clean(scrub.Bound(s, n)), n)
}

// maxDiffClean is the largest old or new text of an edit diffSummary
// cleans whole.
const maxDiffClean = 256 << 10

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// path writes a tool's target file repo-relative when it is under the
// project root, home-relative when under a home folder.
func (r *Refiner) path(p string) string {
	if p == "" {
		return ""
	}
	if sr := r.st.SessionRoot; sr != "-" && sr != "" && (p == sr || strings.HasPrefix(p, sr+"/")) {
		return scrub.Path(p, sr)
	}
	return scrub.Path(p, r.st.Root)
}

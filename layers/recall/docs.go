package recall

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/jsonscan"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

// Field weights: how much a term found in each field counts. A path, a
// command or a search pattern names the thing itself; a summary names the
// exchange; a tool's result and assistant prose hold many words each
// said in passing.
const (
	wPrompt   = 1.2
	wText     = 1.0
	wCompact  = 0.4
	wPath     = 1.6
	wCmd      = 1.3
	wProse    = 0.5
	wScript   = 0.5
	wPattern  = 1.3
	wDiff     = 1.2
	wDiffBody = 0.6
	wArg      = 1.0
	wResult   = 0.8
	wToolNm   = 0.3

	wSummary = 2.0
	wDetails = 1.0
	wKeyword = 1.5
	wName    = 2.0
)

// wSummaryCompact weighs a compaction summary: a retelling of the whole
// session that holds most of a question's words and seldom the line that
// answers it (in the twenty-second session it was the first answer of
// 199 of the 682 questions whose first answer missed). Over 53 sets'
// 2,205 answerable questions, 0.4 (wCompact) gave hit@1 1,539, hit@5
// 2,008 and the prompt hook 1,455; 0.25 gave 1,542, 2,014 and 1,468;
// 0.15 1,543, 2,017 and 1,487; 0.08 1,538, 2,016 and 1,490.
const wSummaryCompact = 0.15

// tailSpan is how many bytes before an L1 range's end are hashed to tell
// an appended file (same bytes) from a rewritten one.
const tailSpan = 256

func tailHash(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b[max(0, len(b)-tailSpan):])
	return h.Sum64()
}

// addL1 indexes the L1 records in data, the bytes [from, from+len(data))
// of the file name, whose first line is line firstLine. Only whole lines
// are indexed; it returns the end of the last one.
//
// prefix holds the bytes of the file just before from (at least tailSpan
// of them when there are that many), for the hash of the range's end.
func (b *segmentBuilder) addL1(name, stamp string, data []byte, from uint64, firstLine uint32, prefix []byte) uint64 {
	end := bytes.LastIndexByte(data, '\n') + 1
	data = data[:end]
	tail := data
	if len(data) < tailSpan {
		tail = append(slices.Clone(prefix[max(0, len(prefix)-tailSpan):]), data...)
	}
	b.startSource(source{Name: name, Stamp: stamp, From: from, To: from + uint64(end), Tail: tailHash(tail), Line: firstLine})
	line := firstLine
	off := from
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n')
		rec := data[:n]
		if len(bytes.TrimSpace(rec)) > 0 {
			b.addL1Record(rec, line, off)
		}
		data = data[n+1:]
		off += uint64(n + 1)
		line++
	}
	b.sources[len(b.sources)-1].NextLine = line
	return from + uint64(end)
}

// l1Fields are the members of an L1 record that are searched.
type l1Fields struct {
	ts, kind, agent, text, tool, file, cmd, pat, diff, arg, res string
	failed                                                      bool
}

func scanL1(rec []byte) (f l1Fields, ok bool) {
	err := jsonscan.Members(rec, func(key, val []byte) {
		switch string(key) {
		case "ts":
			f.ts = jsonscan.String(val)
		case "k":
			f.kind = jsonscan.String(val)
		case "agent":
			f.agent = jsonscan.String(val)
		case "text":
			f.text = jsonscan.String(val)
		case "tool":
			f.tool = jsonscan.String(val)
		case "file":
			f.file = jsonscan.String(val)
		case "cmd":
			f.cmd = jsonscan.String(val)
		case "pat":
			f.pat = jsonscan.String(val)
		case "diff":
			f.diff = jsonscan.String(val)
		case "arg":
			f.arg = jsonscan.String(val)
		case "res":
			f.res = jsonscan.String(val)
		case "err":
			f.failed = f.failed || string(val) == "true"
		case "exit":
			f.failed = f.failed || string(val) != "0" && string(val) != "null"
		}
	})
	return f, err == nil
}

func (b *segmentBuilder) addL1Record(rec []byte, line uint32, off uint64) {
	f, ok := scanL1(rec)
	if !ok {
		return
	}
	d := doc{Layer: layerL1, Line: line, LineTo: line, Off: off, Weight: 0.5, Time: unixOf(f.ts)}
	switch f.kind {
	case "prompt":
		d.Kind = kindPrompt
		w := float32(wPrompt)
		if notTyped(f.text) {
			w = wCompact // a background task's notice or a slash command's output
		}
		b.field(f.text, w)
	case "text":
		d.Kind = kindText
		b.field(f.text, wText)
	case "compact":
		d.Kind = kindCompact
		b.field(f.text, wSummaryCompact)
	case "tool":
		d.Kind = kindTool
		b.field(f.tool, wToolNm)
		b.field(f.file, wPath)
		code, prose, script := splitProse(f.cmd)
		b.field(code, wCmd)
		b.field(prose, wProse)
		b.field(script, wScript)
		b.field(f.pat, wPattern)
		// An edit's summary line (its counts and first changed line)
		// says what the edit was; the changed lines after it are the
		// code it wrote, weighed as a body is.
		head, body, _ := strings.Cut(f.diff, "\n")
		b.field(head, wDiff)
		b.field(body, wDiffBody)
		b.field(f.arg, wArg)
		b.field(f.res, wResult)
		if f.failed {
			d.Flags |= flagFailed
		}
		// Its changed lines, the first after the counts, set a duration.
		if len(durations(withoutDiffStat(f.diff))) > 0 {
			d.Flags |= flagDuration
		}
		if f.diff != "" && isRouter(f.file) {
			d.Flags |= flagRouteDef
		}
		if f.file != "" || namesPath(f.cmd) {
			d.Flags |= flagPath
		}
	default:
		return
	}
	if d.Kind != kindTool && namesPath(f.text) {
		d.Flags |= flagPath
	}
	if namesRoute(f.text) || namesRoute(f.diff) || namesRoute(f.cmd) || isRouter(f.file) {
		d.Flags |= flagRoute
	}
	switch {
	case d.Kind == kindCompact:
		// A compaction summary retells the session: it is shown beside
		// whichever lines it follows.
		d.Thread = threadAny
	case f.agent != "":
		d.Weight = 0.4 // a subagent's work, beside the session's own
		d.Thread = threadOf(f.agent)
	}
	b.endDoc(d)
}

// threadOf gives a subagent's conversation a number from 1 to 254: two
// subagents written one after the other are told apart unless their ids
// collide, 1 in 254.
func threadOf(agent string) uint8 {
	h := fnv.New32a()
	h.Write([]byte(agent))
	return uint8(1 + h.Sum32()%254)
}

// namesPath reports whether s names a file by a path: a word with a
// slash whose last part has an extension (lib/app/router.ex,
// priv/scripts/tail.sh).
func namesPath(s string) bool {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '/')
		if j < 0 {
			return false
		}
		j += i
		// The word around the slash.
		start := j
		for start > 0 && !pathStop(s[start-1]) {
			start--
		}
		end := j + 1
		for end < len(s) && !pathStop(s[end]) {
			end++
		}
		word := strings.TrimRight(s[start:end], ".,:;!?")
		last := word[strings.LastIndexByte(word, '/')+1:]
		if dot := strings.LastIndexByte(last, '.'); dot > 0 && dot < len(last)-1 && len(last)-dot-1 <= 6 && start < j &&
			!strings.ContainsFunc(last[dot+1:], func(r rune) bool { return !isWordRune(r) }) {
			return true
		}
		i = max(end, j+1)
	}
	return false
}

func pathStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '`', '"', '\'', '(', ')', '[', ']', '<', '>', '{', '}', ',', '|', '=':
		return true
	}
	return false
}

// notTyped reports whether a prompt is markup Claude Code sent in the
// user's place: a background task's notification, a slash command, its
// output.
func notTyped(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<task-notification>") || strings.HasPrefix(t, "<command-") || strings.HasPrefix(t, "<local-command")
}

// addSession indexes an L2 file: its exchanges and facts.
func (b *segmentBuilder) addSession(name, stamp string, f *l2.File) {
	base := f.Base()
	if base == "" {
		base = strings.TrimSuffix(strings.TrimPrefix(name, "sessions/"), ".l2.json")
	}
	latest := l2.LatestActivity([]*l2.File{f})
	b.startSource(source{Name: name, Stamp: stamp, Tail: uint64(max(0, latest.Unix()))})
	// memkeep's record of an exchange the agent recorded too speaks with
	// the agent's words (the hit's text, the context of its L1 lines);
	// its files, commands and range stay its own.
	speakers := l2.Speakers(f.Exchanges)
	for _, list := range [][]l2.Exchange{f.Exchanges, f.Facts} {
		for i := range list {
			e := &list[i]
			text := e.Summary
			if c := speakers[e.ID]; c != nil {
				text = c.Summary
			}
			kind := uint8(kindExchange)
			if e.IsFact() {
				kind = kindFact
			}
			b.field(e.Summary, wSummary)
			b.field(e.Details, wDetails)
			b.field(strings.Join(e.Keywords, " "), wKeyword)
			for _, p := range e.Files {
				b.field(p, wPath)
			}
			for _, p := range e.Read {
				b.field(p, wPath/3)
			}
			for _, c := range e.Commands {
				b.field(c, wCmd/2)
			}
			b.field(e.Rule, wSummary)
			for _, pf := range e.Problems() {
				b.field(pf.Problem, wDetails)
				b.field(pf.Fix, wDetails)
			}
			b.field(e.File, wPath)
			src := "sessions/" + base + ".l1.jsonl"
			if e.IsFact() {
				src = e.File
				if e.Lines != "" {
					src += ":" + e.Lines
				}
			}
			b.endDoc(doc{
				Layer: layerL2, Kind: kind, Line: uint32(max(0, e.L1Range[0])), LineTo: uint32(max(0, e.L1Range[1])),
				Weight: float32(e.Significance), Time: unixOf(max(e.Created, e.Updated)), Expires: dayOf(e.Expires),
				Payload: joinPayload([pFields]string{clean(e.ID), clean(text), base, clean(e.Concept), clean(src)}),
			})
		}
	}
}

// addConcepts indexes concepts.json.
func (b *segmentBuilder) addConcepts(name, stamp string, f *l3.File) {
	b.startSource(source{Name: name, Stamp: stamp})
	for _, c := range f.Concepts {
		b.field(c.Name, wName)
		b.field(c.Summary, wDetails)
		b.field(strings.Join(c.Keywords, " "), wKeyword)
		for _, p := range c.Files {
			b.field(p, wPath/2)
		}
		text := c.Name
		if c.Summary != "" {
			text += ": " + c.Summary
		}
		b.endDoc(doc{Layer: layerL3, Kind: kindConcept, Weight: 0.8, Time: unixOf(c.Updated),
			Payload: joinPayload([pFields]string{clean(c.ID), clean(text), "", clean(c.ID), strconv.Itoa(len(c.Exchanges)) + " exchanges"})})
	}
}

// addFacts indexes facts.json: rules, solutions and core logic.
func (b *segmentBuilder) addFacts(name, stamp string, f *l4.Facts) {
	b.startSource(source{Name: name, Stamp: stamp})
	sessions := func(ss []string) string {
		if len(ss) == 0 {
			return ""
		}
		return "sessions " + strings.Join(ss, ", ")
	}
	for _, r := range f.Rules {
		b.field(r.Text, wSummary)
		b.endDoc(doc{Layer: layerL4, Kind: kindRule, Weight: float32(r.Confidence), Time: unixOf(r.Updated),
			Payload: joinPayload([pFields]string{clean(r.ID), clean(r.Text), "", "", clean(sessions(r.Sessions))})})
	}
	for _, s := range f.Solutions {
		b.field(s.Problem, wSummary)
		b.field(s.Solution, wSummary)
		b.field(strings.Join(s.Attempts, " "), wDetails)
		for _, p := range s.Files {
			b.field(p, wPath)
		}
		b.endDoc(doc{Layer: layerL4, Kind: kindSolution, Weight: float32(s.Confidence), Time: unixOf(s.Updated),
			Payload: joinPayload([pFields]string{clean(s.ID), clean(solutionText(s)), "", "", clean(sessions(s.Sessions))})})
	}
	for _, k := range f.CoreLogic {
		b.field(k.Text, wSummary)
		for _, p := range k.Files {
			b.field(p, wPath)
		}
		b.endDoc(doc{Layer: layerL4, Kind: kindCoreLogic, Weight: float32(k.Confidence), Time: unixOf(k.Updated),
			Payload: joinPayload([pFields]string{clean(k.ID), clean(k.Text), "", "", clean(sessions(k.Sessions))})})
	}
}

// solutionText shows a solution: the problem, the fix it shows (the one
// that answers the error), and the other fixes that worked.
func solutionText(s l4.Solution) string {
	t := s.Problem + " → " + s.Solution
	var others []string
	for _, a := range s.Attempts {
		if a != s.Solution {
			others = append(others, a)
		}
	}
	if len(others) > 0 {
		t += " (also: " + strings.Join(others, "; ") + ")"
	}
	return t
}

// clean keeps a payload field free of the separator.
func clean(s string) string { return strings.ReplaceAll(s, payloadSep, " ") }

func unixOf(ts string) int64 {
	if ts == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return 0
	}
	return t.Unix()
}

func dayOf(date string) uint32 {
	if date == "" {
		return 0
	}
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return 0
	}
	return uint32(max(0, t.Unix()/86400))
}

// splitProse parts a command into its code, the prose quoted in it (a
// commit message, an issue's description or closing reason) and the
// programs quoted in it (python3 -c "…" over several lines). The prose
// retells work done elsewhere in the session, where the answer is; as a
// command it would outweigh it. A quoted program's words are its
// language's (line, print, load, type), which the thesaurus finds for a
// question's plain words: they count as little as prose's, not as a
// command's (a failed Python one-liner ranked first for four questions
// in other words of fresh29 and fresh30; it still does, on its result's
// words and its neighbours', by less).
func splitProse(cmd string) (code, prose, script string) {
	var c, p, sc strings.Builder
	for i := 0; i < len(cmd); {
		q := cmd[i]
		if q != '"' && q != '\'' {
			c.WriteByte(q)
			i++
			continue
		}
		end := i + 1
		for end < len(cmd) && cmd[end] != q {
			if q == '"' && cmd[end] == '\\' {
				end++
			}
			end++
		}
		quoted := cmd[i+1 : min(end, len(cmd))]
		switch {
		case isProse(quoted):
			p.WriteString(quoted)
			p.WriteByte('\n')
		case isScript(quoted):
			sc.WriteString(quoted)
			sc.WriteByte('\n')
		default:
			c.WriteString(cmd[i:min(end+1, len(cmd))])
		}
		i = end + 1
	}
	return c.String(), p.String(), sc.String()
}

// isScript reports whether quoted code is a program of several lines.
func isScript(s string) bool { return strings.Count(strings.TrimSpace(s), "\n") >= 2 }

// isProse reports whether quoted text reads as sentences, not code: a
// few words, hardly any of code's punctuation.
func isProse(s string) bool {
	if strings.HasPrefix(s, "$(cat <<") {
		// A heredoc: the text starts on its next line.
		_, s, _ = strings.Cut(s, "\n")
	}
	if len(s) < 40 || strings.Count(s, " ") < 5 {
		return false
	}
	code := 0
	for _, r := range s {
		switch r {
		case '{', '}', '[', ']', ';', '=', '<', '>', '|', '$', '\\':
			code++
		}
	}
	return code*30 < len(s)
}

// namesRoute reports whether s names a web route: a path from the root of
// two parts or more, or one with a parameter, none a file's name
// ("/projects/:project_id/review", "POST /api/hooks/session-end"), and
// not a place in the file system (/tmp/…, /home/…).
func namesRoute(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || i > 0 && !pathStop(s[i-1]) {
			continue
		}
		end := i + 1
		for end < len(s) && !pathStop(s[end]) {
			end++
		}
		route := strings.TrimRight(s[i:end], ".,;!?")
		parts := strings.Split(route[1:], "/")
		if len(parts) < 2 && !strings.HasPrefix(route, "/:") || slices.Contains(systemDirs, parts[0]) {
			i = end
			continue
		}
		if !slices.ContainsFunc(parts, func(p string) bool { return !isRouteWord(strings.TrimPrefix(p, ":")) }) {
			return true
		}
		i = end
	}
	return false
}

// isRouteWord reports whether p is a part of a route: lower-case letters,
// digits, - and _, at least one.
func isRouteWord(p string) bool {
	return p != "" && !strings.ContainsFunc(p, func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_')
	})
}

// systemDirs are the first parts of a path in the file system, not a
// route.
var systemDirs = []string{"bin", "dev", "etc", "home", "lib", "mnt", "opt", "proc", "root", "run", "sys", "tmp", "usr", "var", "users", "private", "workspace", "workspaces"}

// isRouter reports whether a file is a web app's routing table.
func isRouter(file string) bool {
	base := file[strings.LastIndexByte(file, '/')+1:]
	name, _, _ := strings.Cut(base, ".")
	return name == "router" || name == "routes" || name == "urls"
}

package recall

import (
	"bytes"
	"cmp"
	"maps"
	mathbits "math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// snippetMax bounds a snippet, in bytes; excerptMax and excerptLine the
// lines around it given with it (the prompt hook shows them all for its
// best answer, `memkeep recall` three).
const (
	snippetMax  = 320
	excerptMax  = 8
	excerptLine = 200
)

// readLine reads the L1 line at off of the file name.
func (ix *Index) readLine(name string, off uint64) []byte {
	f, ok := ix.open[name]
	if !ok {
		f, _ = ix.l.OpenNoFollow(filepath.Join(ix.l.MemoryDir(), filepath.FromSlash(name)), os.O_RDONLY, 0)
		if ix.open == nil {
			ix.open = map[string]*os.File{}
		}
		ix.open[name] = f
	}
	if f == nil {
		return nil
	}
	var out []byte
	// One buffer for every line a query reads: on the stack, its 16 KiB
	// made the goroutine's stack grow, copied, twice over.
	if ix.lineBuf == nil {
		ix.lineBuf = make([]byte, 16<<10)
	}
	buf := ix.lineBuf
	for len(out) < 4<<20 {
		n, _ := f.ReadAt(buf, int64(off)+int64(len(out)))
		if n == 0 {
			break
		}
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return append(out, buf[:i]...)
		}
		out = append(out, buf[:n]...)
	}
	return out
}

// l1Record gives the fields of the L1 record of a document.
func (ix *Index) l1Record(at docRef, d doc) (l1Fields, string) {
	name := ix.sourceName(at)
	f, _ := scanL1(ix.readLine(name, d.Off))
	return f, name
}

// sourceName gives the name of the file a document was read from.
func (ix *Index) sourceName(at docRef) string {
	s := ix.segs[at.seg]
	return s.source(s.sourceOf(int(at.doc))).Name
}

// docText is the searchable text of a document.
func (ix *Index) docText(at docRef, d doc) string {
	if d.Layer != layerL1 {
		return splitPayload(d.Payload)[pText]
	}
	f, _ := ix.l1Record(at, d)
	return f.joined()
}

// joined is the searchable text of an L1 record's fields.
func (f l1Fields) joined() string {
	return strings.Join([]string{f.text, f.file, f.cmd, f.pat, f.diff, f.arg, f.res}, "\n")
}

// snippets picks the parts of records that hold a query's terms, each
// term weighed by its inverse document frequency. One serves every answer
// of a search, so that the stems of the records' words are worked out
// once.
type snippets struct {
	tok     *tokenizer
	index   map[string]int // a term's bit
	weights []float64      // by bit
	// intent is what the question asks for: where (a sentence that
	// names a file is then the likelier answer of a long text's), how
	// many or how long (a sentence that holds a number, or a duration),
	// what failed (a sentence quoting the failure).
	intent intent
}

// newSnippets weighs the query's own terms (not those feedback added).
func newSnippets(qs []qterm, tok *tokenizer) *snippets {
	terms := map[string]float64{}
	for _, q := range qs {
		if q.orig >= 0 {
			terms[q.term] = q.weight * q.idf
		}
	}
	return newSnippetsOf(terms, tok)
}

// newSnippetsOf makes the snippets of terms, each with its weight.
func newSnippetsOf(terms map[string]float64, tok *tokenizer) *snippets {
	sn := &snippets{tok: tok, index: map[string]int{}}
	for _, t := range slices.Sorted(maps.Keys(terms)) {
		if len(sn.weights) < 64 {
			sn.index[t] = len(sn.weights)
			sn.weights = append(sn.weights, terms[t])
		}
	}
	return sn
}

// shown is the record an answer is shown at, read once: the record of
// its window that holds the most of the question, or, for an exchange
// that ranked first, its best record; else its own. For an L1 record,
// its fields and file; and the snippet the answer opens with.
type shown struct {
	at      docRef
	d       doc
	f       l1Fields
	name    string
	snippet string
}

// shownAt reads the record u is shown at and gives its snippet.
func (ix *Index) shownAt(u unit, sn *snippets) shown {
	s := shown{at: u.at, d: u.d}
	if u.best != nil {
		s.at = *u.best
	} else if u.place != nil {
		s.at = *u.place
	}
	if s.at != u.at {
		s.d = ix.segs[s.at.seg].doc(int(s.at.doc))
	}
	if s.d.Layer == layerL1 {
		s.f, s.name = ix.l1Record(s.at, s.d)
		s.snippet = sn.record(s.f)
	} else {
		s.snippet = sn.focus(splitPayload(u.d.Payload)[pText], snippetMax)
	}
	return s
}

// hit turns a unit, shown at s (shownAt), into an answer.
func (ix *Index) hit(u unit, sn *snippets, s shown) Hit {
	h := Hit{Score: round2(u.score), Coverage: round2(u.coverage), Expired: u.expired, Snippet: s.snippet}
	p := splitPayload(u.d.Payload)
	h.Layer = "L" + string(rune('0'+u.d.Layer))
	h.Kind = kindNames[u.d.Kind]
	if u.d.Time > 0 {
		h.Time = time.Unix(u.d.Time, 0).UTC().Format(time.RFC3339)
	}
	place, placeDoc := s.at, s.d
	if u.d.Layer != layerL1 {
		h.ID, h.Text, h.Session = p[pID], p[pText], p[pSession]
		switch u.d.Layer {
		case layerL2:
			h.File = p[pSource]
			if u.d.Line > 0 {
				h.Lines = [2]int{int(u.d.Line), int(u.d.LineTo)}
			}
			if c := ix.conceptRef(p[pConcept]); c != nil {
				h.Concept = c
			}
		case layerL4:
			h.File = p[pSource]
		}
	}
	if placeDoc.Layer == layerL1 {
		f, name := s.f, s.name
		if u.d.Layer == layerL1 {
			h.ID = sessionOf(name) + ":" + itoa(int(placeDoc.Line))
			h.Session = sessionOf(name)
		}
		h.File = name
		h.Lines = [2]int{int(u.lines[0]), int(u.lines[1])}
		h.Further = sn.further(f, h.Snippet)
		// The other lines around it that hold the question's words, in
		// file order: what was said before and after.
		// The best-scored of them are kept, and shown in file order; the
		// rank of each says which a shorter answer keeps (ForPrompt).
		type line struct {
			at    docRef
			score float32
			rank  int
		}
		var others []line
		for i, r := range u.window {
			if r != place {
				sc := u.wscore[i]
				if sn.intent.place && ix.segs[r.seg].doc(int(r.doc)).Flags&flagPath != 0 {
					sc *= fileSentenceLift // asked where, the lines naming a file
				}
				others = append(others, line{at: r, score: sc})
			}
		}
		if place != u.at && u.d.Layer == layerL1 {
			others = append(others, line{at: u.at, score: float32(u.raw)})
		}
		slices.SortStableFunc(others, func(a, b line) int { return cmp.Compare(b.score, a.score) })
		// A line that reads as one kept already (a commit tried again,
		// the same file read twice) gives its room to the next.
		type kept struct {
			line
			text string
		}
		var keep []kept
		seen := []string{opening(h.Snippet, dupPrefix)}
		for _, o := range others {
			if len(keep) == excerptMax {
				break
			}
			rf, _ := ix.l1Record(o.at, ix.segs[o.at.seg].doc(int(o.at.doc)))
			text := sn.focus(sn.record(rf), excerptLine)
			open := opening(text, dupPrefix)
			if slices.Contains(seen, open) {
				continue
			}
			seen = append(seen, open)
			o.rank = len(keep)
			keep = append(keep, kept{o, text})
		}
		slices.SortFunc(keep, func(a, b kept) int { return int(a.at.doc) - int(b.at.doc) })
		for _, k := range keep {
			h.Excerpt = append(h.Excerpt, k.text)
			h.excerptRank = append(h.excerptRank, k.rank)
		}
		if u.exchange != nil {
			ed := ix.segs[u.exchange.seg].doc(int(u.exchange.doc))
			ep := splitPayload(ed.Payload)
			h.Exchange = &Ref{ID: ep[pID], Text: ep[pText]}
			h.Concept = ix.conceptRef(ep[pConcept])
		} else if u.d.Layer == layerL2 {
			h.Exchange = &Ref{ID: p[pID], Text: p[pText]}
		}
	}
	return h
}

// conceptRef names a concept by id.
func (ix *Index) conceptRef(id string) *Ref {
	if id == "" {
		return nil
	}
	for _, r := range ix.refs("concepts.json") {
		s := ix.segs[r.seg]
		src := s.source(r.src)
		for d := src.firstDoc; d < src.firstDoc+src.docs; d++ {
			p := splitPayload(s.doc(int(d)).Payload)
			if p[pID] == id {
				name, _, _ := strings.Cut(p[pText], ":")
				return &Ref{ID: id, Text: name}
			}
		}
	}
	return nil
}

// record shows an L1 record by its part that holds the most query
// terms: the sentence of a prompt or of the assistant's text, the
// command, the changed line.
func (sn *snippets) record(f l1Fields) string {
	// Who said it: the user, the assistant, or a subagent the assistant
	// briefed (its brief is not the user's words).
	switch {
	case f.kind == "compact":
		return "summary: " + sn.sentences(f.text)
	case f.kind == "prompt" && f.agent != "":
		return "brief to a subagent: " + sn.sentences(f.text)
	case f.kind == "prompt":
		return "user: " + sn.sentences(f.text)
	case f.kind == "text" && f.agent != "":
		return "subagent: " + sn.sentences(f.text)
	case f.kind == "text":
		return "assistant: " + sn.sentences(f.text)
	}
	var parts []string
	head := f.tool
	if f.file != "" {
		head += " " + f.file
	}
	parts = append(parts, head)
	res := f.res
	if f.cmd != "" {
		// A failed command leaves room for what it failed with; one whose
		// output only repeats it (bd close --reason, a commit's summary
		// line) leaves its output out and takes the room.
		n := 200
		switch {
		case echoes(res, f.cmd):
			res, n = "", snippetMax-len(head)-3
		case f.failed && res != "":
			n = 100
		}
		parts = append(parts, "$ "+sn.focus(f.cmd, n))
	}
	if f.pat != "" {
		parts = append(parts, "pattern "+cut(f.pat, 100))
	}
	if f.diff != "" {
		// The summary line, and the changed line below it that holds
		// most of the query, if one holds a term the summary lacks.
		head, body, _ := strings.Cut(f.diff, "\n")
		parts = append(parts, sn.focus(head, 160))
		if l := sn.bestLine(body, sn.found(head)); l != "" {
			parts = append(parts, "… "+sn.focus(l, 120))
		}
	}
	if f.arg != "" {
		parts = append(parts, sn.focus(f.arg, 160))
	}
	if res != "" {
		parts = append(parts, "→ "+sn.sentences(res))
	}
	return sn.focus(strings.Join(parts, " "), snippetMax)
}

// bestLine gives the line of text holding the most weight of the query's
// terms outside have (those shown already), "" when no line holds one.
// For a question asking how long, a line setting a duration comes first
// though it holds none of them: the question's words name what lasts
// ("how long can a session go quiet"), the code line only its value
// (@ttl_seconds 90).
func (sn *snippets) bestLine(text string, have uint64) string {
	best, bestW, bestTells := "", 0.0, false
	for l := range strings.SplitSeq(text, "\n") {
		w := sn.weigh(sn.found(l) &^ have)
		tells := sn.intent.time && len(durations(l)) > 0
		if tells && !bestTells || tells == bestTells && w > bestW {
			best, bestW, bestTells = l, w, tells
		}
	}
	return best
}

// echoes reports whether a command's output only repeats the command: at
// least three words of three letters or more, nearly all (four in five)
// found in the command.
func echoes(res, cmd string) bool {
	if res == "" {
		return false
	}
	cmd = strings.ToLower(cmd)
	words, in := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(res), func(r rune) bool { return !isWordRune(r) }) {
		if len(w) < 3 {
			continue
		}
		words++
		if strings.Contains(cmd, w) {
			in++
		}
	}
	return words >= 3 && in*5 >= words*4
}

// sentences picks the sentence (or line) of text holding the most of
// the query, with the next one when it is short; and, when another
// sentence holds query terms the first lacks (the "Rabbit holes" of an
// epic whose title matched), that one too, in text order: a long message
// answers in its own words where it does.
func (sn *snippets) sentences(text string) string {
	sents := splitSentences(text)
	if len(sents) == 0 {
		return ""
	}
	found := make([]uint64, len(sents))
	lift := make([]float64, len(sents))
	tells := make([]bool, len(sents)) // what the question asks for (tellsAsked)
	best, bestN := 0, -1.0
	for i, s := range sents {
		found[i] = sn.found(s)
		tells[i] = sn.tellsAsked(s)
		lift[i] = sn.lift(s, tells[i])
		if n := lift[i] * sn.weigh(found[i]); n > bestN {
			best, bestN = i, n
		}
	}
	out, shown, next := sents[best], found[best], -1
	if len(out) < snippetMax/2 && best+1 < len(sents) {
		next = best + 1
		out += " " + sents[next]
		shown |= found[next]
	}
	other, otherN := -1, 0.0
	for i := range sents {
		if i != best && i != next {
			if n := lift[i] * sn.weigh(found[i]&^shown); n > otherN {
				other, otherN = i, n
			}
		}
	}
	// A question asking how long or how many is answered by the
	// sentence telling it, though its words are shown already ("Sweeps
	// stale sessions every 15s with 90s TTL." below the registry's name);
	// one asking what failed by the sentence quoting the failure.
	if (sn.intent.amount || sn.intent.time || sn.intent.failed) && !tells[best] && (next < 0 || !tells[next]) && (other < 0 || !tells[other]) {
		tellsN := 0.0
		for i := range sents {
			if i != best && i != next && found[i] != 0 && tells[i] {
				if n := sn.weigh(found[i]); n > tellsN {
					other, tellsN = i, n
				}
			}
		}
	}
	if other < 0 {
		return sn.focus(out, snippetMax)
	}
	second := sents[other]
	if introduces(second) && other+1 < len(sents) && other+1 != best {
		// A heading is shown with what it heads.
		second += " " + sents[other+1]
	}
	first, second := sn.focus(out, snippetMax/2), sn.focus(second, snippetMax/2)
	if other < best {
		first, second = second, first
	}
	return first + " … " + second
}

// further gives the sentences of an L1 record's text, or of a call's
// command, changed lines and output, that the snippet shown did not hold
// and that hold terms of the query, the most new terms first, each cut to
// an excerpt line.
func (sn *snippets) further(f l1Fields, shown string) []string {
	var parts []string
	switch {
	case f.kind == "text" || f.kind == "prompt" || f.kind == "compact":
		if len(f.text) > snippetMax {
			parts = splitSentences(f.text)
		}
	case f.kind == "tool":
		// A call's snippet shows a part of its command (a commit's
		// message), its first changed lines and its output: the other
		// sentences of each, and the other changed lines, can hold the
		// answer.
		parts = append(parts, splitSentences(f.cmd)...)
		if _, body, ok := strings.Cut(f.diff, "\n"); ok {
			parts = append(parts, strings.Split(body, "\n")...)
		}
		parts = append(parts, splitSentences(f.res)...)
	}
	if len(parts) == 0 {
		return nil
	}
	have := sn.found(shown)
	type sent struct {
		text    string
		w, neww float64
	}
	var out []sent
	for _, s := range parts {
		if len(s) < 12 || strings.Contains(shown, opening(s, 40)) {
			continue // shown already
		}
		m := sn.found(s)
		if m == 0 {
			continue
		}
		l := sn.lift(s, sn.tellsAsked(s))
		out = append(out, sent{s, l * sn.weigh(m), l * sn.weigh(m&^have)})
	}
	slices.SortStableFunc(out, func(a, b sent) int {
		return cmp.Or(cmp.Compare(b.neww, a.neww), cmp.Compare(b.w, a.w))
	})
	// A sentence said again (a commit's subject in its message and in
	// git's output) is given once.
	var lines, kept []string
	for _, s := range out {
		if len(lines) == furtherMax {
			break
		}
		t := strings.Join(strings.Fields(s.text), " ")
		if slices.ContainsFunc(kept, func(k string) bool { return strings.Contains(k, t) || strings.Contains(t, k) }) {
			continue
		}
		kept = append(kept, t)
		lines = append(lines, sn.focus(s.text, excerptLine))
	}
	return lines
}

// lift is what a sentence's weight is multiplied by: more when the
// question asks where and the sentence names a file, or when it tells
// what the question asks for (tells, as tellsAsked gives it).
func (sn *snippets) lift(s string, tells bool) float64 {
	if sn.intent.place && namesFile(s) {
		return fileSentenceLift
	}
	if tells {
		return numberSentenceLift
	}
	return 1
}

// tellsAsked reports whether a sentence holds what a question asking how
// many (a number), how long (a duration) or what failed (the failure's
// own words) asks for.
func (sn *snippets) tellsAsked(s string) bool {
	return sn.intent.amount && strings.IndexFunc(s, unicode.IsDigit) >= 0 || sn.intent.time && len(durations(s)) > 0 ||
		sn.intent.failed && quotesFailure(s)
}

// quotesFailure reports whether a sentence gives the words something
// failed with, not only says that it failed ("Fix the compile error"):
// a quoted text saying a failure, an error's label ("Error: missing
// lazy_html dependency") or an Elixir exception's mark.
func quotesFailure(s string) bool {
	lower := strings.ToLower(s)
	if i := strings.Index(lower, "error:"); i >= 0 && strings.TrimSpace(lower[i+len("error:"):]) != "" || strings.Contains(s, "** (") {
		return true
	}
	return slices.ContainsFunc(quoted(s), failureWords)
}

// numberSentenceLift is what a sentence telling what the question asks
// for gets (tellsAsked): a number for how many, a duration for how long
// or how often, the failure's words for what failed.
const numberSentenceLift = 2

// fileSentenceLift: a long text lists the files made beside what they
// do, and a question asking where is answered by the sentence naming the
// file, though another matches more of its words (over the eval's 18
// fresh sets, the prompt hook showed the evidence for 437 questions at
// 1.3, 441 at 2, 445 at 3, 444 at 5, against 435 without).
const fileSentenceLift = 3

// namesFile reports whether s names a file: by a path, or by a name
// with a code file's extension (annotation_message_ref.ex).
func namesFile(s string) bool {
	if namesPath(s) {
		return true
	}
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, "`'\"()[],:;!?*")
		if dot := strings.LastIndexByte(w, '.'); dot > 0 && slices.Contains(fileExts, w[dot+1:]) {
			return true
		}
	}
	return false
}

// fileExts are the extensions a name of a file in prose has.
var fileExts = []string{"c", "css", "eex", "ex", "exs", "go", "h", "heex", "html", "java", "js", "json", "jsx", "kt", "lock", "md", "php", "py", "rb", "rs", "sh", "sql", "swift", "toml", "ts", "tsx", "txt", "yaml", "yml"}

// opening gives about the first n bytes of s, its spaces collapsed as a
// snippet collapses them, cut on a rune boundary without a mark.
func opening(s string, n int) string {
	return runeCut(strings.Join(strings.Fields(s), " "), n)
}

// runeCut gives s cut to at most n bytes, on a rune boundary.
func runeCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// furtherMax is the most further sentences of an answer's record kept.
// (2 until the fourteenth session: over twenty-eight fresh sets the
// prompt hook showed the evidence for 729 questions of 1,086 at 2, 730
// at 3, 732 at 4; the budget decides how many it shows.)
const furtherMax = 4

// dupPrefix is how many opening bytes of two excerpt lines, alike, make
// them the same line shown twice.
const dupPrefix = 60

// introduces reports whether a sentence heads what follows it: a
// Markdown heading, a line in bold, a line ending in a colon.
func introduces(s string) bool {
	s = strings.TrimSpace(strings.TrimLeft(s, "> "))
	return strings.HasPrefix(s, "#") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, ":**") ||
		len(s) > 4 && strings.HasPrefix(s, "**") && strings.HasSuffix(s, "**")
}

// found gives the query terms s holds, as bits of sn.bit.
func (sn *snippets) found(s string) uint64 {
	var m uint64
	sn.tok.each(s, func(t string) { m |= sn.bit(t) })
	return m
}

// bit gives a query term's bit (the first 64 terms have one), 0 for a
// word that is not a query term.
func (sn *snippets) bit(t string) uint64 {
	if i, ok := sn.index[t]; ok {
		return 1 << i
	}
	return 0
}

// weigh sums the weights of the terms of m.
func (sn *snippets) weigh(m uint64) float64 {
	w := 0.0
	for i, wi := range sn.weights {
		if m&(1<<i) != 0 {
			w += wi
		}
	}
	return w
}

func splitSentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		for line != "" {
			i := sentenceEnd(line)
			if i < 0 {
				out = append(out, line)
				break
			}
			out = append(out, line[:i+1])
			line = strings.TrimSpace(line[i+2:])
		}
	}
	return out
}

// sentenceEnd gives the index of the full stop that ends line's first
// sentence, or -1: a full stop and a space, not an ellipsis ("ALTER
// TABLE ... ALTER COLUMN" is one sentence).
func sentenceEnd(line string) int {
	for off := 0; ; {
		i := strings.Index(line[off:], ". ")
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || line[i-1] != '.' {
			return i
		}
		off = i + 2
	}
}

// focus shortens s to about n bytes, keeping what holds the query: when
// a stretch past the start holds more of it than the start does (a
// commit message's body, the tail of a long command), the start is kept
// short and that stretch follows it.
func (sn *snippets) focus(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	// The words holding query terms, by byte offset.
	type hold struct {
		at  int
		bit uint64
	}
	var fs []hold
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], ' ')
		if j < 0 {
			j = len(s)
		} else {
			j += i
		}
		if m := sn.found(s[i:j]); m != 0 {
			fs = append(fs, hold{i, m})
		}
		i = j + 1
	}
	// The best stretch of span bytes starting at a found word past the
	// start, by the distinct terms it holds: a window over fs, each term's
	// occurrences in it counted.
	span := n * 2 / 3
	var head uint64
	for _, f := range fs {
		if f.at < n {
			head |= f.bit
		}
	}
	best, bestW := -1, sn.weigh(head)
	var count [64]int
	var in uint64
	add := func(m uint64, d int) {
		for ; m != 0; m &= m - 1 {
			i := mathbits.TrailingZeros64(m)
			count[i] += d
			if count[i] > 0 {
				in |= 1 << i
			} else {
				in &^= 1 << i
			}
		}
	}
	end := 0
	for a, f := range fs {
		for end < len(fs) && fs[end].at < f.at+span {
			add(fs[end].bit, 1)
			end++
		}
		if f.at >= n/3 {
			if w := sn.weigh(in); w > bestW {
				best, bestW = f.at, w
			}
		}
		add(fs[a].bit, -1)
	}
	if best < 0 {
		return cut(s, n)
	}
	// The stretch is centred on the words it holds, from a word's start.
	last := best
	for _, f := range fs {
		if f.at < best+span {
			last = max(last, f.at)
		}
	}
	from := max(n-span, min(best, (best+last)/2-span/2))
	if k := strings.LastIndexByte(s[:from], ' '); k >= 0 {
		from = k + 1
	}
	return cut(s, n-span) + " " + cut(s[from:], span)
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return runeCut(s, n-len("…")) + "…"
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

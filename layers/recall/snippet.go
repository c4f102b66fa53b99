package recall

import (
	"bytes"
	"cmp"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// snippetMax bounds a snippet, in bytes; excerptMax and excerptLine the
// lines around it given with it (the prompt hook shows them all for its
// best answer, `memkeep recall` three).
const (
	snippetMax  = 320
	excerptMax  = 8
	excerptLine = 240
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
	buf := make([]byte, 16<<10)
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
	s := ix.segs[at.seg]
	name := s.source(s.sourceOf(int(at.doc))).Name
	f, _ := scanL1(ix.readLine(name, d.Off))
	return f, name
}

// docText is the searchable text of a document.
func (ix *Index) docText(at docRef, d doc) string {
	if d.Layer != layerL1 {
		return splitPayload(d.Payload)[pText]
	}
	f, _ := ix.l1Record(at, d)
	return strings.Join([]string{f.text, f.file, f.cmd, f.pat, f.diff, f.arg, f.res}, "\n")
}

// hit turns a unit into an answer.
func (ix *Index) hit(u unit, qs []qterm) Hit {
	terms := map[string]float64{}
	for _, q := range qs {
		if q.orig >= 0 {
			terms[q.term] = q.weight * q.idf
		}
	}
	h := Hit{Score: round2(u.score), Coverage: round2(u.coverage), Expired: u.expired}
	p := splitPayload(u.d.Payload)
	h.Layer = "L" + string(rune('0'+u.d.Layer))
	h.Kind = kindNames[u.d.Kind]
	if u.d.Time > 0 {
		h.Time = time.Unix(u.d.Time, 0).UTC().Format(time.RFC3339)
	}
	place, placeDoc := u.at, u.d
	if u.place != nil {
		place = *u.place
		placeDoc = ix.segs[place.seg].doc(int(place.doc))
	}
	if u.best != nil {
		place = *u.best
		placeDoc = ix.segs[place.seg].doc(int(place.doc))
	}
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
		case layerL3:
			h.Snippet = p[pText]
		default:
			h.File = p[pSource]
		}
		h.Snippet = cut(p[pText], snippetMax)
	}
	if placeDoc.Layer == layerL1 {
		f, name := ix.l1Record(place, placeDoc)
		if u.d.Layer == layerL1 {
			h.ID = sessionOf(name) + ":" + itoa(int(placeDoc.Line))
			h.Session = sessionOf(name)
		}
		h.File = name
		h.Lines = [2]int{int(u.lines[0]), int(u.lines[1])}
		h.Snippet = recordSnippet(f, terms)
		// The other lines around it that hold the question's words, in
		// file order: what was said before and after.
		// The best-scored of them are kept, and shown in file order; the
		// rank of each says which a shorter answer keeps (ForPrompt).
		type line struct {
			at    docRef
			score float32
		}
		var others []line
		for i, r := range u.window {
			if r != place {
				others = append(others, line{r, u.wscore[i]})
			}
		}
		if place != u.at && u.d.Layer == layerL1 {
			others = append(others, line{u.at, float32(u.raw)})
		}
		slices.SortStableFunc(others, func(a, b line) int { return cmp.Compare(b.score, a.score) })
		others = others[:min(len(others), excerptMax)]
		rank := map[docRef]int{}
		for i, o := range others {
			rank[o.at] = i
		}
		slices.SortFunc(others, func(a, b line) int { return int(a.at.doc) - int(b.at.doc) })
		for _, o := range others {
			rf, _ := ix.l1Record(o.at, ix.segs[o.at.seg].doc(int(o.at.doc)))
			h.Excerpt = append(h.Excerpt, focus(recordSnippet(rf, terms), excerptLine, terms))
			h.excerptRank = append(h.excerptRank, rank[o.at])
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

// recordSnippet shows an L1 record by its part that holds the most query
// terms: the sentence of a prompt or of the assistant's text, the
// command, the changed line.
func recordSnippet(f l1Fields, terms map[string]float64) string {
	switch f.kind {
	case "prompt":
		return "user: " + bestSentences(f.text, terms)
	case "text", "compact":
		return "assistant: " + bestSentences(f.text, terms)
	}
	var parts []string
	head := f.tool
	if f.file != "" {
		head += " " + f.file
	}
	parts = append(parts, head)
	if f.cmd != "" {
		parts = append(parts, "$ "+focus(f.cmd, 200, terms))
	}
	if f.pat != "" {
		parts = append(parts, "pattern "+cut(f.pat, 100))
	}
	if f.diff != "" {
		parts = append(parts, focus(f.diff, 200, terms))
	}
	if f.arg != "" {
		parts = append(parts, focus(f.arg, 160, terms))
	}
	if f.res != "" {
		parts = append(parts, "→ "+bestSentences(f.res, terms))
	}
	return focus(strings.Join(parts, " "), snippetMax, terms)
}

// bestSentences picks the sentence (or line) of text holding the most
// of the query (terms weighs each term), with the next one when it is
// short; and, when another sentence holds query terms the first lacks
// (the "Rabbit holes" of an epic whose title matched), that one too, in
// text order: a long message answers in its own words where it does.
func bestSentences(text string, terms map[string]float64) string {
	sents := splitSentences(text)
	if len(sents) == 0 {
		return ""
	}
	tok := newTokenizer()
	found := make([]map[string]bool, len(sents))
	weigh := func(i int, skip map[string]bool) float64 {
		n := 0.0
		for t := range found[i] {
			if !skip[t] {
				n += terms[t]
			}
		}
		return n
	}
	best, bestN := 0, -1.0
	for i, s := range sents {
		found[i] = map[string]bool{}
		tok.each(s, func(t string) {
			if _, ok := terms[t]; ok {
				found[i][t] = true
			}
		})
		if n := weigh(i, nil); n > bestN {
			best, bestN = i, n
		}
	}
	out := sents[best]
	if len(out) < snippetMax/2 && best+1 < len(sents) {
		out += " " + sents[best+1]
		maps.Copy(found[best], found[best+1])
	}
	other, otherN := -1, 0.0
	for i := range sents {
		if i != best && i != best+1 {
			if n := weigh(i, found[best]); n > otherN {
				other, otherN = i, n
			}
		}
	}
	if other < 0 {
		return focus(out, snippetMax, terms)
	}
	first, second := focus(out, snippetMax/2, terms), focus(sents[other], snippetMax/2, terms)
	if other < best {
		first, second = second, first
	}
	return first + " … " + second
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

// focus shortens s to about n bytes, keeping what holds the query (terms
// weighs each term): when a stretch past the start holds more of it than
// the start does (a commit message's body, the tail of a long command),
// the start is kept short and that stretch follows it.
func focus(s string, n int, terms map[string]float64) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	type found struct {
		at int
		t  string
	}
	tok := newTokenizer()
	var fs []found
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], ' ')
		if j < 0 {
			j = len(s)
		} else {
			j += i
		}
		tok.each(s[i:j], func(t string) {
			if _, ok := terms[t]; ok {
				fs = append(fs, found{i, t})
			}
		})
		i = j + 1
	}
	// weight sums the distinct terms found in [from, to).
	weight := func(from, to int) float64 {
		seen := map[string]bool{}
		w := 0.0
		for _, f := range fs {
			if f.at >= from && f.at < to && !seen[f.t] {
				seen[f.t] = true
				w += terms[f.t]
			}
		}
		return w
	}
	span := n * 2 / 3
	head := weight(0, n)
	best, bestW := -1, head
	for _, f := range fs {
		if f.at < n/3 {
			continue
		}
		if w := weight(f.at, f.at+span); w > bestW {
			best, bestW = f.at, w
		}
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
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
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

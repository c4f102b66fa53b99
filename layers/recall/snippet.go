package recall

import (
	"bytes"
	"cmp"
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
			h.Excerpt = append(h.Excerpt, cut(recordSnippet(rf, terms), excerptLine))
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
		parts = append(parts, "$ "+cut(f.cmd, 200))
	}
	if f.pat != "" {
		parts = append(parts, "pattern "+cut(f.pat, 100))
	}
	if f.diff != "" {
		parts = append(parts, cut(f.diff, 200))
	}
	if f.arg != "" {
		parts = append(parts, cut(f.arg, 160))
	}
	if f.res != "" {
		parts = append(parts, "→ "+bestSentences(f.res, terms))
	}
	return cut(strings.Join(parts, " "), snippetMax)
}

// bestSentences picks the sentence (or line) of text holding the most
// of the query (terms weighs each term), with the next one when it is
// short.
func bestSentences(text string, terms map[string]float64) string {
	sents := splitSentences(text)
	if len(sents) == 0 {
		return ""
	}
	tok := newTokenizer()
	best, bestN := 0, -1.0
	for i, s := range sents {
		n := 0.0
		seen := map[string]bool{}
		tok.each(s, func(t string) {
			if w, ok := terms[t]; ok && !seen[t] {
				seen[t] = true
				n += w
			}
		})
		if n > bestN {
			best, bestN = i, n
		}
	}
	out := sents[best]
	if len(out) < snippetMax/2 && best+1 < len(sents) {
		out += " " + sents[best+1]
	}
	return cut(out, snippetMax)
}

func splitSentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		for line != "" {
			i := strings.Index(line, ". ")
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

package recall

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/memkeep/memkeep/layers/redact"
)

// A segment is one file of the index: the documents of some sources (a
// memory file whole, or a byte range of an L1 file) with the inverted
// lists of their terms. The index is a base segment, written by a full
// build, followed by the small segments each update appends; a query reads
// them all, mapped, and a later segment's version of a source hides an
// earlier one's.
//
// The format, little-endian, offsets relative to the blob:
//
//	magic     segMagic
//	header    flags, sources, docs, terms, postings, blob length (u32
//	          each), total document length (f32), samples, sample bytes
//	          (u32 each), words bytes (u32)
//	sources   name off, len, stamp off, len, first doc, docs, first line,
//	          next line (u32), from, to, tail (u64): ×sourceSize
//	by name   the sources' numbers (u32) in the order of their names
//	docs      line, line to, payload off, payload len (u32), layer, kind,
//	          flags, thread (u8), off (u64), length, weight (f32), time (i64),
//	          expires (u32): ×docSize; a source's documents follow each other
//	terms     off, len, first posting, postings (u32), sorted by term
//	postings  doc (u32), BM25 term weight (f32): the weighted frequency,
//	          saturated and normalised by the document's length
//	samples   offsets (u32, samples+1 of them) into the sample bytes: every
//	          termSample-th term, in order
//	blob      names, stamps, terms, payloads
//	words     an update's segment only: the words it stemmed, each "word
//	          stem\n", for the next update to start from (words)
//
// segMagic changes whenever the format or the tokens of the index change,
// so that an index written by another version is built again.
const segMagic = "memkeep-recall20\n"

const (
	segHeader   = len(segMagic) + 10*4
	sourceSize  = 8*4 + 3*8
	docSize     = 4*4 + 4 + 8 + 2*4 + 8 + 4
	termSize    = 4 * 4
	postingSize = 8

	segBase = 1 // header flag: a full build; earlier segments are obsolete

	// termSample is the size of the blocks of the term table.
	termSample = 64
)

// errSegment is returned for bytes that are not a segment this version reads.
var errSegment = errors.New("not a recall index segment")

// Layers and kinds of documents.
const (
	layerL1 = 1
	layerL2 = 2
	layerL3 = 3
	layerL4 = 4
)

const (
	kindPrompt = iota + 1
	kindText
	kindTool
	kindCompact
	kindExchange
	kindFact
	kindConcept
	kindRule
	kindSolution
	kindCoreLogic
)

var kindNames = [...]string{"", "prompt", "text", "tool", "compact", "exchange", "fact", "concept", "rule", "solution", "core_logic"}

// threadAny is the thread of a record that belongs to every conversation
// of its file: a compaction summary, which retells the session.
const threadAny = 255

// Document flags.
const (
	flagFailed   = 1  // an L1 tool call that failed (an error, a non-zero exit)
	flagPath     = 2  // an L1 record that names a file: a tool call on it, a path in its words
	flagRoute    = 4  // an L1 record that names a web route ("/projects/:id/review") or edits a router
	flagDuration = 8  // an L1 edit whose changed lines set a duration (@ttl_seconds 90)
	flagRouteDef = 16 // an L1 edit of a router: where routes are defined
)

// source is one file's part of a segment.
type source struct {
	Name  string // path under .claude/memory, slash-separated
	Stamp string // for memory files: fastfile.Stamp when read
	// For L1 files: the byte range [From, To) indexed, and a hash of the
	// bytes before To, which tells an appended file from a rewritten one.
	// For L2 files Tail is the newest record's time (unix seconds): the
	// project's latest activity, which expiry counts from.
	From, To, Tail uint64
	// For L1 files: the line number of From (1-based), and of To.
	Line, NextLine uint32
	firstDoc, docs uint32
}

// doc is one searchable document.
type doc struct {
	Layer, Kind, Flags uint8
	// Thread tells an L1 record's conversation: 0 the session's own, else
	// a subagent's (a hash of its id). Claude Code's subagents are written
	// after the session's lines, so an answer's window must not run from
	// one conversation into another.
	Thread uint8
	// Line is an L1 record's line (1-based); for an exchange its first L1
	// line, LineTo its last.
	Line, LineTo uint32
	Off          uint64  // an L1 record's byte offset in its file
	Length       float32 // weighted number of terms
	Weight       float32 // significance or confidence, 0–1
	Time         int64   // unix seconds of the record
	Expires      uint32  // the day (unix days) an exchange expires; 0 never
	// Payload of memory documents: ID, text, session base, concept id,
	// provenance and context, joined by payloadSep.
	Payload string
}

const payloadSep = "\x1f"

// payload fields
const (
	pID = iota
	pText
	pSession
	pConcept
	pSource
	pFields
)

func joinPayload(f [pFields]string) string {
	for _, s := range f {
		if strings.Contains(s, payloadSep) {
			return "" // never: texts are cleaned by addMemory
		}
	}
	return strings.Join(f[:], payloadSep)
}

func splitPayload(p string) (f [pFields]string) {
	for i := 0; i < pFields && p != ""; i++ {
		s, rest, _ := strings.Cut(p, payloadSep)
		f[i], p = s, rest
	}
	return f
}

// segmentBuilder gathers the documents of some sources and encodes them.
// Terms are numbered as they are first seen, so that adding a document's
// terms and closing it index slices: a build adds hundreds of millions of
// terms, and a map per document costs a third of it.
type segmentBuilder struct {
	tok  *tokenizer
	base bool
	// keepStems writes the words the builder stemmed into the segment,
	// for the next update to start from: an update's segment does.
	keepStems bool
	sources   []source
	docs      []doc
	ids       map[string]int32 // a term's number
	terms     []string         // by number
	postings  [][]posting      // by term number
	// The document being added: each term's weighted frequency, by
	// number, the numbers it holds in the order first seen, and their
	// total weight.
	curTF  []float32
	cur    []int32
	curLen float32
}

type posting struct {
	doc uint32
	tf  float32
}

// newSegmentBuilder makes a builder with a tokenizer of its own, which
// numbers terms as the builder does.
func newSegmentBuilder(base bool) *segmentBuilder {
	// A full build's vocabulary is large; an update's, a turn's words.
	size := 256
	if base {
		size = 1 << 16
	}
	b := &segmentBuilder{tok: newTokenizerFor(size), base: base, ids: make(map[string]int32, size), cur: make([]int32, 0, 64)}
	b.tok.number = b.id
	return b
}

// id gives term's number, numbering it when new.
func (b *segmentBuilder) id(term string) int32 {
	if n, ok := b.ids[term]; ok {
		return n
	}
	n := int32(len(b.terms))
	term = strings.Clone(term) // a term may be a slice of a record's text
	b.ids[term] = n
	b.terms = append(b.terms, term)
	b.postings = append(b.postings, nil)
	b.curTF = append(b.curTF, 0)
	return n
}

// startSource opens a source; the documents added next belong to it.
func (b *segmentBuilder) startSource(s source) {
	s.firstDoc = uint32(len(b.docs))
	b.sources = append(b.sources, s)
}

// field adds the terms of text to the document being built, each
// weighing w (w > 0).
func (b *segmentBuilder) field(text string, w float32) {
	if text == "" {
		return
	}
	text = withoutMarks(text)
	b.tok.each(text, func(t string) {
		n := b.tok.id
		if n < 0 {
			n = b.id(t)
		}
		if b.curTF[n] == 0 {
			b.cur = append(b.cur, n)
		}
		b.curTF[n] += w
		b.curLen += w // summed in text order: the same bytes every build
	})
}

// endDoc closes the document being built.
func (b *segmentBuilder) endDoc(d doc) {
	n := uint32(len(b.docs))
	for _, t := range b.cur {
		b.postings[t] = append(b.postings[t], posting{n, b.curTF[t]})
		b.curTF[t] = 0
	}
	b.cur = b.cur[:0]
	d.Length, b.curLen = b.curLen, 0
	b.docs = append(b.docs, d)
	b.sources[len(b.sources)-1].docs++
}

// join appends the sources and documents of o, built apart, to b.
func (b *segmentBuilder) join(o *segmentBuilder) {
	base := uint32(len(b.docs))
	for _, src := range o.sources {
		src.firstDoc += base
		b.sources = append(b.sources, src)
	}
	b.docs = append(b.docs, o.docs...)
	for i, t := range o.terms {
		n := b.id(t)
		list := b.postings[n]
		for _, p := range o.postings[i] {
			list = append(list, posting{p.doc + base, p.tf})
		}
		b.postings[n] = list
	}
}

// encode writes the segment.
func (b *segmentBuilder) encode() []byte {
	order := make([]int32, len(b.terms))
	nPost := 0
	for i := range order {
		order[i] = int32(i)
		nPost += len(b.postings[i])
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(b.terms[x], b.terms[y]) })
	terms := make([]string, len(order))
	for i, n := range order {
		terms[i] = b.terms[n]
	}
	var blob bytes.Buffer
	add := func(s string) (uint32, uint32) {
		off := blob.Len()
		blob.WriteString(s)
		return uint32(off), uint32(len(s))
	}
	le := binary.LittleEndian
	out := make([]byte, segHeader, segHeader+len(b.sources)*(sourceSize+4)+len(b.docs)*docSize+len(terms)*termSize+nPost*postingSize)
	copy(out, segMagic)
	flags := uint32(0)
	if b.base {
		flags |= segBase
	}
	for i, v := range []uint32{flags, uint32(len(b.sources)), uint32(len(b.docs)), uint32(len(terms)), uint32(nPost)} {
		le.PutUint32(out[len(segMagic)+4*i:], v)
	}
	for _, s := range b.sources {
		no, nl := add(s.Name)
		so, sl := add(s.Stamp)
		out = le.AppendUint32(out, no)
		out = le.AppendUint32(out, nl)
		out = le.AppendUint32(out, so)
		out = le.AppendUint32(out, sl)
		out = le.AppendUint32(out, s.firstDoc)
		out = le.AppendUint32(out, s.docs)
		out = le.AppendUint32(out, s.Line)
		out = le.AppendUint32(out, s.NextLine)
		out = le.AppendUint64(out, s.From)
		out = le.AppendUint64(out, s.To)
		out = le.AppendUint64(out, s.Tail)
	}
	byName := make([]uint32, len(b.sources))
	for i := range byName {
		byName[i] = uint32(i)
	}
	slices.SortStableFunc(byName, func(x, y uint32) int { return strings.Compare(b.sources[x].Name, b.sources[y].Name) })
	for _, i := range byName {
		out = le.AppendUint32(out, i)
	}
	for _, d := range b.docs {
		po, pl := add(d.Payload)
		out = le.AppendUint32(out, d.Line)
		out = le.AppendUint32(out, d.LineTo)
		out = le.AppendUint32(out, po)
		out = le.AppendUint32(out, pl)
		out = append(out, d.Layer, d.Kind, d.Flags, d.Thread)
		out = le.AppendUint64(out, d.Off)
		out = le.AppendUint32(out, math.Float32bits(d.Length))
		out = le.AppendUint32(out, math.Float32bits(d.Weight))
		out = le.AppendUint64(out, uint64(d.Time))
		out = le.AppendUint32(out, d.Expires)
	}
	first := uint32(0)
	for i, t := range terms {
		to, tl := add(t)
		n := uint32(len(b.postings[order[i]]))
		out = le.AppendUint32(out, to)
		out = le.AppendUint32(out, tl)
		out = le.AppendUint32(out, first)
		out = le.AppendUint32(out, n)
		first += n
	}
	// Postings hold BM25's saturated, length-normalised term frequency,
	// against the segment's own average length, so that a query adds
	// numbers and never reads the document table.
	avg := float32(1)
	if len(b.docs) > 0 {
		var total float32
		for _, d := range b.docs {
			total += d.Length
		}
		avg = max(total/float32(len(b.docs)), 1)
	}
	const k1, bb = float32(k1), float32(bb)
	for _, t := range order {
		for _, p := range b.postings[t] {
			dl := b.docs[p.doc].Length
			out = le.AppendUint32(out, p.doc)
			out = le.AppendUint32(out, math.Float32bits(p.tf*(k1+1)/(p.tf+k1*(1-bb+bb*dl/avg))))
		}
	}
	// Every termSample-th term, copied together: a lookup searches these
	// few pages first, then one block of the term table.
	var samples []byte
	nSamples := 0
	for i := 0; i < len(terms); i += termSample {
		out = le.AppendUint32(out, uint32(len(samples)))
		samples = append(samples, terms[i]...)
		nSamples++
	}
	out = le.AppendUint32(out, uint32(len(samples)))
	out = append(out, samples...)
	le.PutUint32(out[len(segMagic)+28:], uint32(nSamples))
	le.PutUint32(out[len(segMagic)+32:], uint32(len(samples)))
	le.PutUint32(out[len(segMagic)+20:], uint32(blob.Len()))
	var total float32
	for _, d := range b.docs {
		total += d.Length
	}
	le.PutUint32(out[len(segMagic)+24:], math.Float32bits(total))
	out = append(out, blob.Bytes()...)
	if b.keepStems {
		// A Stop's update indexes the session's L2 file whole, which
		// holds mostly the words the last update stemmed; a stem costs
		// the Snowball stemmer about 2 µs, and an L2 file hundreds.
		n := len(out)
		out = b.tok.appendStems(out)
		le.PutUint32(out[len(segMagic)+36:], uint32(len(out)-n))
	}
	return out
}

// segment is a decoded (mapped) segment.
type segment struct {
	data                           []byte
	base                           bool
	nSources, nDocs, nTerms, nPost int
	sourcesAt, byNameAt, docsAt    int
	termsAt, pAt                   int
	blobAt                         int
	totalLength                    float64
	nSamples, sampAt, sampBytesAt  int
	words                          []byte // what an update's segment stemmed (appendStems)
	name                           string // its file name, "" for one built in memory
}

func decodeSegment(data []byte) (*segment, error) {
	if len(data) < segHeader || string(data[:len(segMagic)]) != segMagic {
		return nil, errSegment
	}
	le := binary.LittleEndian
	h := func(i int) int { return int(le.Uint32(data[len(segMagic)+4*i:])) }
	s := &segment{data: data, base: h(0)&segBase != 0, nSources: h(1), nDocs: h(2), nTerms: h(3), nPost: h(4)}
	blobLen := h(5)
	s.totalLength = float64(math.Float32frombits(uint32(h(6))))
	s.sourcesAt = segHeader
	s.byNameAt = s.sourcesAt + s.nSources*sourceSize
	s.docsAt = s.byNameAt + s.nSources*4
	s.termsAt = s.docsAt + s.nDocs*docSize
	s.pAt = s.termsAt + s.nTerms*termSize
	s.nSamples = h(7)
	s.sampAt = s.pAt + s.nPost*postingSize
	s.sampBytesAt = s.sampAt + (s.nSamples+1)*4
	s.blobAt = s.sampBytesAt + h(8)
	words := h(9)
	if s.blobAt < 0 || s.blobAt+blobLen+words != len(data) || s.nSamples != (s.nTerms+termSample-1)/termSample {
		return nil, errSegment
	}
	s.words = data[len(data)-words:]
	// Sections are checked here; entries are checked where they are read
	// (a query reads a few of millions), so that a damaged segment gives
	// nothing rather than panicking a hook.
	for i := range s.nSources {
		b := data[s.sourcesAt+i*sourceSize:]
		first, n := int(le.Uint32(b[16:])), int(le.Uint32(b[20:]))
		if first+n > s.nDocs {
			return nil, errSegment
		}
	}
	return s, nil
}

// A segment's strings (sources' names and stamps, payloads, terms) are
// views of its bytes, never copies: a query reads thousands of sources
// and hundreds of documents, and on a machine where a fresh page of
// memory costs tens of microseconds, copying them cost a prompt several
// milliseconds. A view of a mapped segment is valid only until the index
// is closed; what leaves the index is copied first (Hit.detach).

// source gives source i.
func (s *segment) source(i int) source {
	le := binary.LittleEndian
	b := s.data[s.sourcesAt+i*sourceSize:]
	return source{
		Name: s.bstr(le.Uint32(b), le.Uint32(b[4:])), Stamp: s.bstr(le.Uint32(b[8:]), le.Uint32(b[12:])),
		firstDoc: le.Uint32(b[16:]), docs: le.Uint32(b[20:]), Line: le.Uint32(b[24:]), NextLine: le.Uint32(b[28:]),
		From: le.Uint64(b[32:]), To: le.Uint64(b[40:]), Tail: le.Uint64(b[48:]),
	}
}

// sourceName is source i's name.
func (s *segment) sourceName(i int) string {
	b := s.data[s.sourcesAt+i*sourceSize:]
	le := binary.LittleEndian
	return s.bstr(le.Uint32(b), le.Uint32(b[4:]))
}

// find gives the number of the first source named name, in the sources'
// order by name: a prompt looks up a few of thousands, and a map of them
// all cost more than its search.
func (s *segment) find(name string) (int, bool) {
	le := binary.LittleEndian
	at := func(k int) int { return int(le.Uint32(s.data[s.byNameAt+4*k:])) }
	lo, hi := 0, s.nSources
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if i := at(m); i < s.nSources && s.sourceName(i) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < s.nSources {
		if i := at(lo); i < s.nSources && s.sourceName(i) == name {
			return i, true
		}
	}
	return 0, false
}

func (s *segment) doc(i int) doc {
	le := binary.LittleEndian
	b := s.data[s.docsAt+i*docSize:]
	return doc{
		Line: le.Uint32(b), LineTo: le.Uint32(b[4:]),
		Payload: s.bstr(le.Uint32(b[8:]), le.Uint32(b[12:])),
		Layer:   b[16], Kind: b[17], Flags: b[18], Thread: b[19],
		Off:    le.Uint64(b[20:]),
		Length: math.Float32frombits(le.Uint32(b[28:])), Weight: math.Float32frombits(le.Uint32(b[32:])),
		Time: int64(le.Uint64(b[36:])), Expires: le.Uint32(b[44:]),
	}
}

// docSpan gives doc(i)'s kind and lines without decoding the rest.
func (s *segment) docSpan(i int) (kind uint8, line, lineTo uint32) {
	b := s.data[s.docsAt+i*docSize:]
	le := binary.LittleEndian
	return b[17], le.Uint32(b), le.Uint32(b[4:])
}

// docThread is doc(i).Thread without decoding the rest.
func (s *segment) docThread(i int) uint8 { return s.data[s.docsAt+i*docSize+19] }

// docLength is doc(i).Length without decoding the rest.
func (s *segment) docLength(i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(s.data[s.docsAt+i*docSize+28:]))
}

// term finds t's postings: their first index and count.
func (s *segment) term(t string) (first, n int, ok bool) {
	lo := s.seek(t)
	if lo == s.nTerms || s.termAt(lo) != t {
		return 0, 0, false
	}
	b := s.data[s.termsAt+lo*termSize:]
	first, n = int(binary.LittleEndian.Uint32(b[8:])), int(binary.LittleEndian.Uint32(b[12:]))
	if first+n > s.nPost {
		return 0, 0, false
	}
	return first, n, true
}

// seek gives the index of the first term not before t, or nTerms. The
// samples narrow it to one block of termSample terms, searched in turn.
func (s *segment) seek(t string) int {
	le := binary.LittleEndian
	sample := func(i int) string {
		a, b := int(le.Uint32(s.data[s.sampAt+4*i:])), int(le.Uint32(s.data[s.sampAt+4*i+4:]))
		if a > b || s.sampBytesAt+b > s.blobAt {
			return ""
		}
		return unsafeString(s.data[s.sampBytesAt+a : s.sampBytesAt+b])
	}
	// The last sample not after t starts t's block.
	lo, hi := 0, s.nSamples
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sample(m) <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0
	}
	lo, hi = (lo-1)*termSample, min(lo*termSample, s.nTerms)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.termAt(m) < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// termAt gives the i-th term, without a copy.
func (s *segment) termAt(i int) string {
	b := s.data[s.termsAt+i*termSize:]
	return s.bstr(binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]))
}

// bstr gives a string of the blob: a view, valid while the segment is.
func (s *segment) bstr(off, n uint32) string {
	if int(off)+int(n) > len(s.data)-s.blobAt {
		return ""
	}
	return unsafeString(s.data[s.blobAt+int(off) : s.blobAt+int(off)+int(n)])
}

// posting gives the i-th posting.
func (s *segment) posting(i int) (uint32, float32) {
	b := s.data[s.pAt+i*postingSize:]
	le := binary.LittleEndian
	return le.Uint32(b), math.Float32frombits(le.Uint32(b[4:]))
}

// sourceOf finds the source of document i.
func (s *segment) sourceOf(i int) int {
	le := binary.LittleEndian
	lo, hi := 0, s.nSources
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(le.Uint32(s.data[s.sourcesAt+m*sourceSize+16:])) <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// withoutMarks blanks the marks that stand where a secret was
// ("[REDACTED:aws-access-key]", "[PRIVATE]", and a transcript's own
// "[REDACTED_EMAIL]"): they say nothing of the project, and their words
// ("email", "key", "private") would answer a question about an email the
// project never sent.
func withoutMarks(text string) string {
	const markMax = 48 // a mark is short: a bracket further on closes something else
	if !strings.Contains(text, "[REDACTED") && !strings.Contains(text, redact.Private) {
		return text
	}
	b := []byte(text)
	for _, open := range []string{"[REDACTED", redact.Private} {
		for i := 0; ; {
			j := strings.Index(text[i:], open)
			if j < 0 {
				break
			}
			j += i
			end := strings.IndexByte(text[j:], ']')
			if end < 0 || end > markMax {
				i = j + len(open)
				continue
			}
			for k := j; k <= j+end; k++ {
				b[k] = ' '
			}
			i = j + end + 1
		}
	}
	return string(b)
}

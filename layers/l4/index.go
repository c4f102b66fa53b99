package l4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
	"github.com/memkeep/memkeep/layers/l3"
)

// An index answers Search's queries without reading the memory files:
// UserPromptSubmit recalls on every prompt, and Search over 10,000 L2
// items spends tens of milliseconds decoding the files and as many again
// splitting every memory into terms and comparing them with the query's.
// The index holds every memory's hit and the inverted lists of their
// terms; a query looks up only the terms that can match its own
// (terms.MatchCandidates) and scores only the memories those lists name.
// It gives exactly Search's hits, scores and order (index_test.go holds it
// to that).
//
// Each memory belongs to a source, the file it came from, recorded with a
// stamp that identifies the state of the file (its size and modification
// time, say). When a file has changed since the index was built, the
// caller marks its source stale and passes the file's memories afresh.
//
// The file format, little-endian, every offset relative to the blob:
//
//	magic      "memkeep-recall2\n"
//	counts     sources, items, terms, postings, blob length, longest
//	           term's length (u32 each)
//	sources    name offset, length, stamp offset, length (u32 ×4)
//	items      source (u32), weight, strength (float64 bits), payload offset, length (u32)
//	terms      offset, length (u32), first and end posting (u32), sorted by term
//	postings   item numbers (u32), ascending within a term
//	blob       names, stamps, terms, payloads (layer, kind, id, text, source,
//	           each a uvarint length and the bytes)
//
// It lives under the git dir, is never committed, and is rebuilt whenever
// it cannot be read.

const indexMagic = "memkeep-recall2\n"

const (
	headerSize     = len(indexMagic) + 6*4
	sourceRecord   = 4 * 4
	itemRecord     = 4 + 8 + 8 + 4 + 4
	termRecord     = 4 * 4
	postingRecord  = 4
	maxIndexEntity = math.MaxUint32
)

// ErrIndex is returned for bytes that are not an index this version
// reads; the caller rebuilds it.
var ErrIndex = errors.New("not a recall index")

// IndexSource is one memory file's part of an index.
type IndexSource struct {
	Name  string // the file, as the caller names it
	Stamp string // the state of the file the memories were read from
	docs  []doc
}

// FactsSource is the rules, solutions and core logic of f.
func FactsSource(name, stamp string, f *Facts) IndexSource {
	return IndexSource{Name: name, Stamp: stamp, docs: factDocs(f)}
}

// ConceptsSource is the concepts of c.
func ConceptsSource(name, stamp string, c *l3.File) IndexSource {
	return IndexSource{Name: name, Stamp: stamp, docs: conceptDocs(c)}
}

// SessionSource is the exchanges and facts of one session's L2 file.
func SessionSource(name, stamp string, s *l2.File) IndexSource {
	return IndexSource{Name: name, Stamp: stamp, docs: sessionDocs(s)}
}

// EncodeIndex compiles sources into the bytes of an index file. The bytes
// depend only on the sources.
func EncodeIndex(sources []IndexSource) ([]byte, error) {
	var blob []byte
	put := func(s string) (off, n uint32) {
		off = uint32(len(blob))
		blob = append(blob, s...)
		return off, uint32(len(s))
	}
	var srcs, items []byte
	postings := map[string][]uint32{}
	var nItems uint32
	for si, src := range sources {
		no, nl := put(src.Name)
		so, sl := put(src.Stamp)
		srcs = binary.LittleEndian.AppendUint32(srcs, no)
		srcs = binary.LittleEndian.AppendUint32(srcs, nl)
		srcs = binary.LittleEndian.AppendUint32(srcs, so)
		srcs = binary.LittleEndian.AppendUint32(srcs, sl)
		for _, d := range src.docs {
			off := uint32(len(blob))
			for _, f := range [...]string{d.hit.Layer, d.hit.Kind, d.hit.ID, d.hit.Text, d.hit.Source} {
				blob = binary.AppendUvarint(blob, uint64(len(f)))
				blob = append(blob, f...)
			}
			items = binary.LittleEndian.AppendUint32(items, uint32(si))
			items = binary.LittleEndian.AppendUint64(items, math.Float64bits(d.weight))
			items = binary.LittleEndian.AppendUint64(items, math.Float64bits(d.strength))
			items = binary.LittleEndian.AppendUint32(items, off)
			items = binary.LittleEndian.AppendUint32(items, uint32(len(blob))-off)
			for t := range d.terms {
				postings[t] = append(postings[t], nItems)
			}
			nItems++
			if len(blob) > maxIndexEntity || nItems == maxIndexEntity {
				return nil, errors.New("recall index: the memory is too large for the index format")
			}
		}
	}
	dict := make([]string, 0, len(postings))
	for t := range postings {
		dict = append(dict, t)
	}
	slices.Sort(dict)
	var termRecs, posts []byte
	var nPosts, longest uint32
	for _, t := range dict {
		longest = max(longest, uint32(len(t)))
		off, n := put(t)
		termRecs = binary.LittleEndian.AppendUint32(termRecs, off)
		termRecs = binary.LittleEndian.AppendUint32(termRecs, n)
		termRecs = binary.LittleEndian.AppendUint32(termRecs, nPosts)
		for _, it := range postings[t] { // ascending: items were numbered in order
			posts = binary.LittleEndian.AppendUint32(posts, it)
			nPosts++
		}
		termRecs = binary.LittleEndian.AppendUint32(termRecs, nPosts)
	}
	if len(blob) > maxIndexEntity {
		return nil, errors.New("recall index: the memory is too large for the index format")
	}
	out := make([]byte, 0, headerSize+len(srcs)+len(items)+len(termRecs)+len(posts)+len(blob))
	out = append(out, indexMagic...)
	for _, n := range [...]uint32{uint32(len(sources)), nItems, uint32(len(dict)), nPosts, uint32(len(blob)), longest} {
		out = binary.LittleEndian.AppendUint32(out, n)
	}
	out = append(out, srcs...)
	out = append(out, items...)
	out = append(out, termRecs...)
	out = append(out, posts...)
	return append(out, blob...), nil
}

// Index is an index file's bytes, read in place: a query touches only the
// records of the terms it looks up and of the memories they name.
type Index struct {
	b                                   []byte
	sources, items, terms, postings     int
	sourceAt, itemAt, termAt, postingAt int
	blobAt                              int
	longest                             int // bytes of the longest term
}

// DecodeIndex reads the layout of an index from b, which it keeps; b must
// not change while the Index is used. The records are checked as they are
// read, so damaged bytes give wrong or missing hits, never a crash.
func DecodeIndex(b []byte) (*Index, error) {
	if len(b) < headerSize || string(b[:len(indexMagic)]) != indexMagic {
		return nil, ErrIndex
	}
	n := func(i int) int { return int(binary.LittleEndian.Uint32(b[len(indexMagic)+4*i:])) }
	ix := &Index{b: b, sources: n(0), items: n(1), terms: n(2), postings: n(3), longest: n(5)}
	ix.sourceAt = headerSize
	ix.itemAt = ix.sourceAt + ix.sources*sourceRecord
	ix.termAt = ix.itemAt + ix.items*itemRecord
	ix.postingAt = ix.termAt + ix.terms*termRecord
	ix.blobAt = ix.postingAt + ix.postings*postingRecord
	if ix.blobAt+n(4) != len(b) {
		return nil, ErrIndex
	}
	return ix, nil
}

func (ix *Index) u32(at int) uint32 { return binary.LittleEndian.Uint32(ix.b[at:]) }

// blob returns n bytes of the blob at off, or false when they lie outside.
func (ix *Index) blob(off, n uint32) ([]byte, bool) {
	start := ix.blobAt + int(off)
	end := start + int(n)
	if start < ix.blobAt || end > len(ix.b) || end < start {
		return nil, false
	}
	return ix.b[start:end], true
}

// Source returns the name and stamp of source i (0 ≤ i < NumSources).
func (ix *Index) Source(i int) (name, stamp string) {
	at := ix.sourceAt + i*sourceRecord
	nb, _ := ix.blob(ix.u32(at), ix.u32(at+4))
	sb, _ := ix.blob(ix.u32(at+8), ix.u32(at+12))
	return string(nb), string(sb)
}

// NumSources is the number of sources the index was built from.
func (ix *Index) NumSources() int { return ix.sources }

// term returns the bytes of term i.
func (ix *Index) term(i int) []byte {
	at := ix.termAt + i*termRecord
	t, _ := ix.blob(ix.u32(at), ix.u32(at+4))
	return t
}

// lowerBound is the first term not below s.
func (ix *Index) lowerBound(s string) int {
	lo, hi := 0, ix.terms
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if string(ix.term(mid)) < s { // compared in place, not copied
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Search is l4.Search over the index, with the memories of the sources
// marked in stale (by source number; nil: none) left out and the memories
// of fresh added: the caller passes, as fresh, the files that changed
// since the index was built, and anything the index does not know.
func (ix *Index) Search(query string, opts SearchOptions, stale []bool, fresh []IndexSource) []Hit {
	q := queryTerms(query)
	if len(q) == 0 {
		return nil
	}
	qs := q.Sorted()
	// best holds, for the query term at hand, each memory's best match;
	// sum adds them up in query-term order, as coverage does, so that the
	// floating-point sums are the same.
	best := make([]float64, ix.items)
	sum := make([]float64, ix.items)
	var touched, scored []uint32
	for _, t := range qs {
		visit := func(ti int) {
			m := terms.Match(t, string(ix.term(ti)))
			if m == 0 {
				return
			}
			at := ix.termAt + ti*termRecord
			first, end := int(ix.u32(at+8)), int(ix.u32(at+12))
			if first > end || end > ix.postings {
				return
			}
			for p := first; p < end; p++ {
				it := ix.u32(ix.postingAt + p*postingRecord)
				if int(it) >= ix.items {
					continue
				}
				if src := int(ix.u32(ix.itemAt + int(it)*itemRecord)); src >= ix.sources || src < len(stale) && stale[src] {
					continue
				}
				if best[it] == 0 {
					touched = append(touched, it)
				}
				best[it] = max(best[it], m)
			}
		}
		terms.MatchCandidates(t, ix.longest,
			func(s string) {
				if ti := ix.lowerBound(s); ti < ix.terms && string(ix.term(ti)) == s {
					visit(ti)
				}
			},
			func(p string) {
				pb := []byte(p)
				for ti := ix.lowerBound(p); ti < ix.terms && bytes.HasPrefix(ix.term(ti), pb); ti++ {
					visit(ti)
				}
			})
		for _, it := range touched {
			if sum[it] == 0 {
				scored = append(scored, it)
			}
			sum[it] += best[it]
			best[it] = 0
		}
		touched = touched[:0]
	}
	var hits []Hit
	for _, it := range scored {
		at := ix.itemAt + int(it)*itemRecord
		weight := math.Float64frombits(binary.LittleEndian.Uint64(ix.b[at+4:]))
		strength := math.Float64frombits(binary.LittleEndian.Uint64(ix.b[at+12:]))
		score := finalScore(damp(sum[it], len(qs)), weight, strength)
		if score < opts.Threshold || score <= 0 {
			continue
		}
		h, ok := ix.hit(ix.u32(at+20), ix.u32(at+24))
		if !ok {
			continue
		}
		h.Score = score
		hits = append(hits, h)
	}
	for _, src := range fresh {
		for _, d := range src.docs {
			if h, ok := d.score(qs, opts); ok {
				hits = append(hits, h)
			}
		}
	}
	return rank(hits, opts)
}

// hit decodes a memory's payload.
func (ix *Index) hit(off, n uint32) (Hit, bool) {
	p, ok := ix.blob(off, n)
	if !ok {
		return Hit{}, false
	}
	var f [5]string
	for i := range f {
		l, k := binary.Uvarint(p)
		if k <= 0 || l > uint64(len(p)-k) {
			return Hit{}, false
		}
		f[i] = string(p[k : k+int(l)])
		p = p[k+int(l):]
	}
	return Hit{Layer: f[0], Kind: f[1], ID: f[2], Text: f[3], Source: f[4]}, true
}

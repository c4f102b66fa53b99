package redact

import "sync"

// keyword is a literal whose presence lets a rule run. Case-insensitive
// keywords are stored in lower case.
type keyword struct {
	text string
	fold bool
	rule int
}

// kwTable finds keywords in one pass over the text. A bitmap of the
// keywords' first three bytes (hashed, case folded) rejects almost every
// position of ordinary text with one load; at the rare positions it lets
// through, the keywords starting with that byte are compared in full. It is
// a small cousin of Aho–Corasick that suits a few dozen short keywords.
//
// The keywords starting with byte c are kws[start[c]:start[c+1]], in the
// order given: one allocation rather than a slice per first byte, since a
// hook process builds the tables once and uses them for a few short
// strings.
type kwTable struct {
	grams [gramBits / 64]uint64
	start [257]uint16
	kws   []keyword
}

const (
	gramShift = 14
	gramBits  = 1 << gramShift
	gramMul   = 0x9E3779B1
)

// gram hashes three bytes, folding ASCII case (and, harmlessly, a few
// punctuation pairs: the bitmap is only a filter).
func gram(a, b, c byte) uint32 {
	g := uint32(a|0x20)<<16 | uint32(b|0x20)<<8 | uint32(c|0x20)
	return g * gramMul >> (32 - gramShift)
}

func newKwTable(kws []keyword) *kwTable {
	t := &kwTable{}
	// firsts calls fn with each byte a keyword may start with in the text:
	// a case-insensitive keyword starting with a letter has two.
	firsts := func(k keyword, fn func(c byte)) {
		c := k.text[0]
		fn(c)
		if k.fold && 'a' <= c && c <= 'z' {
			fn(c - 'a' + 'A')
		}
	}
	var count [256]int
	for _, k := range kws {
		if len(k.text) < 3 {
			panic("redact: keyword shorter than three bytes: " + k.text)
		}
		h := gram(k.text[0], k.text[1], k.text[2])
		t.grams[h/64] |= 1 << (h % 64)
		firsts(k, func(c byte) { count[c]++ })
	}
	n := 0
	for c := range 256 {
		t.start[c] = uint16(n)
		n += count[c]
	}
	t.start[256] = uint16(n)
	t.kws = make([]keyword, n)
	next := t.start
	for _, k := range kws {
		firsts(k, func(c byte) {
			t.kws[next[c]] = k
			next[c]++
		})
	}
	return t
}

// prefilter is the table of every rule's keywords, built on first use so
// that merely linking the package costs nothing.
var prefilter = sync.OnceValue(func() *kwTable {
	var kws []keyword
	for i := range rules {
		r := &rules[i]
		for _, k := range r.keywords {
			kws = append(kws, keyword{text: k, rule: i})
		}
		for _, k := range r.foldKeywords {
			kws = append(kws, keyword{text: k, fold: true, rule: i})
		}
	}
	return newKwTable(kws)
})

// scan returns the set of rules (bit i for rule i) with a keyword in s.
func (t *kwTable) scan(s string) uint64 {
	var hit uint64
	t.each(s, func(_ int, k keyword) { hit |= 1 << k.rule })
	return hit
}

// each calls fn for every position in s where a keyword starts, in order.
func (t *kwTable) each(s string, fn func(pos int, k keyword)) {
	if len(s) < 3 {
		return
	}
	g := uint32(s[0]|0x20)<<8 | uint32(s[1]|0x20)
	for i := 2; i < len(s); i++ {
		// g rolls over the folded bytes s[i-2:i+1].
		g = g<<8 | uint32(s[i]|0x20)
		h := (g & 0xffffff) * gramMul >> (32 - gramShift)
		if t.grams[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		p := i - 2
		for _, k := range t.kws[t.start[s[p]]:t.start[int(s[p])+1]] {
			if k.at(s, p) {
				fn(p, k)
			}
		}
	}
}

// at reports whether the keyword occurs in s at i.
func (k keyword) at(s string, i int) bool {
	if len(s)-i < len(k.text) {
		return false
	}
	if !k.fold {
		return s[i:i+len(k.text)] == k.text
	}
	for j := 0; j < len(k.text); j++ {
		if lower(s[i+j]) != k.text[j] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

package redact

import "sync"

// keyword is a literal whose presence lets a rule run. Case-insensitive
// keywords are stored in lower case.
type keyword struct {
	text string
	fold bool
	rule int
}

// kwTable finds keywords in one pass: for each byte value, the keywords
// that can start with it. It is a small cousin of Aho–Corasick that suits
// a few dozen short keywords: most bytes of ordinary text start no keyword
// at all, and the others are checked against two or three candidates.
type kwTable struct {
	first [256][]keyword
}

func newKwTable(kws []keyword) *kwTable {
	t := &kwTable{}
	for _, k := range kws {
		c := k.text[0]
		t.first[c] = append(t.first[c], k)
		if k.fold && 'a' <= c && c <= 'z' {
			t.first[c-'a'+'A'] = append(t.first[c-'a'+'A'], k)
		}
	}
	return t
}

// prefilter is the table of every rule's keywords, built on first use so
// that merely linking the package costs nothing.
var prefilter = sync.OnceValue(func() *kwTable {
	var kws []keyword
	for i, r := range rules() {
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
	for i := 0; i < len(s); i++ {
		for _, k := range t.first[s[i]] {
			if hit&(1<<k.rule) == 0 && k.at(s, i) {
				hit |= 1 << k.rule
			}
		}
	}
	return hit
}

// each calls fn for every position in s where a keyword starts, in order.
func (t *kwTable) each(s string, fn func(pos int, k keyword)) {
	for i := 0; i < len(s); i++ {
		for _, k := range t.first[s[i]] {
			if k.at(s, i) {
				fn(i, k)
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

package recall

import "strings"

// sortedLines looks keys up in an embedded text of sorted lines, "key"
// or "key\tvalue", by binary search over the text's bytes: a probe reads
// the line it falls in. The tab sorts before every character a key
// holds, so lines sorted whole are sorted by key. Nothing is built
// before the first lookup: an index of the lines' starts cost every
// process that looked a word up 56 KB of fresh memory and a pass over
// the tables.
type sortedLines struct {
	text string
}

func newSortedLines(text string) sortedLines { return sortedLines{text} }

// find gives the value of key's line ("" for a line of a key alone), and
// whether there is one.
func (s sortedLines) find(key string) (string, bool) {
	t := s.text
	// lo and hi are starts of lines (or the text's end): the lines before
	// lo sort before key, those from hi on do not.
	lo, hi := 0, len(t)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := lo + strings.LastIndexByte(t[lo:mid], '\n') + 1
		name, _, end := lineAt(t, start)
		if name < key {
			lo = end
		} else {
			hi = start
		}
	}
	if lo >= len(t) {
		return "", false
	}
	name, value, _ := lineAt(t, lo)
	return value, name == key
}

// lineAt gives the key and value of the line starting at start, and the
// start of the next.
func lineAt(t string, start int) (name, value string, next int) {
	l := t[start:]
	next = len(t)
	if j := strings.IndexByte(l, '\n'); j >= 0 {
		l, next = l[:j], start+j+1
	}
	name, value, _ = strings.Cut(l, "\t")
	return name, value, next
}

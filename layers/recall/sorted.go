package recall

import (
	"sort"
	"strings"
	"sync"
)

// sortedLines looks keys up in an embedded text of sorted lines, "key"
// or "key\tvalue", by binary search over the lines' starts, found once.
// The tab sorts before every character a key holds, so lines sorted
// whole are sorted by key.
type sortedLines struct {
	text   string
	starts func() []int
}

func newSortedLines(text string) sortedLines {
	return sortedLines{text, sync.OnceValue(func() []int {
		t := text
		starts := make([]int, 0, strings.Count(t, "\n")+1)
		for i := 0; i < len(t); {
			starts = append(starts, i)
			j := strings.IndexByte(t[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
		}
		return starts
	})}
}

// find gives the value of key's line ("" for a line of a key alone), and
// whether there is one.
func (s sortedLines) find(key string) (string, bool) {
	starts := s.starts()
	line := func(k int) (string, string) {
		l := s.text[starts[k]:]
		if j := strings.IndexByte(l, '\n'); j >= 0 {
			l = l[:j]
		}
		name, value, _ := strings.Cut(l, "\t")
		return name, value
	}
	k := sort.Search(len(starts), func(k int) bool { name, _ := line(k); return name >= key })
	if k == len(starts) {
		return "", false
	}
	name, value := line(k)
	return value, name == key
}

package recall

import (
	_ "embed"
	"strings"
	"sync"
)

// The thesaurus closes the gap between the words a question uses and the
// words a session used for the same thing: "conversation" for "session",
// "shorten" for "truncate", "extension" for "plugin". thesaurus.txt is
// written by hand, a group of interchangeable words per line;
// thesaurus.stems is the same groups stemmed, generated from it by
// `go test ./layers/recall -run TestThesaurusStems -update`, so that a
// hook never stems the whole thesaurus at start-up.

//go:embed thesaurus.txt
var thesaurusText string

//go:embed thesaurus.stems
var thesaurusStems string

// thesaurus maps a stem to the other stems of its groups.
var thesaurus = sync.OnceValue(func() map[string][]string {
	return parseGroups(thesaurusStems)
})

// parseGroups reads groups, one per line, words separated by ", ";
// lines starting with "#" are comments.
func parseGroups(text string) map[string][]string {
	m := map[string][]string{}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		words := strings.Split(line, ", ")
		for _, w := range words {
			for _, o := range words {
				if o != w && !contains(m[w], o) {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// synonyms gives the stems a developer uses for the same thing as t.
func synonyms(t string) []string { return thesaurus()[t] }

// stemGroups stems every word of the thesaurus text, keeping its groups
// and comments: what thesaurus.stems holds.
func stemGroups(text string) string {
	tok := newTokenizer()
	var b strings.Builder
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' {
			b.WriteString(trimmed + "\n")
			continue
		}
		var stems []string
		for _, w := range strings.Split(trimmed, ", ") {
			s := tok.stem(strings.ToLower(w))
			if !contains(stems, s) {
				stems = append(stems, s)
			}
		}
		if len(stems) > 1 {
			b.WriteString(strings.Join(stems, ", ") + "\n")
		}
	}
	return b.String()
}

package recall

import (
	_ "embed"
	"slices"
	"strings"
)

// The thesaurus closes the gap between the words a question uses and the
// words a session used for the same thing: "conversation" for "session",
// "shorten" for "truncate", "extension" for "plugin". thesaurus.txt is
// written by hand, a group of interchangeable words per line;
// thesaurus.stems is the same groups stemmed, generated from it by
// `go test ./layers/recall -run TestStems -update`, so that a
// hook never stems the whole thesaurus at start-up.

//go:embed thesaurus.txt
var thesaurusText string

//go:embed thesaurus.stems
var thesaurusStems string

// synonyms gives the stems a developer uses for the same thing as t: the
// other words of the groups that hold it, in the order of the groups.
// A query looks up a handful of words, so the groups holding each are
// found by scanning the text (about 10 KB) rather than by building a map
// of every word at start-up, which cost a hook a millisecond and a half.
func synonyms(t string) []string {
	if t == "" {
		return nil
	}
	var out []string
	text := thesaurusStems
	for off := 0; ; {
		i := strings.Index(text[off:], t)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(t)
		// t must be a whole word of a group line: between the line's
		// start or ", " and the line's end or ", ".
		if !(i == 0 || text[i-1] == '\n' || i >= 2 && text[i-2:i] == ", ") ||
			!(off == len(text) || text[off] == '\n' || strings.HasPrefix(text[off:], ", ")) {
			continue
		}
		ls := strings.LastIndexByte(text[:i], '\n') + 1
		le := strings.IndexByte(text[off:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += off
		}
		line := text[ls:le]
		if line == "" || line[0] == '#' {
			continue
		}
		for w := range strings.SplitSeq(line, ", ") {
			if w != t && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		off = le
	}
}

// groupTerms gives terms, then the words of their thesaurus groups not
// among them: what a check that reads memory for a word "as written or
// in a word of its group" looks for.
func groupTerms(terms ...string) []string {
	out := slices.Clone(terms)
	for _, t := range terms {
		for _, s := range synonyms(t) {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

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
			if !slices.Contains(stems, s) {
				stems = append(stems, s)
			}
		}
		if len(stems) > 1 {
			b.WriteString(strings.Join(stems, ", ") + "\n")
		}
	}
	return b.String()
}

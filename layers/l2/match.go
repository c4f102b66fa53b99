package l2

import (
	"strings"
	"unicode/utf8"
)

// The extraction's text patterns are matched by hand rather than with the
// regexp package. memkeep's hooks start a process per call and the Stop
// hook extracts once per process, so compiling the patterns (large
// programs for the case-insensitive alternations) was paid in full by
// every turn, for one use. These matchers need no start-up work; each
// documents the regular expression it replaces, and match_test.go keeps
// those expressions as the oracle the matchers are compared with, on the
// real transcripts, on generated strings and by fuzzing.
//
// Case-insensitive matching reproduces Go's (?i): ASCII letters fold, and
// so do the two runes outside ASCII whose simple case folding reaches an
// ASCII letter, the Kelvin sign K (U+212A) for k and the long s ſ (U+017F)
// for s. \b is Go's: between a word character [0-9A-Za-z_] and anything
// else, so a rune outside ASCII is never a word character. \s is Go's
// [\t\n\f\r ].

// phraseSet matches like the regular expression \b(p1|p2|…)\b whose
// alternatives are the literal phrases, in the same order of preference.
// An optional part of the expression is spelled out as two phrases, the
// longer first as the regexp prefers it: opt(ed)? for is "opted for",
// "opt for".
type phraseSet struct {
	fold    bool     // match like (?i); phrases are then in lower case
	phrases []string // in the regexp's order of preference
}

// match reports whether a phrase occurs in s (MatchString).
func (p *phraseSet) match(s string) bool {
	i, _ := p.index(s)
	return i >= 0
}

// index returns where the leftmost phrase occurs in s, the one the regexp
// prefers when several start there (FindStringIndex), or -1, -1.
func (p *phraseSet) index(s string) (start, end int) {
	for i := 0; i < len(s); i++ {
		if isWordAt(s, i-1) == isWordAt(s, i) {
			continue // no \b before s[i]
		}
		if j := p.matchAt(s, i); j >= 0 {
			return i, j
		}
	}
	return -1, -1
}

// matchAt returns the end of the first phrase that occurs at s[i:] and is
// followed by \b, or -1. It does not check for \b before s[i].
func (p *phraseSet) matchAt(s string, i int) int {
	for _, ph := range p.phrases {
		if j := prefixAt(s, i, ph, p.fold); j >= 0 && isWordAt(s, j-1) != isWordAt(s, j) {
			return j
		}
	}
	return -1
}

// prefixAt returns the end of the literal lit at s[i:], or -1. With fold,
// lit is in lower case and matched like (?i)lit.
func prefixAt(s string, i int, lit string, fold bool) int {
	for k := 0; k < len(lit); k++ {
		c := lit[k]
		if i < len(s) && (s[i] == c || fold && 'a' <= c && c <= 'z' && s[i] == c-'a'+'A') {
			i++
			continue
		}
		switch {
		case fold && c == 'k' && strings.HasPrefix(s[i:], "\u212A"):
			i += len("\u212A")
		case fold && c == 's' && strings.HasPrefix(s[i:], "\u017F"):
			i += len("\u017F")
		default:
			return -1
		}
	}
	return i
}

// isWordAt reports whether s[i] is a word character for \b: [0-9A-Za-z_].
// Outside s is not. Checking the byte is checking the rune: every byte of
// a rune outside ASCII, and of invalid UTF-8, is 0x80 or more.
func isWordAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isSpace reports whether c is \s: [\t\n\f\r ].
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// skipSpace returns the index of the first byte at or after i that is not \s.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// spaceAt reports whether s[i] is \s.
func spaceAt(s string, i int) bool { return i < len(s) && isSpace(s[i]) }

// gitCommitIn reports whether a command runs git commit as a command of
// its own: at the start, or after &&, ; or a line break, past white space.
// It is the regexp (^|&&|;|\n)\s*git commit\b.
func gitCommitIn(cmd string) bool {
	const gc = "git commit"
	for off := 0; ; {
		i := strings.Index(cmd[off:], gc)
		if i < 0 {
			return false
		}
		g := off + i
		if !isWordAt(cmd, g+len(gc)) { // \b after the t
			for a := g; ; a-- {
				if a == 0 || cmd[a-1] == ';' || cmd[a-1] == '\n' || a >= 2 && cmd[a-2:a] == "&&" {
					return true
				}
				if !isSpace(cmd[a-1]) {
					break
				}
			}
		}
		off = g + 1
	}
}

// stripTags replaces each tag by a space: a '<', 1 to 80 runes other than
// '>' (line breaks included), and a '>'. It is the regexp <[^>]{1,80}>
// with ReplaceAllString(s, " ").
func stripTags(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		p := i + j
		end := tagEnd(s, p)
		if end < 0 {
			i = p + 1
			continue
		}
		b.WriteString(s[done:p])
		b.WriteByte(' ')
		done, i = end, end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// tagEnd returns the end of the tag that starts with the '<' at s[p], or -1.
// The runes of a tag cannot be a '>', so its end is the first '>'; 80 runes
// are at most 320 bytes. Invalid UTF-8 counts a rune per byte, as it does
// for the regexp package.
func tagEnd(s string, p int) int {
	const maxRunes, maxBytes = 80, 80 * utf8.UTFMax
	in := s[p+1:]
	q := strings.IndexByte(in[:min(len(in), maxBytes+1)], '>')
	if q < 0 {
		return -1
	}
	if n := utf8.RuneCountInString(in[:q]); n < 1 || n > maxRunes {
		return -1
	}
	return p + 1 + q + 1
}

// commitMessage finds the message of a git commit command and reports
// whether there was one. It is the regexp
//
//	(?s)-m\s+(?:"\$\(cat <<'?"?EOF'?"?\s*\n(.*?)(?:\n|$)|"([^"\n]*)|'([^'\n]*))
//
// with FindStringSubmatch, returning the group that took part: the first
// line of a here-document, or a quoted message up to its closing quote or
// the end of its line. Every choice in the expression is forced by the
// next byte (a \s+ is followed by a quote, \s*\n ends at the last line
// break of the white space), so scanning reproduces the regexp's match.
func commitMessage(cmd string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(cmd[off:], "-m")
		if i < 0 {
			return "", false
		}
		p := off + i + len("-m")
		off = p
		if !spaceAt(cmd, p) {
			continue
		}
		p = skipSpace(cmd, p)
		if m, ok := hereDocLine(cmd, p); ok {
			return m, true
		}
		if p < len(cmd) && (cmd[p] == '"' || cmd[p] == '\'') {
			m := cmd[p+1:]
			for j := 0; j < len(m); j++ {
				if m[j] == cmd[p] || m[j] == '\n' {
					return m[:j], true
				}
			}
			return m, true
		}
	}
}

// hereDocLine matches "\$\(cat <<'?"?EOF'?"?\s*\n(.*?)(?:\n|$) at cmd[p:]
// and returns the group.
func hereDocLine(cmd string, p int) (string, bool) {
	const open = `"$(cat <<`
	if !strings.HasPrefix(cmd[p:], open) {
		return "", false
	}
	j := p + len(open)
	quotes := func() {
		if j < len(cmd) && cmd[j] == '\'' {
			j++
		}
		if j < len(cmd) && cmd[j] == '"' {
			j++
		}
	}
	quotes()
	if !strings.HasPrefix(cmd[j:], "EOF") {
		return "", false
	}
	j += len("EOF")
	quotes()
	nl := -1 // the last line break of the white space
	for ; j < len(cmd) && isSpace(cmd[j]); j++ {
		if cmd[j] == '\n' {
			nl = j
		}
	}
	if nl < 0 {
		return "", false
	}
	line := cmd[nl+1:]
	if e := strings.IndexByte(line, '\n'); e >= 0 {
		line = line[:e]
	}
	return line, true
}

// stripRuleLead removes the words that introduce a rule at the start of a
// sentence — "please", "from now on", "remember that", "and"… — repeatedly.
// It is the regexp
//
//	(?i)^(please\s*,?\s*|from now on\s*,?\s*|going forward\s*,?\s*|in the future\s*,?\s*|remember\s+(that\s+)?|note that\s+|and\s+)+
//
// with ReplaceAllString(s, ""). The alternatives begin with different
// letters and nothing follows the repetition, so the regexp's preferred
// match takes, greedily, whichever alternative fits, as long as one does.
func stripRuleLead(s string) string {
	i := 0
	for {
		j := ruleLeadAt(s, i)
		if j < 0 {
			return s[i:]
		}
		i = j
	}
}

// ruleLeadAt returns the end of one alternative of stripRuleLead's
// expression at s[i:], or -1.
func ruleLeadAt(s string, i int) int {
	for _, w := range [...]string{"please", "from now on", "going forward", "in the future"} {
		if j := prefixAt(s, i, w, true); j >= 0 {
			j = skipSpace(s, j)
			if j < len(s) && s[j] == ',' {
				j++
			}
			return skipSpace(s, j)
		}
	}
	if j := prefixAt(s, i, "remember", true); j >= 0 && spaceAt(s, j) {
		j = skipSpace(s, j)
		if k := prefixAt(s, j, "that", true); k >= 0 && spaceAt(s, k) {
			j = skipSpace(s, k)
		}
		return j
	}
	for _, w := range [...]string{"note that", "and"} {
		if j := prefixAt(s, i, w, true); j >= 0 && spaceAt(s, j) {
			return skipSpace(s, j)
		}
	}
	return -1
}

// ruleStarts reports whether a sentence begins with an imperative that
// states a rule. It is the regexp
// (?i)^(please\s+)?(always|never|don't ever|do not ever|don't|do not)\b
// with MatchString: none of the words begins like "please", so when the
// sentence does, only the words after it can match.
func ruleStarts(s string) bool {
	i := 0
	if j := prefixAt(s, 0, "please", true); j >= 0 && spaceAt(s, j) {
		i = skipSpace(s, j)
	}
	return ruleStartWords.matchAt(s, i) >= 0
}

package recall

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Tokens for code and prose. A developer searches for "session registry",
// "active_session_registry.ex" or "ActiveSessionRegistry" and means the
// same thing, so an identifier or a path gives its whole lower-cased form
// and every part split at "/ . _ -" and at camelCase humps. Words are
// stemmed with the Snowball English stemmer (github.com/kljensen/snowball),
// so "truncated", "truncation" and "truncating" meet; stems are cached,
// because one stem costs about a microsecond and a corpus repeats its
// words endlessly.

// maxToken bounds a token: longer runs are hashes, base64 or minified
// code, which no one searches for by their full text.
const maxToken = 48

// tokenizer splits text into terms. It is not safe for concurrent use:
// it caches stems.
type tokenizer struct {
	stems map[string]string
	// whole is set while emit is given a compound's whole form
	// ("transcript_renderer.ex"), which the compound's parts already
	// stand for.
	whole bool
}

func newTokenizer() *tokenizer { return &tokenizer{stems: make(map[string]string, 1024)} }

// stem gives w's stem, w lower case.
func (t *tokenizer) stem(w string) string {
	if s, ok := t.stems[w]; ok {
		return s
	}
	s := w
	if len(w) > 3 && isAlpha(w) {
		s = english.Stem(w, false)
	}
	if len(t.stems) < 1<<20 {
		t.stems[strings.Clone(w)] = s
	}
	return s
}

// each calls emit for every term of s: for each compound (a run of
// letters, digits and the joiners "/ . _ - :"), the compound itself when
// it has several parts, then each part's stem. Stop words and one-letter
// parts are dropped.
func (t *tokenizer) each(s string, emit func(term string)) {
	i := 0
	for i < len(s) {
		// Skip to the start of a compound.
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '<' {
			if n := tagLen(s[i:]); n > 0 {
				i += n // markup Claude Code wraps around prompts: <command-name>, </output-file>
				continue
			}
		}
		if !isWordRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) && !(isJoiner(r) && j+size < len(s) && nextIsWord(s[j+size:])) {
				break
			}
			j += size
		}
		t.compound(s[i:j], emit)
		i = j
	}
}

// tagLen gives the length of the XML-like tag s starts with
// ("<command-name>", "</local-command-stdout>"), or 0.
func tagLen(s string) int {
	i := 1
	if i < len(s) && s[i] == '/' {
		i++
	}
	start := i
	for i < len(s) && i < 48 {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c == '-', c == '_', c >= '0' && c <= '9' && i > start:
			i++
		case c == '>' && i > start:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

func nextIsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// compound emits the terms of one compound word.
func (t *tokenizer) compound(c string, emit func(string)) {
	if len(c) > 4*maxToken {
		return
	}
	lower := t.lower(c)
	parts := 0
	start := 0
	var prev rune
	emitPart := func(p string) {
		parts++
		if len(p) < 2 || len(p) > maxToken {
			return
		}
		p = t.lower(p)
		if isStop(p) {
			return
		}
		emit(t.stem(p))
	}
	for i, r := range c {
		switch {
		case isJoiner(r):
			if i > start {
				emitPart(c[start:i])
			}
			start = i + utf8.RuneLen(r)
		case unicode.IsUpper(r) && i > start && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			// camelCase: a hump starts a part.
			emitPart(c[start:i])
			start = i
		case unicode.IsUpper(r) && i > start && unicode.IsUpper(prev):
			// "HTTPServer": the last capital before a lower-case letter starts a part.
			if n, _ := utf8.DecodeRuneInString(c[i+utf8.RuneLen(r):]); unicode.IsLower(n) && i+utf8.RuneLen(r) < len(c) {
				emitPart(c[start:i])
				start = i
			}
		}
		prev = r
	}
	whole := parts > 0
	if start < len(c) {
		emitPart(c[start:])
	}
	if whole && len(lower) <= maxToken && !isNumber(lower) {
		t.whole = true
		emit(lower)
		t.whole = false
	}
}

// lower lower-cases s, without allocating when it already is.
func (t *tokenizer) lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
	}
	return s
}

func isWordRune(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func isJoiner(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' }

func isAlpha(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < '0' || c > '9') && c != '.' && c != ':' && c != '-' && c != '_' && c != '/' {
			return false
		}
	}
	return true
}

func isStop(w string) bool { return stopWords()[w] }

// stopWords are the function words of English questions and prose, which
// every record holds and no answer is told apart by. Words of programming
// are never stop words here: "test", "fix" and "file" are what people
// search for.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 200)
	for w := range strings.FieldsSeq(`a about above after again against all am an and any are as at be
because been before being below between both but by can could did do does doing down during each
few for from further had has have having he her here hers herself him himself his how i if in into
is it its itself just let lets me more most my myself no nor not now of off on once only or other
our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself yourselves
also ever did didn don doesn isn wasn weren won wouldn shouldn couldn hasn haven hadn
thing things something anything way ways got get gets us one ones again okay ok please
yes yeah actually really like still even much many well`) {
		m[w] = true
	}
	return m
})

package recall

import (
	"bytes"
	"slices"
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
// because one stem costs about two microseconds and a corpus repeats its
// words endlessly.

// maxToken bounds a token: longer runs are hashes, base64 or minified
// code, which no one searches for by their full text.
const maxToken = 48

// tokenizer splits text into terms. It is not safe for concurrent use:
// it caches stems.
type tokenizer struct {
	stems map[string]string
	// parts caches what a part of a compound, as written, gives: its
	// stem ("" for a stop word) and the stem's number. It saves
	// lower-casing, the stop word lookup, the stem lookup and the number
	// lookup for every word of a build.
	parts map[string]part
	// number, when set, numbers terms for a segment builder; id is then
	// set while emit is given a part's stem, to the stem's number, and is
	// -1 for a compound's whole form, which is not numbered here.
	number func(term string) int32
	id     int32
	// whole is set while emit is given a compound's whole form
	// ("transcript_renderer.ex"), which the compound's parts already
	// stand for.
	whole bool
}

func newTokenizer() *tokenizer { return newTokenizerFor(256) }

// newTokenizerFor makes a tokenizer whose caches start with room for
// size words.
func newTokenizerFor(size int) *tokenizer {
	return &tokenizer{stems: make(map[string]string, size), parts: make(map[string]part, size), id: -1}
}

// part is what a part of a compound gives.
type part struct {
	term string // its stem, "" for a stop word
	id   int32  // the stem's number, when the tokenizer numbers terms
}

// term gives the term of a part as written, or "" for a stop word, and
// sets t.id to its number.
func (t *tokenizer) term(p string) string {
	if c, ok := t.parts[p]; ok {
		t.id = c.id
		return c.term
	}
	c := part{id: -1}
	if lp := t.lower(p); !isStop(lp) {
		c.term = t.stem(lp)
		if t.number != nil {
			c.id = t.number(c.term)
		}
	}
	if len(t.parts) < 1<<20 {
		t.parts[strings.Clone(p)] = c
	}
	t.id = c.id
	return c.term
}

// stemmed tells the words whose stem the stemmer gives; any other word
// is its own stem.
func stemmed(w string) bool { return len(w) > 3 && isAlpha(w) }

// appendStems appends to out the words t has stemmed, each "word stem\n",
// in order.
func (t *tokenizer) appendStems(out []byte) []byte {
	words := make([]string, 0, len(t.stems))
	for w := range t.stems {
		if stemmed(w) {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	for _, w := range words {
		out = append(out, w...)
		out = append(out, ' ')
		out = append(out, t.stems[w]...)
		out = append(out, '\n')
	}
	return out
}

// addStems adds the stems appendStems wrote to t's cache. Lines that are
// not a word and its stem are skipped: a damaged segment costs stems,
// never wrong ones for other words.
func (t *tokenizer) addStems(b []byte) {
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		b = rest
		w, s, ok := bytes.Cut(line, []byte{' '})
		if ok && stemmed(string(w)) && len(s) > 0 && isAlpha(string(s)) {
			t.stems[string(w)] = string(s)
		}
	}
}

// stem gives w's stem, w lower case.
func (t *tokenizer) stem(w string) string {
	if s, ok := t.stems[w]; ok {
		return s
	}
	s := w
	if stemmed(w) {
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
		if r == '#' && hexColor(s[i+size:]) {
			// A CSS colour ("#eef2f7") is what a question asks for by
			// that word: "what background colour did we pick".
			if term := t.term("color"); term != "" {
				emit(term)
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

// terms gives the terms of s in order, the parts of its compounds and
// not their whole forms: the words of a name or a phrase, as a record's
// words are matched side by side.
func (t *tokenizer) terms(s string) []string {
	var out []string
	t.each(s, func(term string) {
		if !t.whole {
			out = append(out, term)
		}
	})
	return out
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

// hexColor reports whether s starts with the digits of a CSS colour
// after its "#": three, four, six or eight hex digits, then no more of a
// word. Three or four need a letter, as "#123" is an issue's number.
func hexColor(s string) bool {
	n, letter := 0, false
	for n < len(s) && n < 9 {
		c := s[n]
		if c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			letter = true
		} else if c < '0' || c > '9' {
			break
		}
		n++
	}
	if n < len(s) && isJoiner(rune(s[n])) && n+1 < len(s) && nextIsWord(s[n+1:]) || n < len(s) && isWordRune(rune(s[n])) {
		return false
	}
	return n == 6 || n == 8 || (n == 3 || n == 4) && letter
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
	parts := 0
	start := 0
	var prev rune
	emitPart := func(p string) {
		parts++
		if len(p) < 2 || len(p) > maxToken {
			return
		}
		if term := t.term(p); term != "" {
			emit(term)
		}
	}
	for i, r := range c {
		upper := isUpper(r)
		switch {
		case isJoiner(r):
			if i > start {
				emitPart(c[start:i])
			}
			start = i + utf8.RuneLen(r)
		case upper && i > start && (isLower(prev) || isDigit(prev)):
			// camelCase: a hump starts a part.
			emitPart(c[start:i])
			start = i
		case upper && i > start && isUpper(prev):
			// "HTTPServer": the last capital before a lower-case letter starts a part.
			if n, _ := utf8.DecodeRuneInString(c[i+utf8.RuneLen(r):]); isLower(n) && i+utf8.RuneLen(r) < len(c) {
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
	if whole {
		if lower := t.lower(c); len(lower) <= maxToken && !isNumber(lower) {
			t.whole, t.id = true, -1
			emit(lower)
			t.whole = false
		}
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
	if r < utf8.RuneSelf {
		return wordByte[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isUpper, isLower and isDigit are unicode's, quick for ASCII, which is
// nearly every letter of a build.
func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

// wordByte tells the ASCII letters and digits.
var wordByte = func() (w [utf8.RuneSelf]bool) {
	for c := range w {
		w[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return w
}()

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

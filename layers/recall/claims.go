package recall

import (
	"cmp"
	"iter"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memkeep/memkeep/internal/wordmark"
)

// Claims. A question states details of what it asks about that no one
// writes in other words: a duration, code quoted in several words, an
// error message quoted, the new name a rename gave. Memory that holds
// the answer holds them as written; memory that never does has no answer,
// however well the question's other words match, and Unknown names them
// (the never-happened sets, written by helpers who saw neither the code
// nor each other's sets, asked about a 5-minute TTL in never15 and
// never16, `@default_visible_lines 20` in never15, "database disk image
// is malformed" in never13 and never14, and a rename to DashboardLive in
// fresh23 and never13: none of which happened). The names a question uses are judged in
// search.go and things.go; these are the details around them.

// Durations. A question may state a duration of what it asks about:
// "why did we raise the registry's TTL from 90 seconds to 5 minutes", "why
// a 2-second debounce". A duration is a detail no one writes in other
// words: memory that holds the answer holds it, written some way (90s,
// "90 seconds", @ttl_ms 90_000, :timer.seconds(90)). Memory that never
// holds it anywhere has no answer, however well the question's other
// words match: the registry's TTL was never 5 minutes. (Of the eval's
// question sets, counted in the fifteenth session: no answerable
// question of 1,421 states a duration, and 27 never-happened questions
// of 758 do, 17 of them saying what it times.)

// duration is a duration a text states: as written, and in milliseconds.
type duration struct {
	text    string
	ms      int64
	at, end int // its offsets in the text
}

// durationUnits are the units of time as text writes them after a
// number, in milliseconds. A unit of one letter counts only written
// against its number ("15s", "5m"), never after a space ("5 m").
var durationUnits = []struct {
	name string
	ms   int64
}{
	{"ms", 1}, {"msec", 1}, {"msecs", 1}, {"millisecond", 1}, {"milliseconds", 1},
	{"s", 1000}, {"sec", 1000}, {"secs", 1000}, {"second", 1000}, {"seconds", 1000},
	{"m", 60_000}, {"min", 60_000}, {"mins", 60_000}, {"minute", 60_000}, {"minutes", 60_000},
	{"h", 3_600_000}, {"hr", 3_600_000}, {"hrs", 3_600_000}, {"hour", 3_600_000}, {"hours", 3_600_000},
	{"d", 86_400_000}, {"day", 86_400_000}, {"days", 86_400_000},
}

// unitMS gives the milliseconds of a unit word, or 0.
func unitMS(u string) int64 {
	for _, d := range durationUnits {
		if d.name == u {
			return d.ms
		}
	}
	return 0
}

// durations finds the durations text writes: a number and its unit
// ("15s", "90 seconds", "5-minute", "500ms", "five minutes"), Erlang's timer functions
// (":timer.seconds(15)") and a number given to a name ending in its unit
// ("@debounce_ms 500", "sweep_interval_seconds: 15"). Numbers may group
// their digits with underscores (15_000). "500s" after a status code's
// digits is the status codes, not a duration.
func durations(text string) []duration {
	var out []duration
	// Lower-cased byte for byte, so that its offsets are text's (a
	// letter's lower case may be longer, İ; an invalid byte would be
	// replaced by three).
	b := []byte(text)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	lower := string(b)
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if i > 0 && (lower[i-1] < utf8.RuneSelf && wordByte[lower[i-1]] || lower[i-1] == '.') {
			continue
		}
		if c >= 'a' && c <= 'z' {
			// A number in words: "five minutes", "ninety-second".
			end := i
			for end < len(lower) && lower[end] >= 'a' && lower[end] <= 'z' {
				end++
			}
			n := wordNumber(lower[i:end])
			span := false
			if w := lower[i:end]; n == 0 && (w == "every" || (w == "a" || w == "an") && strings.HasSuffix(lower[:i], "once ")) {
				n = 1 // "every minute", "once a minute"
			} else if n == 0 && (w == "a" || w == "an") && strings.HasSuffix(lower[:i], "for ") {
				// "good for a whole day": a span, one of a unit of a
				// minute or longer ("for a second time" is no span).
				n, span = 1, true
			}
			if n > 0 {
				if ms, to := unitAfter(lower, end, n); ms > 0 && (!span || ms >= 60_000) {
					out = append(out, duration{text[i:to], n * ms, i, to})
				}
			}
			i = end
			continue
		}
		if !isDigit(rune(c)) {
			continue
		}
		n, end := number(lower, i)
		if n < 0 {
			continue
		}
		if ms, to := unitAfter(lower, end, n); ms > 0 {
			out = append(out, duration{text[i:to], n * ms, i, to})
		} else if ms := unitBefore(lower, i); ms > 0 {
			out = append(out, duration{text[i:end], n * ms, i, end})
		}
		i = end
	}
	return out
}

// wordNumber gives the value of a number written in words that a duration
// is stated in ("five minutes", "ninety seconds"), or 0.
func wordNumber(w string) int64 {
	if n := slices.Index(smallNumbers, w); n > 0 {
		return int64(n)
	}
	switch w {
	case "fifteen":
		return 15
	case "twenty":
		return 20
	case "thirty":
		return 30
	case "sixty":
		return 60
	case "ninety":
		return 90
	}
	return 0
}

var smallNumbers = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// number reads the whole number at s[i:] (digits, underscores between
// them), and where it ends; -1 for a number with a fraction or too long.
func number(s string, i int) (int64, int) {
	var n int64
	j := i
	for j < len(s) && (isDigit(rune(s[j])) || s[j] == '_' && j+1 < len(s) && isDigit(rune(s[j+1]))) {
		if s[j] != '_' {
			n = n*10 + int64(s[j]-'0')
			if n > 1<<40 {
				return -1, j
			}
		}
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(rune(s[j+1])) {
		return -1, j // a fraction (1.3 seconds), a version, an address
	}
	return n, j
}

// unitAfter gives the milliseconds of the unit written after a number
// that ends at s[end]: against it, or after one space or hyphen.
func unitAfter(s string, end int, n int64) (int64, int) {
	j := end
	spaced := j < len(s) && (s[j] == ' ' || s[j] == '-')
	if spaced {
		j++
	}
	k := j
	for k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
		k++
	}
	if k == j || k < len(s) && isDigit(rune(s[k])) {
		return 0, k
	}
	u := s[j:k]
	if spaced && slices.Contains(unitFillers, u) && k < len(s) && s[k] == ' ' {
		return unitAfter(s, k, n) // "two full seconds"
	}
	if len(u) == 1 && spaced {
		return 0, k // "5 m", "tail -F 2 s": a letter apart names no unit
	}
	if u == "s" && n >= 100 && n < 600 {
		return 0, k // "500s", "404s": status codes
	}
	return unitMS(u), k
}

// unitFillers may stand between a number and its unit: "two full
// seconds", "90 whole minutes".
var unitFillers = []string{"entire", "full", "long", "whole"}

// unitBefore gives the milliseconds of the unit a number is given to:
// a name ending in it before the number ("@debounce_ms 500",
// "ttl_seconds: 90", ":timer.seconds(15)").
func unitBefore(s string, i int) int64 {
	j := i
	for j > 0 && strings.IndexByte(" :=(", s[j-1]) >= 0 && i-j < 3 {
		j--
	}
	if j == i {
		return 0
	}
	k := j
	for k > 0 && (s[k-1] >= 'a' && s[k-1] <= 'z' || s[k-1] == '_' || s[k-1] == '.') {
		k--
	}
	name := s[k:j]
	if at := strings.LastIndexAny(name, "_."); at >= 0 {
		if u := name[at+1:]; len(u) > 1 {
			return unitMS(u)
		}
	}
	return 0
}

// holdsDuration reports whether memory states the duration ms, however
// written, and when the question says what it times (timing, a group of
// timingWords), whether memory states it of the same: the registry's
// sweep every 15s is no 15-second timeout (fresh29). A number with its
// unit against it ("90s", "500ms") or hyphened ("5-minute") is one term,
// looked up; other ways are read from the documents holding a unit's word
// ("90 seconds", "@debounce_ms 500") when they are at most claimScan:
// past that the duration is taken as held (a question is answered rather
// than refused on a guess, and a prompt does not wait for hundreds of
// records read).
func (ix *Index) holdsDuration(ms int64, timing int, tok *tokenizer) bool {
	var words, terms []string
	for _, u := range durationUnits {
		if ms%u.ms != 0 {
			continue
		}
		n := strconv.FormatInt(ms/u.ms, 10)
		for _, t := range []string{n + u.name, n + "-" + u.name} {
			if ix.df(t) > 0 {
				if timing < 0 {
					return true
				}
				terms = append(terms, t)
			}
		}
		if len(u.name) > 1 {
			if w := tok.stem(u.name); !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	words = append(words, terms...)
	total := 0
	for _, w := range words {
		total += ix.df(w)
	}
	if total > claimScan {
		return true // too many to read in a prompt's time: taken as held
	}
	read := map[docRef]bool{} // a record holding two of the words is read once
	for _, w := range words {
		for at, d := range ix.docsHolding(w) {
			if read[at] {
				continue
			}
			read[at] = true
			text := ix.docText(at, d)
			for _, h := range durations(text) {
				if h.ms != ms {
					continue
				}
				// Memory that does not say what it times may time the same.
				if g := timedBy(text, h); timing < 0 || g < 0 || g == timing {
					return true
				}
			}
		}
	}
	return false
}

// timingWords are the words that say what a duration times, by group: a
// question's and memory's words for it are of one group (how long until
// something ends, how long before it is done, how often it is done). A
// word is found by its start ("debounced", "timeouts", "expiry").
var timingWords = [][]string{
	{"ttl", "expir", "lifetime", "idle", "cutoff", "inactiv", "stale", "valid", "timeout", "wait"},
	{"debounc", "throttl", "delay", "backoff"},
	{"interval", "sweep", "poll", "heartbeat", "every", "tick", "schedul"},
}

// timingReach is how many bytes either side of a duration timedBy reads.
const timingReach = 80

// timedBy gives the group of timingWords of the word nearest a duration
// in text that is of one (within two words either side: "a 15-second
// timeout", "TTL of 90 seconds", "@debounce_ms 500"), or -1.
func timedBy(text string, d duration) int {
	// Two words either side lie within a few dozen bytes: a long record
	// is not split whole for each duration in it.
	before := strings.Fields(strings.ToLower(text[max(0, d.at-timingReach):d.at]))
	after := strings.Fields(strings.ToLower(text[d.end:min(len(text), d.end+timingReach)]))
	// The nearest first: "a 90s TTL; @debounce_ms 500" times the 500 by
	// its debounce.
	var near []string
	for k := 1; k <= 2; k++ {
		if len(before) >= k {
			near = append(near, before[len(before)-k])
		}
		if len(after) >= k {
			near = append(near, after[k-1])
		}
	}
	for _, w := range near {
		w = strings.TrimLeft(w, "@:(`\"'")
		for g, words := range timingWords {
			for _, t := range words {
				if strings.HasPrefix(w, t) || strings.Contains(w, "_"+t) {
					return g
				}
			}
		}
	}
	return -1
}

// claimScan is the most records a claim's check reads (a duration's, a
// count's, a deletion's): past it the claim is taken as held.
const claimScan = 128

// isQuantity reports whether a word is a number with its unit against it
// ("15s", "500ms") or a number's plural ("500s", "1990s"): a quantity,
// judged as a duration if it is one, never as a name.
func isQuantity(w string) bool {
	i := 0
	for i < len(w) && (isDigit(rune(w[i])) || i > 0 && w[i] == '_') {
		i++
	}
	u := strings.ToLower(w[i:])
	return i > 0 && (u == "s" || unitMS(u) > 0)
}

// termWords gives the terms of text in order, as the words of a name
// (its parts, not its whole forms).
func termWords(text string, tok *tokenizer) []queryWord {
	var words []queryWord
	for _, t := range tok.terms(text) {
		words = append(words, queryWord{text: t, stem: t})
	}
	return words
}

// heldSideBySide reports whether memory holds the words of text side by
// side (code, an error message, a sigil's words), as seen judges a name
// of several words; text of fewer than two words is held.
func (ix *Index) heldSideBySide(text string, tok *tokenizer) bool {
	words := termWords(text, tok)
	return len(words) < 2 || ix.seen(words, tok)
}

// unknownSpans gives the code a question quotes in several words that
// memory never holds as written, unless a name in it is already known
// to be unknown (out).
func (ix *Index) unknownSpans(fields []string, out []string, tok *tokenizer) []string {
	var spans []string
	for _, sp := range inlineCode(fields) {
		// Code quoted in several words is quoted as it was written
		// (`@default_visible_lines 20`, `[:session_id, :timestamp]`): it
		// is known when memory holds its words side by side, not merely
		// each (never15 asked about a setting and a key memory holds
		// with other values).
		if sp[1]-sp[0] < 2 {
			continue
		}
		span := strings.Trim(strings.Join(fields[sp[0]:sp[1]], " "), "`\"'()[]{}“”‘’?!,;.")
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(span, o) }) && !ix.heldSideBySide(span, tok) {
			spans = append(spans, span)
		}
	}
	return spans
}

// newNames marks the words of a question that name what a change gave:
// the name after "to" or "into" within a few words of a rename ("why did
// we rename PaneListLive to DashboardLive"), after "to", "into", "for",
// "with" or "by" within a few words of a swap, a replacement, a switch,
// a migration or a conversion ("swapped highlight.js out for Shiki",
// "turned TranscriptRenderer into a GenServer"), after "in favor of",
// and before "instead of" or "rather than" in its clause ("storing the
// tokens in a ReviewToken resource instead of ETS"). A change's result
// is written as it is, in the code and in what is said of it; memory
// that holds its words only apart or in prose (ReviewTokenStore, "the
// dashboard live view") never saw it.
func newNames(words []questionWord) []bool {
	marks := make([]bool, len(words))
	lower := func(i int) string {
		if i < 0 || i >= len(words) {
			return ""
		}
		return strings.ToLower(words[i].text)
	}
	// after marks the first name after one of the words to, within
	// renameReach words of i and its clause; a rename's new name may be
	// a hyphenated word ending its phrase (spotter-plugin to
	// claude-plugin; not "to a kebab-case name").
	after := func(i int, to ...string) {
		rename := strings.HasPrefix(lower(i), "renam")
		for j := i + 1; j < len(words) && j <= i+renameReach; j++ {
			if slices.Contains(to, lower(j)) && j+1 < len(words) {
				for k := j + 1; k < len(words) && k <= j+3; k++ {
					if words[k].name || rename && hyphenName(words[k].text) && (words[k].ends || k+1 == len(words) || isStop(lower(k+1))) {
						marks[k] = true
						return
					}
					if words[k].ends {
						break
					}
				}
			}
			if words[j].ends && j > i+1 {
				return
			}
		}
	}
	for i := range words {
		t := lower(i)
		switch {
		case strings.HasPrefix(t, "renam"):
			after(i, "to", "into")
		case slices.Contains(changeVerbs, t):
			after(i, "to", "into", "for", "with", "by")
		case t == "in" && (lower(i+1) == "favor" || lower(i+1) == "favour") && lower(i+2) == "of":
			after(i+1, "of")
		case t == "instead" && lower(i+1) == "of", t == "rather" && lower(i+1) == "than":
			// The names of the clause before: what was chosen.
			for j := i - 1; j >= 0 && j >= i-renameReach && !words[j].ends; j-- {
				marks[j] = marks[j] || words[j].name
			}
		}
	}
	return marks
}

// hyphenName reports whether w is a name written with hyphens, lower
// case (claude-plugin, spotter-dov): letters or digits either side of
// each hyphen.
func hyphenName(w string) bool {
	if !strings.Contains(w, "-") {
		return false
	}
	for part := range strings.SplitSeq(w, "-") {
		if part == "" || strings.IndexFunc(part, func(r rune) bool { return !unicode.IsLower(r) && !unicode.IsDigit(r) }) >= 0 {
			return false
		}
	}
	return true
}

// changedWords gives the ways of doing a change gave, told in words: the
// words ending in -ing (polling, batching, streaming) among the first
// three after "to", "into", "for", "with" or "by" within a few words of a
// swap, a replacement, a switch, a migration or a conversion ("into" only
// for a turn: "turned out to"), or after "in favor of", in their clause
// ("why did we switch the tail worker from tail -F over to Elixir
// polling", "swap the TailF adapter out for an Elixir polling adapter").
// A way of doing is written in some form where it was done (poll,
// polls, polled); memory that never writes it in any form never saw the
// change (four sets asked why the tail workers went to polling; memory
// never polls). Other plain words of a result are told in other words
// ("a compile-time construct" for a macro), and are not judged here.
func changedWords(words []questionWord) []int {
	var out []int
	lower := func(i int) string { return strings.ToLower(words[i].text) }
	take := func(from int) {
		n := 0
		for k := from; k < len(words) && n < 3; k++ {
			w := lower(k)
			if slices.Contains(placeEnds, w) {
				return
			}
			if !words[k].name && !words[k].code && len(w) > len("ing")+2 && strings.HasSuffix(w, "ing") && !isStop(w) {
				out = append(out, k)
				n++
			}
			if words[k].ends {
				return
			}
		}
	}
	for i := range words {
		switch t := lower(i); {
		case slices.Contains(changeVerbs, t):
			// What it went from may come first ("switched X from A to
			// B"): the result is then looked for past A.
			for j, reach := i+1, i+renameReach; j < len(words) && j <= reach; j++ {
				switch lower(j) {
				case "to", "into", "for", "with", "by":
					if strings.HasPrefix(t, "turn") && lower(j) != "into" {
						break
					}
					take(j + 1)
					reach = j
				case "from":
					reach = j + renameReach
				}
				if words[j].ends {
					break
				}
			}
		case t == "in" && i+2 < len(words) && (lower(i+1) == "favor" || lower(i+1) == "favour") && lower(i+2) == "of":
			take(i + 3)
		}
	}
	return out
}

// changeVerbs are the words of a change whose result is named after
// them: "swapped X out for Y", "replaced X with Y", "switched to Y".
var changeVerbs = []string{
	"swap", "swaps", "swapped", "swapping", "replace", "replaces", "replaced", "replacing",
	"switch", "switched", "switching", "migrate", "migrated", "migrating",
	"convert", "converted", "converting", "turn", "turned", "turning",
}

// renameReach is how many words after "rename" its new name may come.
const renameReach = 8

// label reports whether quoted text is a label of the interface, quoted
// as it reads on screen: a few words, the first capitalised ('Open
// conversation', "Show N more lines"). Memory that holds the button holds
// its words side by side; never18 asked which route serves a 'Download
// JSONL' button memory never had, and never12 and fresh30 about an
// 'Export as Markdown' one. No answerable question of the eval's sets
// quotes a label memory does not hold so; their paraphrases in quotes are
// lower-case ("reveal the rest", "impossible condition").
func label(q string) bool {
	r, _ := utf8.DecodeRuneInString(q)
	n := len(strings.Fields(q))
	return unicode.IsUpper(r) && n >= 2 && n <= 6
}

// quotedWord reports whether a quote is one plain word ('archived'): a
// word a question quotes is a word it says was written, a state's, a
// label's or a value's, however loosely it quotes a phrase; a stop word
// is none (a `when` clause).
func quotedWord(q string) bool {
	return len(q) >= 3 && strings.IndexFunc(q, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 && !isStop(strings.ToLower(q))
}

// holdsWord reports whether memory holds a plain word in some form: its
// stem, itself, or a word of its thesaurus group. Memory that never wrote
// 'archived' had no note archived (never65 asked why notes got a third
// 'archived' status).
func (ix *Index) holdsWord(w string, tok *tokenizer) bool {
	lower := strings.ToLower(w)
	stem := tok.stem(lower)
	return ix.df(stem) > 0 || ix.df(lower) > 0 || slices.ContainsFunc(synonyms(stem), func(s string) bool { return ix.df(s) > 0 })
}

// printed reports whether q, quoted in query, is quoted as printed: an
// error, or a label in quotes other than backticks (`Open Report` is
// code, judged as code).
func printed(q, query string) bool {
	return failureWords(q) || label(q) && !strings.Contains(query, "`"+q+"`") || toldAsOutput(q, query)
}

// toldAsOutput reports whether the question says that q, quoted in it,
// is what something printed: a word of output just before the quote
// ("the warning 'One of your code blocks includes unescaped HTML'", "it
// printed 'x'") or just after it ("'x' warnings"). A quote of several
// words so told is quoted as printed, however plain its words. A quote
// told as an error ("failed with tmux's 'sessions should be nested with
// care, unset $TMUX to force' error") is printed when it is a sentence of
// four words or more: one of three is a fragment of the message, or the
// message in other words ("an 'expected a map' error" for a
// BadMapError, which memory holds only by its name).
func toldAsOutput(q, query string) bool {
	n := len(strings.Fields(q))
	if n < 3 {
		return false
	}
	i := strings.Index(query, q)
	if i < 0 {
		return false
	}
	before, after := besideQuote(query, i, len(q))
	if slices.Contains(outputWords, before) || slices.Contains(outputWords, after) {
		return true
	}
	return n >= 4 && (slices.Contains(errorWords, before) || slices.Contains(errorWords, after))
}

// errorWords say that a quoted text is an error's message.
var errorWords = []string{"error", "errors", "exception", "failure", "failures"}

// besideQuote gives the words just before and just after the quote of n
// bytes at i in query, lower case, without the quote marks and the
// punctuation around them ("" where there is none).
func besideQuote(query string, i, n int) (before, after string) {
	if b := strings.Fields(strings.TrimRight(query[:i], "'\"`‘“ ")); len(b) > 0 {
		before = strings.ToLower(strings.Trim(b[len(b)-1], ",.;:?!()"))
	}
	if a := strings.Fields(strings.TrimLeft(query[i+n:], "'\"`’”")); len(a) > 0 {
		after = strings.ToLower(strings.Trim(a[0], ",.;:?!()"))
	}
	return before, after
}

// outputWords say that a quoted text is what a program printed.
// An error told in quotes is often told in other words (fresh16 asked of
// an "'expected a map' error", a BadMapError); a quote that names an
// error is judged by its words of failure (failureWords), not here.
var outputWords = []string{"warning", "warnings", "printed", "prints", "print", "logged", "logs", "output", "outputs",
	"said", "says", "saying", "stderr", "stdout"}

// unknownErrors gives the errors and labels a question quotes that
// memory never holds: a quoted text with a word of failure in it
// ("database disk image is malformed", `curl: (28) Operation timed out`)
// is quoted from output as it was printed, a label as it reads on
// screen, and memory that saw either holds its words side by side. Other
// quotes are let be: a question quotes a phrase loosely ("show more
// lines" for "Show N more lines").
func (ix *Index) unknownErrors(query string, out []string, tok *tokenizer) []string {
	var errs []string
	for _, q := range quoted(query) {
		if quotedWord(q) && !slices.Contains(out, q) && !ix.holdsWord(q, tok) {
			errs = append(errs, q)
			continue
		}
		if !printed(q, query) || namesTest(q, query) || slices.ContainsFunc(out, func(o string) bool { return strings.Contains(q, o) }) {
			continue
		}
		if !ix.heldSideBySide(q, tok) && !ix.holdsException(q) && !ix.heldInParts(q, tok) {
			errs = append(errs, q)
		}
	}
	for _, e := range namedErrors(strings.Fields(withoutFences(query))) {
		if !ix.heldSideBySide(e, tok) {
			errs = append(errs, e)
		}
	}
	for _, e := range toldErrors(strings.Fields(withoutFences(query))) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(e, o) }) && !ix.heldSideBySide(e, tok) {
			errs = append(errs, e)
		}
	}
	return errs
}

// Errors named by their words run together. A question may name an
// error by what it said, hyphenated into one word: "what did the
// port-already-in-use error say", "why did git reject it as
// non-fast-forward". Output that printed it holds those words side by
// side ("address already in use", "(non-fast-forward)"); memory that
// never holds them so never saw that error (two sets asked of a push
// rejected as non-fast-forward, one of a port already in use; the push
// failed for want of an upstream branch, and the server never ran).

// errorNouns name a failure after the words that tell it.
var errorNouns = []string{"crash", "error", "errors", "exception", "failure", "failures", "panic", "warning"}

// rejectedAs name a failure before "as" and the words that tell it.
var rejectedAs = []string{"fail", "failed", "refuse", "refused", "reject", "rejected"}

// exceptionName finds the exception an error quoted raises, in the
// parentheses Elixir writes it in: "** (BadMapError) expected a map".
var exceptionName = regexp.MustCompile(`\(([A-Z][A-Za-z0-9_.]*(?:Error|Exception))\)`)

// holdsException reports whether memory holds the exception a quoted
// error names: a record of output keeps the first lines of a crash, and
// its message often past them ("BadMapError with processor config format"
// in memory, "** (BadMapError) expected a map, got: …" in the run).
func (ix *Index) holdsException(q string) bool {
	m := exceptionName.FindStringSubmatch(q)
	return m != nil && ix.df(strings.ToLower(m[1])) > 0
}

// heldInParts reports whether a quote that leaves text out ("Could not
// start application opentelemetry ... BadMapError") is held part by part,
// each side of the ellipsis side by side.
func (ix *Index) heldInParts(q string, tok *tokenizer) bool {
	parts := strings.Split(strings.ReplaceAll(q, "…", "..."), "...")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && !ix.heldSideBySide(p, tok) && !ix.holdsException(p) {
			return false
		}
	}
	return true
}

// namedErrors gives the errors a question names by a hyphenated word of
// three words or more (port-already-in-use, non-fast-forward), written
// just before a word of failure or just after "rejected as", each as its
// words apart.
func namedErrors(fields []string) []string {
	var out []string
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		if strings.Count(w, "-") < 2 || strings.Contains(w, "--") || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
			continue
		}
		before := i >= 2 && strings.EqualFold(fields[i-1], "as") && slices.Contains(rejectedAs, strings.ToLower(fields[i-2])) ||
			i >= 3 && strings.EqualFold(fields[i-1], "as") && slices.Contains(rejectedAs, strings.ToLower(fields[i-3]))
		after := !strings.ContainsAny(f[len(f)-1:], ",;:?!.") && i+1 < len(fields) &&
			slices.Contains(errorNouns, strings.ToLower(strings.TrimRight(fields[i+1], ",;:?!.")))
		if before || after {
			out = append(out, strings.ReplaceAll(w, "-", " "))
		}
	}
	return out
}

// Errors told in words. A question may tell an error without quoting it
// whole: "esbuild couldn't resolve `highlight.js/lib/core`", "it could
// not find priv/scripts/tail_wrapper.sh". Output that printed it holds
// the verb and the name side by side (Could not resolve "js/app.js");
// memory that holds them only apart never saw that failure (four sets
// asked what we changed when esbuild could not resolve highlight.js's
// core, which it always found).

// cannotWords open an error told in words, before its verb.
var cannotWords = [][]string{{"couldn't"}, {"couldn’t"}, {"could", "not"}, {"can't"}, {"can’t"}, {"cannot"}, {"unable", "to"}, {"failed", "to"}}

// errorVerbs are what a program failed to do with a name.
var errorVerbs = []string{"compile", "connect", "decode", "fetch", "find", "import", "load", "locate", "open", "parse", "reach", "read", "resolve"}

// toldErrors gives the errors a question tells in words, each its verb
// and the name it failed on ("resolve highlight.js/lib/core"): a word
// of not being able, one of errorVerbs, then a name of code or a path,
// quoted or not.
func toldErrors(fields []string) []string {
	low := make([]string, len(fields))
	for i, f := range fields {
		low[i] = strings.ToLower(f)
	}
	var out []string
	for i := range fields {
		for _, c := range cannotWords {
			v := i + len(c)
			if v+1 >= len(fields) || !slices.Equal(low[i:v], c) || strings.ContainsAny(fields[v-1], ".,;?!") {
				continue
			}
			verb := low[v]
			if !slices.Contains(errorVerbs, verb) {
				continue
			}
			name := strings.Trim(strings.TrimRight(fields[v+1], ".,;:?!"), "`'\"“”‘’()[]{}")
			if _, ok := codeNameOf(name); ok || strings.ContainsAny(name, "/.") && len(name) > 3 {
				out = append(out, verb+" "+name)
			}
		}
	}
	return out
}

// quoted gives the texts a question quotes, outside fenced blocks, in
// double quotes, backticks or single quotes (a single quote opening after a space or a bracket and
// closing before one or a stop, so that "couldn't" and "it's" quote
// nothing).
func quoted(query string) []string {
	query = withoutFences(query)
	out := singleQuoted(query)
	for _, pair := range [...][2]string{{"\"", "\""}, {"“", "”"}, {"`", "`"}} {
		rest := query
		for {
			i := strings.Index(rest, pair[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(pair[0]):]
			j := strings.Index(rest, pair[1])
			if j < 0 {
				break
			}
			if q := strings.TrimSpace(rest[:j]); q != "" && !strings.HasPrefix(q, "`") {
				out = append(out, q)
			}
			rest = rest[j+len(pair[1]):]
		}
	}
	return out
}

// withoutFences gives query without its fenced blocks: a log or code
// pasted into a prompt is what the user sees now, not a quote of what
// memory saw (a block left open runs to the end).
func withoutFences(query string) string {
	var b strings.Builder
	for i, part := range strings.Split(query, "```") {
		if i%2 == 0 {
			b.WriteString(part)
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// singleQuoted gives the texts a question quotes in single quotes.
func singleQuoted(query string) []string {
	var out []string
	open := -1
	for i := 0; i < len(query); i++ {
		if query[i] != '\'' {
			continue
		}
		before := i == 0 || strings.IndexByte(" \t\n([", query[i-1]) >= 0
		after := i+1 == len(query) || strings.IndexByte(" \t\n.,;:?!)]", query[i+1]) >= 0
		switch {
		case open < 0 && before && !after:
			open = i + 1
		case open >= 0 && after && i > open && query[i-1] != ' ':
			out = append(out, query[open:i])
			open = -1
		}
	}
	return out
}

// namesTest reports whether q, quoted in query, names a test: "the
// 'sync twice, no duplicates' test", "test 'syncing twice doesn't
// duplicate rows'". A test is named by what it checks, which a question
// tells loosely; its words of failure ("duplicates") are not output
// quoted as printed (fresh36 and fresh41 each asked why such a test
// failed, in words its name does not use).
func namesTest(q, query string) bool {
	i := strings.Index(query, q)
	if i < 0 {
		return false
	}
	before, after := besideQuote(query, i, len(q))
	return slices.Contains(testWords, before) || slices.Contains(testWords, after)
}

// testWords say that a quoted text names a test.
var testWords = []string{"test", "tests", "spec", "describe"}

// failureWords reports whether a quoted text says something failed.
// A mark counts where it opens a word: not "terror".
func failureWords(q string) bool {
	return wordmark.Opens(q, failureMarks) || strings.HasPrefix(q, "** (")
}

// failureMarks are the words with which output says something failed.
var failureMarks = []string{"error", "fail", "cannot", "can't", "could not", "couldn't", "denied", "refused", "timed out", "timeout", "malformed", "locked", "not found", "no such", "undefined", "invalid", "duplicate", "too many", "panic", "exception", "crash", "abort", "killed", "segmentation", "exceeded", "exhausted", "overflow", "unreachable", "forbidden", "unauthorized", "rejected",
	"does not", "doesn't", "unexpected", "unable", "not allowed", "badarg", "badmatch", "mismatch",
	"already exist", "already started", "already in use", "not defined", "not a function"}

// Counts. A question may state how many of something a setting or a
// result holds: "collapse after 25 lines", "cut at 800 characters", "the
// queue's concurrency to 50", "`@default_visible_lines` to 20". Like a
// duration, a count is written as a number, never in other words, and
// memory that holds the answer holds the number next to what it counts.
// Memory that never does has no answer (never15's
// `@default_visible_lines` 20 and never18's 25 lines, 800 characters and
// concurrency of 50, none of which happened; no answerable question of
// the eval's 1,421 states a count, and 15 never-happened ones of 758 do).

// count is a number a question states of something: as written, the
// number, and what it counts: the stem of a noun memory must write near
// it, or a code name it must write just before it.
type count struct {
	text, n string
	noun    string
	name    string
}

// countNouns are the stems of what a number counts, written after it
// ("25 lines", "800 characters") or as a code name's last part before it
// ("max_tokens: 1024", "@default_visible_lines 20").
var countNouns = []string{
	"attempt", "byte", "char", "column", "connect", "entri", "gb", "item", "kb", "line", "mb", "messag",
	"percent", "pixel", "px", "record", "request", "retri", "row", "token", "worker",
}

// settingNouns are the stems of settings a number is given after their
// plain name ("concurrency to 50", "port 4000", "a limit of 20").
var settingNouns = []string{"batch", "cap", "capac", "concurr", "limit", "max", "maximum", "port", "size", "threshold", "width"}

// countWords splits text into words for counts, lower-cased, with their
// punctuation trimmed; "25-line" is two words. The joiners of code names
// stay: subagent_live.ex:25 is one word, and no number.
func countWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.Trim(f, "`\"'()[]{}<>,;?!“”‘’*")
		f = strings.TrimRight(f, ".:=")
		if f == "" {
			continue
		}
		if i := strings.IndexByte(f, '-'); i > 0 && allDigits(f[:i]) {
			out = append(out, f[:i], f[i+1:])
			continue
		}
		out = append(out, f)
	}
	return out
}

func allDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(rune(s[i])) {
			return false
		}
	}
	return s != ""
}

// settingName reports whether a word is a setting's code name a number
// is given to: a module attribute (@max_lookups), a snake_case key
// (pool_size:), or a dotted name ending in a count or a setting
// (config.max_rows), not a file (lookup_at_start.ex).
func settingName(w string, tok *tokenizer) bool {
	switch {
	case strings.HasPrefix(w, "@"):
		return len(w) > 1
	case strings.ContainsRune(w, '/'):
		return false
	case strings.ContainsRune(w, '.'):
		return countNoun(w, countNouns, tok) != "" || countNoun(w, settingNouns, tok) != ""
	}
	return strings.ContainsRune(w, '_')
}

// countNoun gives the stem of a word among nouns (as nounStem gives it),
// or "".
func countNoun(w string, nouns []string, tok *tokenizer) string {
	if s := nounStem(w, tok); slices.Contains(nouns, s) {
		return s
	}
	return ""
}

// counted gives the stem of what a word after a number says it counts,
// or "": one of countNouns, or any plural noun ("200 commit hashes", "14
// tests"), not a unit of time (a duration's) nor a function word.
func counted(w string, tok *tokenizer) string {
	if s := countNoun(w, countNouns, tok); s != "" {
		return s
	}
	if len(w) < 4 || !strings.HasSuffix(w, "s") || isStop(w) || unitMS(w) > 0 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return ""
	}
	return tok.stem(w)
}

// nounStem gives the stem of a word as a count's noun: the word, or a
// code name's last part.
func nounStem(w string, tok *tokenizer) string {
	if at := strings.LastIndexAny(w, "_."); at >= 0 {
		w = w[at+1:]
	}
	return sameCount(tok.stem(strings.TrimLeft(w, "@:")))
}

// sameCount writes a count's noun one way where text writes it two
// (chars, characters).
func sameCount(stem string) string {
	if stem == "charact" {
		return "char"
	}
	return stem
}

// countLinks are the words between a setting and its number ("set to 50").
var countLinks = []string{"to", "at", "of", "is", "was", "from", "set", "="}

// settingReach is how many words before its number a setting may be
// named.
const settingReach = 4

// maxCountDigits is the most digits of a count: longer numbers are ids
// and timestamps (a migration's 20260212165422).
const maxCountDigits = 6

// placeOfLine are the words before a number that make it a place in a
// file, not a count.
var placeOfLine = []string{"line", "col", "column"}

// counts finds the counts a question states: a number of at least two
// digits with what it counts after it, directly or after one word ("25
// lines", "20 result lines"), or a setting named just before it, or
// before "set to", "is", "of"… ("concurrency to 50",
// "`@default_visible_lines` set to 20"). A number of one digit is left out:
// memory does not index it, and a question's "4 messages instead of 2"
// is as likely told in words.
func counts(ws []string, tok *tokenizer) []count {
	var out []count
	for i, w := range ws {
		if len(out) == maxCounts {
			break
		}
		if len(w) < 2 || len(w) > maxCountDigits || !allDigits(w) {
			continue // one digit, an id
		}
		if i+1 < len(ws) && unitMS(ws[i+1]) > 0 {
			continue // a duration, judged as one
		}
		if i > 0 && slices.Contains(placeOfLine, ws[i-1]) {
			continue // where in a file: "guard_fail in subagent_live.ex line 25"
		}
		c := count{n: w}
		j := i - 1
		for k := 0; k < 2 && j >= 0 && slices.Contains(countLinks, ws[j]); k++ {
			j--
		}
		// The setting may be named a few words before, with where it
		// lives or what became of it between: "`@debounce_ms` in
		// `TranscriptTailWorker` set to 2000", "@default_visible_lines
		// ended up at 25".
		if j >= 0 && !settingName(ws[j], tok) {
			for k := j - 1; k >= max(0, j-settingReach); k-- {
				if allDigits(ws[k]) {
					break
				}
				if settingName(ws[k], tok) {
					j = k
					break
				}
			}
		}
		switch {
		case j >= 0 && settingName(ws[j], tok):
			c.name, c.text = ws[j], ws[j]+" "+w
		case len(w) == 4 && w >= "1900" && w <= "2100":
			continue // a year, unless a setting is given it
		default:
			if c.noun, c.text = countedBy(ws, i, j, tok); c.noun == "" {
				if c.noun, c.text = raisedTo(ws, i, tok); c.noun == "" {
					if c.noun, c.text = asNumberOf(ws, i, tok); c.noun == "" {
						continue
					}
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// raiseVerbs change a count to the number after "to": "raise the
// visible lines to 20".
var raiseVerbs = []string{"bump", "bumped", "bumping", "drop", "dropped", "increase", "increased", "increasing",
	"lower", "lowered", "lowering", "raise", "raised", "raising", "reduce", "reduced", "reducing"}

// raisedTo gives what the number ws[i] counts when a question says a
// count was raised or lowered to it: "to" just before it, a counted noun
// within twice countReach words before that, and a verb of raising or
// lowering within countReach words before the noun ("raise the number of tool
// output lines shown before the button to 20"); "" otherwise.
func raisedTo(ws []string, i int, tok *tokenizer) (noun, text string) {
	if i < 2 || ws[i-1] != "to" {
		return "", ""
	}
	for k := i - 2; k >= max(0, i-1-2*countReach); k-- {
		n := counted(ws[k], tok)
		if n == "" {
			continue
		}
		if slices.ContainsFunc(ws[max(0, k-countReach):k], func(v string) bool { return slices.Contains(raiseVerbs, v) }) {
			return n, ws[i] + " " + ws[k]
		}
	}
	return "", ""
}

// asNumberOf gives what the number ws[i] counts when a question says it
// was taken as the number of something: "why did we pick 20 as the
// number of tool-result lines shown"; "" otherwise.
func asNumberOf(ws []string, i int, tok *tokenizer) (noun, text string) {
	if i+4 >= len(ws) || ws[i+1] != "as" || !slices.Contains(countWordsOf, ws[i+3]) || ws[i+4] != "of" {
		return "", ""
	}
	for k := i + 5; k < min(len(ws), i+5+countReach); k++ {
		if n := counted(ws[k], tok); n != "" {
			return n, ws[i] + " " + ws[k]
		}
	}
	return "", ""
}

// countedBy gives what the number ws[i] counts and the count as
// written: the setting ws[j] before it names ("concurrency 50"), or the
// noun just after it or one word on ("25 lines", "20 result lines");
// "" when it counts nothing.
func countedBy(ws []string, i, j int, tok *tokenizer) (noun, text string) {
	if j >= 0 {
		if s := countNoun(ws[j], settingNouns, tok); s != "" {
			return s, ws[j] + " " + ws[i]
		}
	}
	if i+1 < len(ws) {
		if s := counted(ws[i+1], tok); s != "" {
			return s, ws[i] + " " + ws[i+1]
		}
	}
	if i+2 < len(ws) && !allDigits(ws[i+1]) {
		if s := counted(ws[i+2], tok); s != "" {
			return s, strings.Join(ws[i:i+3], " ")
		}
	}
	return "", ""
}

// maxCounts is the most counts a question is judged by: each costs up
// to claimScan records read, and a prompt stating more is a pasted
// log, not a question.
const maxCounts = 3

// countSpan is how many words from its noun memory may write a count:
// "writes 2 messages, but the second sync also finds 2, so 4 total"
// holds 4 messages.
const countSpan = 10

// holdsCount reports whether memory writes c's number near what it
// counts: within countSpan words of its noun, or just after its code name
// (a key and a colon, an attribute and its value). It reads the
// documents holding the number, and past claimScan of them takes the
// count as held.
func (ix *Index) holdsCount(c count, tok *tokenizer) bool {
	if ix.df(c.n) > claimScan {
		return true
	}
	// What memory counts may be written in another word of its group,
	// next to the number: 40 rows where memory says 40 lines. (A word of
	// the group a sentence away counts something else: "20 most recent
	// sessions … main entry points" is no count of 20 lines.)
	others := synonyms(c.noun)
	for at, d := range ix.docsHolding(c.n) {
		ws := countWords(ix.countText(at, d))
		for i, w := range ws {
			if w != c.n {
				continue
			}
			if c.name != "" {
				if i > 0 && ws[i-1] == c.name || i > 1 && ws[i-2] == c.name {
					return true
				}
				continue
			}
			for j := max(0, i-countSpan); j < min(len(ws), i+countSpan+1); j++ {
				if j == i {
					continue
				}
				if n := nounStem(ws[j], tok); n == c.noun || abs(j-i) <= synonymSpan && slices.Contains(others, n) {
					return true
				}
			}
		}
	}
	return false
}

// synonymSpan is how many words from its number memory may write a
// count's noun in another word of its group.
const synonymSpan = 3

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// countText is the text of a document a count is read in: without a
// search's tally (searchTally) nor ranges of numbers (withoutRanges).
func (ix *Index) countText(at docRef, d doc) string {
	if d.Layer != layerL1 {
		return withoutRanges(ix.docText(at, d))
	}
	f, _ := ix.l1Record(at, d)
	if searchTally(f) {
		f.res = ""
	}
	return withoutRanges(f.joined())
}

// withoutRanges gives text with its ranges of numbers ("lines 20-27")
// left out: a range bounds lines or versions, and counts nothing.
func withoutRanges(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j > i && j+1 < len(text) && text[j] == '-' && text[j+1] >= '0' && text[j+1] <= '9' {
			for j++; j < len(text) && text[j] >= '0' && text[j] <= '9'; j++ {
			}
			b.WriteByte(' ')
			i = j
			continue
		}
		if j == i {
			j++
		}
		b.WriteString(text[i:j])
		i = j
	}
	return b.String()
}

// searchTally reports whether an L1 record is a search whose result is
// the tally L1 keeps of it ("20 lines", "3 files"): how many places
// matched, not a count of the project's. A Grep's "20 lines" held a
// collapse after 20 visible lines, which memory never set, for three
// never-happened questions.
func searchTally(f l1Fields) bool {
	if f.tool != "Grep" && f.tool != "Glob" {
		return false
	}
	n, what, ok := strings.Cut(f.res, " ")
	return ok && allDigits(n) && (what == "lines" || what == "files" || what == "matches")
}

// Moves. A question may say where something was moved: "when
// TranscriptRenderer got moved into lib/spotter_web/renderers/", "when we
// moved `tail_wrapper.sh` into `spotter-plugin/scripts/`". Memory that
// holds the move holds the thing under its new folder, their words side
// by side in a path (priv/scripts/tail_wrapper.sh); memory that holds
// the folder and the thing only apart never saw the move (6
// never-happened questions of the eval's 758 state a move, in five sets;
// no answerable question of 1,421 does).

// move is a thing a question says was moved, the folder it names as
// where to, and the one it names as where from ("out of scripts/"), each
// possibly empty but not both. A folder the question sets at the
// project's root ("the top-level scripts/ folder") is that folder, not
// one of its name deeper down (priv/scripts). A folder told in words
// ("the app's priv folder") is one of that name anywhere in a path. A
// thing the question tells in words memory cannot name ("the little
// shell wrapper around tail got moved out of the priv folder into
// scripts/") is "": any thing, when both folders are told.
type move struct {
	thing, folder, from string
	rooted, fromRooted  bool
	told, fromTold      bool
}

// moveTo are the words that open where something was moved.
var moveTo = []string{"into", "to", "under"}

// placeVerbs put a thing where it is, or say where it is, a place that
// follows "in" too ("why did we put tail_wrapper.sh under
// spotter-plugin/scripts", "why does trace_context.sh live in
// spotter-plugin/hooks/lib", "why did it end up under …", "why did we
// leave it in scripts/"); memory that holds the thing there holds them
// side by side as a move's does.
var placeVerbs = []string{"kept", "leave", "left", "live", "lived", "lives", "placed", "put", "putting", "sit", "sits", "up"}

// placeTo are the words that open where something was put.
var placeTo = []string{"in", "into", "to", "under"}

// moveVerbs are the words of moving that a destination follows.
var moveVerbs = []string{"move", "moved", "moving", "moves", "relocate", "relocated", "relocating"}

// folderLeads are the words that may stand between "into" and a folder:
// "into the top-level scripts/ folder". rootLeads among them set the
// folder at the project's root.
var (
	folderLeads = []string{"a", "an", "its", "new", "our", "the", "project", "project's", "repo", "repo's"}
	rootLeads   = []string{"repo-level", "repo-root", "root", "root-level", "top", "top-level", "toplevel"}
)

// folderNouns say that the word before them is a folder's name: "the
// priv folder", "the scripts dir".
var folderNouns = []string{"folder", "directory", "dir"}

// notFolderNames are words before a folder noun that name no folder:
// "the same folder", "its own directory".
var notFolderNames = []string{"new", "old", "one", "other", "own", "parent", "right", "same", "that", "this", "wrong"}

// folderAt gives the folder that fields[j:] open with, past at most
// three leading words (a possessive among them: "the app's priv
// folder"), whether a word of them sets it at the root, and whether it
// is told in words, a name before a folder noun ("priv folder"), not
// written as a path; "" when they open with none.
func folderAt(fields []string, j int) (folder string, rooted, told bool) {
	for start := j; j < len(fields) && j <= start+3; j++ {
		w := strings.Trim(fields[j], "`\"',.;:?!()")
		if isFolder(w) {
			return w, rooted, false
		}
		lw := strings.ToLower(w)
		if j+1 < len(fields) && !strings.ContainsAny(fields[j], ",;") && folderName(lw) &&
			slices.Contains(folderNouns, strings.ToLower(strings.Trim(fields[j+1], ",.;:?!()"))) {
			return lw, rooted, true
		}
		switch {
		case slices.Contains(rootLeads, lw):
			rooted = true
		case strings.HasSuffix(lw, "'s") || strings.HasSuffix(lw, "’s"):
			// A possessive leads on: "the app's priv folder".
		case !slices.Contains(folderLeads, lw) || strings.ContainsAny(fields[j], ",;"):
			return "", false, false
		}
	}
	return "", false, false
}

// folderName reports whether a word before a folder noun may be a
// folder's name: a word of letters, digits, "_" and "-", no stop word.
func folderName(w string) bool {
	if len(w) < 2 || isStop(w) || slices.Contains(notFolderNames, w) || slices.Contains(folderLeads, w) || slices.Contains(rootLeads, w) {
		return false
	}
	return !strings.ContainsFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
}

// moves finds the moves a question states: a verb of moving, "into",
// "to" or "under" and a folder (a path ending in a slash, or of two parts
// or more with no file's extension), or "out of" or "from" and a folder,
// and the name of code that was moved (a CamelCase module or a file's
// name): after the verb and before the folder ("we moved X into"), or
// else the nearest before the verb ("X got moved into"). A folder is
// looked for in the verb's clause: "where does X live now, and why isn't
// it in scripts/" places X nowhere. A thing told in words ("the tail
// wrapper shell script") is the name told reads in the words after the
// verb (tail_wrapper), when it reads one.
func moves(fields []string, told func([]string) string) []move {
	var out []move
	for i, f := range fields {
		verb := strings.ToLower(strings.Trim(f, "`\"',.;:?!()"))
		to, placed := moveTo, slices.Contains(placeVerbs, verb)
		switch {
		case placed:
			to = placeTo
		case !slices.Contains(moveVerbs, verb):
			continue
		}
		// What was moved: named after the verb ("we moved X into"), or
		// before it ("X got moved into").
		thing := ""
		for j := i + 1; j < len(fields) && j <= i+6 && !slices.Contains(to, strings.ToLower(fields[j])); j++ {
			if w := strings.Trim(fields[j], "`\"',.;:?!()"); movedName(w) {
				thing = w
				break
			}
		}
		for j := i - 1; j >= 0 && thing == ""; j-- {
			if w := strings.Trim(fields[j], "`\"',.;:?!()"); movedName(w) {
				thing = w
			}
		}
		if thing == "" && told != nil {
			j := i + 1
			for j < len(fields) && slices.Contains(folderLeads, strings.ToLower(fields[j])) {
				j++
			}
			thing = told(fields[j:])
		}
		if strings.ContainsAny(f, ",;") {
			continue
		}
		// Where to is looked for up to eight words on, or past where
		// from, five words on from it ("moving the little tail -F wrapper
		// script out of priv/scripts into …").
		m, toSeen, reach := move{thing: thing}, false, i+8
		for j := i + 1; j+1 < len(fields) && j <= reach; j++ {
			w := strings.ToLower(fields[j])
			switch {
			case m.from == "" && !placed && (w == "from" || w == "out" && strings.ToLower(fields[j+1]) == "of"):
				if w == "out" {
					j++
				}
				m.from, m.fromRooted, m.fromTold = folderAt(fields, j+1)
				reach = max(reach, j+5)
				continue
			case !toSeen && slices.Contains(to, w):
				toSeen = true
				m.folder, m.rooted, m.told = folderAt(fields, j+1)
				continue
			}
			if strings.ContainsAny(fields[j], ",;?") {
				break
			}
		}
		if m.thing != "" && (m.folder != "" || m.from != "") || m.folder != "" && m.from != "" {
			out = append(out, m)
		}
	}
	return out
}

// fileTold reads the first words of fields as a file told in words: two
// or three that, joined by "_" or "-", are the name of a file a record of
// memory holds ("the tail wrapper shell script" is tail_wrapper.sh); its
// name without the extension, or "". Past claimScan records holding the
// words it cannot tell, and reads none.
func (ix *Index) fileTold(fields []string, tok *tokenizer) string {
	words := plainLead(fields, 2)
	for n := len(words); n >= 2; n-- {
		read := 0
		for at, d := range ix.docsHoldingWith(tok.term(words[0]), []string{tok.term(words[n-1])}) {
			if read++; read > claimScan {
				return ""
			}
			text := strings.ToLower(ix.docText(at, d))
			for _, sep := range []string{"_", "-"} {
				if join := strings.Join(words[:n], sep); holdsFileNamed(text, join) {
					return join
				}
			}
		}
	}
	return ""
}

// holdsFileNamed reports whether text (lower case) writes a file whose
// name without its extension is name: "tail_wrapper.sh", alone or at the
// end of a path.
func holdsFileNamed(text, name string) bool {
	for off := 0; ; {
		k := strings.Index(text[off:], name+".")
		if k < 0 {
			return false
		}
		k += off
		ext := k + len(name) + 1
		for ext < len(text) && (text[ext] >= 'a' && text[ext] <= 'z' || text[ext] >= '0' && text[ext] <= '9') {
			ext++
		}
		if (k == 0 || !isWordRune(rune(text[k-1]))) && fileName(text[k:ext]) {
			return true
		}
		off = k + 1
	}
}

// movedName reports whether a word names code that can be moved: a
// CamelCase module (TranscriptRenderer) or a file's name (tail_wrapper.sh).
func movedName(w string) bool {
	if fileName(w) {
		return true
	}
	if strings.ContainsAny(w, "./_-") || len(w) < 4 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 && strings.IndexFunc(w, unicode.IsLower) >= 0
}

// isFolder reports whether a word is a folder's path: one ending in a
// slash, or of two parts or more the last of which is no file's.
func isFolder(w string) bool {
	if !strings.Contains(w, "/") || strings.Contains(w, "://") {
		return false
	}
	if strings.HasSuffix(w, "/") {
		return len(w) > 1
	}
	last := w[strings.LastIndexByte(w, '/')+1:]
	return !strings.Contains(last, ".")
}

// unknownMoves gives the moves a question states that memory never
// holds.
func (ix *Index) unknownMoves(fields []string, out []string, tok *tokenizer) []string {
	var unknown []string
	told := func(fields []string) string {
		if n, k := ix.toldName(fields, tok); k > 0 {
			return n.forms[len(n.forms)-1]
		}
		return ix.fileTold(fields, tok)
	}
	for _, m := range moves(fields, told) {
		if slices.ContainsFunc(out, func(o string) bool {
			return strings.Contains(m.folder, o) || strings.Contains(m.from, o) || m.thing != "" && strings.Contains(m.thing, o)
		}) {
			continue
		}
		if !ix.holdsMove(m, tok) {
			switch {
			case m.thing == "":
				unknown = append(unknown, "moved from "+m.from+" in "+m.folder)
			case m.folder == "":
				unknown = append(unknown, m.thing+" out of "+m.from)
			case m.from != "":
				unknown = append(unknown, m.thing+" from "+m.from+" in "+m.folder)
			default:
				unknown = append(unknown, m.thing+" in "+m.folder)
			}
		}
	}
	return unknown
}

// holdsMove reports whether memory holds a move as the question states
// it. Memory that ran a command moving the thing holds where it went and
// where from: a move the other way round ("out of priv/scripts into the
// top-level scripts/" for `mv scripts/tail_wrapper.sh priv/scripts/`), or
// the thing said to be left where it was moved from, never happened.
// Memory that ran none holds the thing under its folder, their words
// side by side in a path (priv/scripts/tail_wrapper.sh), in a record
// holding the rarest of them, or, when that word is in too many records
// to read, the path as one term (the index keeps a path of up to
// maxToken bytes whole: a longer one is taken as held); it cannot tell
// where from.
//
// A move of a thing told in words memory cannot name is held unless
// memory ran only moves the other way round between its two folders.
func (ix *Index) holdsMove(m move, tok *tokenizer) bool {
	to := func(r movedFile) bool { return m.folder == "" || inFolder(r.to, m.folder, m.rooted, m.told) }
	from := func(r movedFile) bool { return m.from == "" || inFolder(r.from, m.from, m.fromRooted, m.fromTold) }
	if m.thing == "" {
		ran, ok := ix.movesRun("", tok)
		back := func(r movedFile) bool {
			return inFolder(r.from, m.folder, m.rooted, m.told) && inFolder(r.to, m.from, m.fromRooted, m.fromTold)
		}
		return !ok || !slices.ContainsFunc(ran, back) || slices.ContainsFunc(ran, func(r movedFile) bool { return to(r) && from(r) })
	}
	if ran, ok := ix.movesRun(m.thing, tok); ok && len(ran) > 0 {
		return slices.ContainsFunc(ran, func(r movedFile) bool { return to(r) && from(r) })
	}
	if m.folder == "" || m.told {
		// A folder told in words is no path to find the thing under.
		return true
	}
	folder := strings.TrimSuffix(m.folder, "/")
	want, rarest := ix.phrase(termWords(folder+"/"+m.thing, tok))
	if rarest == "" {
		return false // a word memory never holds
	}
	if ix.df(rarest) <= phraseScan {
		budget := phraseScan
		return ix.adjacent(want, rarest, &budget, tok)
	}
	whole := strings.ToLower(folder) + "/" + movedFileName(m.thing)
	if len(whole) > maxToken {
		return true
	}
	for _, s := range ix.segs {
		if i := s.seek(whole); i < s.nTerms && strings.HasPrefix(s.termAt(i), whole) {
			return true
		}
	}
	return false
}

// gitOrPlain gives the arguments of a simple command's words that run
// verb on its own or as git's (mv, git mv), and whether they do.
func gitOrPlain(words []string, verb string) ([]string, bool) {
	switch {
	case len(words) > 0 && words[0] == verb:
		return words[1:], true
	case len(words) > 1 && words[0] == "git" && words[1] == verb:
		return words[2:], true
	}
	return nil, false
}

// commandWords gives the words of one part of a shell command
// (commandParts) from its program on: past the variables set for it and
// the programs that only run it ("MIX_ENV=test mix test", "sudo rm x",
// "env FOO=1 mix run").
func commandWords(part string) []string {
	ws := strings.Fields(part)
	for len(ws) > 0 && (strings.Contains(ws[0], "=") || ws[0] == "sudo" || ws[0] == "env") {
		ws = ws[1:]
	}
	return ws
}

// movedFile is a file a command moved: the folder it was in and the one
// it went to, as the command writes them ("" for the working folder).
type movedFile struct{ from, to string }

// movesRun gives the moves of thing the shell commands of memory ran
// (mv, git mv), and false when it cannot tell: past claimScan records
// holding the thing's rarest word and a command's tool name.
// Of thing "", the moves of any file.
func (ix *Index) movesRun(thing string, tok *tokenizer) ([]movedFile, bool) {
	term := tok.term("mv")
	if thing != "" {
		_, term = ix.phrase(termWords(thing, tok))
	}
	if term == "" {
		return nil, true
	}
	var out []movedFile
	if ix.commandHolds(term, tok, nil, func(f l1Fields) bool {
		out = append(out, filesMoved(f.cmd, thing)...)
		return false
	}) {
		return nil, false // past claimScan records
	}
	return out, true
}

// movedFileName gives the name of the file a moved thing is: a file's
// own, or a module's in snake_case (TranscriptRenderer is
// transcript_renderer.ex).
func movedFileName(thing string) string {
	if fileName(thing) {
		return strings.ToLower(thing)
	}
	return snakeOf(thing)
}

// filesMoved gives the moves of thing (a file's name, or a module's,
// whose file is its name in snake_case) that a shell command makes:
// "mkdir -p priv/scripts && mv scripts/tail_wrapper.sh priv/scripts/".
func filesMoved(cmd, thing string) []movedFile {
	file := movedFileName(thing)
	var out []movedFile
	for _, part := range commandParts(cmd) {
		args, ok := gitOrPlain(commandWords(part), "mv")
		if !ok {
			continue
		}
		args = slices.DeleteFunc(args, func(a string) bool { return strings.HasPrefix(a, "-") })
		if len(args) < 2 {
			continue
		}
		dest := strings.Trim(args[len(args)-1], `"'`)
		for _, src := range args[:len(args)-1] {
			src = strings.Trim(src, `"'`)
			name := strings.ToLower(path.Base(src))
			if thing != "" && name != file && strings.TrimSuffix(name, path.Ext(name)) != file {
				continue
			}
			to := dest
			if !strings.HasSuffix(dest, "/") && strings.EqualFold(path.Base(dest), path.Base(src)) || len(args) == 2 && path.Ext(dest) != "" {
				to = path.Dir(dest)
			}
			out = append(out, movedFile{from: folderOf(path.Dir(src)), to: folderOf(to)})
		}
	}
	return out
}

// folderOf gives a command's folder as inFolder compares it: cleaned,
// lower case, "" for the working folder.
func folderOf(dir string) string {
	dir = strings.ToLower(path.Clean(dir))
	if dir == "." {
		return ""
	}
	return strings.TrimPrefix(dir, "./")
}

// inFolder reports whether a folder a command wrote (folderOf) is the one
// a question names: the same path, or one ending with it when the
// question does not set it at the root ("scripts/" is priv/scripts, "the
// top-level scripts/" is not). A command's absolute path has no root the
// question can set.
func inFolder(dir, folder string, rooted, told bool) bool {
	folder = folderOf(strings.TrimSuffix(folder, "/"))
	if told && !rooted {
		// Told in words, the folder may be any part of the path, or a
		// word of one (the plugin folder: spotter-plugin/).
		return slices.ContainsFunc(strings.Split(dir, "/"), func(part string) bool {
			return part == folder || slices.Contains(strings.FieldsFunc(part, func(r rune) bool { return r == '-' || r == '_' }), folder)
		})
	}
	// A folder holds its subfolders: what went into priv/scripts went
	// into priv/.
	return dir == folder || strings.HasPrefix(dir, folder+"/") ||
		(!rooted || strings.HasPrefix(dir, "/")) && (strings.HasSuffix(dir, "/"+folder) || strings.Contains(dir, "/"+folder+"/"))
}

// Deletions. A question may say a file was deleted: "after we deleted
// `pane_view_live.ex`, where did its handler end up?". Memory that holds
// the deletion holds the file's name beside a word of deleting (rm
// priv/repo/migrations/…_add_unique_index….exs, "removed the file");
// memory that holds the file only as it was read or edited never saw it
// deleted (4 never-happened questions of the eval's 758 say a file was
// deleted; of 1,421 answerable ones, fresh30's asks why a migration got
// deleted, and memory holds its rm).

// deleteVerbs are the words of deleting a question says of a file.
var deleteVerbs = []string{"delete", "deleted", "deleting", "deletes", "remove", "removed", "removing", "removes", "rm", "dropped", "drop"}

// deleteMarks are the words with which memory tells of a file deleted.
var deleteMarks = []string{"rm", "delete", "deleted", "deleting", "deletes", "remove", "removed", "removing", "removes", "unlink", "unlinked", "drop", "dropped", "deletion", "removal"}

// deletedFiles gives the files a question says were deleted: a file's
// name within three words after a verb of deleting ("we deleted
// `x.ex`"), or within three before it ("x.ex got deleted").
func deletedFiles(ws []string) []string {
	var out []string
	for i, w := range ws {
		if !slices.Contains(deleteVerbs, w) {
			continue
		}
		for _, j := range []int{i + 1, i + 2, i + 3, i - 1, i - 2, i - 3} {
			if j >= 0 && j < len(ws) && fileWord(lastPathPart(ws[j])) {
				if f := lastPathPart(ws[j]); !slices.Contains(out, f) {
					out = append(out, f)
				}
				break
			}
		}
	}
	return out
}

// fileNameTerm gives the term the records holding a file's name are
// found by: the name whole, or its rarest word when the index keeps the
// name only inside longer paths; "" when memory never holds it. (An
// edit's file is found by its path first: fileTerm.)
func (ix *Index) fileNameTerm(file string, tok *tokenizer) string {
	if ix.df(file) > 0 {
		return file
	}
	_, term := ix.phrase(termWords(file, tok))
	return term
}

// lastPathPart gives a path's file name.
func lastPathPart(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// holdsDeletion reports whether a record holding the file's name holds a
// word of deleting within countSpan words of it; past claimScan
// records to read it is taken as held.
func (ix *Index) holdsDeletion(file string, tok *tokenizer) bool {
	term := ix.fileNameTerm(file, tok)
	if term == "" {
		return true // a file memory never names is judged as a name
	}
	if ix.df(term) > claimScan {
		return true
	}
	for at, d := range ix.docsHolding(term) {
		ws := countWords(ix.docText(at, d))
		for i, w := range ws {
			if lastPathPart(w) != file {
				continue
			}
			for j := max(0, i-countSpan); j < min(len(ws), i+countSpan+1); j++ {
				if slices.Contains(deleteMarks, ws[j]) {
					return true
				}
			}
		}
	}
	return false
}

// Removals. A question may say a part of the code, or a tool, was taken
// out: "why did we drop AshComputer from SubagentLive", "when we ripped
// AshComputer back out", "why did we delete the handle_event we had
// written", "why'd we take credo --strict out of the pre-commit hook".
// Memory that saw it holds the name beside a word of removing
// ("load_session_messages drops agent_id") or in a line an edit took
// out ("-def handle_event(…"); memory that holds the name only as added
// or used never saw it go (six never-happened sets, never22 to never27,
// ask why AshComputer was dropped from SubagentLive; memory holds it
// added and used there; eleven ask why credo, dialyzer or highlight.js
// was dropped, which memory holds run and used).

// removeVerbs are the words of taking out a question says of a name.
var removeVerbs = append([]string{"dropping", "drops", "rip", "rips", "ripped", "ripping", "backed"}, deleteVerbs...)

// outVerbs take a name out with "out" after it ("back X out", "pull X
// out", "take X out"), and mean otherwise what they mean.
var outVerbs = []string{"back", "backing", "pull", "pulled", "pulling", "take", "taking", "took", "yank", "yanked", "strip", "stripped"}

// removeMarks are the words with which memory tells of a name taken out.
var removeMarks = append([]string{"drops", "dropping", "rip", "ripped", "ripping", "revert", "reverted"}, deleteMarks...)

// stemsOfWords gives the terms of words, as the index holds them, each
// once.
func stemsOfWords(words []string, tok *tokenizer) []string {
	var out []string
	for _, w := range words {
		if t := tok.stem(w); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// withoutDiffStat gives a line of an edit's diff without the count of
// lines added and taken out that opens the first ("+0 -4 -def
// handle_event(…" is "-def handle_event(…").
func withoutDiffStat(line string) string {
	if f := strings.SplitN(line, " ", 3); len(f) == 3 && len(f[0]) > 1 && len(f[1]) > 1 &&
		f[0][0] == '+' && allDigits(f[0][1:]) && f[1][0] == '-' && allDigits(f[1][1:]) {
		return f[2]
	}
	return line
}

// takenOut gives the lines an edit's diff took out: those it writes
// after a "-", when its count says it took some out. The lines it kept
// are written bare, so that a Write's bullet ("- **dialyxir** for type
// checking") is no line taken out, nor, since a diff's lines are written
// without their indent, a kept line that opens with "- ".
func takenOut(diff string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if f := strings.Fields(diff); len(f) < 2 || f[1] == "-0" {
			return
		}
		for line := range strings.Lines(diff) {
			if l := withoutDiffStat(line); len(l) > 1 && l[0] == '-' && l[1] != ' ' && !yield(l) {
				return
			}
		}
	}
}

// removeReach is how many words after its verb a removed name may come
// ("drop the old AshComputer").
const removeReach = 3

// removedNames gives the code names other than files, and the tools and
// libraries (things.txt: credo, highlight.js), that a question says were
// taken out: within removeReach words after a verb of removing.
func removedNames(fields []string, tok *tokenizer) []codeName {
	var out []codeName
	for i, f := range fields {
		verb := strings.ToLower(codeWord(f))
		phrasal := slices.Contains(outVerbs, verb)
		if !phrasal && !slices.Contains(removeVerbs, verb) {
			continue
		}
		for j := i + 1; j < len(fields) && j <= i+removeReach; j++ {
			w := codeWord(fields[j])
			n, ok := listedTool(w, tok)
			if !ok {
				n, ok = codeNameOf(w)
				ok = ok && !fileName(lastPathPart(w))
			}
			if ok {
				// "back SubagentLive out of AshComputer": these verbs
				// take out only with the out after their name, or
				// after its flags ("take credo --strict out").
				k := j + 1
				for k < len(fields) && strings.HasPrefix(fields[k], "-") {
					k++
				}
				if !phrasal || k < len(fields) && strings.ToLower(codeWord(fields[k])) == "out" {
					out = append(out, n)
				}
				break
			}
			// Past "from" comes where it was taken from: "the
			// handle_event removed from SessionLive".
			if strings.ContainsAny(fields[j], ".,;:?!") || strings.EqualFold(fields[j], "from") {
				break
			}
		}
	}
	return out
}

// heldFragment reports whether a question quotes n in a fragment of code
// of several words (backticks) that memory holds side by side: "drop the
// `if session_record` check". Such a fragment goes out of a line an edit
// changed, whose new text alone L1 keeps ("session_cwd =
// session_record.cwd"), so its removal cannot be read there; a fragment
// memory holds is one it saw. A command is no such fragment.
func (ix *Index) heldFragment(query string, n codeName, tok *tokenizer) bool {
	for _, q := range quoted(query) {
		f := strings.Fields(q)
		if !strings.Contains(query, "`"+q+"`") || len(f) < 2 || !strings.Contains(q, n.as) {
			continue
		}
		// `mix credo --strict` taken out of a hook is judged as credo is.
		if slices.Contains(programs, f[0]) || slices.ContainsFunc(f, func(w string) bool { return strings.HasPrefix(w, "-") }) {
			continue
		}
		if ix.heldSideBySide(q, tok) {
			return true
		}
	}
	return false
}

// listedTool reads w as a tool or a library a question says was taken
// out or run (dialyzer, credo, highlight.js): a listed thing, written in
// one word, whole in memory's words (credo in credo:disable-for-next-line,
// not in credos).
func listedTool(w string, tok *tokenizer) (codeName, bool) {
	lower := strings.ToLower(w)
	if len(lower) < 3 || strings.ContainsAny(lower, "/_") || !isThing(stemsOf(termWords(lower, tok))) {
		return codeName{}, false
	}
	return codeName{as: w, forms: []string{lower}, whole: !strings.Contains(lower, ".")}, true
}

// holdsRemoval reports whether memory holds n taken out, or cannot tell:
// n held nowhere (judged as a name), or more than claimScan records to
// read. Where n is common (credo, SessionLive), only the records that
// also hold a word of removing are read.
func (ix *Index) holdsRemoval(n codeName, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(n.forms[len(n.forms)-1], tok))
	if term == "" {
		return true
	}
	docs := ix.docsHolding(term)
	if ix.df(term) > claimScan {
		docs = ix.docsHoldingWith(term, stemsOfWords(removeMarks, tok))
	}
	read := 0
	for at, d := range docs {
		if read++; read > claimScan {
			return true
		}
		var text string
		if d.Layer == layerL1 {
			f, _ := ix.l1Record(at, d)
			for line := range takenOut(strings.ToLower(f.diff)) {
				if n.heldBy(line) {
					return true // a line an edit took out
				}
			}
			text = strings.ToLower(f.joined())
		} else {
			text = strings.ToLower(ix.docText(at, d))
		}
		// The word of removing is said of the name: just before it
		// ("drops agent_id", "removed the old AshComputer") or just
		// after ("AshComputer was removed").
		ws := countWords(text)
		for i, w := range ws {
			if !n.heldBy(w) {
				continue
			}
			for j := max(0, i-removeReach-1); j < min(len(ws), i+3); j++ {
				if j != i && slices.Contains(removeMarks, ws[j]) {
					return true
				}
			}
		}
	}
	return false
}

// unknownClaims gives what a question states of the past that memory
// never holds: a move, a file deleted, a count, a duration (out holds
// what is already judged unknown).
func (ix *Index) unknownClaims(query string, out []string, tok *tokenizer) []string {
	// A fenced block is what the user pastes from now (a log, code):
	// it claims nothing of the past.
	text := withoutFences(query)
	fields, ws := strings.Fields(text), countWords(text)
	var unknown []string
	unknown = append(unknown, ix.unknownMoves(fields, out, tok)...)
	edited := editedThings(fields)
	if ignoresChanged(ws) && !slices.Contains(edited, ignoreList) {
		edited = append(edited, ignoreList)
	}
	for _, e := range edited {
		if !ix.holdsEdit(e, tok) {
			unknown = append(unknown, e.as+" changed")
		}
	}
	for _, a := range slices.Concat(addedThings(fields), switchedInFile(fields)) {
		// A file memory never saw changed had nothing added: its
		// records were read for that already.
		if !slices.Contains(out, a.file.as) && !slices.Contains(unknown, a.file.as+" changed") && !ix.holdsAddition(a, tok) {
			unknown = append(unknown, strings.Join(a.words, " ")+" added to "+a.file.as)
		}
	}
	for _, place := range storedIn(fields) {
		// A name of the place already judged unknown says so.
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(place, strings.ToLower(o)) }) && !ix.heldAdjacent(termWords(place, tok), tok) {
			unknown = append(unknown, place+" stored in")
		}
	}
	for _, c := range commandsRun(fields) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(c, o) }) && !ix.heldSideBySide(c, tok) {
			unknown = append(unknown, c)
		}
	}
	for _, c := range slices.Concat(ix.connections(fields, tok), switches(fields), pushedBranches(fields)) {
		if !ix.holdsTogether(c, tok) {
			unknown = append(unknown, c.a.as+" with "+c.b.as)
		}
	}
	for _, c := range quotedCommandsRun(text, ws) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, c.arg) }) && !ix.holdsCommandRun(c, tok) {
			unknown = append(unknown, c.prog+" "+c.arg+" run")
		}
	}
	for _, c := range flagsForWork(fields) {
		if !ix.holdsFlagged(c, tok) {
			unknown = append(unknown, cmp.Or(c.work, c.sub)+" with "+c.flag)
		}
	}
	if forcedPushTold(ws) && !ix.holdsForcedPush(tok) {
		unknown = append(unknown, "a forced push")
	}
	for _, topic := range pushedTopics(fields) {
		if !ix.holdsTopicPush(topic, tok) {
			unknown = append(unknown, strings.Join(topic, " ")+" branch pushed")
		}
	}
	for _, c := range prioritiesOf(fields) {
		if !ix.holdsPriority(c) {
			unknown = append(unknown, c.work+" at P"+string(c.p))
		}
	}
	for _, n := range toolsRun(fields, tok) {
		if !ix.holdsRun(n, tok) {
			unknown = append(unknown, n.as+" run")
		}
	}
	for _, c := range workAbouts(fields) {
		for _, n := range c.names {
			if !ix.holdsWorkAbout(c.work, n) {
				unknown = append(unknown, c.work+" about "+n.as)
			}
		}
	}
	for _, c := range workModules(fields) {
		if !slices.Contains(out, c.module.as) && !ix.holdsWorkModule(c) {
			unknown = append(unknown, c.module.as+" in "+c.work)
		}
	}
	for _, c := range versions(fields) {
		if !slices.Contains(out, c.dep) && !ix.holdsVersion(c) {
			unknown = append(unknown, c.dep+" "+c.v)
		}
	}
	if saysDowngrade(ws) && !ix.holdsDowngrade(tok) {
		unknown = append(unknown, "a dependency downgraded")
	}
	for _, w := range ix.unknownTasks(fields) {
		if !slices.Contains(out, w) {
			unknown = append(unknown, w)
		}
	}
	for _, o := range workOrders(fields) {
		if !ix.holdsWorkOrder(o) {
			unknown = append(unknown, o.first+" before "+o.then)
		}
	}
	for _, d := range dependencies(fields) {
		if !ix.holdsDependency(d) {
			unknown = append(unknown, d.String())
		}
	}
	for _, c := range countChanges(ws, tok) {
		if !ix.holdsCountChange(c) {
			unknown = append(unknown, c.from+" to "+c.to)
		}
	}
	for _, c := range wordChanges(ws) {
		if !ix.holdsWordChange(c, tok) {
			unknown = append(unknown, strings.TrimPrefix(c.from+" to "+c.to, " "))
		}
	}
	for _, c := range migrationColumns(ws) {
		if !slices.Contains(out, c.column) && !ix.holdsMigrationColumn(c, tok) {
			unknown = append(unknown, c.column+" column added to "+c.table)
		}
	}
	for _, code := range statusesOf(ws, tok) {
		if !ix.holdsStatus(code) {
			unknown = append(unknown, "HTTP "+code)
		}
	}
	said := len(unknown)
	for _, s := range userSaid(fields) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(s, o) }) && !ix.holdsSaid(s, tok) {
			unknown = append(unknown, s+" said by the user")
		}
	}
	for _, t := range userTopics(fields, tok) {
		if len(unknown) == said && !ix.holdsUserTold(t.terms, tok) {
			unknown = append(unknown, t.as+" said by the user")
		}
	}
	asked := len(unknown)
	for _, s := range agentAsked(fields) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(s, o) }) && !ix.holdsAsked(s, tok) {
			unknown = append(unknown, s+" asked of the user")
		}
	}
	for _, a := range askedTopics(fields, tok) {
		// What was asked told in words is judged when none of its
		// written things was.
		if len(unknown) == asked && !ix.holdsAskedAbout(a.terms, tok) {
			unknown = append(unknown, a.as+" asked of the user")
		}
	}
	for _, n := range envVarsOf(fields) {
		if !ix.holdsEnvVar(n, tok) {
			unknown = append(unknown, "an environment variable of "+n.as)
		}
	}
	for _, e := range exports(fields) {
		if !ix.holdsExport(e, tok) {
			unknown = append(unknown, e.format+" "+e.verb)
		}
	}
	for _, n := range removedNames(fields, tok) {
		if !slices.Contains(out, n.as) && !ix.heldFragment(text, n, tok) && !ix.holdsRemoval(n, tok) {
			unknown = append(unknown, n.as+" removed")
		}
	}
	for _, f := range deletedFiles(ws) {
		if !slices.Contains(out, f) && !ix.holdsDeletion(f, tok) {
			unknown = append(unknown, f+" deleted")
		}
	}
	for _, c := range definedIns(fields) {
		if !slices.Contains(out, c.name.as) && !ix.holdsDefinedIn(c, tok) {
			unknown = append(unknown, c.name.as+" in "+c.file)
		}
	}
	for _, m := range plainMerges(fields, tok) {
		if !ix.holdsPlainMerge(m, tok) {
			unknown = append(unknown, "merged the other way round")
		}
	}
	for _, m := range mergesInto(fields) {
		if !ix.holdsMerge(m, tok) {
			unknown = append(unknown, m.what.as+" merged into "+m.into.as)
		}
	}
	if claim := splitClaim(ws); claim != "" && !ix.holdsSplitBack(splitNames(fields), tok) {
		unknown = append(unknown, claim)
	}
	if rejectsPlan(ws) && !ix.holdsPlanRejected(tok) {
		unknown = append(unknown, "plan rejected")
	}
	for _, t := range failedTests(fields) {
		if !ix.holdsTestFailed(t, tok) {
			unknown = append(unknown, t+" failed")
		}
	}
	for _, o := range ix.untakenNamed(ws, tok) {
		unknown = append(unknown, o+" taken")
	}
	for _, th := range adoptedThings(fields, tok) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, th) }) && !ix.holdsAdopted(th, tok) {
			unknown = append(unknown, th+" adopted")
		}
	}
	if way := optTold(ws); way != "" && !ix.holdsOptWay(way, ix.optSubject(text, tok), tok) {
		unknown = append(unknown, way)
	}
	for _, s := range settingsOn(ws) {
		if !slices.Contains(out, s) && !ix.holdsWordOf(s, tok) {
			unknown = append(unknown, s+" turned on")
		}
	}
	for _, f := range keptFiles(ws) {
		if !slices.Contains(out, f) && !ix.holdsKept(f, tok) {
			unknown = append(unknown, f+" kept")
		}
	}
	for _, p := range perItems(ws, tok) {
		if !ix.holdsPerItem(p, tok) {
			unknown = append(unknown, "a "+p.thing+" for each "+p.item)
		}
	}
	for _, m := range helperModels(ws) {
		if !ix.holdsHelperModel(m, text, tok) {
			unknown = append(unknown, "a helper run on "+m)
		}
	}
	for _, c := range keptCounts(ws) {
		if !ix.holdsKeptCount(c, tok) {
			unknown = append(unknown, c+" kept")
		}
	}
	for _, c := range counts(ws, tok) {
		// Quoted code stating it (`@max_lookups 20`) was judged whole.
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(o, c.n) }) && !ix.holdsCount(c, tok) {
			unknown = append(unknown, c.text)
		}
	}
	for _, d := range durations(text) {
		if !ix.holdsDuration(d.ms, timedBy(text, d), tok) {
			unknown = append(unknown, d.text)
		}
	}
	return unknown
}

// judgesClaims reports whether a prompt asks about the past, so that
// what it says happened is judged: it asks (a question mark, or a
// question's first word: "why did we…", "remind me where…") and does not
// open by proposing ("should we move tail_wrapper.sh into
// spotter-plugin/scripts/?", "can we drop the limit to 25 lines?"). A
// proposal states what it proposes, and a prompt that only tells ("the
// tail worker dies after 30 seconds with a timeout") what is happening
// now: memory cannot hold either yet.
func judgesClaims(query string) bool {
	words := strings.Fields(strings.ToLower(withoutChat(query)))
	for _, p := range proposals {
		if len(words) >= len(p) && slices.Equal(words[:len(p)], p) {
			return false
		}
	}
	return strings.Contains(query, "?") || len(words) > 0 && slices.Contains(questionOpeners, strings.Trim(words[0], ",.:;!"))
}

// questionOpeners are the words a question opens with.
var questionOpeners = []string{
	"why", "why'd", "what", "what's", "whats", "what'd", "where", "where's", "wheres", "where'd", "when", "when'd", "how", "how's", "how'd", "which", "who", "whose",
	"did", "does", "do", "is", "are", "was", "were", "has", "have", "had", "remind", "tell", "explain", "show",
}

// proposals are the words a proposal opens with.
var proposals = [][]string{
	{"should", "we"}, {"should", "i"}, {"can", "we"}, {"can", "i"}, {"could", "we"}, {"could", "i"}, {"shall", "we"},
	{"what", "if"}, {"how", "about"}, {"would", "it"}, {"is", "it", "worth"}, {"let's"}, {"lets"},
	{"i", "want", "to"}, {"i'd", "like", "to"}, {"we", "need", "to"}, {"i", "need", "to"}, {"we", "should"},
}

// Edits. A question may say a file was changed: "what did we change in
// lib/spotter/transcripts/jsonl_parser.ex", "when we refactored
// pane_view_live.ex", "what did we change in JsonlParser", "in
// pane_view_live.ex we added", "when PaneViewLive was switched over".
// Memory that
// saw the change holds an edit of the file (an Edit or a Write, a
// command that rewrote or committed it); memory that holds the project's
// file only read, searched or named never saw it changed (24
// never-happened questions of the eval's 958 say a change to a file that
// memory holds only read; no answerable question of 1,631 does).

// editedThing is a file a question says was changed: its name as
// written, and the name memory's paths end in (jsonl_parser.ex), or, for
// a module named in CamelCase, their stem before the extension
// (jsonl_parser).
type editedThing struct {
	as, file string
	module   bool
}

// editVerbs say that something was changed; the thing follows them
// ("changed in", "edits did we make to", "refactored").
var editVerbs = []string{"add", "added", "adjust", "adjusted", "change", "changed", "changes", "changing", "convert", "converted",
	"edit", "edited", "editing", "edits", "extend", "extended", "extending", "fix", "fixed", "fold", "folded", "merge", "merged",
	"modified", "modify", "modifying", "patch", "patched", "refactor", "refactored", "refactoring", "restructure", "restructured",
	"rework", "reworked", "rewrite", "rewrote", "rewritten", "switch", "switched", "tweak", "tweaked", "update", "updated"}

// editReach is how many words after its verb a changed file may be named
// ("added a catch-all handle_event clause for malformed terminal_scrolled
// payloads in pane_view_live.ex": ten).
const editReach = 10

// editedThings gives the files and CamelCase modules that a question's
// fields name with a verb of changing: within editReach words after it
// and in the same sentence, or just before it.
func editedThings(fields []string) []editedThing {
	var out []editedThing
	add := func(e editedThing) {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	for i, f := range fields {
		if !slices.Contains(editVerbs, strings.ToLower(strings.Trim(f, ",.;:?!"))) || strings.ContainsAny(f, ".?!") {
			continue
		}
		// The file may come first: "in pane_view_live.ex we added",
		// "when PaneViewLive was switched over".
		if k := i - 2; k >= 0 && slices.Contains([]string{"was", "were", "got"}, strings.ToLower(fields[i-1])) {
			if e, ok := editedName(fields[k]); ok {
				add(e)
				continue
			}
		}
		if k := i - 2; k >= 1 && strings.EqualFold(fields[k-1], "in") && slices.Contains([]string{"we", "i", "you"}, strings.ToLower(fields[i-1])) {
			if e, ok := editedName(fields[k]); ok {
				add(e)
				continue
			}
		}
		told := false // a module told in its words was taken
		for k := i + 1; k < min(len(fields), i+1+editReach); k++ {
			g := fields[k]
			if e, ok := editedName(g); ok {
				add(e)
				break
			}
			// A module told in its words ("the JSONL parser", "the
			// transcript tail worker"): the first two or three words
			// whose snake_case join memory may hold as a file's stem.
			for n := 3; n >= 2 && !told && k-i <= editWordsReach; n-- {
				if k+n <= len(fields) {
					if stem := wordsStem(fields[k : k+n]); stem != "" {
						add(editedThing{as: strings.Trim(strings.Join(fields[k:k+n], " "), ",.;:?!"), file: stem, module: true})
						told = true
					}
				}
			}
			if strings.ContainsAny(g[len(g)-1:], ".?!") {
				break // the sentence ends
			}
		}
	}
	return out
}

// editedName reads a word as a file's name or a CamelCase module's.
func editedName(g string) (editedThing, bool) {
	w := codeWord(g)
	switch {
	case fileName(lastPathPart(w)):
		return editedThing{as: w, file: strings.ToLower(lastPathPart(w))}, true
	case moduleName(w):
		return editedThing{as: w, file: snakeOf(w), module: true}, true
	}
	return editedThing{}, false
}

// codeWord gives a field of a question as a name of code is written:
// without the quotes, brackets and punctuation around it, a dotted name's
// dots kept (ActiveSessionRegistry.touch) but not a sentence's last.
func codeWord(f string) string {
	return strings.TrimRight(strings.Trim(f, "`\"'()[]{}<>,;:?!“”‘’*"), ".")
}

// editWordsReach is how many words after its verb a module told in words
// may begin ("change in the JSONL parser").
const editWordsReach = 4

// wordsStem gives the snake_case join of words that may name a module
// (jsonl_parser for "JSONL parser"): each of letters only, none a stop
// word, the last not ending the sentence early; "" otherwise.
func wordsStem(words []string) string {
	var parts []string
	for i, w := range words {
		t := strings.ToLower(strings.Trim(w, "`\"'()"))
		if i < len(words)-1 && strings.ContainsAny(w, ",.;:?!") {
			return ""
		}
		t = strings.TrimRight(t, ",.;:?!")
		if len(t) < 2 || isStop(t) || strings.IndexFunc(t, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			return ""
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "_")
}

// moduleName reports whether w is a module's name in CamelCase
// (JsonlParser, PaneViewLive), or the last part of a dotted one.
func moduleName(w string) bool {
	w = w[strings.LastIndexByte(w, '.')+1:]
	if len(w) < 4 || !unicode.IsUpper(rune(w[0])) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
		return false
	}
	return len(camelWords(w)) >= 2 && strings.IndexFunc(w, unicode.IsLower) >= 0
}

// modulePath reports whether w names a module by its path of capitalised
// words, each a plain word (Task.Supervisor, Phoenix.Presence).
func modulePath(w string) bool {
	parts := strings.Split(w, ".")
	return len(parts) > 1 && !slices.ContainsFunc(parts, func(p string) bool {
		return len(p) < 2 || !unicode.IsUpper(rune(p[0])) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0
	})
}

// snakeOf gives a module's file stem: JsonlParser is jsonl_parser, and
// Spotter.Services.Tmux is tmux.
func snakeOf(w string) string {
	w = w[strings.LastIndexByte(w, '.')+1:]
	return strings.ToLower(strings.Join(camelWords(w), "_"))
}

// holdsEdit reports whether memory holds e changed, or cannot tell: a
// module that is not one of the project's files memory names (one of a
// dependency, one told in words memory gives no record of), or a file
// named in more than claimScan records. Memory holds it changed when a
// tool record edits or writes it, or a command naming it rewrites,
// moves or commits it. A file named by its name that memory only names
// (in a listing, in prose) was never seen changed: never36 asked what we
// changed in pre-tool-capture.sh, which memory only lists.
func (ix *Index) holdsEdit(e editedThing, tok *tokenizer) bool {
	term := ix.fileTerm(e, tok)
	if term == "" || ix.df(term) > claimScan {
		return true
	}
	seen := false
	for at, d := range ix.docsHolding(term) {
		if d.Layer != layerL1 || d.Kind != kindTool {
			continue
		}
		f, _ := ix.l1Record(at, d)
		if f.file != "" && isFile(f.file, e) && ownFile(f.file) {
			seen = true
			if slices.Contains(editTools, f.tool) {
				return true
			}
		}
		if f.cmd != "" && rewrites(f.cmd) {
			for _, w := range countWords(f.cmd) {
				if isFile(w, e) {
					return true
				}
			}
		}
	}
	return !seen && e.module
}

// Additions. A question may say what was added to a file: "we added a
// reopen action to annotation.ex", "the has_many :annotations
// relationship we added to project.ex". Memory that saw it holds the
// words of what was added in an edit of that file; memory whose edits
// of the file never hold them never saw it added, however often the
// file was changed (never27 asked of a reopen action, a has_many and a
// catch-all clause that three files never got).

// addition is a file a question says something was added to, and the
// words of what was added.
type addition struct {
	file  editedThing
	words []string
}

// addVerbs say that something was added.
var addVerbs = []string{"add", "added", "adding", "adds"}

// registerVerbs say that something was added under a name or an event
// ("registered notify-session-end.sh under the SessionEnd event in
// hooks.json", "notify-session-end.sh was wired to the SessionEnd
// event in hooks.json"): what was added follows them, never before "we
// register" ("which hook event did we register in hooks.json" asks
// which). "hook" is no such verb: "which hook event is it registered
// under" is a noun's.
var registerVerbs = []string{"register", "registered", "registering", "registers", "wire", "wired", "wiring"}

// mendVerbs say that something was fixed or quietened with what was
// added: "we silenced the false positive with a @dialyzer attribute in
// otel_helpers.ex" (two sets asked of such an attribute, which memory
// never wrote; the warning went when the code changed).
var mendVerbs = []string{"fix", "fixed", "silence", "silenced", "silencing", "suppress", "suppressed", "suppressing"}

// mendedWith gives where "with" or "using" follows a verb of mending at
// i, within editReach words and its clause ("fixed it with", "silenced
// the warning on X with"), or -1.
func mendedWith(fields []string, i int) int {
	for k := i + 1; k < len(fields) && k <= i+editReach; k++ {
		w := strings.ToLower(fields[k])
		if w == "with" || w == "using" {
			return k
		}
		if strings.ContainsAny(fields[k], ".,;?!—") || w == "instead" || w == "rather" {
			break // "fix them instead of committing with --no-verify"
		}
	}
	return -1
}

// mendedIn reads a mending told after its file ("the false positive in
// otel_helpers.ex — we silenced it with a @dialyzer attribute"): the
// file named with "in" a few words before the verb at i, when no file
// follows what "with" gives.
func mendedIn(fields []string, i int) (addition, bool) {
	with := mendedWith(fields, i)
	if with < 0 {
		return addition{}, false
	}
	end := with + 1
	for end < len(fields) && end <= with+addedBefore+2 && !strings.ContainsAny(strings.ReplaceAll(fields[end-1], "...", ""), ".,;?!—") {
		if w := strings.ToLower(fields[end]); w == "in" || w == "to" || w == "into" {
			return addition{}, false // its file follows
		}
		end++
	}
	for k := i - 1; k >= max(1, i-editReach); k-- {
		if file, ok := editedName(fields[k]); ok && strings.EqualFold(fields[k-1], "in") {
			if words := addedWords(fields[with+1 : end]); len(words) > 0 {
				return addition{file: file, words: words}, true
			}
			break
		}
	}
	return addition{}, false
}

// addedKinds are words that say what kind of thing was added, not which
// (an action, a clause): memory's edit need not hold them.
var addedKinds = []string{"action", "actions", "attribute", "attributes", "block", "call", "calls", "case", "check",
	"checks", "clause", "clauses", "column", "columns", "config", "constant", "entry", "entries", "event", "events", "field", "fields", "function",
	"functions", "guard", "handler", "handlers", "helper", "helpers", "hook", "hooks", "line", "lines", "new", "option", "options",
	"relationship", "setting", "small", "test", "tests", "extra", "little", "separate", "another", "own"}

// addedBefore is how many words before "we added" what was added may be
// told.
const addedBefore = 4

// addedThings gives what a question says was added to a file it names:
// the words between a verb of adding and "to", "in" or "into" the file,
// a few words on, or those just before "we added" ("the :reopen action
// we added to annotation.ex").
func addedThings(fields []string) []addition {
	var out []addition
	for verb, f := range fields {
		i := -1 // what was added is told after fields[i]
		switch v := strings.ToLower(codeWord(f)); {
		case slices.Contains(mendVerbs, v):
			// "silenced the warning with @dialyzer nowarn_function
			// in otel_helpers.ex": what was added follows "with".
			if a, ok := mendedIn(fields, verb); ok {
				out = append(out, a)
				continue
			}
			i = mendedWith(fields, verb)
		case slices.Contains(addVerbs, v) || slices.Contains(registerVerbs, v):
			i = verb
		}
		if i < 0 {
			continue
		}
		for k := i + 2; k < len(fields) && k <= i+editReach; k++ {
			prep := strings.ToLower(fields[k-1])
			if prep != "to" && prep != "in" && prep != "into" {
				if f := strings.ReplaceAll(fields[k-1], "...", ""); f != "" && strings.ContainsAny(f[len(f)-1:], ".?!;") {
					break
				}
				continue
			}
			file, ok := editedName(fields[k])
			if !ok {
				continue
			}
			told := fields[i+1 : k-1]
			if len(told) == 0 && i == verb && i >= 2 && slices.Contains([]string{"we", "i", "you"}, strings.ToLower(fields[i-1])) && slices.Contains(addVerbs, strings.ToLower(codeWord(f))) {
				// "the :reopen action we added to annotation.ex":
				// what was added comes before, after its article
				// and within its clause.
				j := i - 1
				for j > max(0, i-1-addedBefore) && !strings.ContainsAny(fields[j-1][len(fields[j-1])-1:], ".,;:?!") {
					if slices.Contains([]string{"the", "a", "an", "that", "this", "those", "these", "our", "my"}, strings.ToLower(fields[j-1])) {
						break
					}
					j--
				}
				told = fields[j : i-1]
			}
			if words := append(addedWords(told), addedFor(fields, k)...); len(words) > 0 {
				out = append(out, addition{file: file, words: words})
			}
			break
		}
	}
	return out
}

// Switched in a file. A question may say a thing was switched in a file
// from one value to another: "why did we switch the session-end
// notification in hooks.json from the Stop event over to SessionEnd",
// "move notify-session-end.sh from the Stop hook to SessionEnd in
// hooks.json". What it went to was added to the file: memory that saw
// the switch holds it in an edit of the file (holdsAddition); five sets
// said the hook moved to SessionEnd, which hooks.json never got.

// switchInReach is how many words after its verb a switch's "from", its
// "to" and the file it was made in may come.
const switchInReach = 12

// switchedInFile gives what a question's fields say a thing was switched
// to in a file it names: the word after "to" (past an article) of a
// "from … to" after a verb of switching (switchVerbs), with "in" and a
// file's name in the clause.
func switchedInFile(fields []string) []addition {
	var out []addition
	lower := func(i int) string { return strings.ToLower(codeWord(fields[i])) }
	for v := range fields {
		if !slices.Contains(switchVerbs, lower(v)) || denied(fields, v, keepNegReach) {
			continue
		}
		from, to, file := -1, -1, editedThing{}
		for k := v + 1; k < len(fields) && k <= v+switchInReach; k++ {
			switch w := lower(k); {
			case w == "from" && from < 0:
				from = k
			case w == "to" && from >= 0 && to < 0:
				to = k
			case w == "in" && k+1 < len(fields) && file.file == "":
				if e, ok := editedName(fields[k+1]); ok {
					file = e
				}
			}
			if strings.ContainsAny(fields[k][len(fields[k])-1:], ".,?!;") {
				break
			}
		}
		if to < 0 || file.file == "" {
			continue
		}
		b := to + 1
		for b < len(fields) && slices.Contains(placeArticles, lower(b)) {
			b++
		}
		if b >= len(fields) {
			continue
		}
		if words := addedWords(fields[b : b+1]); len(words) > 0 {
			out = append(out, addition{file: file, words: words})
		}
	}
	return out
}

// addedFor gives the names of code a question says what was added to
// the file at k was for ("the handle_info we added to ProjectReviewLive
// for the session_activity broadcasts"), which the addition names too.
func addedFor(fields []string, k int) []string {
	if k+1 >= len(fields) || !strings.EqualFold(fields[k+1], "for") || strings.ContainsAny(fields[k], ",;?!") {
		return nil
	}
	var names []string
	for _, g := range fields[k+2 : min(len(fields), k+2+addedBefore)] {
		if n, ok := codeNameOf(codeWord(g)); ok && !strings.ContainsAny(n.as, "./") {
			names = append(names, strings.ToLower(n.as))
		}
		if strings.ContainsAny(g, ".,;?!") {
			break
		}
	}
	return names
}

// addedWords gives the words of what was added as told, lower case,
// without its sigils, its stop words and the words of its kind.
func addedWords(told []string) []string {
	var words []string
	for _, g := range told {
		t := strings.ToLower(strings.Trim(codeWord(g), ":@"))
		if len(t) < 3 || isStop(t) || slices.Contains(addedKinds, t) || strings.ContainsAny(g, "()") {
			continue
		}
		words = append(words, t)
	}
	return words
}

// holdsAddition reports whether memory holds a's words in its edits of
// a's file, or cannot tell: no edit of the file (judged by holdsEdit), or
// more than claimScan records naming it.
func (ix *Index) holdsAddition(a addition, tok *tokenizer) bool {
	term := ix.fileTerm(a.file, tok)
	if term == "" || ix.df(term) > claimScan {
		return true
	}
	var edits strings.Builder
	for at, d := range ix.docsHolding(term) {
		if d.Layer != layerL1 || d.Kind != kindTool {
			continue
		}
		if f, _ := ix.l1Record(at, d); f.file != "" && isFile(f.file, a.file) && slices.Contains(editTools, f.tool) {
			edits.WriteString(strings.ToLower(f.diff))
			edits.WriteByte('\n')
		}
	}
	if edits.Len() == 0 {
		return true
	}
	text := edits.String()
	return !slices.ContainsFunc(a.words, func(w string) bool { return !strings.Contains(text, w) })
}

// fileTerm gives the term whose records may name e's file: the path a
// question writes, whole, as memory's tool records name it
// (lib/spotter/transcripts/project.ex), else the rarest word of its name.
// A file named by common words (project, ex) is otherwise past claimScan
// records, and its change could not be judged.
func (ix *Index) fileTerm(e editedThing, tok *tokenizer) string {
	if !e.module && strings.Contains(e.as, "/") && ix.df(strings.ToLower(e.as)) > 0 {
		return strings.ToLower(e.as)
	}
	_, term := ix.phrase(termWords(e.file, tok))
	return term
}

// isFile reports whether path names e's file.
func isFile(path string, e editedThing) bool {
	name := strings.ToLower(lastPathPart(path))
	if e.module {
		stem, _, _ := strings.Cut(name, ".")
		return stem == e.file
	}
	return name == e.file
}

// editTools are the tools that change a file.
var editTools = []string{"Edit", "MultiEdit", "NotebookEdit", "Write"}

// ownFile reports whether a path is the project's own, not a dependency's
// or a build's (deps/, node_modules/, _build/) nor outside the project.
func ownFile(path string) bool {
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, "~") || strings.HasPrefix(path, "..") {
		return false
	}
	for _, d := range []string{"deps/", "node_modules/", "_build/", "vendor/", ".git/"} {
		if strings.HasPrefix(path, d) || strings.Contains(path, "/"+d) {
			return false
		}
	}
	return true
}

// rewrites reports whether a command may change the files it names: it
// commits, moves, copies or edits them in place, or writes to one. It
// errs toward yes (a redirect of errors, "2> /dev/null", passes too): a
// change taken as held leaves a question answered, as it was before the
// check.
func rewrites(cmd string) bool {
	for _, m := range []string{"git add", "git mv", "git commit", "sed -i", "perl -pi", "mv ", "cp ", "tee ", "> ", "patch "} {
		if strings.Contains(cmd, m) {
			return true
		}
	}
	return false
}

// Connections. A question may say that one part of the code works with
// another: "TranscriptTailWorker calls WaitingSummary after each flush",
// "how does ProjectReviewLive subscribe to session_activity", "where in
// ReviewContextBuilder do we run the messages through
// TranscriptRenderer". Memory that saw them connected holds the two
// names in one record, a few words apart (the edit that wired them, the
// assistant's account of it); memory that holds them only apart never
// saw it (over the eval's sets the check refuses never-happened
// questions and none of the answerable ones).

// codeName is a name of code a question gives, as written, and the forms
// memory may write it in, lower case: a module's name whole and as its
// file's stem (transcripttailworker, transcript_tail_worker), a
// snake_case name, a file's name.
type codeName struct {
	as    string
	forms []string
	// whole says a word of memory holds the name only as one of its
	// parts, not inside one: ETS is not in "sets".
	whole bool
}

// connection is two code names a question links by a verb of working
// with.
type connection struct{ a, b codeName }

// connectVerbs link two parts of the code: one calls, feeds, wraps,
// subscribes to, writes to or reports through the other. (Added in the
// eighteenth session: attach, cache, create, emit, enqueue, insert, log,
// monitor, poll, read, register, report, spawn, start, store, update,
// write; over the eval's sets they refused never-happened questions,
// "how does ActiveSessionRegistry emit OpenTelemetry spans", and no
// answerable one. "Use" joined them in the twentieth session, with the
// words that say a name is not the one used (notWords): "the
// ProjectReviewLive test uses plain ExUnit.Case instead of a ConnCase".
// Verbs of moving refused none: a move's verb comes before both names;
// switches judges them.)
var connectVerbs = []string{
	"attach", "attached", "attaches", "broadcast", "broadcasts", "cache", "cached", "caches",
	"call", "called", "calling", "calls", "clear", "cleared", "clears", "create", "created", "creates", "emit", "emits", "emitted",
	"evict", "evicted", "evicts", "handle", "handled", "handles", "include", "included", "includes", "inject", "injected", "injects",
	"persist", "persisted", "persists", "pick", "picked", "picks", "purge", "purged", "purges",
	"receive", "received", "receives",
	"enqueue", "enqueued", "enqueues", "feed", "feeds", "hand", "hands",
	"import", "imported", "imports", "insert", "inserted", "inserts", "invalidate", "invalidates", "invoke", "invokes", "log", "logged", "logs",
	"monitor", "monitors", "notifies", "notify", "pass", "passed", "passes", "ping", "pings",
	"poll", "polled", "polls", "pull", "pulls", "push", "pushes", "read", "reads",
	"register", "registered", "registers", "report", "reported", "reports", "revoke", "revokes",
	"send", "sends", "show", "shows", "source", "sourced", "sources", "spawn", "spawned", "spawns", "start", "started", "starts", "store", "stored", "stores",
	"onto", "subscribe", "subscribed", "subscribes", "through", "trigger", "triggered", "triggers",
	"update", "updated", "updates", "use", "used", "uses", "using", "wire", "wired", "wrap", "wrapped", "wraps", "write", "writes",
}

// emittedThings are what a part of the code emits for observing it.
var emittedThings = []string{"metric", "metrics", "span", "spans"}

// frontedReach is how many words may stand between a thing asked first
// and the name emitting it, and between that name (a told one is three
// words) and its verb: "what span names does the transcript tail worker
// emit".
const frontedReach = 4

// failVerbs say that a part of the code failed; they link it to the
// error it failed with ("ReviewTokenStore crashed on restart with an
// ArgumentError"), which memory that saw the failure holds beside it, in
// the failing output or its account (four never-happened sets asked how
// a registry's crash with an ArgumentError was fixed; memory holds the
// error only from a selector test of SessionLive).
var failVerbs = []string{"blew", "crash", "crashed", "crashes", "crashing", "fail", "failed", "failing", "fails",
	"raise", "raised", "raises", "raising", "threw", "throw", "throwing", "throws"}

// errorName reports whether a name is an exception's (ArgumentError,
// Ecto.NoResultsError, RuntimeException).
func errorName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return len(last) > len("Error") && (strings.HasSuffix(last, "Error") || strings.HasSuffix(last, "Exception"))
}

// subjectWords stand for the subject of a verb's -s form after them ("it
// calls", "which writes", "also sends").
var subjectWords = []string{"also", "always", "it", "just", "never", "now", "only", "still", "that", "then", "which", "who"}

// notWords say that the name after them is not the one worked with:
// "the ProjectReviewLive test uses plain ExUnit.Case instead of a
// ConnCase".
var notWords = []string{"instead", "rather", "not", "without", "than"}

// connectReach is how many words may stand between two linked names.
const connectReach = 12

// connections gives the pairs of code names a question's fields link by
// a verb of working with, the verb between them. A name is written as
// code or told in its words (ix.toldName).
func (ix *Index) connections(fields []string, tok *tokenizer) []connection {
	var names []codeName
	var at, emitted []int
	var verbs, nots, fails []int
	nameEnd := -1 // where the last name ends
	for i := 0; i < len(fields); i++ {
		w := codeWord(fields[i])
		if n, ok := codeNameOf(w); ok {
			names = append(names, n)
			at = append(at, i)
			nameEnd = i
			continue
		}
		// A span or a metric is what a part of the code emits, linked
		// to it as a name is ("what span names does the tail worker
		// emit"): nine never-happened questions asked what spans the
		// transcript tail worker emits, which was never traced.
		if slices.Contains(emittedThings, strings.ToLower(strings.Trim(w, "`"))) {
			one := strings.TrimSuffix(strings.ToLower(w), "s")
			names = append(names, codeName{as: one, forms: []string{one}, whole: true})
			at = append(at, i)
			emitted = append(emitted, len(names)-1)
			if i+1 < len(fields) && slices.Contains([]string{"name", "names"}, strings.ToLower(fields[i+1])) {
				i++ // "span names wraps": the verb's subject ends here
			}
			nameEnd = i
			continue
		}
		// Words that tell a name are it, a verb among them or not
		// (the report worker).
		if n, k := ix.toldName(fields[i:], tok); k > 0 {
			names = append(names, n)
			at = append(at, i)
			i += k - 1
			nameEnd = i
			continue
		}
		switch lower := strings.ToLower(w); {
		case slices.Contains(connectVerbs, lower) && (!strings.HasSuffix(lower, "s") || i-1 == nameEnd ||
			i > 0 && slices.Contains(subjectWords, strings.ToLower(fields[i-1]))):
			// A verb's -s form says what its subject does only after
			// the subject: after another word it is a noun's plural
			// ("the HooksController actions for tool calls").
			verbs = append(verbs, i)
		case slices.Contains(failVerbs, lower):
			fails = append(fails, i)
		case slices.Contains(notWords, lower):
			nots = append(nots, i)
		}
	}
	var out []connection
	for _, e := range emitted {
		// Asked first, the verb after its subject: "what span names
		// does TranscriptTailWorker emit".
		if j := e + 1; j < len(names) && at[j]-at[e] <= frontedReach && slices.ContainsFunc(verbs, func(v int) bool { return v > at[j] && v <= at[j]+frontedReach }) &&
			slices.ContainsFunc(fields[at[e]+1:at[j]], func(f string) bool { return slices.Contains(auxiliaries, strings.ToLower(f)) }) {
			out = append(out, connection{names[e], names[j]})
		}
	}
	// One run as another, over a third: "running the transcript tail
	// workers as Oban jobs rather than supervised GenServers" (four sets
	// asked it; the workers were always GenServers).
	for k, f := range fields {
		if !strings.EqualFold(f, "as") {
			continue
		}
		before := -1 // the last name before "as", a few words back
		for n, p := range at {
			if p < k && p >= k-6 {
				before = n
			}
		}
		if before < 0 {
			continue
		}
		for p := k + 1; p < min(len(fields), k+4); p++ {
			b, ok := switchName(fields, p)
			if !ok {
				continue
			}
			if slices.ContainsFunc(fields[p+1:min(len(fields), p+5)], func(g string) bool {
				g = strings.ToLower(g)
				return g == "rather" || g == "instead"
			}) {
				out = append(out, connection{names[before], b})
			}
			break
		}
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if at[j]-at[i] > connectReach || names[i].forms[0] == names[j].forms[0] {
				continue
			}
			between := func(v int) bool { return v > at[i] && v < at[j] }
			linked := slices.ContainsFunc(verbs, between) || slices.ContainsFunc(fails, between) && errorName(names[j].as)
			if linked && !slices.ContainsFunc(nots, between) {
				out = append(out, connection{names[i], names[j]})
			}
		}
	}
	return out
}

// Storage chosen. A question may say where something was chosen to be
// kept, over another place: "why did we store the message IDs as a JSON
// array column on annotations instead of a separate table", "persist the
// review tokens in a SQLite table instead of keeping them in memory".
// Memory that saw the choice holds the place's words side by side, in
// the schema or in what is said of it; memory that holds them only apart
// never saw it (four sets asked why the message refs became a JSON array
// column, which were always rows of their own table; two why the tokens
// went into a SQLite table). A place of one word ("in memory", "in ETS")
// is judged as a name is, not here.

// heldAdjacent reports whether memory holds the words of name side by
// side as written, or run together as one word, reading only the records that hold
// its two rarest words (intersecting their postings), however common each
// is alone: "SQLite" and "table" are in hundreds of records, "SQLite
// table" in none. Past claimScan such records it is taken as held.
func (ix *Index) heldAdjacent(name []queryWord, tok *tokenizer) bool {
	want, rarest := ix.phrase(name)
	if rarest == "" {
		return false
	}
	if len(want) < 2 || ix.df(strings.Join(want, "")) > 0 {
		return true
	}
	var next string
	for _, w := range want {
		if w != rarest && (next == "" || ix.df(w) < ix.df(next)) {
			next = w
		}
	}
	if next == "" {
		return true // one word written again
	}
	read := 0
	for at, d := range ix.docsHoldingWith(rarest, []string{next}) {
		if read++; read > claimScan {
			return true
		}
		// Side by side as written, no word between: "sqlite do table"
		// in an Ash resource is no SQLite table.
		ws := countWords(ix.docText(at, d))
		for i := 0; i+len(want) <= len(ws); i++ {
			if tok.stem(ws[i]) == want[0] && slices.EqualFunc(ws[i+1:i+len(want)], want[1:], func(w, s string) bool { return tok.stem(w) == s }) {
				return true
			}
		}
	}
	return false
}

// storeVerbs say where something is kept.
var storeVerbs = []string{"keep", "keeping", "keeps", "kept", "persist", "persisted", "persisting", "persists",
	"save", "saved", "saves", "saving", "store", "stored", "stores", "storing"}

// placeEnds end the words of a place: a preposition or a conjunction.
var placeEnds = []string{"and", "at", "because", "behind", "by", "for", "from", "in", "inside", "instead", "into", "of", "on", "or", "rather",
	"since", "so", "than", "through", "to", "under", "using", "via", "when", "with"}

// placeArticles are left out of the words of a place, and of a column's
// or a table's name a migration is said to have added.
var placeArticles = []string{"a", "an", "its", "one", "our", "the", "their"}

// storeReach is how many words after its verb a place may open, and how
// many words after the place "instead of" or "rather than" may come.
const storeReach = 6

// storedIn gives the places a question says something was chosen to be
// kept in over another: the words after "as", "in" or "into" that follow
// a verb of storing in its clause, up to a preposition, when "instead of"
// or "rather than" follows them in the clause; only places of two words
// or more, without their articles.
func storedIn(fields []string) []string {
	low := make([]string, len(fields))
	ends := make([]bool, len(fields))
	for i, f := range fields {
		low[i] = strings.ToLower(strings.Trim(codeWord(f), "`'\"()"))
		ends[i] = strings.ContainsAny(f, ",;?!—") || strings.HasSuffix(f, ".")
	}
	choice := func(from int) bool {
		for k := from; k < len(low) && k <= from+storeReach; k++ {
			if k+1 < len(low) && (low[k] == "instead" && low[k+1] == "of" || low[k] == "rather" && low[k+1] == "than") {
				return true
			}
			if ends[k] {
				return false
			}
		}
		return false
	}
	var out []string
	for i, w := range low {
		if !slices.Contains(storeVerbs, w) {
			continue
		}
		for j := i + 1; j < len(low) && j <= i+storeReach && !ends[j-1]; j++ {
			if low[j] != "as" && low[j] != "in" && low[j] != "into" {
				continue
			}
			var place []string
			k := j + 1
			for ; k < len(low) && len(place) < 4; k++ {
				if slices.Contains(placeEnds, low[k]) {
					break
				}
				if !slices.Contains(placeArticles, low[k]) {
					place = append(place, low[k])
				}
				if ends[k] {
					k++
					break
				}
			}
			if len(place) > 1 && choice(k) {
				out = append(out, strings.Join(place, " "))
			}
			break
		}
	}
	return out
}

// Switches. A question may say that something went from one thing to
// another: "why did we move the review token store from ETS into a
// SQLite table", "persist its tokens in SQLite instead of ETS", "swap
// Jason for Poison". Memory that saw the switch names the two in one
// record, a few words apart (the commit, the assistant's account of it);
// memory that names them only apart never saw it (nine sets asked why
// the review tokens moved from ETS into SQLite, which never happened).

// switchVerbs say that something went from one thing to another; "from"
// follows them within switchReach words.
var switchVerbs = []string{"change", "changed", "changing", "convert", "converted", "converting", "go", "going", "gone", "went",
	"migrate", "migrated", "migrating", "move", "moved", "moving", "port", "ported", "porting",
	"switch", "switched", "switching", "transition", "transitioned", "swap", "swapped", "swapping"}

// swapVerbs take the old thing first and the new after "for" or "with":
// "swap Jason for Poison", "replace the ETS table with SQLite".
var swapVerbs = []string{"replace", "replaced", "replacing", "swap", "swapped", "swapping"}

// switchReach is how many words apart the parts of a switch may be.
const switchReach = 6

// switches gives the pairs of names a question says one went to the
// other: "from A to B", "out of A and into B", "swap A for B", and "B
// instead of A" or "B rather than A" after a verb of switching.
func switches(fields []string) []connection {
	low := make([]string, len(fields))
	for i, f := range fields {
		low[i] = strings.ToLower(codeWord(f))
	}
	// nameIn gives the first name of fields[from:to], and where it is.
	nameIn := func(from, to int) (codeName, int) {
		for j := max(from, 0); j < min(to, len(fields)); j++ {
			if n, ok := switchName(fields, j); ok {
				return n, j
			}
			if j > from && strings.ContainsAny(fields[j-1], ".,;?!") {
				break
			}
		}
		return codeName{}, -1
	}
	var out []connection
	add := func(a, b codeName) {
		if a.as != "" && b.as != "" && a.forms[0] != b.forms[0] {
			out = append(out, connection{a, b})
		}
	}
	for i, w := range low {
		switch {
		case (w == "from" || w == "out" && i+1 < len(low) && low[i+1] == "of") && slices.ContainsFunc(low[max(0, i-switchReach):i], func(v string) bool { return slices.Contains(switchVerbs, v) }),
			// A move takes the old thing after "off" too: "move the
			// token store off ETS and into SQLite" (not "switch off",
			// which turns a thing off).
			w == "off" && slices.ContainsFunc(low[max(0, i-switchReach):i], func(v string) bool { return slices.Contains(moveVerbs, v) }):
			from := i + 1
			if w == "out" {
				from++ // past "of"
			}
			a, at := nameIn(from, from+3)
			if at < 0 {
				continue
			}
			for k := at + 1; k < len(low) && k <= at+switchReach; k++ {
				if low[k] == "to" || low[k] == "into" || low[k] == "onto" || low[k] == "for" {
					b, _ := nameIn(k+1, k+1+3)
					add(a, b)
					break
				}
			}
		case slices.Contains(swapVerbs, w):
			a, at := nameIn(i+1, i+1+4)
			if at < 0 {
				continue
			}
			for k := at + 1; k < len(low) && k <= at+switchReach; k++ {
				if low[k] == "for" || low[k] == "with" {
					b, _ := nameIn(k+1, k+1+3)
					add(a, b)
					break
				}
			}
		case (w == "instead" || w == "rather") && i+1 < len(low) && (low[i+1] == "of" || low[i+1] == "than") &&
			slices.ContainsFunc(low[:i], func(v string) bool { return slices.Contains(switchVerbs, v) || slices.Contains(storeVerbs, v) }):
			// Said of a switch ("changed it to keep X instead of Y"),
			// not of a choice ("the test uses X instead of Y").
			// The new thing is named just before, in the same clause.
			var b codeName
			for j := i - 1; j >= max(0, i-3) && b.as == ""; j-- {
				if j < i-1 && strings.ContainsAny(fields[j], ".,;?!") {
					break
				}
				b, _ = switchName(fields, j)
			}
			// The old thing may follow its own verb: "instead of
			// keeping it in ETS".
			a, _ := nameIn(i+2, i+2+4)
			add(a, b)
		}
	}
	return out
}

// switchName reads fields[j] as a name a switch is told of: a name of
// code (codeNameOf), or a product's name written as one (ETS, SQLite,
// Postgres; not a sentence's first word), held whole.
func switchName(fields []string, j int) (codeName, bool) {
	w := codeWord(fields[j])
	if allDigits(w) {
		return codeName{}, false // a count's numbers are judged as its change
	}
	for _, kind := range backedBy {
		// "a SQLite-backed resource" is kept in SQLite.
		if b, ok := strings.CutSuffix(w, kind); ok && b != "" {
			w = b
			break
		}
	}
	if n, ok := codeNameOf(w); ok {
		return n, true
	}
	start := j == 0 || strings.ContainsAny(fields[j-1], ".?!")
	if len(w) >= 3 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0 && named(w, start) {
		return codeName{as: w, forms: []string{strings.ToLower(w)}, whole: true}, true
	}
	return codeName{}, false
}

// backedBy end a word that names what a thing is built on:
// "ETS-backed", "SQLite-based".
var backedBy = []string{"-backed", "-based", "-powered"}

// toldName reads the first words of fields as a module told in plain
// words: two or three whose join is a name of code memory holds whole
// ("transcript tail worker" is TranscriptTailWorker), or, said of a
// page, begins one ("project review page" is ProjectReviewLive). It
// gives the name and how many words told it; none when the words tell
// no name, or begin more than one (ReviewContextBuilder and
// ReviewContextController for "review context"). Words that only begin
// a name are not it elsewhere: the "hook event" of a question is no
// hookEventName field. Five sets asked how the project review page shows
// the sessions' live status (session_activity, ActiveSessionRegistry),
// which only the dashboard and the session page do.
func (ix *Index) toldName(fields []string, tok *tokenizer) (codeName, int) {
	words := plainLead(fields, 3)
	for n := len(words); n >= 2; n-- {
		join := strings.Join(words[:n], "")
		page := n < len(fields) && slices.Contains(pageWords, strings.ToLower(strings.TrimRight(fields[n], ",.;:?!")))
		told := words[:n]
		name := ix.nameBegun(join)
		if one, ok := strings.CutSuffix(join, "s"); ok && name != join && ix.nameBegun(one) == one {
			// The name of one told of many: "the transcript tail
			// workers" are TranscriptTailWorker's.
			join, name = one, one
			told = append(slices.Clone(told[:n-1]), strings.TrimSuffix(told[n-1], "s"))
		}
		if name == join || page && name != "" {
			// Its files are named in snake_case: project_review_live.ex
			// holds project_review.
			return codeName{as: strings.Join(words[:n], " "), forms: []string{name, strings.Join(told, "_")}}, n
		}
	}
	return codeName{}, 0
}

// plainLead gives the words of lower-case letters that fields open
// with, up to three, each of minLen letters or more and no stop word, and
// none past a mark that ends a clause ("tail wrapper," gives two).
func plainLead(fields []string, minLen int) []string {
	var words []string
	for _, f := range fields[:min(len(fields), 3)] {
		w := strings.TrimRight(f, ",.;:?!")
		if len(w) < minLen || isStop(w) || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			break
		}
		words = append(words, w)
		if len(w) < len(f) {
			break // the sentence goes on past a mark
		}
	}
	return words
}

// pageWords say that the words before them name a page, which its
// module's name may tell with a word more (ProjectReviewLive,
// SettingsView, CheckoutPage).
var pageWords = []string{"page", "pages", "screen", "view"}

// minToldName is the shortest name words may tell: words joined into a
// shorter one are a word of their own (time out, timeout; check out,
// checkout).
const minToldName = 10

// nameBegun gives the one name of code, held whole, that begins with
// join: the shortest, when every other that does begins with it
// (projectreviewlive, projectreviewlivetest); "" when none or two do.
func (ix *Index) nameBegun(join string) string {
	name := ""
	for _, s := range ix.segs {
		for k, n := s.seek(join), 0; k < s.nTerms && n < 8; k, n = k+1, n+1 {
			t := s.termAt(k)
			if !strings.HasPrefix(t, join) {
				break
			}
			switch {
			case name == "" && len(t) >= minToldName && strings.IndexFunc(t, func(r rune) bool { return r < 'a' || r > 'z' }) < 0:
				name = t
			case name != "" && !strings.HasPrefix(t, name) && !strings.HasPrefix(name, t):
				return ""
			}
		}
	}
	return name
}

// codeNameOf reads w as a name of code: a CamelCase module (the module of
// a dotted call, ActiveSessionRegistry.touch), a snake_case name, a
// file's name.
func codeNameOf(w string) (codeName, bool) {
	if w == "" {
		return codeName{}, false
	}
	if fileName(lastPathPart(w)) {
		return codeName{as: w, forms: []string{strings.ToLower(lastPathPart(w))}}, true
	}
	parts := strings.Split(w, ".")
	for k := len(parts) - 1; k >= 0; k-- {
		if moduleName(parts[k]) {
			return codeName{as: w, forms: []string{strings.ToLower(parts[k]), snakeOf(parts[k])}}, true
		}
	}
	if modulePath(w) {
		return codeName{as: w, forms: []string{strings.ToLower(w)}}, true
	}
	if i := strings.IndexByte(w, ':'); i > 0 && strings.ContainsRune(w[:i], '_') {
		// A topic and its parameter (session_transcripts:<session_id>)
		// name the topic.
		if n, ok := codeNameOf(w[:i]); ok {
			return codeName{as: w[:i], forms: n.forms}, true
		}
	}
	if strings.ContainsRune(w, '_') && !strings.ContainsAny(w, "./:") && strings.ToLower(w) == w && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
		return codeName{as: w, forms: []string{strings.Trim(w, "_")}}, true
	}
	return codeName{}, false
}

// holdsTogether reports whether memory holds c's names together, or
// cannot tell: one name is held nowhere (judged as a name) or both are in
// more than claimScan records. When only one is that common, the records
// of the other are read for it: never27 and never29 asked how
// ReviewContextBuilder runs messages through TranscriptRenderer, which
// hundreds of records name and none beside the builder.
func (ix *Index) holdsTogether(c connection, tok *tokenizer) bool {
	a, okA := ix.placesOf(c.a, tok)
	b, okB := ix.placesOf(c.b, tok)
	switch {
	case okA && len(a) == 0, okB && len(b) == 0, !okA && !okB:
		return true
	case !okA:
		a = ix.placesIn(b, c.a)
	case !okB:
		b = ix.placesIn(a, c.b)
	}
	for _, p := range a {
		for _, q := range b {
			// One record, the names said of each other: not far apart
			// in a long summary that lists the session's modules
			// (never27 asked how TranscriptTailWorker calls
			// ActiveSessionRegistry, which two compaction summaries
			// name 131 words apart), nor in two records side by side
			// (five sets asked it; memory names the worker a few lines
			// from the controller's touch calls).
			if p.doc == q.doc && nearWords(p.words, q.words, connectWords) {
				return true
			}
		}
	}
	return false
}

// connectWords is how many words apart two names one record holds may be
// and still be said of each other.
const connectWords = 40

// nearWords reports whether some position of a is within n of one of b.
func nearWords(a, b []int, n int) bool {
	for _, x := range a {
		for _, y := range b {
			if max(x, y)-min(x, y) <= n {
				return true
			}
		}
	}
	return false
}

// place is a record that holds a name (the one version of it the index
// shows), and the positions of its words that hold it.
type place struct {
	doc   docRef
	words []int
	text  string // the record's text, read once (docText)
}

// placesIn gives those of the records of ps that hold n.
func (ix *Index) placesIn(ps []place, n codeName) []place {
	var out []place
	for _, p := range ps {
		if words := namePositions(p.text, n); len(words) > 0 {
			out = append(out, place{doc: p.doc, words: words, text: p.text})
		}
	}
	return out
}

// heldBy reports whether a word of memory (lower case) holds one of n's
// forms (holdsForm).
func (n codeName) heldBy(w string) bool {
	return slices.ContainsFunc(n.forms, func(f string) bool { return holdsForm(w, f, n.whole) })
}

// namePositions gives the positions of the words of text that hold n.
func namePositions(text string, n codeName) []int {
	var words []int
	for i, w := range strings.Fields(strings.ToLower(text)) {
		if n.heldBy(w) {
			words = append(words, i)
		}
	}
	return words
}

// holdsForm reports whether a word of memory holds a name's form: inside
// it, or, whole, as one of its parts between marks (sqlite in
// "`sqlite`," and ecto.sqlite, not in sqlite3).
func holdsForm(w, form string, whole bool) bool {
	if !whole {
		return strings.Contains(w, form)
	}
	for part := range strings.FieldsFuncSeq(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if part == form {
			return true
		}
	}
	return false
}

// placesOf gives the records that hold a code name; false when more than
// claimScan records hold its rarest term, which is then taken as held.
func (ix *Index) placesOf(n codeName, tok *tokenizer) ([]place, bool) {
	_, term := ix.phrase(termWords(n.forms[len(n.forms)-1], tok))
	if term == "" {
		return nil, true
	}
	if ix.df(term) > claimScan {
		return nil, false
	}
	var out []place
	for at, d := range ix.docsHolding(term) {
		text := ix.docText(at, d)
		if words := namePositions(text, n); len(words) > 0 {
			out = append(out, place{doc: at, words: words, text: text})
		}
	}
	return out, true
}

// Tools run. A question may say a tool was run, or what it found: "what
// did the Sobelow security scan flag in the hook controllers", "did we
// ever run sobelow". Memory that saw it run holds the tool in a command
// or in a command's output (mix sobelow, the pre-commit hook's
// "[CREDO]"); memory that names it only in prose or a web search never
// saw it run (two sets asked what Sobelow flagged; the sessions only
// looked it up).

// toolFindings say what a tool's run found, after the tool ("credo
// complained", "the Sobelow security scan flagged"); toolRunVerbs that
// someone ran it, before the tool and after its runner ("did we ever run
// sobelow"; not "the build script runs pre-commit", which prose tells,
// nor "when tmux is not running").
var (
	toolFindings = []string{"complain", "complained", "complains", "flag", "flagged", "flags", "scan", "scanned", "scans",
		"warn", "warned", "warns"}
	toolRunVerbs = []string{"ran", "run", "running"}
	toolRunners  = []string{"i", "we", "you"}
)

// toolRunReach is how many words after a tool the word of its findings
// may come ("the Sobelow security scan").
const toolRunReach = 3

// toolsRun gives the tools (listed things of one word) a question's
// fields say were run. A word is looked up in things.txt only where the
// words around it tell of a run.
func toolsRun(fields []string, tok *tokenizer) []codeName {
	var out []codeName
	low := make([]string, len(fields))
	for i, f := range fields {
		low[i] = strings.ToLower(codeWord(f))
	}
	for i, f := range fields {
		run := i > 0 && slices.Contains(toolRunVerbs, low[i-1]) &&
			slices.ContainsFunc(low[max(0, i-4):i-1], func(w string) bool { return slices.Contains(toolRunners, w) })
		// Its findings follow it, past lower-case words only (not
		// "GitHub Actions workflow runs"), in its clause (not "after
		// adding the show-more buttons — it complained").
		for j := i + 1; !run && j < len(fields) && j <= i+toolRunReach; j++ {
			if slices.Contains(toolFindings, low[j]) {
				run = true
			}
			if strings.ContainsAny(fields[j-1], ".,;:?!—–") || fields[j-1] == "-" || low[j] != codeWord(fields[j]) {
				break
			}
		}
		if !run {
			continue
		}
		n, ok := listedTool(codeWord(f), tok)
		if !ok && i > 0 && low[i-1] == "mix" && isTaskName(low[i]) {
			// A mix task named after its program: "what did mix
			// deps.audit flag".
			n, ok = codeName{as: "mix " + low[i], forms: []string{low[i]}}, true
		}
		if ok && !slices.ContainsFunc(out, func(o codeName) bool { return o.forms[0] == n.forms[0] }) {
			out = append(out, n)
		}
	}
	return out
}

// isTaskName reports whether w is written as a mix task's name: words of
// letters joined by dots or underscores (deps.audit, ecto.gen.migration).
func isTaskName(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '.' && r != '_' }) < 0 &&
		!strings.HasPrefix(w, ".") && !strings.HasSuffix(w, ".")
}

// holdsRun reports whether memory holds the tool n run: named in a
// command or its output. A tool memory never names is judged as a name.
func (ix *Index) holdsRun(n codeName, tok *tokenizer) bool {
	if task, ok := strings.CutPrefix(n.as, "mix "); ok {
		// A mix task ran where a command runs it; a command that only
		// names it (bd create's description, grep's output of mix.exs)
		// did not run it.
		return ix.holdsCommandRun(quotedCommand{"mix", task}, tok)
	}
	_, term := ix.phrase(termWords(n.forms[0], tok))
	return term == "" || ix.commandHolds(term, tok, nil, func(f l1Fields) bool {
		return len(namePositions(f.cmd+" "+f.res, n)) > 0
	})
}

// commandHolds reports whether one of the shell commands (L1's Bash
// records) whose record holds term is held, or cannot tell: past
// claimScan records holding term and a command's tool name. in, when
// given, picks records by where they are before any is read.
func (ix *Index) commandHolds(term string, tok *tokenizer, in func(docRef) bool, held func(l1Fields) bool) bool {
	read := 0
	for at, d := range ix.docsHoldingWith(term, []string{tok.stem("bash")}) {
		if read++; read > claimScan {
			return true
		}
		if d.Layer != layerL1 || in != nil && !in(at) {
			continue
		}
		if f, _ := ix.l1Record(at, d); f.tool == "Bash" && held(f) {
			return true
		}
	}
	return false
}

// Pushes. A question may say a branch was pushed: "what did git print
// when we pushed the spotter-4te branch". Memory that saw the push holds
// the branch in the record of the command or of its output ("git push
// --set-upstream origin spotter-a0y", "The current branch spotter-a0y has
// no upstream branch"); memory that holds the branch only in the
// session's work never saw it pushed (five sets asked what pull-request
// link the push of spotter-4te printed, a branch never pushed).

// pushVerbs say that something was pushed to a remote.
var pushVerbs = []string{"push", "pushed", "pushes", "pushing"}

// pushReach is how many words after its verb a pushed branch may come
// ("pushed the spotter-4te tracing branch").
const pushReach = 3

// pushedBranches gives the branches a question's fields say were
// pushed, each with the push as a connection: a name of a branch
// (workName: spotter-4te, feature/otel; not a file, a flag or a
// hyphenated word) within pushReach words after a verb of pushing.
func pushedBranches(fields []string) []connection {
	push := codeName{as: "git push", forms: []string{"push"}, whole: true}
	var out []connection
	for i, f := range fields {
		if !slices.Contains(pushVerbs, strings.ToLower(codeWord(f))) {
			continue
		}
		for j := i + 1; j < len(fields) && j <= i+pushReach; j++ {
			if w := codeWord(fields[j]); workName(strings.ToLower(w)) {
				out = append(out, connection{push, codeName{as: w, forms: []string{strings.ToLower(w)}}})
				break
			}
			if strings.ContainsAny(fields[j], ".,;:?!") {
				break
			}
		}
		// Or before it, pushed by someone: "when spotter-4te was pushed",
		// "did the spotter-4te OTEL commits get pushed".
		if j := passiveSubject(fields, i); j >= 0 {
			for k := j; k >= 0 && k > j-pushReach && !strings.ContainsAny(fields[k], ".,;:?!"); k-- {
				if w := codeWord(fields[k]); workName(strings.ToLower(w)) {
					out = append(out, connection{push, codeName{as: w, forms: []string{strings.ToLower(w)}}})
					break
				}
			}
		}
	}
	return out
}

// passiveVerbs say that the word before them is what the verb after them
// was done to: "the tracing branch was pushed".
var passiveVerbs = []string{"get", "gets", "got", "was", "were"}

// passiveSubject gives the index of the word a verb at i was done to, the
// word before "was" or "got" just before the verb, or -1.
func passiveSubject(fields []string, i int) int {
	if i < 2 || !slices.Contains(passiveVerbs, strings.ToLower(fields[i-1])) || strings.ContainsAny(fields[i-2], ".,;:?!") {
		return -1
	}
	return i - 2
}

// A branch may be told by its work ("when we pushed the OpenTelemetry
// tracing branch"). Memory that saw it pushed holds a pushed branch on a
// line with the work's words: the commit or the listing of its beads
// ("feat: add OpenTelemetry bootstrap (spotter-4te.1)"); memory whose
// pushed branches never share a line with them never saw it (two sets
// asked what GitHub printed when the tracing branch was pushed; the
// tracing session never pushed).

// branchKinds are the words that say what kind of branch it was, not
// whose work: "the first push of each new worktree branch".
var branchKinds = []string{"brand", "brand-new", "current", "each", "epic", "feature", "first", "fresh", "local", "main", "master",
	"new", "release", "remote", "same", "that", "this", "work", "working", "worktree"}

// pushedTopics gives the words a question tells a pushed branch by,
// between a verb of pushing and "branch": "OpenTelemetry tracing" for
// "pushed the OpenTelemetry tracing branch"; none when a word names the
// branch (judged by pushedBranches).
func pushedTopics(fields []string) [][]string {
	var out [][]string
	for i, f := range fields {
		if !slices.Contains(pushVerbs, strings.ToLower(codeWord(f))) {
			continue
		}
		// Or they come before "branch was pushed", after an article.
		if j := passiveSubject(fields, i); j >= 0 && strings.ToLower(codeWord(fields[j])) == "branch" {
			var topic []string
			for k := j - 1; k >= 0 && k >= j-pushReach-1; k-- {
				w := strings.ToLower(codeWord(fields[k]))
				if slices.Contains(placeArticles, w) {
					break
				}
				if workName(w) || isStop(w) || strings.ContainsAny(fields[k], ".,;:?!") {
					topic = nil
					break
				}
				if !slices.Contains(branchKinds, w) {
					topic = append([]string{w}, topic...)
				}
			}
			if len(topic) > 0 {
				out = append(out, topic)
			}
			continue
		}
		// The branch's words follow the verb and its article, none a
		// stop word: not "pushing fail because the branch".
		var topic []string
		j := i + 1
		if j < len(fields) && slices.Contains(placeArticles, strings.ToLower(fields[j])) {
			j++
		}
		for ; j < len(fields) && j <= i+pushReach+2; j++ {
			w := strings.ToLower(codeWord(fields[j]))
			if w == "branch" {
				if len(topic) > 0 {
					out = append(out, topic)
				}
				break
			}
			if workName(w) || isStop(w) || strings.ContainsAny(fields[j], ".,;:?!") {
				break
			}
			if !slices.Contains(branchKinds, w) {
				topic = append(topic, w)
			}
		}
	}
	return out
}

// holdsTopicPush reports whether a branch memory saw pushed shares a
// line with the topic's rarest word, or cannot tell: no push in memory,
// or past claimScan records to read.
func (ix *Index) holdsTopicPush(topic []string, tok *tokenizer) bool {
	_, rarest := ix.phrase(termWords(strings.Join(topic, " "), tok))
	if rarest == "" {
		return true
	}
	// The branches memory saw pushed: those a git push command or its
	// output names (past claimScan records it cannot tell).
	var pushed []string
	if ix.commandHolds(tok.stem("push"), tok, nil, func(f l1Fields) bool {
		if strings.Contains(f.cmd, "git push") {
			for _, w := range strings.Fields(strings.ToLower(f.cmd + " " + f.res)) {
				if w = strings.Trim(w, "`'\"().,:;"); workName(w) && !slices.Contains(pushed, w) {
					pushed = append(pushed, w)
				}
			}
		}
		return false
	}) || len(pushed) == 0 {
		return true
	}
	for _, b := range pushed {
		_, part := ix.phrase(termWords(b, tok)) // a bead of the branch (spotter-gqc.1) holds its parts, not it
		if part == "" {
			continue
		}
		scanned := 0 // records read for this branch
		for at, d := range ix.docsHoldingWith(rarest, []string{part}) {
			if scanned++; scanned > claimScan {
				return true
			}
			for line := range strings.SplitSeq(strings.ToLower(ix.docText(at, d)), "\n") {
				if strings.Contains(line, b) && slices.Contains(tok.terms(line), rarest) {
					return true
				}
			}
		}
	}
	return false
}

// branchName reports whether w is written as a branch's name: words of
// letters and digits joined by hyphens or slashes, at least one digit or
// joiner in it, no file's extension.
func branchName(w string) bool {
	if len(w) < 4 || !strings.ContainsAny(w, "-/") || strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") || fileName(lastPathPart(w)) {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '/'
	}) < 0
}

// Flags. A question may say a command ran with a flag for a piece of
// work it names: "why did we end up committing spotter-dov with
// --no-verify". Memory that saw it holds a command naming both (the
// commit's message names its bead); memory whose commands of that work
// never carry the flag never saw it (five sets asked why the spotter-dov
// commit bypassed the pre-commit hook; the user chose to fix the issues,
// and the only --no-verify commit was another epic's).

// flaggedWork is a flag a question says a command ran with, the work (a
// branch or a bead: spotter-dov, spotter-a0y.3) it ran for, and the
// subcommand it was written after, if any ("git push --force": push): a
// flag is its command's, and the session's `mix compile --force` is no
// forced push.
type flaggedWork struct{ flag, work, sub, verb string }

// flagsForWork gives the flags a question's fields name with the first
// branch or bead they name, each with the subcommand it follows when a
// program and its subcommand come just before it ("git push --force").
// A question that names no work gives the flags that follow a verb of
// git's told in English within flagVerbReach words ("pushed it with
// --force-with-lease"; a command quoted whole is judged as such), judged
// over all memory's commands: memory that never pushed with --force
// never saw a forced push (every push of the real sessions was plain;
// the sets name a forced push as a thing, "force push", judged so).
func flagsForWork(fields []string) []flaggedWork {
	var flags []flaggedWork
	work := ""
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		switch {
		case len(w) > 3 && strings.HasPrefix(w, "--") && isWordRune(rune(w[2])) && !slices.ContainsFunc(flags, func(c flaggedWork) bool { return c.flag == w }):
			if deniedBefore(fields, i) {
				continue // "instead of committing with --no-verify" says it did not run so
			}
			sub := ""
			if i >= 2 && slices.Contains(programs, strings.ToLower(codeWord(fields[i-2]))) {
				sub = strings.ToLower(codeWord(fields[i-1]))
			}
			flags = append(flags, flaggedWork{flag: w, sub: sub, verb: flagVerb(fields, i)})
		case work == "" && workName(w):
			work = w
		}
	}
	var out []flaggedWork
	for _, c := range flags {
		c.work = work
		if work == "" {
			// Judged over all memory, a flag must say which command
			// it was.
			if c.sub = c.verb; c.sub == "" {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// gitVerbs are git's subcommands a question tells as English verbs before
// a flag: "pushed with --force", "committing with --no-verify".
var gitVerbs = []string{"commit", "push", "merge", "pull", "rebase", "reset", "fetch", "clone", "checkout", "stash", "tag"}

// flagVerbReach is how many words before a flag its verb may be told.
const flagVerbReach = 3

// flagVerb gives the git subcommand told as a verb within flagVerbReach
// words before fields[i], in its sentence, or "".
func flagVerb(fields []string, i int) string {
	for j := i - 1; j >= 0 && j >= i-flagVerbReach; j-- {
		if strings.ContainsAny(fields[j][len(fields[j])-1:], ".?!;") {
			break
		}
		w := strings.ToLower(codeWord(fields[j]))
		v := slices.IndexFunc(gitVerbs, func(v string) bool { return w == v || inflects(w, v) })
		if v < 0 {
			continue
		}
		if j > 0 && strings.EqualFold(fields[j-1], "to") && (j < 2 || !slices.Contains(mustVerbs, strings.ToLower(fields[j-2]))) {
			return "" // asked for, not done: "when I told you to push with --force"
		}
		return gitVerbs[v]
	}
	return ""
}

// mustVerbs say that the infinitive after them was done: "we had to push
// with --force", "we decided to commit with --no-verify".
var mustVerbs = append([]string{"has", "have", "need", "needed", "needs"}, decideVerbs...)

// flagDenyReach is how many words before a flag may deny that a command
// ran with it: "why didn't we just commit the spotter-dov work with
// --no-verify" (fresh94) denies it nine words before.
const flagDenyReach = 9

// deniedBefore reports whether a word of denying (denyWords) comes within
// flagDenyReach words before fields[i], in its sentence: "fix the files
// instead of committing with --no-verify", "why didn't we push with
// --force".
func deniedBefore(fields []string, i int) bool {
	from := i
	for from > 0 && from > i-flagDenyReach && !strings.ContainsAny(fields[from-1][len(fields[from-1])-1:], ".?!;") {
		from--
	}
	return denied(fields, i, i-from)
}

// Priorities. A question may give a piece of work's priority: "why was
// spotter-fum.5 filed as a P1 bug". Memory that saw it holds the bead
// with that priority: the command that filed it (--priority=1, its output
// naming the bead) or a listing of it ("spotter-fum.5 … [● P1 · OPEN]");
// memory whose records of the bead give another priority never saw it
// (two sets asked why a bug filed at priority 3 was a P1).

// workPriority is a priority (0–4) a question gives the work it names.
type workPriority struct {
	work string
	p    byte
}

// prioritiesOf gives the priority a question's fields give the first
// numbered bead they name (an epic's task: spotter-fum.5; an epic's own
// name is a branch's too, and is left to the other claims): "P1",
// "priority 1", "priority-1", "--priority=1". One at most, in a slice as
// the other claims give theirs.
func prioritiesOf(fields []string) []workPriority {
	work, p := "", byte(0)
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		switch {
		case work == "" && workName(w) && strings.ContainsRune(w, '.'):
			work = w
		case p == 0:
			p = priorityOf(w)
			if p == 0 && (w == "priority" || w == "--priority") && i+1 < len(fields) {
				p = priorityOf("p" + codeWord(fields[i+1])) // "priority 1"
			}
		}
	}
	if work == "" || p == 0 {
		return nil
	}
	return []workPriority{{work, p}}
}

// priorityOf gives the digit of a priority written in one word ("p1",
// "priority-1", "--priority=1"), 0 for any other word.
func priorityOf(w string) byte {
	for _, pre := range []string{"p", "priority-", "priority=", "--priority=", "--priority"} {
		if n, ok := strings.CutPrefix(w, pre); ok && len(n) == 1 && n[0] >= '0' && n[0] <= '4' {
			return n[0]
		}
	}
	return 0
}

// priorityReach is how many words after a bead a listing gives its
// priority ("○ spotter-4te.6 · Add OTEL regression tests, edge-case
// coverage, and runbook docs [● P1 · OPEN]").
const priorityReach = 24

// holdsPriority reports whether memory holds the work at that priority,
// or holds no priority of it at all (then it cannot tell); work memory
// never names is judged as a name, and work in more than claimScan
// records is taken as held.
func (ix *Index) holdsPriority(c workPriority) bool {
	if ix.df(c.work) == 0 || ix.df(c.work) > claimScan {
		return true
	}
	other := false
	for at, d := range ix.docsHolding(c.work) {
		if d.Layer != layerL1 {
			continue
		}
		text, cmd := ix.workText(at, d, c.work)
		if cmd != "" {
			// The command that filed it, its output naming the bead.
			for _, w := range strings.Fields(strings.ToLower(cmd)) {
				if p := priorityOf(w); p != 0 {
					if p == c.p {
						return true
					}
					other = true
				}
			}
		}
		ws := strings.Fields(strings.ToLower(text))
		for _, i := range workAt(ws, c.work) {
			for _, v := range ws[i+1 : min(len(ws), i+1+priorityReach)] {
				if p := priorityOf(strings.Trim(v, "`'\"()[],:;·●")); p != 0 {
					if p == c.p {
						return true
					}
					other = true
					break
				}
			}
		}
	}
	return !other
}

// workName reports whether w names a branch or a bead: a branch's name
// whose last part is an id, short or with a digit (spotter-dov,
// spotter-a0y.3, fix-1234), or a path of a branch (feature/otel); not a
// hyphenated word (pre-commit, non-fast-forward).
func workName(w string) bool {
	base, _, _ := strings.Cut(w, ".")
	if !branchName(base) {
		return false
	}
	if strings.ContainsRune(base, '/') {
		return true
	}
	last := base[strings.LastIndexByte(base, '-')+1:]
	return len(last) >= 2 && (len(last) <= 4 || strings.IndexFunc(last, unicode.IsDigit) >= 0)
}

// unknownTasks gives the tasks of an epic a question names whole
// (spotter-0p7.3) that memory never writes, though it may write the epic
// and its other tasks, whose words the task's are: a task memory never
// names was never made (a helper asked why the epic got a third task
// that it never had).
func (ix *Index) unknownTasks(fields []string) []string {
	var out []string
	for _, f := range fields {
		w := taskWord(f)
		if !taskName(w) || !strings.Contains(w, "-") || strings.Contains(w, "/") {
			continue // no task named whole (a0y.3 is the epic's id alone), or a path
		}
		if ix.df(w) == 0 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// holdsFlagged reports whether memory holds a command run with the flag
// for the work: a shell command carrying the flag in a session that names
// the work (a commit's message, which names its bead, may be cut from
// the command L1 keeps). Work memory never names is judged as a name;
// work named in more than claimScan records is taken as held; a flag
// memory never holds was never run with.
func (ix *Index) holdsFlagged(c flaggedWork, tok *tokenizer) bool {
	var in func(docRef) bool // all memory, for a flag of no work
	if c.work != "" {
		if ix.df(c.work) == 0 || ix.df(c.work) > claimScan {
			return true
		}
		sessions := map[string]bool{}
		for at, d := range ix.docsHolding(c.work) {
			if d.Layer == layerL1 {
				sessions[ix.sourceName(at)] = true
			}
		}
		in = func(at docRef) bool { return sessions[ix.sourceName(at)] }
	}
	_, term := ix.phrase(termWords(c.flag, tok))
	if term == "" {
		return false
	}
	return ix.commandHolds(term, tok, in, func(f l1Fields) bool {
		cmd := strings.ToLower(f.cmd)
		return holdsFlag(cmd, c.flag) && (c.sub == "" || slices.Contains(strings.Fields(cmd), c.sub))
	}) || ix.holdsCustomProperty(term, c.flag) // "--transcript-bg" is a stylesheet's, no flag
}

// holdsCustomProperty reports whether memory holds the flag as a CSS
// custom property, declared ("--transcript-bg: #f8fafc;") or used
// ("var(--transcript-bg)"): a question naming it asks of the stylesheet
// (fresh97 asked which stylesheet defines the --transcript-bg token that
// spotter-fum.2 introduced).
func (ix *Index) holdsCustomProperty(term, flag string) bool {
	return ix.anyHolding(term, false, func(at docRef, d doc) bool {
		text := strings.ToLower(ix.docText(at, d))
		return strings.Contains(text, flag+":") || strings.Contains(text, "var("+flag)
	})
}

// Forced pushes told in words. A question may tell a forced push by what
// it did: "why did we have to overwrite the remote branch history when
// pushing". Memory that saw it holds a push run with a flag of forcing;
// memory whose pushes were plain never saw one (two sets asked why the
// push after an amend overwrote the remote; it was a fast-forward).

// overwriteWords overwrite what follows them.
var overwriteWords = []string{"clobber", "clobbered", "overwrite", "overwrites", "overwriting", "overwritten", "overwrote",
	"rewrite", "rewrites", "rewriting", "rewritten", "rewrote"}

// remoteWords name what a forced push overwrites.
var remoteWords = []string{"origin", "remote", "upstream"}

// forceFlags force a push.
var forceFlags = []string{"--force", "-f", "--force-with-lease", "--force-if-includes"}

// overwriteReach is how many words after a word of overwriting the remote
// may be named ("overwrite the remote branch history").
const overwriteReach = 4

// forcedPushTold reports whether a question's words (countWords) tell a
// forced push: a word of overwriting the remote, not denied.
func forcedPushTold(ws []string) bool {
	for i, w := range ws {
		if slices.Contains(overwriteWords, w) && !denied(ws, i, keepNegReach) &&
			slices.ContainsFunc(ws[i+1:min(len(ws), i+1+overwriteReach)], func(v string) bool { return slices.Contains(remoteWords, v) }) {
			return true
		}
	}
	return false
}

// holdsForcedPush reports whether memory ran git push with a flag of
// forcing, or cannot tell (past claimScan commands naming push).
func (ix *Index) holdsForcedPush(tok *tokenizer) bool {
	return ix.commandHolds(tok.stem("push"), tok, nil, func(f l1Fields) bool {
		for _, part := range commandParts(strings.ToLower(f.cmd)) {
			w := commandWords(part)
			if len(w) > 2 && w[0] == "git" && w[1] == "push" &&
				slices.ContainsFunc(w[2:], func(a string) bool { return slices.Contains(forceFlags, a) || strings.HasPrefix(a, "+") }) {
				return true
			}
		}
		return false
	})
}

// holdsFlag reports whether a command holds the flag whole (--no-verify,
// not --no-verify-ssl).
func holdsFlag(cmd, flag string) bool {
	for _, w := range strings.Fields(cmd) {
		if w, _, _ = strings.Cut(w, "="); w == flag {
			return true
		}
	}
	return false
}

// Commands. A question may say a command was run: "when we ran mix xref
// graph", "after running docker compose up". Memory that saw it run holds
// the program and its subcommand side by side; memory that holds neither
// together never saw it (5 never-happened questions of the eval's 958
// say a command was run, one of them a command memory never holds; no
// answerable question of 1,631 says one was).

// runVerbs say that a command was run; the program follows them.
var runVerbs = []string{"ran", "run", "running", "runs", "executed", "invoked"}

// programs are the command-line programs whose subcommand says what was
// run: "mix xref", "git bisect", "docker compose".
var programs = []string{"bd", "bun", "cargo", "docker", "gh", "git", "go", "kubectl", "make", "mix", "npm", "npx", "pip", "pnpm", "poetry", "rails", "rake", "uv", "yarn"}

// subcommands are the subcommands of programs whose name a question
// writes only for the program: "opened the PR with gh pr create", "what
// did git stash keep". A question says such a command ran without a verb
// of running; "git" in prose ("git refused", "git hooks") is followed by
// no subcommand of git (15 never-happened questions of the eval name
// such a command without a verb of running, `gh pr create` or `git
// revert`; the 28 answerable ones that do name git add, commit and push,
// which memory holds run). So is the beads tracker's: "why did we have to
// bd reopen spotter-dov.2" (never57; memory never reopened a bead).
var subcommands = map[string][]string{
	"bd":     {"close", "create", "delete", "dep", "list", "ready", "reopen", "show", "sync", "update"},
	"docker": {"build", "compose", "exec", "logs", "ps", "pull", "push", "run"},
	"gh":     {"api", "auth", "issue", "pr", "release", "repo", "run", "workflow"},
	"git": {"add", "am", "apply", "bisect", "blame", "branch", "checkout", "cherry-pick", "clean", "clone", "commit",
		"diff", "fetch", "init", "log", "merge", "mv", "pull", "push", "rebase", "reflog", "remote", "reset",
		"restore", "revert", "rm", "show", "stash", "status", "switch", "tag", "worktree"},
	"kubectl": {"apply", "create", "delete", "describe", "exec", "get", "logs", "rollout"},
}

// determiners before a program's name make its subcommand a noun.
var determiners = []string{"a", "an", "each", "every", "its", "our", "that", "the", "this", "what", "which", "whose"}

// commandsRun gives the commands a question's fields say were run, each
// as its program and subcommand ("mix xref", "mix deps.get", "gh pr").
func commandsRun(fields []string) []string {
	var out []string
	for i := 0; i+1 < len(fields); i++ {
		prog := strings.Trim(fields[i], "`\"'(")
		ran := i > 0 && slices.Contains(runVerbs, strings.ToLower(strings.Trim(fields[i-1], "`\"'(,")))
		sub := strings.TrimRight(strings.Trim(fields[i+1], "`\"')"), ".,;:?!")
		switch {
		case !ran && !slices.Contains(subcommands[prog], sub):
			continue
		case !ran && i > 0 && slices.Contains(determiners, strings.ToLower(strings.Trim(fields[i-1], "`\"'(,"))):
			// "the git remote the branches are pushed to", "which git
			// worktree": a thing of the program's, not a run of it.
			continue
		case !slices.Contains(programs, prog) || sub == "" || strings.HasPrefix(sub, "-") || strings.ToLower(sub) != sub ||
			strings.IndexFunc(sub, func(r rune) bool { return !unicode.IsLetter(r) && r != '.' && r != '-' && r != '_' }) >= 0:
			continue
		}
		if c := prog + " " + sub; !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Commands quoted as run. A question may quote a whole command and say it
// ran: "what did `mix igniter.install credo dialyxir mix_audit` print when
// we ran it?". Memory that ran it holds its program and first argument
// opening a shell command (past its variables); memory that holds them only
// in prose (a task's description that plans to run it) never saw it run
// (a helper asked what the planned igniter install printed; the
// answerable questions that quote a command, `mix phx.server` and `node
// assets/build.js`, quote ones memory ran).

// ranWords say that a quoted command ran, or what it printed.
var ranWords = []string{"ran", "run", "runs", "running", "executed", "print", "printed", "prints", "output", "outputs"}

// quotedCommand is a command a question quotes in backticks: its program
// and first argument, lower case.
type quotedCommand struct{ prog, arg string }

// quotedCommandsRun gives the commands a question quotes in backticks
// when its words say one ran: a program's name (a word of lower-case
// letters) and an argument that is no flag.
func quotedCommandsRun(query string, ws []string) []quotedCommand {
	ran := false
	for i, w := range ws {
		// What a command runs in its turn ("what does it run", "the
		// alias, which runs credo") is no run of it (fresh85 asked what
		// the planned `mix quality` alias runs, and was refused).
		ran = ran || slices.Contains(ranWords, w) && !((w == "run" || w == "runs") && i > 0 && slices.Contains([]string{"it", "that", "which"}, ws[i-1]))
	}
	if !ran {
		return nil
	}
	var out []quotedCommand
	for _, q := range quoted(query) {
		f := strings.Fields(q)
		if len(f) < 2 || !strings.Contains(query, "`"+q+"`") || strings.HasPrefix(f[1], "-") ||
			strings.IndexFunc(f[0], func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 || len(f[0]) < 2 {
			continue
		}
		out = append(out, quotedCommand{f[0], strings.ToLower(f[1])})
	}
	return out
}

// holdsCommandRun reports whether a shell command memory ran opens with
// c's program and argument, or it cannot tell (the argument in no record:
// judged as a thing).
func (ix *Index) holdsCommandRun(c quotedCommand, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(c.arg, tok))
	return term == "" || ix.commandHolds(term, tok, nil, func(f l1Fields) bool {
		for _, part := range commandParts(strings.ToLower(f.cmd)) {
			if ws := commandWords(part); len(ws) >= 2 && ws[0] == c.prog && ws[1] == c.arg {
				return true
			}
		}
		return false
	})
}

// Exports. A question may say something was exported or downloaded as a
// file of a format: "the button that exports a project's open review
// notes as a markdown file", "download the annotations as CSV". Memory
// that saw it built holds the format and the doing in one record; memory
// that holds the format only elsewhere ("do not use markdown files for
// task tracking") never saw it (four never-happened questions of the
// fresh sets, each from a helper of its own, asked for a markdown export
// of the review notes; no answerable question of the eval says a thing
// was exported as a format).

// exportVerbs say a thing was made into a file to take away: each form
// of the verb, and its stem, which memory holds with the format ("an
// exporter" of traces is no such verb).
var exportVerbs = map[string]string{
	"download": "download", "downloads": "download", "downloaded": "download", "downloading": "download",
	"export": "export", "exports": "export", "exported": "export", "exporting": "export",
}

// saveVerbs say a thing was written out, and so made into a file to take
// away only when the format is followed by "file": "the button that saves
// all open notes out to a Markdown file" (two sets asked so), not "a
// dumped file colored as JSON".
var saveVerbs = map[string]string{
	"dump": "dump", "dumps": "dump", "dumped": "dump", "dumping": "dump",
	"save": "save", "saves": "save", "saved": "save", "saving": "save",
}

// fileFormats are the formats a thing is exported as.
var fileFormats = []string{"csv", "excel", "html", "json", "markdown", "pdf", "tsv", "xlsx", "xml", "yaml", "zip"}

// exportReach is how many words after the verb may name the format.
const exportReach = 12

// export is a format a question says something was exported as, and
// the verb's stem that says so.
type export struct{ verb, format string }

// exports gives the formats a question's fields say something was
// exported or downloaded as, or saved or dumped as a file of.
func exports(fields []string) []export {
	var out []export
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		verb, ok := exportVerbs[w]
		needsFile := false
		if !ok {
			verb, needsFile = saveVerbs[w]
			if !needsFile {
				continue
			}
		}
		for k, g := range fields[i+1 : min(len(fields), i+1+exportReach)] {
			g := strings.ToLower(codeWord(g))
			if !slices.Contains(fileFormats, g) {
				continue
			}
			if next := i + 2 + k; !needsFile || next < len(fields) && strings.HasPrefix(strings.ToLower(fields[next]), "file") {
				out = append(out, export{verb, g})
			}
			break
		}
	}
	return out
}

// holdsExport reports whether a record of memory holds e's format with
// its doing, or cannot tell: the format is in more than claimScan
// records.
func (ix *Index) holdsExport(e export, tok *tokenizer) bool {
	term := tok.stem(e.format)
	if ix.df(term) > claimScan {
		return true
	}
	for at, d := range ix.docsHolding(term) {
		if strings.Contains(strings.ToLower(ix.docText(at, d)), e.verb) {
			return true
		}
	}
	return false
}

// Environment variables. A question may ask which environment variable
// sets something of a part of the code it names: "which env var
// overrides the 90 second TTL in ActiveSessionRegistry". Memory that saw
// one holds its name (SPOTTER_OTEL_ENABLED: capitals joined by an
// underscore) or the call reading it (System.get_env) in a record that
// names the part, near it; memory that names the part only apart from
// any never saw it (never11 asked which env var overrides the registry's
// TTL, a module attribute). A question naming no part of the code is not
// judged so: memory tells a feature in too many words to find it by.

// envVarsOf gives the code names of a question that asks for an
// environment variable.
func envVarsOf(fields []string) []codeName {
	asks := false
	for i := 0; i+1 < len(fields); i++ {
		a, b := strings.ToLower(codeWord(fields[i])), strings.ToLower(codeWord(fields[i+1]))
		if (a == "env" || a == "environment") && slices.Contains(variableWords, b) {
			asks = true
		}
	}
	if !asks {
		return nil
	}
	var out []codeName
	for _, f := range fields {
		if w := codeWord(f); !envVarIn(w) {
			if n, ok := codeNameOf(w); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// variableWords follow "env" or "environment" in a question asking for a
// variable.
var variableWords = []string{"var", "vars", "variable", "variables"}

// envVarIn reports whether a word holds an environment variable's name or
// a call reading one.
func envVarIn(w string) bool {
	lower := strings.ToLower(w)
	if strings.Contains(lower, "get_env") || strings.Contains(lower, "getenv") || strings.Contains(lower, "process.env") {
		return true
	}
	for part := range strings.FieldsFuncSeq(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if envVarName(part) {
			return true
		}
	}
	return false
}

// envVarName reports whether a word is written as an environment
// variable's name is: capitals and digits joined by underscores, not a
// placeholder memory wrote for what it redacted.
func envVarName(w string) bool {
	if len(w) < 4 || !strings.ContainsRune(w, '_') || strings.HasPrefix(w, "REDACTED") || !unicode.IsUpper(rune(w[0])) {
		return false
	}
	return !strings.ContainsFunc(w, func(r rune) bool { return r != '_' && !unicode.IsUpper(r) && !unicode.IsDigit(r) })
}

// holdsEnvVar reports whether a record that names n holds an environment
// variable near it, or memory cannot tell (n is held nowhere, judged as a
// name, or in more than claimScan records).
func (ix *Index) holdsEnvVar(n codeName, tok *tokenizer) bool {
	places, ok := ix.placesOf(n, tok)
	if !ok || len(places) == 0 {
		return true
	}
	for _, p := range places {
		var env []int
		for i, w := range strings.Fields(p.text) {
			if envVarIn(w) {
				env = append(env, i)
			}
		}
		// A record that opens with the name is the file or the module
		// (an edit, a read): a variable anywhere in it is its own.
		if nearWords(p.words, env, connectWords) || len(env) > 0 && p.words[0] < recordHead {
			return true
		}
	}
	return false
}

// recordHead is how many words open a record before what it is about: a
// tool call's name and its flags ("Edit", "Write", "Read").
const recordHead = 4

// Work told by what it was about. A question may say what a bead was
// about: "spotter-fum.5 was the bug where SubagentLive dropped agent_id",
// "spotter-fum.5 was about jsonl_parser.ex dropping agent_id", "the bug
// we filed as spotter-fum.5 — TranscriptRenderer losing tool_use_id".
// Memory that saw it filed holds what it was about in the command that
// filed it or showed it (its output naming the bead), or near the bead
// elsewhere; a name memory never holds so was not what it was about
// (five sets asked about spotter-fum.5 with another module or field than
// the one it was filed for: load_session_messages dropping agent_id).

// workAbout is a bead and the code names a question says it was about.
type workAbout struct {
	work  string
	names []codeName
}

// aboutReach is how many words after a bead the words saying what it
// was about may begin ("spotter-fum.5 was the bug where", "is
// spotter-fum.5 still open? the bug where").
const aboutReach = 5

// workAbouts gives the beads a question's fields say what they were
// about, and the code names of what they say, to the end of the clause.
func workAbouts(fields []string) []workAbout {
	var out []workAbout
	for i, f := range fields {
		work := strings.ToLower(codeWord(f))
		if !workName(work) || !strings.ContainsRune(work, '.') {
			continue
		}
		k := -1
		for j := i + 1; j < min(len(fields), i+1+aboutReach) && k < 0; j++ {
			g, before := strings.ToLower(codeWord(fields[j])), strings.ToLower(codeWord(fields[j-1]))
			if g == "about" && slices.Contains(aboutWords, before) || g == "where" && slices.Contains(whereWords, before) || slices.Contains(clauseDashes, fields[j]) && !asks(fields, j+1) {
				k = j
			}
		}
		if k < 0 {
			continue
		}
		var names []codeName
		for m, g := range fields[k+1:] {
			if slices.Contains(clauseDashes, g) {
				break
			}
			if w := codeWord(g); !workName(strings.ToLower(w)) {
				if n, ok := codeNameOf(w); ok {
					names = append(names, n)
				} else if n, ok := fieldNamed(fields[k+1:], m); ok {
					names = append(names, n)
				}
			}
			if strings.ContainsAny(g[len(g)-1:], ".?!;") {
				break
			}
		}
		if len(names) > 0 {
			out = append(out, workAbout{work, names})
		}
	}
	return out
}

// asks reports whether fields[i] opens a question that asks, not one of
// why, which takes what it asks of as told: after a dash, the question
// asked of a bead ("spotter-gqc.7 - how long does a token stay valid"),
// not what the bead was about ("spotter-fum.5 - why does
// load_session_messages drop cwd" tells it).
func asks(fields []string, i int) bool {
	if i >= len(fields) {
		return false
	}
	w := strings.ToLower(strings.Trim(fields[i], ",.:;!"))
	return !strings.HasPrefix(w, "why") && slices.Contains(questionOpeners, w)
}

// fieldNamed gives the name of a field told in a plain word before its
// schema noun: "drops the cwd field".
func fieldNamed(words []string, i int) (codeName, bool) {
	w := strings.ToLower(codeWord(words[i]))
	if i+1 >= len(words) || !slices.Contains(schemaNouns, strings.ToLower(codeWord(words[i+1]))) ||
		len(w) < 2 || strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) || slices.Contains(notFieldNames, w) {
		return codeName{}, false
	}
	return codeName{as: w, forms: []string{w}, whole: true}, true
}

// notFieldNames are words before a schema noun that say which field, not
// its name: "the same field", "a new column".
var notFieldNames = []string{"a", "an", "another", "each", "every", "its", "new", "one", "other", "same", "that", "the", "their", "this", "which"}

// clauseDashes set a clause apart. aboutWords before "about" and
// whereWords before "where" say the words after tell what a bead was
// ("was about", "the bug where"), not ask ("where did csv_parser.ex come
// in").
var (
	clauseDashes = []string{"—", "–", "-", "--"}
	aboutWords   = []string{"bug", "bugs", "is", "issue", "one", "task", "was"}
	whereWords   = []string{"bug", "issue", "one", "task"}
)

// holdsWorkAbout reports whether memory holds n with the bead work: in
// the command that filed or showed it, or near it elsewhere; or cannot
// tell (the bead is held nowhere, or in more than claimScan records).
func (ix *Index) holdsWorkAbout(work string, n codeName) bool {
	if ix.df(work) == 0 || ix.df(work) > claimScan {
		return true
	}
	for at, d := range ix.docsHolding(work) {
		text, cmd := ix.workText(at, d, work)
		names := namePositions(text, n)
		if len(names) == 0 {
			continue
		}
		if cmd != "" || nearWords(workAt(strings.Fields(strings.ToLower(text)), work), names, connectWords) {
			return true
		}
	}
	return false
}

// workText gives the text of a record holding the bead work, and, when
// the record is a command whose output names the bead (the command that
// filed, showed or listed it), the command. The record is read once.
func (ix *Index) workText(at docRef, d doc, work string) (text, cmd string) {
	if d.Layer != layerL1 {
		return ix.docText(at, d), ""
	}
	f, _ := ix.l1Record(at, d)
	if f.cmd != "" && strings.Contains(strings.ToLower(f.res), work) {
		cmd = f.cmd
	}
	return f.joined(), cmd
}

// workAt gives the positions of the words (lower case) that are the bead
// work, marks around it aside.
func workAt(words []string, work string) []int {
	var at []int
	for i, w := range words {
		if strings.Trim(w, "`'\"()[],:;·") == work {
			at = append(at, i)
		}
	}
	return at
}

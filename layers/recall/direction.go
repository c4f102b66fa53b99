package recall

import (
	"iter"
	"slices"
	"strings"
)

// Which way a count changed. A question may say a count went from one
// number to another: "why did we cut the visible tool-result lines from 10
// down to 5". Memory that saw the change tells it old before new, each
// number against what it counts ("Removed silent 5-line truncation …
// with 10-line default-visibility"); memory that holds the two only the
// other way round saw the change go the other way (four sets asked why
// the lines went from 10 down to 5). Numbers memory never writes against
// their noun are not judged here. Two numbers memory never writes in one
// sentence are told old before new by when memory first wrote each
// against its noun ("297 tests, 0 failures" in a test run before "309
// tests, 0 failures"): two sets asked why the test count dropped from
// the later number to the earlier.

// countChange is a count a question says went from one number to another:
// the numbers written against their noun as memory writes them ("10-line").
type countChange struct {
	from, to string
	a, b     string // the numbers
	noun     string // what they count, as the question writes it
}

// changeFiller are the words between "from N" and "to M" that say which
// way ("from 10 back down to 5").
var changeFiller = []string{"all", "back", "down", "over", "the", "up", "way"}

// countChanges gives the counts a question's words say changed: "from N
// … to M", the noun they count written after N, after M, or a few words
// before "from".
func countChanges(ws []string, tok *tokenizer) []countChange {
	var out []countChange
	for i := 0; i+3 < len(ws); i++ {
		if ws[i] != "from" || !allDigits(ws[i+1]) {
			continue
		}
		// What it counts may follow the first number ("from 10 visible
		// lines down to 5"), past a word or two.
		noun := ""
		j := i + 2
		for ; j < len(ws) && j <= i+2+countReach && ws[j] != "to"; j++ {
			switch {
			case noun == "" && counted(ws[j], tok) != "":
				noun = ws[j]
			case noun != "" && !slices.Contains(changeFiller, ws[j]):
				j = len(ws) // a word after the noun other than "down", "back"…
			}
		}
		if j+1 >= len(ws) || ws[j] != "to" || !allDigits(ws[j+1]) || ws[j+1] == ws[i+1] {
			continue
		}
		if noun == "" && j+2 < len(ws) && counted(ws[j+2], tok) != "" {
			noun = ws[j+2]
		}
		for k := i - 1; k >= max(0, i-countReach) && noun == ""; k-- {
			switch {
			case counted(ws[k], tok) != "":
				noun = ws[k]
			case slices.Contains(countWordsOf, ws[k]) && k > 0 && isAlpha(ws[k-1]) && !isStop(ws[k-1]):
				noun = ws[k-1] // "the test count"
			}
		}
		if noun == "" {
			continue
		}
		one := strings.TrimSuffix(noun, "s")
		out = append(out, countChange{ws[i+1] + "-" + one, ws[j+1] + "-" + one, ws[i+1], ws[j+1], one})
	}
	return out
}

// countWordsOf follow what a count counts: "the test count".
var countWordsOf = []string{"count", "number", "total"}

// countReach is how many words before "from" the noun a count change
// counts may be written ("the visible tool-result lines from 10 to 5").
const countReach = 6

// holdsCountChange reports whether memory tells the change old before
// new in a sentence holding both, or never holds the two in one sentence.
func (ix *Index) holdsCountChange(c countChange) bool {
	reversed, read := false, 0
	for at, d := range ix.docsHoldingWith(c.to, []string{c.from}) {
		if read++; read > claimScan {
			return true
		}
		for _, sentence := range splitSentences(strings.ToLower(ix.docText(at, d))) {
			i, j := wordAt(sentence, c.from), wordAt(sentence, c.to)
			switch {
			case i < 0 || j < 0:
			case i < j:
				return true
			default:
				reversed = true
			}
		}
	}
	if reversed {
		return false
	}
	from, to := ix.firstCounted(c.a, c.noun), ix.firstCounted(c.b, c.noun)
	return from == "" || to == "" || from <= to
}

// firstCounted gives when memory's L1 first wrote the number n against
// noun ("297 tests", "297-test", "297 test"), or "" when it never did or
// past claimScan records holding n.
func (ix *Index) firstCounted(n, noun string) string {
	forms := []string{n + " " + noun, n + " " + noun + "s", n + "-" + noun}
	first, read := "", 0
	for at, d := range ix.docsHolding(n) {
		if read++; read > claimScan {
			return ""
		}
		if d.Layer != layerL1 {
			continue
		}
		text := strings.ToLower(ix.docText(at, d))
		if !slices.ContainsFunc(forms, func(f string) bool { return wordAt(text, f) >= 0 }) {
			continue
		}
		if f, _ := ix.l1Record(at, d); f.ts != "" && (first == "" || f.ts < first) {
			first = f.ts
		}
	}
	return first
}

// wordAt gives where w is in s as a word of its own (not inside "110-line"
// nor "5-lines"), or -1.
func wordAt(s, w string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordRune(rune(s[i-1]))) && (end == len(s) || !isWordRune(rune(s[end]))) {
			return i
		}
		from = end
	}
}

// Which way a thing changed, told in plain words: "why did we switch the
// transcript panel from the light theme over to a dark one". Memory that
// saw the change tells it in a sentence of changing, the old word first
// ("Replace dark inline-styled transcript panel with … light surface
// theme", "from dark to light", "dark → light") or the new one before
// "instead of" the old; memory that tells it only the other way round saw
// it go the other way (two sets asked why the panel went from light to
// dark; four answerable ones ask why it went from dark to light). Words
// memory never tells changing are not judged here.

// wordChange is a thing a question says went from one word to another.
type wordChange struct{ from, to string }

// wordLeads are the words that may stand before the word a change goes
// from or to ("from the light theme", "to a dark one", "from the old
// dark look", "back into a plain function").
var wordLeads = append([]string{"old", "new", "plain", "simple", "regular", "normal", "ordinary", "back"}, placeArticles...)

// codeMeanings give the plain word for a keyword of code that memory
// writes a change in ("converting `with_span` from a `def` to a
// `defmacro`"), which a question tells in words ("from a macro back into
// a plain function").
var codeMeanings = map[string]string{
	"def": "function", "defp": "function", "defn": "function", "fn": "function", "func": "function",
	"defmacro": "macro", "defmacrop": "macro", "defstruct": "struct", "defmodule": "module",
}

// comparatives tell a change by the degree of a word: "over to a darker
// colour scheme" is to dark.
var comparatives = map[string]string{"brighter": "bright", "darker": "dark", "lighter": "light", "paler": "pale"}

// meaningOf gives a word of a change as plain words tell it.
func meaningOf(w string) string {
	if m, ok := codeMeanings[w]; ok {
		return m
	}
	if m, ok := comparatives[w]; ok {
		return m
	}
	return w
}

// meaningsOf gives a sentence's words as plain words tell them.
func meaningsOf(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = meaningOf(w)
	}
	return out
}

// wordChanges gives the changes a question's words (countWords) say went
// from one plain word to another: a verb of switching, "from" (or "off":
// "move the panel off the light theme and onto a dark one") and a word,
// then "to", "into" or "onto" and a word within a few words after it.
func wordChanges(ws []string) []wordChange {
	plain := func(w string) bool {
		return len(w) >= 3 && !isStop(w) && strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
	}
	after := func(i int) (string, int) {
		for i < len(ws) && slices.Contains(wordLeads, ws[i]) {
			i++
		}
		if i < len(ws) && plain(ws[i]) {
			return ws[i], i
		}
		return "", -1
	}
	switching := func(v string) bool { return slices.Contains(switchVerbs, v) || slices.Contains(changeIntoVerbs, v) }
	var out []wordChange
	for i, w := range ws {
		// "switch the panel over to a dark look", "to a dark one",
		// "flip it back to dark styling": the word it went to alone,
		// told with no "from" before, after "over", "back" or an
		// article ("change to fix it" is no change to a word).
		if (w == "to" || w == "onto") && (i > 0 && (ws[i-1] == "over" || ws[i-1] == "back") || i+1 < len(ws) && slices.Contains(wordLeads, ws[i+1])) &&
			slices.ContainsFunc(ws[max(0, i-switchReach):i], switching) && !slices.Contains(ws[max(0, i-switchReach):i], "from") {
			if to, _ := after(i + 1); to != "" {
				out = append(out, wordChange{to: meaningOf(to)})
			}
			continue
		}
		if w != "from" && w != "off" || !slices.ContainsFunc(ws[max(0, i-fromReach):i], switching) {
			continue
		}
		from, at := after(i + 1)
		if at < 0 {
			continue
		}
		for k := at + 1; k < len(ws) && k <= at+countReach; k++ {
			if ws[k] == "to" || ws[k] == "into" || ws[k] == "onto" {
				if to, _ := after(k + 1); to != "" && meaningOf(to) != meaningOf(from) {
					out = append(out, wordChange{meaningOf(from), meaningOf(to)})
				}
				break
			}
		}
	}
	return out
}

// fromReach is how many words before "from" a verb of changing may be:
// "turn the span-wrapping helper the hook controllers use from a macro".
const fromReach = 9

// changeIntoVerbs tell a change of one thing into another besides switchVerbs:
// "flip the panel from light to dark", "turn the helper from a macro
// into a function".
var changeIntoVerbs = []string{"flip", "flipped", "flipping", "flips", "turn", "turned", "turning", "rewrite", "rewrote", "rewritten", "rewriting"}

// replaceWords tell a change with the old thing first and the new after
// "with" or "by": "replace dark … with light".
var replaceWords = []string{"replace", "replaced", "replaces", "replacing", "swap", "swapped", "swapping"}

// changeReach is how many words apart the two words of a change may be in
// memory's sentence of changing.
const changeReach = 10

// toldChange reports whether a sentence's words tell a change from one
// word to another: "replace a … with b", "from a to b", "a → b", "b
// instead of a" or "b rather than a".
func toldChange(ws []string, a, b string) bool {
	for i, w := range ws {
		if w != a {
			continue
		}
		for j := i + 1; j < len(ws) && j <= i+changeReach; j++ {
			if ws[j] != b {
				continue
			}
			between := ws[i+1 : j]
			switch {
			case slices.ContainsFunc(ws[max(0, i-4):i], func(v string) bool { return slices.Contains(replaceWords, v) }) && (slices.Contains(between, "with") || slices.Contains(between, "by")),
				(i > 0 && ws[i-1] == "from" || i > 1 && ws[i-2] == "from" && slices.Contains(wordLeads, ws[i-1])) && (slices.Contains(between, "to") || slices.Contains(between, "into")),
				slices.Contains(between, "→") || slices.Contains(between, "->"):
				return true
			}
		}
		// "b instead of a": the new word before, the old after.
		for k := i - 2; k >= max(1, i-4); k-- {
			if (ws[k] == "instead" && ws[k+1] == "of" || ws[k] == "rather" && ws[k+1] == "than") && slices.Contains(ws[max(0, k-changeReach):k], b) {
				return true
			}
		}
	}
	return false
}

// holdsWordChange reports whether memory tells the change the way the
// question does, or never tells it the other way round.
func (ix *Index) holdsWordChange(c wordChange, tok *tokenizer) bool {
	if c.from == "" {
		return ix.holdsChangeTo(c.to, tok)
	}
	var lookups []iter.Seq2[docRef, doc]
	for _, to := range formsOf(c.to) {
		for _, from := range formsOf(c.from) {
			lookups = append(lookups, ix.docsHoldingWith(tok.term(to), []string{tok.term(from)}))
		}
	}
	reversed := false
	told := ix.anyIn(true, func(at docRef, d doc) bool {
		for ws := range ix.meaningSentences(at, d) {
			switch {
			case toldChange(ws, c.from, c.to):
				return true
			case toldChange(ws, c.to, c.from):
				reversed = true
			}
		}
		return false
	}, lookups...)
	return told || !reversed
}

// meaningSentences yields the words of a record's sentences, lower case,
// keywords of code as plain words tell them (meaningsOf), one sentence at
// a time: a check that is told stops reading.
func (ix *Index) meaningSentences(at docRef, d doc) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, sentence := range splitSentences(strings.ReplaceAll(strings.ToLower(ix.docText(at, d)), "\n", " ")) {
			if !yield(meaningsOf(countWords(sentence))) {
				return
			}
		}
	}
}

// formsOf gives a word of a change and the keywords of code that mean it
// (function: def, defp, fn, …).
func formsOf(w string) []string {
	out := []string{w}
	for k, v := range codeMeanings {
		if v == w {
			out = append(out, k)
		}
	}
	slices.Sort(out[1:])
	return out
}

// holdsChangeTo reports whether memory tells a change to the word, or
// never tells one away from it: the transcript panel that memory changed
// only from dark (to light) never went over to a dark look (cq50).
func (ix *Index) holdsChangeTo(to string, tok *tokenizer) bool {
	var lookups []iter.Seq2[docRef, doc]
	for _, form := range formsOf(to) {
		lookups = append(lookups, ix.docsHolding(tok.term(form)))
	}
	away := false
	told := ix.anyIn(true, func(at docRef, d doc) bool {
		for ws := range ix.meaningSentences(at, d) {
			for _, w := range ws {
				switch {
				case w == to: // no change of a word into itself
				case toldChange(ws, w, to):
					return true
				case toldChange(ws, to, w):
					away = true
				}
			}
		}
		return false
	}, lookups...)
	return told || !away
}

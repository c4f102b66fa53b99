package recall

import (
	"slices"
	"strings"
)

// One for each. A question may say a thing was made for every item of
// something: "why do we open a tracing span for every line of output the
// terminal channel streams". Memory that saw it tells it so ("per-line
// spans", "a span per line", "a span for each line"); memory that tells it
// only denied ("stream lifecycle without creating per-line spans") saw the
// other choice made (five sets, each from a helper of its own, asked why
// the terminal channel opens a span for every line of output). Memory that
// never tells it either way cannot say, and is let be.

// eachWords say that what comes before them is made for every one of what
// follows: "for every line", "for each message", "per line".
var eachWords = [][]string{{"for", "every"}, {"for", "each"}, {"per"}}

// eachReach is how many words before "for every" the thing made may be
// ("a separate tracing span for every line"), and how many after it the
// item ("for every single line of output").
const eachReach = 3

// eachDenyReach is how many words before the thing a word of denying
// may take the claim back ("without flooding the trace with one span per
// line").
const eachDenyReach = 6

// perItem is a thing a question says was made for every item: their
// stems.
type perItem struct{ thing, item string }

// perItems gives what a question's words (countWords) say was made for
// every one of something: a noun within eachReach words before "for
// every", "for each" or "per", and the last of the nouns written
// together within eachReach words after.
func perItems(ws []string, tok *tokenizer) []perItem {
	var out []perItem
	for i := range ws {
		for _, e := range eachWords {
			if i+len(e) >= len(ws) || !slices.Equal(ws[i:i+len(e)], e) {
				continue
			}
			thing, item, at := "", "", -1
			for k := i - 1; k >= max(0, i-eachReach) && thing == ""; k-- {
				thing, at = eachNoun(ws[k], tok), k
			}
			if thing == "" || denied(ws, at, eachDenyReach) {
				continue // "why didn't we record a span for every line"
			}
			// The item is the last of the nouns written together
			// ("for every output line": line).
			for k := i + len(e); k < min(len(ws), i+len(e)+eachReach); k++ {
				n := eachNoun(ws[k], tok)
				if n == "" && slices.Contains(eachFillers, ws[k]) {
					continue
				}
				if n == "" {
					break
				}
				item = n
			}
			if item != "" && item != thing {
				out = append(out, perItem{thing, item})
			}
		}
	}
	return out
}

// eachNoun gives a word's stem when it may be the thing or the item of a
// claim made for each: a plain word, no stop word nor one of the words
// that ask or qualify ("single", "separate").
func eachNoun(w string, tok *tokenizer) string {
	if len(w) < 3 || isStop(w) || slices.Contains(eachFillers, w) || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return ""
	}
	return tok.stem(w)
}

// eachFillers qualify the thing or the item without naming it.
var eachFillers = []string{"single", "separate", "own", "new", "whole", "open", "opened", "opening", "emit", "emitted", "emitting", "create", "created", "creating"}

// holdsPerItem reports whether memory tells the thing made for each item
// other than denied, or never tells it: "per-line spans", "span per
// line", "spans for each line" not after a word of denying within
// keepNegReach words. Past claimScan records it cannot tell.
func (ix *Index) holdsPerItem(p perItem, tok *tokenizer) bool {
	negated := false
	told := ix.anyIn(true, func(at docRef, d doc) bool {
		ws := countWords(strings.ReplaceAll(ix.docText(at, d), "-", " "))
		stems := make([]string, len(ws))
		for i, w := range ws {
			stems[i] = tok.stem(w)
		}
		for i := range stems {
			if !tellsEach(ws, stems, i, p) {
				continue
			}
			if !denied(ws, i, keepNegReach) {
				return true
			}
			negated = true
		}
		return false
	}, ix.docsHoldingWith(p.thing, []string{p.item}))
	return told || !negated
}

// tellsEach reports whether a record's words (ws, and their stems) at i
// tell the thing made for each item: "per-line spans", "span per line",
// "spans for each line".
func tellsEach(ws, stems []string, i int, p perItem) bool {
	return stems[i] == "per" && i+2 < len(stems) && stems[i+1] == p.item && stems[i+2] == p.thing ||
		stems[i] == p.thing && i+2 < len(stems) && ws[i+1] == "per" && stems[i+2] == p.item ||
		stems[i] == p.thing && i+3 < len(stems) && ws[i+1] == "for" && (ws[i+2] == "each" || ws[i+2] == "every") && stems[i+3] == p.item
}

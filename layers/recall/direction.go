package recall

import (
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
// their noun, or never in one sentence, are not judged here.

// countChange is a count a question says went from one number to another:
// the numbers written against their noun as memory writes them ("10-line").
type countChange struct{ from, to string }

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
			if counted(ws[k], tok) != "" {
				noun = ws[k]
			}
		}
		if noun == "" {
			continue
		}
		one := strings.TrimSuffix(noun, "s")
		out = append(out, countChange{ws[i+1] + "-" + one, ws[j+1] + "-" + one})
	}
	return out
}

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
	return !reversed
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

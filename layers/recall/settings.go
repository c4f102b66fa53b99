package recall

import (
	"slices"
	"strings"
	"unicode"
)

// Settings turned on. A question may say a setting was turned on: "how
// did turning on tmux's mouse option fix it", "we ended up turning on
// mouse mode in the multiplexer's config". Memory that turned it on
// writes the setting's word as a word of its own, in the config it
// changed or in what was said of it ("set -g mouse on", "enable strict
// mode"); memory that holds it only inside a longer name (mouse in
// `_onMouseUp`) never named the setting (three sets, each from a helper of
// its own, asked how turning on tmux's mouse mode fixed scrolling back in
// the browser terminal; memory researched the scrolling and never set
// the mouse).

// settingNounsOn name a setting after its word: "mouse mode", "strict
// option", "mouse support".
var settingNounsOn = []string{"flag", "mode", "option", "setting", "support"}

// enableVerbs turn a setting on by themselves; turnVerbs with "on".
var (
	enableVerbs = []string{"activate", "activated", "activating", "enable", "enabled", "enables", "enabling"}
	turnVerbs   = []string{"switch", "switched", "switching", "turn", "turned", "turning"}
)

// turnedOnReach is how many words after its verb a setting's noun may
// stand ("turning on tmux's mouse option").
const turnedOnReach = 4

// settingsOn gives the words of the settings a question's words
// (countWords) say were turned on: the word before a setting's noun a few
// words after a verb of turning on that no word just before denies.
func settingsOn(ws []string) []string {
	var out []string
	for i, w := range ws {
		on := i + 1
		switch {
		case slices.Contains(enableVerbs, w):
		case slices.Contains(turnVerbs, w) && on < len(ws) && ws[on] == "on":
			on++
		default:
			continue
		}
		if denied(ws, i, keepNegReach) {
			continue
		}
		for j := on + 1; j < len(ws) && j <= i+turnedOnReach; j++ {
			if !slices.Contains(settingNounsOn, strings.TrimSuffix(ws[j], "s")) {
				continue
			}
			s := ws[j-1]
			if isAlpha(s) && !isStop(s) && !slices.Contains(out, s) {
				out = append(out, s)
			}
			break
		}
	}
	return out
}

// holdsWordOf reports whether memory writes w as a word of its own, in
// some form (mouse, mouses): a run of letters whose stem is w's, not a
// part of a longer name (onMouseUp, mouseup). Past claimScan records
// holding w's stem it is taken as held.
func (ix *Index) holdsWordOf(w string, tok *tokenizer) bool {
	stem := tok.stem(w)
	return ix.anyHolding(stem, true, func(at docRef, d doc) bool {
		for run := range strings.FieldsFuncSeq(ix.docText(at, d), func(r rune) bool { return !unicode.IsLetter(r) }) {
			// A shorter run does not stem to it; it is not stemmed.
			if len(run) >= len(stem) && tok.stem(strings.ToLower(run)) == stem {
				return true
			}
		}
		return false
	})
}

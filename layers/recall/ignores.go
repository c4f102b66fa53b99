package recall

import (
	"slices"
	"strings"
)

// Ignore rules changed. A question may say the project's ignore rules
// were changed, told in words: "why did we take the built static assets
// folder out of the ignore list so the new stylesheet could be
// committed", "after we un-ignored the stylesheet". The ignore list is
// .gitignore, judged as an edit of it is (holdsEdit): memory that saw
// it changed holds an edit of .gitignore or a command rewriting it;
// memory that holds only git's refusal ("The following paths are ignored
// by one of your .gitignore files") and the force-added file never saw
// the rules change (never22, never29 and never48 named .gitignore; a
// later set told it in words).

// ignoreList is the file a question names when it tells of the ignore
// rules in words.
var ignoreList = editedThing{as: ".gitignore", file: ".gitignore"}

// ignoreNouns follow "ignore" in a name of the ignore rules.
var ignoreNouns = []string{"list", "lists", "rule", "rules"}

// ignoreChangeVerbs change what the ignore rules hold, besides editVerbs:
// "take it out of the ignore list", "drop it from the ignore rules".
var ignoreChangeVerbs = []string{"delete", "deleted", "drop", "dropped", "pull", "pulled", "put", "remove", "removed", "removing",
	"take", "taken", "taking", "took"}

// ignoreReach is how many words before the ignore rules their verb may
// stand ("take the built static assets folder out of the ignore list").
const ignoreReach = 10

// ignoreInto are the words that put a thing in or out of the ignore
// rules just before them ("out of the ignore list", "to .gitignore"); the
// rules a thing trips over or is refused because of were not changed.
var ignoreInto = []string{"from", "in", "into", "of", "to"}

// ignoresChanged reports whether a question's words (countWords) say the
// ignore rules were changed: a word putting a thing in or out of "the
// ignore list" (or rules, or "gitignore" written without its dot), after
// a verb of changing within ignoreReach words that no word just before
// denies, or a word of un-ignoring.
func ignoresChanged(ws []string) bool {
	for k, w := range ws {
		if strings.HasPrefix(w, "un-ignor") || strings.HasPrefix(w, "unignor") {
			return !denied(ws, k, keepNegReach)
		}
		if !(w == "ignore" && k+1 < len(ws) && slices.Contains(ignoreNouns, ws[k+1]) || w == "gitignore") {
			continue
		}
		into := k - 1
		for into >= 0 && (slices.Contains(placeArticles, ws[into]) || strings.HasSuffix(ws[into], "'s")) {
			into--
		}
		if into < 1 || !slices.Contains(ignoreInto, ws[into]) || ws[into] == "of" && ws[into-1] != "out" {
			continue
		}
		for i := into - 1; i >= 0 && i >= k-ignoreReach; i-- {
			if slices.Contains(editVerbs, ws[i]) || slices.Contains(ignoreChangeVerbs, ws[i]) {
				return !denied(ws, i, keepNegReach)
			}
		}
	}
	return false
}

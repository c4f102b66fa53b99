package recall

import (
	"slices"
	"strings"
)

// Merges undone. A question may say that two things once merged were
// split back apart: "why did we split the TranscriptHighlighter hook back
// into a separate TranscriptSelection hook", "why did we undo merging the
// text-selection hook into the code-highlighting hook". Memory that saw
// it tells of a split: a word of splitting beside a name the question
// gives ("split TranscriptSelection out again"), or, where the question
// names nothing, a merge undone in words. Memory that holds the merge
// alone never saw it undone (three sets, each written on its own, asked
// why the two hooks were split back apart; memory merged them once and
// never split them; no answerable question says a merge was undone).

// splitWords are the words of splitting a question or memory says.
var splitWords = []string{"split", "splits", "splitting", "separate", "separated", "separating", "unmerge", "unmerged", "unmerging", "extract", "extracted", "extracting"}

// undoWords say that a change was taken back: "undo merging", "revert the
// merge".
var undoWords = []string{"undo", "undid", "undoing", "undone", "revert", "reverted", "reverting", "reverse", "reversed", "reversing"}

// mergeWords are the words of merging.
var mergeWords = []string{"merge", "merged", "merging", "merges"}

// splitReach is how many words apart a word of splitting and "back" (or a
// word of undoing and one of merging) may be; splitNear how many apart a
// word of splitting and the name split in memory's words.
const (
	splitReach = 4
	splitNear  = 8
)

// splitBack reports whether a question's words (countWords) say that a
// merge was undone: a word of splitting with "back" or "apart" after it
// ("split X back into", "split them back apart"), or a word of undoing
// before one of merging ("undo merging", "reverted the merge"), or
// "unmerge".
func splitBack(ws []string) bool {
	for i, w := range ws {
		switch {
		case strings.HasPrefix(w, "unmerg"):
			return true
		case slices.Contains(splitWords, w):
			for _, v := range ws[i+1 : min(len(ws), i+1+splitReach)] {
				if v == "back" {
					return true
				}
			}
		case slices.Contains(undoWords, w):
			for _, v := range ws[i+1 : min(len(ws), i+1+splitReach)] {
				if slices.Contains(mergeWords, v) {
					return true
				}
			}
		}
	}
	return false
}

// keepWords say that a thing stayed as it was: "kept separate".
var keepWords = append([]string{"keeps", "leaves", "stay", "stays", "stayed", "remain", "remains", "remained"}, keepVerbs...)

// clauseJoins join a clause to the one before: a word of keeping does not
// reach past them.
var clauseJoins = []string{"and", "or", "but", "then", "while", "so"}

// keptSeparate reports whether a question's words (countWords) say that
// two things were kept apart rather than merged: a word of keeping and,
// within splitReach words, "separate" or "apart" ("why did we keep the
// text-selection hook separate instead of folding it into …"), not told
// as what was not done ("fold it in rather than keep the two separate").
func keptSeparate(ws []string) bool {
	for i, w := range ws {
		if !slices.Contains(keepWords, w) {
			continue
		}
		if i >= 2 && (ws[i-2] == "rather" && ws[i-1] == "than" || ws[i-2] == "instead" && ws[i-1] == "of") {
			continue
		}
		for _, v := range ws[i+1 : min(len(ws), i+1+splitReach+1)] {
			if v == "separate" || v == "apart" {
				return true
			}
			if slices.Contains(clauseJoins, v) {
				break // "keep render/1 and add a separate path" keeps nothing apart
			}
		}
	}
	return false
}

// splitClaim gives what a question's words (countWords) say of two
// things merged once: "a merge undone" (splitBack), "things kept apart"
// (keptSeparate), or "".
func splitClaim(ws []string) string {
	switch {
	case splitBack(ws):
		return "a merge undone"
	case keptSeparate(ws):
		return "things kept apart"
	}
	return ""
}

// holdsSplitBack reports whether memory holds a split of one of names
// (the code a question names), or, when it names none, a merge undone:
// read in the records holding a word of splitting or undoing, up to
// claimScan of them (past that it cannot tell, and holds).
func (ix *Index) holdsSplitBack(names []codeName, tok *tokenizer) bool {
	read := 0
	if len(names) == 0 {
		merges := stemsOfWords(mergeWords, tok)
		for _, m := range stemsOfWords(undoWords, tok) {
			for at, d := range ix.docsHoldingWith(m, merges) {
				if read++; read > claimScan {
					return true
				}
				ws := countWords(ix.docText(at, d))
				for i, w := range ws {
					if slices.Contains(undoWords, w) && slices.ContainsFunc(ws[i+1:min(len(ws), i+1+splitReach)], func(v string) bool { return slices.Contains(mergeWords, v) }) {
						return true
					}
				}
			}
		}
		return ix.df(tok.stem("unmerge")) > 0 || ix.toldKeptApart(tok)
	}
	splits := stemsOfWords(splitWords, tok)
	for _, n := range names {
		_, term := ix.phrase(termWords(n.forms[len(n.forms)-1], tok))
		if term == "" {
			return true // judged as a name memory never saw
		}
		for at, d := range ix.docsHoldingWith(term, splits) {
			if read++; read > claimScan {
				return true
			}
			ws := countWords(ix.docText(at, d))
			for i, w := range ws {
				if n.heldBy(w) && slices.ContainsFunc(ws[max(0, i-splitNear):min(len(ws), i+splitNear+1)], func(v string) bool { return slices.Contains(splitWords, v) }) {
					return true
				}
			}
		}
	}
	return false
}

// splitNames gives the names of code a question gives (codeNameOf).
func splitNames(fields []string) []codeName {
	var out []codeName
	for _, f := range fields {
		if n, ok := codeNameOf(codeWord(f)); ok && !slices.ContainsFunc(out, func(o codeName) bool { return o.as == n.as }) {
			out = append(out, n)
		}
	}
	return out
}

// Merges told the other way round. A question may say which of two things
// was merged into the other: "why did we merge the TranscriptHighlighter
// hook into TranscriptSelection". Memory that saw the merge tells it with
// a word of merging, the one merged first and the one it went into after
// "into"; memory that tells it only the other way round ("merge
// TranscriptSelection into TranscriptHighlighter") saw the other merged
// (a helper asked why the hooks were merged the wrong way round; the
// answerable questions that say which went into which say it memory's
// way). Merges memory never tells are not judged here.

// mergeInto is a merge a question states: what was merged, and into what.
type mergeInto struct{ what, into codeName }

// mergeReach is how many words after its verb what was merged may come,
// and after it "into" and the name it went into.
const mergeReach = 4

// mergesInto gives the merges a question's fields state: a word of
// merging, a name of code, "into" and another.
func mergesInto(fields []string) []mergeInto {
	nameIn := func(from int) (codeName, int) {
		for j := from; j < len(fields) && j < from+mergeReach; j++ {
			if n, ok := codeNameOf(codeWord(fields[j])); ok {
				return n, j
			}
			if strings.ContainsAny(fields[j], ",;?") {
				break
			}
		}
		return codeName{}, -1
	}
	var out []mergeInto
	for i, f := range fields {
		if !slices.Contains(mergeWords, strings.ToLower(codeWord(f))) {
			continue
		}
		what, at := nameIn(i + 1)
		if at < 0 {
			continue
		}
		for k := at + 1; k < len(fields) && k <= at+mergeReach; k++ {
			if strings.EqualFold(fields[k], "into") {
				if into, to := nameIn(k + 1); to >= 0 && into.as != what.as {
					out = append(out, mergeInto{what, into})
				}
				break
			}
		}
	}
	return out
}

// holdsMerge reports whether memory tells the merge as the question does,
// or never tells it the other way round.
func (ix *Index) holdsMerge(m mergeInto, tok *tokenizer) bool {
	_, a := ix.phrase(termWords(m.what.forms[len(m.what.forms)-1], tok))
	_, b := ix.phrase(termWords(m.into.forms[len(m.into.forms)-1], tok))
	if a == "" || b == "" {
		return true // judged as names memory never saw
	}
	told := func(ws []string, first, then func(string) bool) bool {
		for i, w := range ws {
			if !slices.Contains(mergeWords, w) {
				continue
			}
			for j := i + 1; j < len(ws) && j <= i+mergeReach; j++ {
				if !first(ws[j]) {
					continue
				}
				for k := j + 1; k < len(ws) && k <= j+mergeReach; k++ {
					if ws[k] == "into" {
						return slices.ContainsFunc(ws[k+1:min(len(ws), k+1+mergeReach)], then)
					}
				}
			}
		}
		return false
	}
	reversed, read := false, 0
	for at, d := range ix.docsHoldingWith(a, []string{b}) {
		if read++; read > claimScan {
			return true
		}
		ws := countWords(ix.docText(at, d))
		switch {
		case told(ws, m.what.heldBy, m.into.heldBy):
			return true
		case told(ws, m.into.heldBy, m.what.heldBy):
			reversed = true
		}
	}
	return !reversed
}

// toldKeptApart reports whether a record of memory says things were kept
// apart (a word of keeping, then "separate" or "apart"), or it cannot
// tell: past claimScan records.
func (ix *Index) toldKeptApart(tok *tokenizer) bool {
	keeps := stemsOfWords(keepWords, tok)
	read := 0
	for _, apart := range []string{"separate", "apart"} {
		for at, d := range ix.docsHoldingWith(tok.stem(apart), keeps) {
			if read++; read > claimScan {
				return true
			}
			if keptSeparate(countWords(ix.docText(at, d))) {
				return true
			}
		}
	}
	return false
}

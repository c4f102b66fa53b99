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

// breakWords break a thing apart: "break the one hook apart into two".
var breakWords = []string{"break", "breaking", "breaks", "broke", "broken"}

// apartReach is how many words after a word of breaking "apart" may come
// ("break the one transcript JS hook apart").
const apartReach = 6

// splitBack reports whether a question's words (countWords) say that a
// merge was undone: a word of splitting with "back" or "apart" after it
// ("split X back into", "split them back apart"), or a word of undoing
// before one of merging or folding ("undo merging", "reverted the merge",
// "undo folding X back out of Y"), or "unmerge"; or that a thing was
// broken apart ("break the one hook apart into a separate …": never65
// asked why the hooks memory merged were broken apart again).
func splitBack(ws []string) bool {
	for i, w := range ws {
		switch {
		case strings.HasPrefix(w, "unmerg"):
			return true
		case slices.Contains(breakWords, w):
			// A thing between: "the layout broke apart" broke nothing.
			if i+2 < len(ws) && slices.Contains(ws[i+2:min(len(ws), i+1+apartReach)], "apart") {
				return true
			}
		case slices.Contains(splitWords, w):
			for _, v := range ws[i+1 : min(len(ws), i+1+splitReach)] {
				if v == "back" {
					return true
				}
			}
		case slices.Contains(undoWords, w):
			for _, v := range ws[i+1 : min(len(ws), i+1+splitReach)] {
				if slices.Contains(foldWords, v) {
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

// keptReach is how many words after a word of keeping the thing kept may
// be told, up to "instead of" folding it ("keep the JS hook that captures
// the text you highlight in the transcript as its own hook instead of
// folding it into …").
const keptReach = 20

// keptSeparate reports whether a question's words (countWords) say that
// two things were kept apart rather than merged: a word of keeping and,
// within splitReach words, "separate" or "apart" ("why did we keep the
// text-selection hook separate instead of folding it into …"), or, within
// keptReach words, "instead of" or "rather than" a word of folding; not
// told as what was not done ("fold it in rather than keep the two
// separate").
func keptSeparate(ws []string) bool {
	for i, w := range ws {
		if !slices.Contains(keepWords, w) {
			continue
		}
		if i >= 2 && (ws[i-2] == "rather" && ws[i-1] == "than" || ws[i-2] == "instead" && ws[i-1] == "of") {
			continue
		}
		for k, v := range ws[i+1 : min(len(ws), i+1+keptReach)] {
			if (v == "separate" || v == "apart") && k <= splitReach {
				return true
			}
			if j := i + 1 + k; j+2 < len(ws) && (v == "instead" && ws[j+1] == "of" || v == "rather" && ws[j+1] == "than") {
				return slices.Contains(foldWords, ws[j+2])
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
// merging or folding (fold, combine), a name of code, "into" and another.
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
		if !slices.Contains(foldWords, strings.ToLower(codeWord(f))) {
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

// Merges told in words. A question may tell the things merged by what
// they do: "why did we fold the code-coloring JS hook into the
// text-selection hook instead of the other way round". Each of its two
// phrases stands for the one of memory's two names whose own words it
// holds, or their thesaurus synonyms, more than the other's: memory that
// tells only the merge the other way round ("merge TranscriptSelection
// into TranscriptHighlighter") saw the other merged (never49). Phrases
// that stand for neither name, or for both alike, are not judged.

// foldWords are the words of merging a question tells in words.
var foldWords = append([]string{"combine", "combined", "combining", "fold", "folded", "folding", "folds"}, mergeWords...)

// phraseEnds end the phrase of what something was merged into.
var phraseEnds = []string{"and", "because", "for", "instead", "rather", "so", "to", "when", "while", "with"}

// plainMerge is a merge a question tells in words: the stems of the words
// of what was merged and of what it went into.
type plainMerge struct{ what, into []string }

// plainMerges gives the merges a question's fields tell in words: a word
// of merging, a few words, "into" and a few more, none a name of code
// (mergesInto judges those).
func plainMerges(fields []string, tok *tokenizer) []plainMerge {
	var out []plainMerge
	for i, f := range fields {
		if !slices.Contains(foldWords, strings.ToLower(codeWord(f))) || strings.ContainsAny(f, ",;?.") {
			continue
		}
		var what, into []string
		k := i + 1
		for ; k < len(fields) && k <= i+mergeReach+2 && !strings.EqualFold(fields[k], "into"); k++ {
			what = append(what, fields[k])
		}
		if k >= len(fields) || !strings.EqualFold(fields[k], "into") {
			continue
		}
		for j := k + 1; j < len(fields) && j <= k+mergeReach; j++ {
			w := fields[j]
			if slices.Contains(phraseEnds, strings.ToLower(w)) {
				break
			}
			into = append(into, w)
			if strings.ContainsAny(w, ",;?.!") {
				break
			}
		}
		if m, ok := plainMergeOf(what, into, tok); ok {
			out = append(out, m)
		}
	}
	return out
}

// plainMergeOf gives the stems of two phrases' words, or false when a
// phrase is empty or a name of code stands in it.
func plainMergeOf(what, into []string, tok *tokenizer) (plainMerge, bool) {
	stems := func(ws []string) ([]string, bool) {
		var out []string
		for _, w := range ws {
			if _, ok := codeNameOf(codeWord(w)); ok {
				return nil, false
			}
			for part := range strings.SplitSeq(strings.ToLower(codeWord(w)), "-") {
				if part != "" && !isStop(part) && !slices.Contains(placeArticles, part) {
					out = append(out, tok.stem(part))
				}
			}
		}
		return out, len(out) > 0
	}
	a, okA := stems(what)
	b, okB := stems(into)
	return plainMerge{a, b}, okA && okB
}

// holdsPlainMerge reports whether memory tells the merge as the question
// does, or never tells it the other way round; past claimScan records of
// merging it cannot tell.
func (ix *Index) holdsPlainMerge(m plainMerge, tok *tokenizer) bool {
	reversed, read := false, 0
	for at, d := range ix.docsHolding(tok.stem("merge")) {
		if read++; read > claimScan {
			return true
		}
		for _, told := range mergesInto(strings.Fields(ix.docText(at, d))) {
			a, b := nameStems(told.what.as, tok), nameStems(told.into.as, tok)
			whatA, whatB := phraseScore(m.what, a), phraseScore(m.what, b)
			intoA, intoB := phraseScore(m.into, a), phraseScore(m.into, b)
			switch {
			case whatA > whatB && intoB > intoA:
				return true
			case whatB > whatA && intoA > intoB:
				reversed = true
			}
		}
	}
	return !reversed
}

// nameStems gives the stems of a name's words (TranscriptSelection:
// transcript, select).
func nameStems(name string, tok *tokenizer) []string {
	var out []string
	tok.each(name, func(t string) {
		if !tok.whole && !slices.Contains(out, t) {
			out = append(out, t)
		}
	})
	return out
}

// phraseScore scores how well a phrase's stems stand for a name's: two for
// each of its stems the name has, one for each the name has a thesaurus
// synonym of. A word both names share scores both alike.
func phraseScore(phrase, name []string) int {
	score := 0
	for _, s := range phrase {
		switch {
		case slices.Contains(name, s):
			score += 2
		case slices.ContainsFunc(synonyms(s), func(syn string) bool { return slices.Contains(name, syn) }):
			score++
		}
	}
	return score
}

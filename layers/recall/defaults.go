package recall

import (
	"slices"
	"strings"
)

// Defaults told the other way round. A question may say a thing is off
// until someone opts in: "why is tracing switched off unless you
// explicitly set SPOTTER_OTEL_ENABLED=true", "why does the tracing stay
// off unless somebody sets the opt-in flag". Memory that saw it so tells
// of opting in; memory that tells only of opting out of that thing ("Respect
// SPOTTER_OTEL_ENABLED environment variable for opt-out behavior") saw it
// on by default (five sets said the tracing was opt-in; the one answerable
// question asks which variable lets you opt out).

// optWays are the two ways a default is told, each with its words as
// memory writes them.
var optWays = map[string][]string{
	"opt-in":  {"opt-in", "opt in", "opt into", "opted in"},
	"opt-out": {"opt-out", "opt out", "opted out"},
}

// offUntil are the words that say a thing is off until it is turned on,
// before "unless" or "until".
var offUntil = []string{"disabled", "inactive", "off"}

// optTold gives the way a question's words (countWords) say a thing's
// default is told: "opt-in" for opting in or a thing off unless turned
// on, "opt-out" for opting out; "" for neither or both.
func optTold(ws []string) string {
	text := " " + strings.Join(ws, " ") + " "
	told := func(way string) bool {
		return slices.ContainsFunc(optWays[way], func(p string) bool { return strings.Contains(text, " "+p+" ") })
	}
	in, out := told("opt-in"), told("opt-out")
	for i := 1; i < len(ws); i++ {
		if (ws[i] == "unless" || ws[i] == "until") && slices.Contains(offUntil, ws[i-1]) {
			in = true
		}
	}
	switch {
	case in && !out:
		return "opt-in"
	case out && !in:
		return "opt-out"
	}
	return ""
}

// holdsOptWay reports whether memory tells the way a question says, of a
// thing the question names, or cannot tell: it holds false only where
// the records holding a word of opting that tell of the thing (hold one
// of the question's terms, subject) tell it only the other way. A record
// telling the question's way of anything sharing a term holds it: the
// check errs toward an answer. Past claimScan such records it holds.
func (ix *Index) holdsOptWay(way string, subject []string, tok *tokenizer) bool {
	other := "opt-in"
	if way == "opt-in" {
		other = "opt-out"
	}
	toldOther, read := false, 0
	for at, d := range ix.docsHolding(tok.stem("opt")) {
		if read++; read > claimScan {
			return true
		}
		text := strings.ToLower(ix.docText(at, d))
		terms := tok.terms(text)
		if !slices.ContainsFunc(subject, func(t string) bool { return slices.Contains(terms, t) }) {
			continue // not of the thing
		}
		has := func(w string) bool {
			return slices.ContainsFunc(optWays[w], func(p string) bool { return wordAt(text, p) >= 0 })
		}
		if has(way) {
			return true
		}
		toldOther = toldOther || has(other)
	}
	return !toldOther
}

// optSubject gives the terms of what a question says is opted into or
// out of: its terms that memory holds in at most claimScan records (the
// name of the thing, its variable), less the words of opting and of being
// off, which every record of a default holds.
func (ix *Index) optSubject(text string, tok *tokenizer) []string {
	var out []string
	for _, t := range tok.terms(text) {
		if slices.Contains([]string{"opt", "unless", "disabl"}, t) || slices.Contains(out, t) || ix.df(t) == 0 || ix.df(t) > claimScan {
			continue
		}
		out = append(out, t)
	}
	return out
}

package recall

import (
	"slices"
	"strings"
)

// Options not taken. A question may say the project went with an option
// the agent offered the user: "why did we file the tooling beads under the
// 'spotter' rig", "why did we set up all four quality tools". Memory holds
// the offer (AskUserQuestion's options) and the answer; an option the
// user's answer did not take was not taken (the user answered "No rig",
// and "Credo + Dialyxir + mix_audit" over "All four"). A question names an
// option by its words side by side, beside the noun the agent's question
// asked for ("Which rig …?": rig; "Which tools …?": tools): "spotter"
// alone, the project's name, names no rig.

// offer is an option the agent offered and the user's answer did not
// take, with the noun of what was asked for.
type offer struct {
	option []string // its words (countWords)
	noun   string   // the stem of what the question asked for
}

// offerReach is how many words from an option's words the noun of what
// was asked may stand ("all four quality tools", "the rig 'spotter'").
const offerReach = 2

// offerWords say that a question asks of the offer itself, which memory
// holds: "why did the agent suggest the spotter rig".
var offerWords = []string{"offer", "offered", "option", "options", "propose", "proposed", "recommend", "recommended", "suggest", "suggested"}

// concessions before an option grant it as what was not done: "why isn't
// Sobelow in the epic even though the research said all four tools could
// be added".
var concessions = []string{"although", "though"}

// untakenOffers gives the options memory's AskUserQuestion calls offered
// that the answers did not take, and the answers themselves, of the calls
// that hold two of the question's terms (an option's word and the noun
// asked for, or the answer named): the others are not read, a project's
// hundreds of calls costing the prompt hook milliseconds. Past claimScan
// calls it reads no more.
func (ix *Index) untakenOffers(terms []string, tok *tokenizer) (offers []offer, answers []string) {
	shared := map[docRef]int{}
	for _, t := range terms {
		for at := range ix.docsHoldingWith("askuserquestion", []string{t}) {
			shared[at]++
		}
	}
	read := 0
	for at, d := range ix.docsHolding("askuserquestion") {
		if shared[at] < 2 {
			continue
		}
		if read++; read > claimScan {
			break
		}
		f, _ := ix.l1Record(at, d)
		if d.Kind != kindTool || f.tool != "AskUserQuestion" {
			continue
		}
		answered, asked := splitAsked(f.res)
		said := quotedAnswers(answered)
		answers = append(answers, said...)
		var nouns []string
		for q := range strings.SplitSeq(asked, "\n") {
			if n := askedNoun(countWords(q), tok); n != "" {
				nouns = append(nouns, n)
			}
		}
		options, _ := strings.CutPrefix(f.arg, "options: ")
		for opt := range strings.SplitSeq(options, "; ") {
			if i := strings.IndexByte(opt, '('); i > 0 {
				opt = opt[:i] // "All four (Recommended)"
			}
			ws := countWords(opt)
			if len(ws) == 0 || slices.ContainsFunc(said, func(a string) bool { return takes(a, ws, tok) }) {
				continue
			}
			for _, n := range nouns {
				offers = append(offers, offer{ws, n})
			}
		}
	}
	return offers, answers
}

// quotedAnswers gives the answers an AskUserQuestion's result quotes.
func quotedAnswers(answered string) []string {
	var out []string
	for i, part := range strings.Split(answered, `"`) {
		if i%2 == 1 && strings.TrimSpace(part) != "" {
			out = append(out, part)
		}
	}
	return out
}

// askedNoun gives the stem of what a question of the agent's asked for:
// the word after its "which" or "what" ("Which rig do these beads belong
// to?"), or "".
func askedNoun(ws []string, tok *tokenizer) string {
	for i, w := range ws {
		if (w == "which" || w == "what") && i+1 < len(ws) && !isStop(ws[i+1]) {
			return tok.stem(ws[i+1])
		}
	}
	return ""
}

// takes reports whether an answer takes an option: it holds half the
// option's words or more ("main was clean; fix the issues" takes "Fix
// pre-existing issues"). An option of function words alone ("All") is
// taken by no answer; a question naming the answer is not judged.
func takes(answer string, option []string, tok *tokenizer) bool {
	aw := countWords(answer)
	held, all := 0, 0
	for _, w := range option {
		if isStop(w) {
			continue
		}
		all++
		if slices.ContainsFunc(aw, func(a string) bool { return tok.stem(a) == tok.stem(w) }) {
			held++
		}
	}
	return all > 0 && 2*held >= all
}

// untakenNamed gives the options a question's words say were taken that
// memory's answers did not take: an option's words side by side, with
// the noun asked for within offerReach words, no word of denying just
// before, and no answer named too.
func (ix *Index) untakenNamed(ws []string, tok *tokenizer) []string {
	if slices.ContainsFunc(ws, func(w string) bool { return slices.Contains(offerWords, w) }) {
		return nil
	}
	var terms []string
	for _, t := range tok.terms(strings.Join(ws, " ")) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	offers, answers := ix.untakenOffers(terms, tok)
	line := " " + strings.Join(ws, " ") + " "
	for _, a := range answers {
		if aw := countWords(a); len(aw) > 0 && strings.Contains(line, " "+strings.Join(aw, " ")+" ") {
			return nil // which was taken is asked
		}
	}
	var out []string
	for _, o := range offers {
		for i := 0; i+len(o.option) <= len(ws); i++ {
			if !slices.Equal(ws[i:i+len(o.option)], o.option) {
				continue
			}
			end := i + len(o.option)
			near := slices.Concat(ws[max(0, i-offerReach):i], ws[end:min(len(ws), end+offerReach)])
			name := strings.Join(o.option, " ")
			conceded := slices.ContainsFunc(ws[:i], func(w string) bool { return slices.Contains(concessions, w) })
			if !denied(ws, i, keepNegReach) && !conceded && slices.ContainsFunc(near, func(w string) bool { return tok.stem(w) == o.noun }) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

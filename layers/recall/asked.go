package recall

import (
	"slices"
	"strings"
)

// What the agent asked about. A question may say the agent asked the user
// something, told in the question's words: "when you asked me whether the
// agent_id bug should be its own bead", "what did the assistant ask me
// before it rewrote the migration". The agent asks rarely, and what it
// asked is in memory as it asked it: AskUserQuestion's questions and
// options, or a sentence of its text that ends with a question mark.
// Memory none of whose questions shares the question's words never saw
// it asked: the agent's one question in the fum session asked which rig
// the beads belong to, and shares "bead" with the agent_id one alone
// (four never-happened questions of the eval say the agent asked about
// something it never asked; no answerable one says the agent asked).
//
// So with what a question says the user asked for, wanted or chose, told
// in words ("why did I ask to bring back the dark background"): a prompt
// the user typed, or an answer of theirs, holds two of its words, or
// words of their thesaurus groups ("why the dev server wouldn't boot" is
// the user's "mix phx.server doesnt seem to start"). A helper agent's
// prompt is the agent's words. No answerable question of the eval is
// refused so; four never-happened ones are.

// askers are the words that name the agent as the one who asked.
var askers = []string{"agent", "assistant", "claude", "you"}

// askLeads are the words that say nothing of what was asked: between the
// verb and it ("asked me whether"), or in it ("it", "the").
var askLeads = []string{"about", "agent", "assistant", "before", "claude", "how", "if", "it", "me", "that", "the", "to", "us", "what", "whether", "which", "you"}

// addressees are whom a question says the user told something.
var addressees = []string{"agent", "assistant", "claude", "it", "the", "us", "you"}

// reported reports whether the verb at fields[verb] tells what the user
// reported, not asked for: "told the assistant the dev server wouldn't
// come up" retells a complaint loosely, as "said" does, where "told you
// to commit" asks.
func reported(fields []string, verb int) bool {
	if v := strings.ToLower(codeWord(fields[verb])); v != "tell" && v != "told" {
		return false
	}
	j := verb + 1
	for j < len(fields) && slices.Contains(addressees, strings.ToLower(codeWord(fields[j]))) && !endsClause(fields[j-1]) {
		j++
	}
	return j < len(fields) && strings.ToLower(codeWord(fields[j])) != "to"
}

// askedTopic is what a question says the agent asked the user, or the
// user asked for: as the question tells it, and its words as the index's
// terms.
type askedTopic struct {
	as    string
	terms []string
}

// askVerbs are the verbs of the agent asking.
var askVerbs = []string{"ask", "asked", "asking"}

// askedTopics gives what a question's fields say the agent asked the
// user, one for each asking.
func askedTopics(fields []string, tok *tokenizer) []askedTopic {
	return toldTopics(fields, askers, askVerbs, tok)
}

// userTopics gives what a question's fields say the user asked for,
// wanted or chose, told in words: "why did I ask to bring back the dark
// background".
func userTopics(fields []string, tok *tokenizer) []askedTopic {
	return toldTopics(fields, userSubjects, requestVerbs, tok)
}

// requestVerbs are the verbs of the user asking for something or choosing
// it, told in words. What a question says the user said ("the first time
// I said the dev server wouldn't come up") retells a complaint loosely,
// and is not judged.
var requestVerbs = slices.DeleteFunc(slices.Clone(sayVerbs), func(v string) bool { return v == "say" || v == "said" })

// toldTopics gives what a question's fields say one of speakers said
// with one of verbs, a few words after: the words of its clause after
// the leading words that say nothing of it.
func toldTopics(fields, speakers, verbs []string, tok *tokenizer) []askedTopic {
	var out []askedTopic
	for i, f := range fields {
		if !slices.Contains(speakers, strings.ToLower(codeWord(f))) || endsClause(f) || asksWay(fields, i) {
			continue
		}
		verb := -1
		for j := i + 1; j < len(fields) && j <= i+sayReach; j++ {
			if slices.Contains(passiveVerbs, strings.ToLower(fields[j])) || strings.EqualFold(fields[j], "been") {
				break // the speaker was asked: "a helper agent was asked about"
			}
			if slices.Contains(verbs, strings.ToLower(codeWord(fields[j]))) {
				verb = j
				break
			}
			if endsClause(fields[j]) {
				break
			}
		}
		if verb < 0 || endsClause(fields[verb]) || verb+1 < len(fields) && !slices.Contains(askLeads, strings.ToLower(codeWord(fields[verb+1]))) ||
			reported(fields, verb) {
			continue
		}
		// What was said runs to its clause's end, or to the question
		// asked of it ("… to do when the hook blocked the commit").
		var said []string
		for j := verb + 1; j < len(fields) && j <= verb+saidReach; j++ {
			w := strings.ToLower(codeWord(fields[j]))
			if fields[j] == "—" || fields[j] == "-" || slices.Contains(clauseEnds, w) && slices.ContainsFunc(said, func(s string) bool {
				return !slices.Contains(askLeads, strings.ToLower(codeWord(s)))
			}) {
				break
			}
			said = append(said, fields[j])
			if endsClause(fields[j]) {
				break
			}
		}
		var told []string
		for _, w := range said {
			if !slices.Contains(askLeads, strings.ToLower(codeWord(w))) {
				told = append(told, w)
			}
		}
		var topic []string
		for _, t := range tok.terms(strings.Join(told, " ")) {
			if !slices.Contains(topic, t) {
				topic = append(topic, t)
			}
		}
		if len(topic) > 0 {
			for len(said) > 1 && slices.Contains(askLeads, strings.ToLower(said[0])) {
				said = said[1:]
			}
			as := strings.TrimRight(strings.Join(said, " "), "?.,;:")
			out = append(out, askedTopic{as, topic})
		}
	}
	return out
}

// askedShared is how many of what was asked a question of the agent's
// must hold, at most.
const askedShared = 2

// holdsAskedAbout reports whether a question the agent asked in memory
// holds enough of topic's words (askedShared, or all of a shorter
// topic), or cannot tell.
func (ix *Index) holdsAskedAbout(topic []string, tok *tokenizer) bool {
	return ix.sharedBy(topic, tok, agentQuestions)
}

// sharedBy reports whether one of the texts that texts gives of an L1
// record holds enough of topic's words (askedShared, or all of a
// shorter topic), or cannot tell: as many of them as that are in too
// many records to read, and a text might share those alone.
func (ix *Index) sharedBy(topic []string, tok *tokenizer, texts func(doc, l1Fields) []string) bool {
	need := min(askedShared, len(topic))
	common := 0
	for _, t := range topic {
		if ix.df(t) > claimScan {
			common++
		}
	}
	if common >= need {
		return true
	}
	// A word is shared as it is, or as a word of its thesaurus group:
	// "the dev server wouldn't boot" is the user's "mix phx.server
	// doesnt seem to start".
	forms := make([][]string, len(topic))
	for i, t := range topic {
		forms[i] = groupTerms(t)
	}
	// The records read are those holding a word of the topic; of a
	// topic of a word or two, in any of its forms ("research": the
	// user's "websearch"). A longer topic read so is shared by chance.
	for i, fs := range forms {
		if len(topic) > 2 {
			fs = topic[i : i+1]
		}
		for _, t := range fs {
			if df := ix.df(t); df == 0 || df > claimScan {
				continue
			}
			for at, d := range ix.docsHolding(t) {
				if d.Layer != layerL1 {
					continue
				}
				f, _ := ix.l1Record(at, d)
				for _, q := range texts(d, f) {
					words, shared := tok.terms(q), 0
					for _, fs := range forms {
						if slices.ContainsFunc(fs, func(f string) bool { return slices.Contains(words, f) }) {
							shared++
						}
					}
					if shared >= need {
						return true
					}
				}
			}
		}
	}
	return false
}

// agentQuestions gives the questions an L1 record holds the agent asking
// the user: an AskUserQuestion call's questions and options, or the
// sentences of its text that end with a question mark.
func agentQuestions(d doc, f l1Fields) []string {
	switch {
	case d.Kind == kindTool && f.tool == "AskUserQuestion":
		_, asked := splitAsked(f.res)
		return []string{f.arg + "\n" + asked}
	case d.Kind == kindText && strings.Contains(f.text, "?"):
		var out []string
		for _, s := range splitSentences(f.text) {
			if strings.HasSuffix(strings.TrimSpace(s), "?") {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// holdsUserTold reports whether a prompt the user typed, or an answer of
// theirs to the agent's question, holds enough of topic's words
// (askedShared, or all of a shorter topic), or cannot tell.
func (ix *Index) holdsUserTold(topic []string, tok *tokenizer) bool {
	return ix.sharedBy(topic, tok, func(d doc, f l1Fields) []string {
		switch {
		case d.Kind == kindPrompt && f.agent == "" && !notTyped(f.text):
			// A helper agent's prompt is the agent's words.
			return []string{f.text}
		case d.Kind == kindTool && f.tool == "AskUserQuestion":
			answers, _ := splitAsked(f.res)
			return []string{answers}
		}
		return nil
	})
}

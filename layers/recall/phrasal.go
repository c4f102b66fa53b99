package recall

import (
	"slices"
	"strings"
)

// Phrasal verbs. A question says "when a conversation wraps up", "what
// kicks off the sync", "where long output gets cut off": a verb and its
// particle that together mean one word of the thesaurus (finish, start,
// truncate), while each alone means something else, or nothing (the
// particle is a stop word). The thesaurus holds single words, so these
// pairs are here: each gives the word it means, searched as a synonym of
// its verb. The verb and the word it means are written as the index
// stems them (TestPhrasalVerbsAreStems checks), so that a prompt stems
// none of them.
var phrasalVerbs = []phrasalVerb{
	{"back", "out", "revert"},
	{"blow", "up", "crash"},
	{"boot", "up", "start"},
	{"break", "down", "split"},
	{"chop", "off", "truncat"},
	{"clean", "up", "cleanup"},
	{"cut", "off", "truncat"},
	{"fall", "back", "fallback"},
	{"fall", "over", "crash"},
	{"figur", "out", "infer"},
	{"fill", "in", "popul"},
	{"fire", "off", "trigger"},
	{"hand", "out", "mint"},
	{"hook", "up", "connect"},
	{"kick", "in", "trigger"},
	{"kick", "off", "start"},
	{"leav", "out", "omit"},
	{"look", "up", "find"},
	{"phase", "out", "deprec"},
	{"pick", "up", "detect"},
	{"pull", "in", "import"},
	{"rip", "out", "remov"},
	{"roll", "back", "rollback"},
	{"set", "up", "configur"},
	{"shut", "down", "stop"},
	{"sign", "in", "login"},
	{"spin", "up", "start"},
	{"spit", "out", "output"},
	{"start", "up", "startup"},
	{"strip", "out", "remov"},
	{"stub", "out", "mock"},
	{"tear", "down", "teardown"},
	{"throw", "away", "discard"},
	{"time", "out", "timeout"},
	{"trim", "down", "truncat"},
	{"wire", "up", "connect"},
	{"work", "out", "infer"},
	{"wrap", "up", "finish"},
}

// phrasalVerb is a verb, its particle and the word they mean.
type phrasalVerb struct{ verb, particle, means string }

// phrasal is a phrasal verb a query holds: its verb's stem and the stem
// of the word it means.
type phrasal struct{ verb, means string }

// phrasalsOf gives the phrasal verbs of a query, its words side by side
// or hyphened ("sign-in").
func phrasalsOf(query string, tok *tokenizer) []phrasal {
	var words []string
	for f := range strings.FieldsSeq(strings.ToLower(query)) {
		for w := range strings.SplitSeq(f, "-") {
			words = append(words, strings.Trim(w, "`\"'()[]{},.;:?!"))
		}
	}
	var out []phrasal
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "" || !slices.ContainsFunc(phrasalVerbs, func(p phrasalVerb) bool { return p.particle == words[i+1] }) {
			continue
		}
		v := tok.stem(words[i])
		if k := slices.IndexFunc(phrasalVerbs, func(p phrasalVerb) bool { return p.verb == v && p.particle == words[i+1] }); k >= 0 {
			out = append(out, phrasal{verb: v, means: phrasalVerbs[k].means})
		}
	}
	return out
}

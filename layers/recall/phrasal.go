package recall

import (
	"strings"
	"sync"
)

// Phrasal verbs. A question says "when a conversation wraps up", "what
// kicks off the sync", "right before check-in": a verb and its particle
// that together mean one word of the thesaurus (end, start, commit),
// while each alone means something else, or nothing (the particle is a
// stop word). The thesaurus holds single words, so these pairs are here:
// each gives the word it means, searched as a synonym of its verb.
var phrasalVerbs = []struct{ verb, particle, means string }{
	{"back", "out", "revert"},
	{"blow", "up", "crash"},
	{"boot", "up", "start"},
	{"break", "down", "split"},
	{"chop", "off", "truncate"},
	{"clean", "up", "cleanup"},
	{"cut", "off", "truncate"},
	{"fall", "back", "fallback"},
	{"fall", "over", "crash"},
	{"fill", "in", "populate"},
	{"fire", "off", "trigger"},
	{"hook", "up", "connect"},
	{"kick", "in", "trigger"},
	{"kick", "off", "start"},
	{"leave", "out", "omit"},
	{"look", "up", "find"},
	{"phase", "out", "deprecate"},
	{"pick", "up", "detect"},
	{"pull", "in", "import"},
	{"rip", "out", "remove"},
	{"roll", "back", "rollback"},
	{"set", "up", "configure"},
	{"shut", "down", "stop"},
	{"sign", "in", "login"},
	{"spin", "up", "start"},
	{"spit", "out", "output"},
	{"start", "up", "startup"},
	{"strip", "out", "remove"},
	{"stub", "out", "mock"},
	{"tear", "down", "teardown"},
	{"throw", "away", "discard"},
	{"time", "out", "timeout"},
	{"trim", "down", "truncate"},
	{"wire", "up", "connect"},
	{"wrap", "up", "finish"},
}

// phrasalStems maps a phrasal verb's stem and particle ("wrap up") to the
// stem of the word it means, stemmed once.
var phrasalStems = sync.OnceValue(func() map[string]string {
	tok := newTokenizer()
	m := make(map[string]string, len(phrasalVerbs))
	for _, p := range phrasalVerbs {
		m[tok.stem(p.verb)+" "+p.particle] = tok.stem(p.means)
	}
	return m
})

// phrasal is a phrasal verb a query holds: its verb's stem and the stem
// of the word it means.
type phrasal struct{ verb, means string }

// phrasalsOf gives the phrasal verbs of a query, its words side by side
// or hyphened ("check-in").
func phrasalsOf(query string, tok *tokenizer) []phrasal {
	var words []string
	for f := range strings.FieldsSeq(strings.ToLower(query)) {
		for w := range strings.SplitSeq(f, "-") {
			words = append(words, strings.Trim(w, "`\"'()[]{},.;:?!"))
		}
	}
	var out []phrasal
	m := phrasalStems()
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "" || len(words[i+1]) > 4 {
			continue // particles are short
		}
		v := tok.stem(words[i])
		if means, ok := m[v+" "+words[i+1]]; ok {
			out = append(out, phrasal{verb: v, means: means})
		}
	}
	return out
}

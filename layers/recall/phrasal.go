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

// Things told by a phrasal verb: "back out the commit" is a revert, "roll
// back" a rollback, "sign in" a login. Memory that never holds the thing
// never did what the phrase tells (fresh89 asked why the syntax colouring
// commit was backed out; it never was).

// toldThing is a listed thing a query tells in other words: the words
// that tell it, the stem of their verb and their particle when they are a
// phrasal verb, and the stem of the thing.
type toldThing struct{ words, verb, particle, thing string }

// verbLeads come before a verb in its plain form: a subject (one of
// featurePeople), "did", a modal, "to", a word of denying.
var verbLeads = append([]string{
	"be", "been", "can", "could", "did", "do", "does", "get", "got", "i", "never", "not", "should", "they", "to", "was",
	"we", "were", "will", "would",
}, featurePeople...)

// toldThings gives the listed things a query tells by a phrasal verb: an
// inflected verb ("backed out", "rolled back"), or a plain one after a
// word that leads a verb ("did we back out"), and not before "of".
func toldThings(query string, tok *tokenizer) []toldThing {
	var out []toldThing
	ws := countWords(query)
	for i := 0; i+1 < len(ws); i++ {
		v := tok.stem(ws[i])
		if i+2 < len(ws) && ws[i+2] == "of" || ws[i] == v && (i == 0 || !slices.Contains(verbLeads, ws[i-1])) {
			// "split it back out of the worker", "ripped the cache
			// back out": "back" is no verb there.
			continue
		}
		if k := slices.IndexFunc(phrasalVerbs, func(p phrasalVerb) bool { return p.verb == v && p.particle == ws[i+1] }); k >= 0 && isThing(phrasalVerbs[k].means) {
			out = append(out, toldThing{ws[i] + " " + ws[i+1], v, ws[i+1], phrasalVerbs[k].means})
		}
	}
	// "Bring a closed note back to open", "flip it back into the open
	// list", "back to the active state": reopening it (fresh and never
	// sets asked four times how to reopen a note, which the app cannot
	// do).
	for i, w := range ws {
		j := i + 1
		if w != "back" || j >= len(ws) {
			continue
		}
		if ws[j] == "to" || ws[j] == "into" {
			j++
		}
		if j < len(ws) && ws[j] == "the" {
			j++
		}
		if j < len(ws) && (ws[j] == "open" || ws[j] == "active") {
			out = append(out, toldThing{words: strings.Join(ws[i:j+1], " "), thing: "reopen"})
		}
	}
	return out
}

// unknownTold gives the things a query tells (toldThings) that memory
// never holds, nor tells by the same phrasal verb ("Rolled back the
// migration"), by the words that tell them.
func (ix *Index) unknownTold(query string, out []string, tok *tokenizer) []string {
	var unknown []string
	for _, t := range toldThings(query, tok) {
		qw := []queryWord{{text: t.thing, stem: t.thing}}
		if !ix.seen(qw, tok) && !ix.seenKind(qw, tok) && (t.verb == "" || !ix.holdsPhrasal(t.verb, t.particle, tok)) && !slices.Contains(out, t.words) {
			unknown = append(unknown, t.words)
		}
	}
	return unknown
}

// holdsPhrasal reports whether a record of memory holds the verb (its
// stem) and its particle side by side; past claimScan records holding the
// verb it is taken as held.
func (ix *Index) holdsPhrasal(verb, particle string, tok *tokenizer) bool {
	return ix.anyHolding(verb, true, func(at docRef, d doc) bool {
		ws := countWords(ix.docText(at, d))
		for i := 0; i+1 < len(ws); i++ {
			if ws[i+1] == particle && tok.stem(ws[i]) == verb {
				return true
			}
		}
		return false
	})
}

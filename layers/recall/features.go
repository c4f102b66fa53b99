package recall

import (
	"slices"
	"strings"
)

// Features asked how to use. A question may ask how to do something with
// the app, as its user would: "how do I pin a single message in a
// conversation view", "how can I hand a teammate a read-only link to one
// of my conversations", "how do I permanently wipe an old conversation".
// Memory that built the feature, or did the thing, holds the question's
// verb (or a word of its thesaurus group) a few words from a word of what
// it acts on, in one record: "switch off … tracing", "start the dev
// server", "build the bundle". Memory that holds the verb and the thing
// only apart never saw it done (six sets asked how to freeze a live view,
// wipe a conversation, pin a message or share a read-only link, none of
// which the app can do; memory holds "view", "conversation" and "message"
// in hundreds of records, and "pause", "delete" and "link" in others).

// featureAsks open a question of how to use a feature, before its verb:
// "how do I", "how can you". "How do we" is left out: it asks how the
// project does a thing ("how do we guarantee only one tail worker runs"),
// which memory tells in its own words.
var featureAsks = []string{"do", "can", "could", "would", "should"}

// featureSubjects are who does the thing asked about.
var featureSubjects = []string{"i", "you"}

// lightVerbs mean little by themselves: what they do is told by their
// object or their particle ("mark a note as done", "bring a note back",
// "turn tracing off", "make the worker restart"), which memory tells with
// other verbs (close, reopen, disable). Verbs of asking ("find", "see",
// "check") ask for a thing memory holds, not a feature. They are not
// judged, nor are the verbs that are stop words ("get", "do").
var lightVerbs = []string{
	"avoid", "bring", "check", "ensure", "find", "give", "go", "keep", "know", "look", "make", "mark",
	"prevent", "put", "see", "set", "stop", "take", "tell", "turn", "use",
}

// particles make a phrasal verb of the verb just before them, whose
// meaning is not its verb's: "wrap up a review" is closing it, which
// memory tells as "Close review session" (six answerable questions of the
// eval call that button the one that "wraps up" a review). A phrasal verb
// is not judged.
var particles = []string{"around", "away", "back", "down", "in", "off", "on", "out", "over", "up"}

// objectParticles make a phrasal verb of the verb before its object
// when they follow it ("flip a closed note back", "switch the tracing
// off"); "drag notes around" is still dragging them.
var objectParticles = []string{"back", "down", "off", "out", "over", "up"}

// objectEnds end what a verb acts on: "pin a single message | in a
// conversation view".
var objectEnds = []string{
	"across", "after", "among", "and", "as", "at", "because", "before", "beneath", "between", "but", "by",
	"for", "from", "if", "in", "inside", "into", "like", "of", "on", "onto", "or", "so", "than", "that",
	"then", "through", "to", "under", "underneath", "using", "via", "when", "where", "which", "while", "with",
	"within", "without",
}

// featureReach is how many terms from the verb a word of its object may
// stand in memory's record ("switch the whole tracing bootstrap off").
const featureReach = 8

// maxObjectWords is the most words of an object that are looked for.
const maxObjectWords = 4

// feature is a thing a question asks how to do: its verb and the words of
// what it acts on.
type feature struct {
	verb   string
	object []string
}

func (f feature) String() string { return f.verb + " " + strings.Join(f.object, " ") }

// featurePeople are who a question says may do a thing with the app,
// after "let" or "allow" ("the box that lets me search …", "allows
// reviewers to reply …") or after "how do" ("how do people reply …").
var featurePeople = []string{
	"anyone", "colleagues", "everyone", "me", "others", "people", "reviewers", "someone", "teammates", "us",
	"users", "you",
}

// servedPeople are whom the app does a thing for, after its verb: "how
// does Spotter mail me".
var servedPeople = []string{"me", "us", "you"}

// featureLets are the verbs that give someone a feature: "the button that
// lets me …", "allows users to …".
var featureLets = []string{"allow", "allowed", "allowing", "allows", "enable", "enables", "let", "lets", "letting"}

// featurePreps stand between a verb and what it acts on ("search for a
// phrase", "reply to a note"): the object is read past them.
var featurePreps = []string{"across", "for", "on", "to", "through", "with"}

// askedFeatures gives the features a question asks how to use: the verb
// after "how do I" (past its adverbs), after "lets me" or "allows users
// to", after "how do people", or before a "me" the app does it for ("how
// does Spotter mail me …"), and the content words of its object, up to
// the first word that ends it. A light verb, or a verb with no object, is
// not judged; nor is what a denial says was not let ("git wouldn't let us
// stage it").
func askedFeatures(fields []string) []feature {
	var out []feature
	lower := func(i int) string { return strings.ToLower(strings.Trim(fields[i], "`\"'()[]{},;?!.:“”‘’*")) }
	ends := func(i int) bool { return strings.ContainsAny(fields[i][len(fields[i])-1:], ",;?!.:") }
	for i := 0; i+3 < len(fields); i++ {
		v := -1
		switch w := lower(i); {
		case w == "how" && slices.Contains(featureAsks, lower(i+1)) && slices.Contains(featureSubjects, lower(i+2)):
			v = i + 3
		case w == "how" && (lower(i+1) == "do" || lower(i+1) == "can") && slices.Contains(featurePeople, lower(i+2)) && !ends(i+2):
			v = i + 3
		case w == "how" && lower(i+1) == "does":
			// "how does Spotter mail me", "how does the dashboard
			// mail me": the verb is the word before the person.
			for k := i + 3; k < min(len(fields)-1, i+6) && !ends(k-1); k++ {
				if slices.Contains(servedPeople, lower(k+1)) {
					v = k
					break
				}
			}
		case slices.Contains(featureLets, w) && slices.Contains(featurePeople, lower(i+1)) && !ends(i+1) && !deniedBefore(fields, i):
			v = i + 2
			if lower(v) == "to" {
				v++
			}
		}
		if v < 0 {
			continue
		}
		for v < len(fields) && adverb(lower(v)) {
			v++
		}
		if v >= len(fields) {
			break
		}
		f := feature{verb: lower(v)}
		if !isAlpha(f.verb) || isStop(f.verb) || slices.Contains(lightVerbs, f.verb) {
			continue
		}
		if v+1 < len(fields) && slices.Contains(particles, lower(v+1)) {
			continue
		}
		start := v + 1
		if start < len(fields) && slices.Contains(featurePreps, lower(start)) {
			start++
		}
		if start+1 < len(fields) && (lower(start) == "each" && lower(start+1) == "other" || lower(start) == "one" && lower(start+1) == "another") {
			// "reply to each other underneath a note": what they do it
			// on follows.
			start += 2
			if start < len(fields) && !ends(start-1) && slices.Contains(objectEnds, lower(start)) {
				start++
			}
		}
		phrasal := false
		for j := start; j < len(fields) && !ends(j-1) && len(f.object) < maxObjectWords; j++ {
			w := lower(j)
			if slices.Contains(objectParticles, w) && (j+1 >= len(fields) || ends(j) || slices.Contains(objectEnds, lower(j+1))) {
				// The particle after the object: "flip a closed note
				// back to open" is reopening it.
				phrasal = true
				break
			}
			if slices.Contains(objectEnds, w) {
				break
			}
			if !isStop(w) {
				f.object = append(f.object, w)
			}
		}
		if len(f.object) > 0 && !phrasal {
			out = append(out, f)
		}
	}
	return out
}

// adverb reports whether w says how a verb is done ("permanently",
// "just"), standing between "how do I" and its verb.
func adverb(w string) bool {
	return strings.HasSuffix(w, "ly") && len(w) > 4 || slices.Contains([]string{"also", "actually", "ever", "just", "still"}, w)
}

// holdsFeature reports whether memory holds f's verb, or a word of its
// group, within featureReach terms of a word of its object (or of the
// object word's group), in one record; past claimScan records that hold
// both it is taken as held.
func (ix *Index) holdsFeature(f feature, tok *tokenizer) bool {
	verbs := groupTerms(tok.terms(f.verb)...)
	var things []string
	for _, w := range f.object {
		for _, t := range groupTerms(tok.terms(w)...) {
			if ix.df(t) > 0 && !slices.Contains(things, t) {
				things = append(things, t)
			}
		}
	}
	if len(things) == 0 {
		return false // memory never names what the verb acts on
	}
	read := 0
	seen := map[docRef]bool{}
	for _, v := range verbs {
		for at, d := range ix.docsHoldingWith(v, things) {
			if seen[at] {
				continue
			}
			seen[at] = true
			if read++; read > claimScan {
				return true
			}
			terms := tok.terms(ix.docText(at, d))
			for k, t := range terms {
				if !slices.Contains(verbs, t) {
					continue
				}
				for n := max(0, k-featureReach); n < min(len(terms), k+featureReach+1); n++ {
					if n != k && slices.Contains(things, terms[n]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// claimHolds reports whether one of the claims holds the feature's verb
// or a word of its object.
func claimHolds(claims []string, f feature) bool {
	for _, c := range claims {
		ws := strings.Fields(strings.ToLower(c))
		if slices.Contains(ws, f.verb) || slices.ContainsFunc(f.object, func(o string) bool { return slices.Contains(ws, o) }) {
			return true
		}
	}
	return false
}

// unknownFeatures gives the features a question asks how to use that
// memory never saw done. A feature verb (reopen, undo) was judged as a
// thing, and a feature whose words a claim already judged (out) holds was
// judged with it.
func (ix *Index) unknownFeatures(fields, out []string, tok *tokenizer) []string {
	var unknown []string
	for _, f := range askedFeatures(fields) {
		if !featureVerb(f.verb) && !claimHolds(out, f) && !ix.holdsFeature(f, tok) {
			unknown = append(unknown, f.String())
		}
	}
	return unknown
}

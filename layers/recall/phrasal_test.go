package recall

import (
	"slices"
	"strings"
	"testing"
)

// TestPhrasalsOf: a verb and its particle, side by side or hyphened, are
// the word they mean; the verb alone, or with another particle, is not.
func TestPhrasalsOf(t *testing.T) {
	tok := newTokenizer()
	for q, want := range map[string][]phrasal{
		"Which script fires when a conversation wraps up?": {{tok.stem("wraps"), tok.stem("finish")}},
		"right before the sign-in, what failed?":           {{tok.stem("sign"), tok.stem("login")}},
		"what kicks off the sync, and what spins up the worker?": {
			{tok.stem("kicks"), tok.stem("start")}, {tok.stem("spins"), tok.stem("start")}},
		"why does the wrapper wrap the command?": nil,
		// A pair prose uses in its own sense is left out.
		"what did the check in the guard test?": nil,
		"what is the log in the test?":          nil,
	} {
		if got := phrasalsOf(q, tok); !slices.Equal(got, want) {
			t.Errorf("phrasalsOf(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestPhrasalVerbFindsTheWordItMeans: "wraps up" finds the record saying
// a session finishes, not the one that wraps a command.
func TestPhrasalVerbFindsTheWordItMeans(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The wrapper script wraps the command in a login shell for the notifier."),
		say("notify-end.sh posts to the server when a session finishes."))...)
	hits := m.search("which script tells the server when a session wraps up?", Options{})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "notify-end.sh") {
		t.Errorf("first answer for a session that wraps up: %v", hits)
	}
}

// TestPhrasalVerbsAreStems: the table's verbs and meanings are written as
// the index stems them.
func TestPhrasalVerbsAreStems(t *testing.T) {
	tok := newTokenizer()
	for _, p := range phrasalVerbs {
		if tok.stem(p.verb) != p.verb || tok.stem(p.means) != p.means {
			t.Errorf("%q %q means %q: stems are %q and %q", p.verb, p.particle, p.means, tok.stem(p.verb), tok.stem(p.means))
		}
	}
}

// TestPhrasalThings: a listed thing told by a phrasal verb ("back out"
// for revert, "sign in" for login) is judged as the thing: held where
// memory holds the thing or the same phrasal verb, never seen otherwise.
// "Back" before "out of", or after an object ("ripped it back out"), is
// no such verb.
func TestPhrasalThings(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The ledger commit landed after the tests passed."),
		say("Rolled back the report migration and ran it again."),
		say("The export step runs inside the ledger worker."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"why did we back out the ledger commit?", []string{"back out"}},
		{"why was the ledger commit backed out?", []string{"backed out"}},
		{"How do people sign in to the ledger?", []string{"sign in"}},
		{"why was the report migration rolled back?", nil},
		{"Why did we back out of the ledger plan?", nil},
		// A phrasal verb whose meaning is no listed thing is not judged.
		{"Why did we stub out the ledger worker?", nil},
		{"Why did the ledger worker take the export step back out?", nil},
		// A note brought back to open is reopened.
		{"how do i flip a closed ledger note back to open?", []string{"back to open"}},
		{"How do I bring a ledger note back into the open list?", []string{"back into the open"}},
		{"How do I bring a done ledger note back to the active state?", []string{"back to the active"}},
		{"Why did the ledger worker come back after the tests passed?", nil},
	})
	reverted := newMemory(t)
	reverted.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Reverted the ledger commit: it broke the tests."),
		say("A closed ledger note can be reopened."))...)
	wantUnknown(t, reverted.open(), []unknownCase{
		{"why did we back out the ledger commit?", nil},
		{"how do i flip a closed ledger note back to open?", nil},
	})
}

package recall

import "testing"

// TestFeaturesAskedHowToUse: a question of how to do a thing with the
// app ("how do I pin a message") is held where one record holds its verb,
// or a word of the verb's group, a few words from a word of its object,
// or of the object's group; memory holding them only apart, in records
// of their own or far apart in one, never saw it done.
func TestFeaturesAskedHowToUse(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("To switch off tracing, start the server with SPOTTER_OTEL_ENABLED=false."),
		say("The tail worker can now pause the session feed when the socket drops."),
		say("The version of the parser is pinned in mix.exs."),
		say("Each message row shows its role and its time."),
		say("We wiped the build cache first, then read through the router, the endpoint, the channel modules and the supervision tree one by one before the old dashboard message went away."),
		bash("mix assets.build", 0, "Rebuilding the bundle: esbuild wrote priv/static/assets/app.js"),
		say("Users can share a link to the review page."),
		say("The label shows its colour."))...)
	wantUnknown(t, m.open(), []unknownCase{
		// The verb and its object apart: in records of their own, or
		// far apart in one.
		{"how do I pin a single message in a conversation view so I can jump back to it?", []string{"pin single message"}},
		{"How do I permanently wipe an old dashboard message row header?", []string{"wipe old dashboard message row"}},
		{"how do I pin the message row, dashboard first?", []string{"pin message row"}},
		{"how do I pin a zorbleflux?", []string{"pin zorbleflux"}},
		// A word of both groups is not near itself: tag is a label.
		{"how do I tag a label?", []string{"tag label"}},
		// Held: side by side, through the verb's group (freeze: pause)
		// or the object's (conversation: session).
		{"how do I switch tracing off when I start the server?", nil},
		{"How do I freeze the conversation?", nil},
		{"How do I rebuild the bundle by hand?", nil},
		{"How can I share a link to one review?", nil},
		// Not judged: a light verb, a phrasal verb, the project's own way
		// ("how do we"), a verb with no object.
		{"how do I bring a message row back?", nil},
		{"how can you pin down a message row?", nil},
		{"How do I wrap up the message row?", nil},
		{"how do we pin a message row?", nil},
		{"how do I pin it?", nil},
		{"how do I pin a message row back to the top?", nil},
		{"how do I pin a message row on the top?", []string{"pin message row"}},
		{"how do I pin message rows around to reorder them?", []string{"pin message rows around"}},
		// Asked as what the app lets someone do, or does for them: the
		// verb after "lets me", "allows users to", "how do people", or
		// before the "me" it is done for, read past a preposition and a
		// "to each other".
		{"Where is the box that lets me pin a single message?", []string{"pin single message"}},
		{"Which toggle allows reviewers to pin the message row?", []string{"pin message row"}},
		{"How do reviewers pin a message row?", []string{"pin message row"}},
		{"How does the dashboard beep me a message row digest?", []string{"beep message row digest"}},
		{"Where is the box that lets me search for a single message?", []string{"search single message"}},
		{"How do people chat to each other underneath a message row?", []string{"chat message row"}},
		{"Where is the code that lets you share a link to one review?", nil},
		{"How do people share a link to one review?", nil},
		{"How does the report let me pin a message row?", []string{"pin message row"}},
		// What a denial says was not let is no feature asked for.
		{"The report wouldn't let us pin the message row, why?", nil},
		// Who does it is one of people, not a thing (whose verb is not
		// known to follow it).
		{"How do report viewers pin a single message?", nil},
		{"Which setting lets the worker pin a message row?", nil},
	})
}

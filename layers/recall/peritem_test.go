package recall

import "testing"

// TestPerItem: a thing said to be made for every item is held where
// memory tells it so, refused where memory tells it only denied, and let
// be where memory tells it neither way.
func TestPerItem(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Now instrument the ReportChannel. I'll add spans for join and stream lifecycle without creating per-line spans."),
		say("The worker starts one process per session, with a retry for each batch."),
		say("We log a warning for every row the report drops."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why does the report channel open a separate tracing span for every line of output?", []string{"a span for each line"}},
		{"Why did we emit a span for every output line the report channel streams?", []string{"a span for each line"}},
		{"Why does the report channel open a span for each join?", nil},
		// A claim the question denies is none.
		{"Why didn't we record a span for every line of output?", nil},
		{"How is the report channel traced without flooding the trace with one span per line?", nil},
		{"Why does the report channel emit a span for every single line?", []string{"a span for each line"}},
		{"Why does the worker start a process per session?", nil},
		{"Why is there a retry for each batch?", nil},
		{"Why do we log a warning for every row the report drops?", nil},
		{"Why do we keep a cache entry for every row?", nil},
	})
	told := newMemory(t)
	told.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("We first did it without per-line spans."),
		say("Then the channel opened a span per line after all."))...)
	wantUnknown(t, told.open(), []unknownCase{
		{"Why does the report channel open a span for every line of output?", nil},
	})
}

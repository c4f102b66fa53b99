package recall

import "testing"

// TestCountChanges: a count a question says went from one number to
// another is held where memory writes the old before the new against
// what they count; the other way round it never happened, and numbers
// memory never writes together are not judged.
func TestCountChanges(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Removed the silent 5-line truncation, added a 10-line default before the expand button."),
		say("Report rows keep every line. A 2-line gap follows. Then a 9-line group."),
		say("The report shows 20 rows; it used to show 8-row pages."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"why did we raise the report's visible lines from 5 to 10?", nil},
		{"why did we cut the report's visible lines from 10 down to 5?", []string{"10-line to 5-line"}},
		{"why did the report cut from 10 visible lines back down to 5?", []string{"10-line to 5-line"}},
		{"why did the report go from 8 rows to 20?", nil},
		{"why did the report go from 20 rows to 8?", nil},
		{"why did the report go from 3 lines to 7?", nil},
		{"why did the groups go from 9 lines to 2?", nil},
	})

	// Never in one sentence: old before new by when memory first wrote
	// each against what it counts.
	run := func(ts, res string) map[string]any {
		r := bash("mix test 2>&1 | tail -3", 0, res)
		r["ts"] = ts
		return r
	}
	runs := newMemory(t)
	runs.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		run("2026-02-11T10:00:00Z", "14 doctests, 297 tests, 0 failures"),
		run("2026-02-11T11:00:00Z", "14 doctests, 309 tests, 0 failures"),
		run("2026-02-11T12:00:00Z", "14 doctests, 297 tests, 1 failure"))...)
	wantUnknown(t, runs.open(), []unknownCase{
		{"why did the test count go down from 309 to 297?", []string{"309-test to 297-test"}},
		{"why did the test count go up from 297 to 309?", nil},
		{"why did the number of tests go from 297 to 309?", nil},
		{"why did the test count go from 297 to 500?", nil},
	})
	// Whichever session memory reads first: a session imported from
	// another clone may hold older runs.
	clones := newMemory(t)
	clones.l1("2026-02-11_1000_aaaa1111", false, append(filler(5), run("2026-02-12T10:00:00Z", "14 doctests, 309 tests, 0 failures"))...)
	clones.l1("2026-02-11_1100_bbbb2222", false, append(filler(5),
		run("2026-02-10T10:00:00Z", "14 doctests, 309 tests, 0 failures"),
		run("2026-02-11T10:00:00Z", "14 doctests, 297 tests, 0 failures"))...)
	wantUnknown(t, clones.open(), []unknownCase{
		{"why did the test count go down from 309 to 297?", nil},
		{"why did the test count go up from 297 to 309?", []string{"297-test to 309-test"}},
	})
}

// TestWordChanges: a thing a question says went from one word to another
// is held where memory tells the change that way round, or never tells it
// the other way; told only the other way round it never happened.
func TestWordChanges(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash("git commit -m 'feat: rebuild the ledger panel\n\nReplace dark inline-styled ledger panel with semantic classes and\nlight surface theme'", 0, ""),
		say("The export now runs sync instead of async."),
		say("Moved the queue from memory to disk."),
		say("The ledger panel has a dark theme and a light theme."),
		say("Switched the cache from cold to warm."),
		say("Later switched the cache from warm back to cold."),
		say("Fixed by converting `report_span` from a `def` to a `defmacro` accepting `do: block`."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we switch the ledger panel from the dark theme to a light one?", nil},
		{"Why did the ledger panel go from the dark look over to a light one?", nil},
		{"Why did we switch the ledger panel from the light theme over to a dark one?", []string{"light to dark"}},
		{"Why did we flip the ledger panel from a light theme to a dark theme?", []string{"light to dark"}},
		{"Why did we change the export from async to sync?", nil},
		{"Why did we change the export from sync to async?", []string{"sync to async"}},
		{"Why did we move the queue from disk to memory?", []string{"disk to memory"}},
		{"Why did we move the queue from memory into disk?", nil},
		// A change memory tells both ways is held both ways.
		{"Why did we switch the cache from cold to warm?", nil},
		{"Why did we switch the cache from warm to cold?", nil},
		// The word it went to alone, after "over" or an article: held
		// where memory tells a change to it or none away from it.
		{"Why did we switch the ledger panel over to a dark look?", []string{"to dark"}},
		{"Why did we flip the ledger panel back to dark styling?", []string{"to dark"}},
		{"Why did we flip the ledger panel back to light styling?", nil},
		// A comparative is its word; a colour scheme is the theme's.
		{"Where's the switch that flips the ledger panel over to a darker look?", []string{"to dark"}},
		{"Where is the light colour scheme of the ledger panel defined?", nil},
		{"Why did we switch the ledger panel to a light theme?", nil},
		{"Why did we change the export to an async job?", []string{"to async"}},
		{"Why did we change the export over to sync?", nil},
		{"Why did we change the export over to async?", []string{"to async"}},
		{"Why did we change the export to async?", nil},
		{"Why did we move the queue from disk over to memory?", []string{"disk to memory"}},
		{"Why did we switch the cache over to cold?", nil},
		// A keyword of code is the plain word it means, with an article
		// between "from" and it, the verb of changing further back.
		{"Why did we turn the span helper the report controllers use from a macro back into a plain function?", []string{"macro to function"}},
		{"Why did we convert report_span from a function into a macro?", nil},
		{"Why did report_span go from defmacro to def?", []string{"macro to function"}},
		{"Why did we rewrite report_span as a macro?", nil},
		// "off" one word "and onto" another is from and to.
		{"Why did we move the ledger panel off the light theme and onto a dark one?", []string{"light to dark"}},
		{"Why did we move the ledger panel off the dark theme and onto a light one?", nil},
		{"Why did we move the export onto an async job?", []string{"to async"}},
		{"What did we change to fix dark ledger rows?", nil},
		{"Why did we switch the ledger panel to a blue one?", nil},
		// Words memory never tells changing are not judged.
		{"Why did we switch the ledger panel from blue to green?", nil},
		{"Why did the ledger panel get a dark theme and a light theme?", nil},
	})
}

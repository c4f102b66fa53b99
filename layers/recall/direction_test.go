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
}

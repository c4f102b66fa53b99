package recall

import "testing"

// TestDefaultsToldTheOtherWay: a thing said to be off until someone opts
// in is held where memory tells of opting into it, and refused where it
// tells only of opting out of it; the same the other way round.
func TestDefaultsToldTheOtherWay(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Respect the TRACE_ENABLED environment variable for opt-out behavior."),
		say("Users opt in to the digest with REPORT_DIGEST=1."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why is tracing off unless you set TRACE_ENABLED=true?", []string{"opt-in"}},
		{"Why does tracing need an opt-in variable?", []string{"opt-in"}},
		{"Why can you opt out of the digest?", []string{"opt-out"}},
		// Told memory's way (or of a thing sharing a word with one told
		// so), both ways, or of a thing memory never tells a default of.
		{"Why is the report tracing off unless you set TRACE_ENABLED=true?", nil},
		{"Which variable lets you opt out of the tracing?", nil},
		{"Why is the digest off until you opt in?", nil},
		{"Is the tracing opt-in or opt-out?", nil},
		{"Why is the scroll off unless I opt in?", nil},
	})
}

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

// TestDefaultsSubjectIsNotACommonWord: a record of opting is of the thing a
// question names by a term memory holds in at most claimScan records; one
// sharing only a word of every other record (the report) is of no thing.
func TestDefaultsSubjectIsNotACommonWord(t *testing.T) {
	m := newMemory(t)
	var recs []map[string]any
	for i := range claimScan + 10 {
		recs = append(recs, say("The report renders step "+itoa(i)+"."))
	}
	recs = append(recs, say("Respect TRACE_ENABLED for opt-out behavior of the report."))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why is the report off unless you opt in?", nil},
		{"Why is TRACE_ENABLED off unless you opt in?", []string{"opt-in"}},
	})
}

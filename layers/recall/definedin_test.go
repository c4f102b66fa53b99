package recall

import "testing"

// TestDefinedIn: a name of code a question puts in a file is held where
// an edit of that file holds it, or memory names the file near it; held
// only in another file's edit, it was put there.
func TestDefinedIn(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		edit("lib/ledger_web/trace_helpers.ex", "+12 -0 defmacro with_ledger_span(name, do: block) do"),
		edit("lib/ledger/telemetry/otel.ex", "+3 -0 def setup do"),
		say("The lookup_report helper goes in report_view.ex, next to its caller."),
		edit("lib/ledger/report_view.ex", "+2 -0 def render(assigns)"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we put the with_ledger_span macro in lib/ledger_web/trace_helpers.ex?", nil},
		{"Why did we put the with_ledger_span macro in lib/ledger/telemetry/otel.ex?", []string{"with_ledger_span in otel.ex"}},
		{"Why was with_ledger_span defined in otel.ex rather than next to the controllers?", []string{"with_ledger_span in otel.ex"}},
		// Named near the file in words.
		{"Why did we put lookup_report in report_view.ex?", nil},
		// A file memory never holds is judged as a name.
		{"Why did we put with_ledger_span in span_tools.ex?", []string{"span_tools.ex"}},
	})
}

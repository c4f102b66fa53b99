package recall

import "testing"

// TestWorkModules: a module a question places in a piece of work is held
// where a session naming the work names it; a word written like a work
// ("per-line") that no command names is no work.
func TestWorkModules(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		bash("bd show report-a0y", 0, "report-a0y: live reports epic"),
		say("ReportRegistry sweeps stale reports every 15s."))...)
	m.l1("2026-02-12_1000_bbbb2222", false, append(filler(5),
		bash("bd show report-4te", 0, "report-4te: tracing epic"),
		say("TraceHelpers wraps each handler in a span; the per-line output is unchanged."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"In report-a0y, how did we set up the ReportRegistry sweep?", nil},
		{"Back in the report-4te tracing epic, how did we set up the ReportRegistry sweep?", []string{"ReportRegistry in report-4te"}},
		{"In report-4te, what did TraceHelpers wrap?", nil},
		{"How did the per-line output of ReportRegistry change?", nil},
	})
}

package recall

import "testing"

// TestWorkOrder: two tasks of an epic said to be done in an order are
// held where memory closed them in that order; memory that closed the
// second first never saw it, and a task it never closed cannot be told.
func TestWorkOrder(t *testing.T) {
	closeAt := func(ts, cmd string) map[string]any {
		r := bash(cmd, 0, "✓ Closed")
		r["ts"] = ts
		return r
	}
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Working on report-abc: the lookups epic. report-xyz.1 is the docs task; v1.2 is out."),
		closeAt("2026-02-11T10:05:00Z", "bd close report-abc.1 2>&1"),
		closeAt("2026-02-11T10:06:00Z", "bd close report-xyz.1"),
		closeAt("2026-02-11T10:20:00Z", "bd close report-abc.2 report-abc.4 --reason='done'"))...)
	m.l1("2026-02-12_1000_bbbb2222", false, append(filler(5),
		closeAt("2026-02-12T09:00:00Z", "git add -A && bd close report-abc.3 && git commit -m 'lookups (report-abc.3)'"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we do report-abc.1 before report-abc.3?", nil},
		{"Why did we build the lookups (abc.1) before the digest (abc.3)?", nil},
		{"Why did abc.3 come after abc.1?", nil},
		{"Why were abc.2 and abc.4 done before abc.3?", nil},
		{"Why did abc.2 go before abc.4?", nil},
		// The other way round.
		{"Why did we do report-abc.3 before report-abc.1?", []string{"report-abc.3 before report-abc.1"}},
		{"Why did we ship abc.3's digest ahead of abc.1's lookups?", []string{"abc.3 before abc.1"}},
		{"Why did abc.1 come after abc.3?", []string{"abc.3 before abc.1"}},
		// A task never closed cannot be told; tasks of two epics are not
		// ordered here, nor a task and a word that is none.
		{"Why did we do abc.5 before abc.1?", nil},
		{"Why did we do abc.3 before xyz.1?", nil},
		{"After closing report-abc.3, why did we reopen it before v1.2?", nil},
	})
}

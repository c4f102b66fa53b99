package recall

import "testing"

// closeAt is a command run at ts that closed what it names.
func closeAt(ts, cmd string) map[string]any {
	r := bash(cmd, 0, "✓ Closed")
	r["ts"] = ts
	return r
}

// TestWorkOrder: two tasks of an epic said to be done in an order are
// held where memory closed them in that order; memory that closed the
// second first never saw it, and a task it never closed cannot be told.
func TestWorkOrder(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Working on report-abc: the lookups epic. report-xyz.1 is the docs task; v1.2 is out."),
		closeAt("2026-02-11T10:05:00Z", "bd close report-abc.1 2>&1"),
		closeAt("2026-02-11T10:06:00Z", "bd close report-xyz.1"),
		closeAt("2026-02-11T10:20:00Z", "bd close report-abc.2 report-abc.4 --reason='done'"))...)
	m.l1("2026-02-12_1000_bbbb2222", false, append(filler(5),
		closeAt("2026-02-12T09:00:00Z", "git add -A && bd close report-abc.3 && git commit -m 'lookups (report-abc.3)'"),
		closeAt("2026-02-12T12:00:00Z", "bd close report-qrs.1 report-qrs.2"),
		closeAt("2026-02-12T12:30:00Z", "bd close report-qrs"))...)
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
		// Two epics: the first's work all closed after the other's was
		// never done first.
		{"Why did we build the lookups (report-abc) before we wrote the digest of the reports (report-qrs)?", nil},
		{"Why did we write the digest (report-qrs) before we finally built all the lookups for the reports (report-abc)?",
			[]string{"report-qrs before report-abc"}},
		{"Why did report-abc come after report-qrs?", []string{"report-qrs before report-abc"}},
		{"Why did we do report-xyz before report-abc?", nil},
		{"Why did we do report-abc before report-xyz?", nil},
		{"Why did we do report-abc before report-nop?", nil},
	})
}

// TestDependencies: a task said to depend on another of its epic is held
// where memory added that dependency, and refused where it added the
// other; without either, where memory closed the task depended on first.
func TestDependencies(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		bash("bd dep add report-abc.6 report-abc.5 && bd dep add report-abc.4 report-abc.3", 0, "✓ Added dependency: report-abc.6 depends on report-abc.5 (blocks)"),
		closeAt("2026-02-11T10:05:00Z", "bd close report-abc.1 2>&1"),
		closeAt("2026-02-11T10:20:00Z", "bd close report-abc.2 report-abc.4 --reason='done'"),
		closeAt("2026-02-12T09:00:00Z", "bd close report-abc.3"))...)
	wantUnknown(t, m.open(), []unknownCase{
		// Added so, even where the work was closed in another order.
		{"Why did report-abc.6 depend on report-abc.5?", nil},
		{"Why did abc.4 end up depending on abc.3?", nil},
		// Added the other way round.
		{"Why did report-abc.5 depend on report-abc.6?", []string{"report-abc.5 depends on report-abc.6"}},
		// Judged by the order the work was closed in.
		{"Why was abc.3 blocked until abc.1 was done?", nil},
		{"Why was abc.2 waiting for abc.1?", nil},
		{"Why was abc.1 blocked by abc.3?", []string{"abc.1 depends on abc.3"}},
		{"Why does abc.3 block abc.1?", []string{"abc.1 depends on abc.3"}},
		{"why does abc.1 (the lookups) wait on abc.3, the digest?", []string{"abc.1 depends on abc.3"}},
		// Denied, a task never closed nor depended on, no word after.
		{"Why wasn't abc.1 blocked by abc.3?", nil},
		{"Why did abc.7 depend on abc.1?", nil},
		{"Why was abc.1 blocked, and abc.3 closed?", nil},
	})
}

package recall

import "testing"

// TestFilesKept: a file said to be kept is held unless a command of
// memory deleted it and nothing wrote it again after.
func TestFilesKept(t *testing.T) {
	at := func(ts string, r map[string]any) map[string]any { r["ts"] = ts; return r }
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		at("2026-02-11T10:01:00Z", edit("priv/repo/migrations/20260211_add_lookups.exs", "+3 -0 create table(:lookups)")),
		at("2026-02-11T10:01:00Z", edit("priv/repo/migrations/20260211_add_reports.exs", "+3 -0 create table(:reports)")),
		at("2026-02-11T10:01:00Z", edit("docs/report_notes.md", "+1 -0 lookup")),
		at("2026-02-11T10:02:00Z", bash("rm priv/repo/migrations/20260211_add_lookups.exs && mix ash.codegen add_lookups", 0, "")),
		at("2026-02-11T10:03:00Z", bash("git rm -f docs/report_notes.md", 0, "rm 'docs/report_notes.md'")),
		at("2026-02-11T10:04:00Z", edit("docs/report_notes.md", "+1 -0 lookup again")),
		at("2026-02-11T10:05:00Z", bash("rm 20260211_add_reports.exs", 1, "rm: cannot remove '20260211_add_reports.exs': No such file or directory")),
		at("2026-02-11T10:06:00Z", edit(".lintignore", "+1 -0 lib/report.ex:12")),
		at("2026-02-11T10:07:00Z", bash("rm .lintignore", 0, "")),
		at("2026-02-11T10:08:00Z", edit(".tool-versions", "+1 -0 elixir 1.18")),
		at("2026-02-11T10:09:00Z", edit("config/report.json", "+1 -0 {}")),
		at("2026-02-11T10:10:00Z", edit("priv/repo/migrations/20260211_add_notes.exs", "+3 -0 create table(:notes)")),
		at("2026-02-11T10:11:00Z", bash("rm priv/repo/migrations/20260211_add_notes.exs", 0, "")),
		at("2026-02-11T10:12:00Z", edit("priv/repo/migrations/20260211_add_notes.exs", "+3 -0 create table(:notes)")),
		at("2026-02-11T10:13:00Z", bash("rm priv/repo/migrations/20260211_report.exs priv/repo/migrations/draft_add_reports.exs", 0, "")),
		at("2026-02-11T10:14:00Z", edit("priv/repo/migrations/20260211101400_add_rollups.exs", "+3 -0 create table(:rollups)")),
		at("2026-02-11T10:14:00Z", edit("priv/repo/migrations/20260211101401_add_tallies.exs", "+3 -0 create table(:tallies)")),
		at("2026-02-11T10:15:00Z", bash("rm priv/repo/migrations/20260211101400_add_rollups.exs", 0, "")))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we keep the hand-written 20260211_add_lookups.exs migration instead of the generated one?",
			[]string{"20260211_add_lookups.exs kept"}},
		{"Why did we leave priv/repo/migrations/20260211_add_lookups.exs in place?", []string{"20260211_add_lookups.exs kept"}},
		// A migration named without its extension, with or without
		// its timestamp; not a plain word.
		{"Why did we keep the hand-written add_lookups migration instead of the generated one?", []string{"add_lookups kept"}},
		{"Why did we keep the 20260211_add_lookups migration?", []string{"20260211_add_lookups kept"}},
		{"Why did we keep the add_reports migration?", nil},
		// A migration named by the timestamp its file opens with.
		{"Why did we keep our hand-written 20260211101400 rollups migration instead?", []string{"20260211101400 kept"}},
		{"Why did we keep the 20260211101401 tallies migration?", nil},
		{"Why didn't we keep the 20260211101400 migration?", nil},
		{"Why did we keep the add_notes migration?", nil},
		{"Why did we keep the lookups migration?", nil},
		{"Why did we keep the report migration?", nil},
		{"Why did we keep add_lookups in the report?", nil},
		// Denied, it is what memory saw.
		{"Why didn't we keep 20260211_add_lookups.exs?", nil},
		{"Why did we delete the generated migration instead of keeping 20260211_add_lookups.exs?", nil},
		// Written again after it was deleted, or never deleted: a failed
		// rm deletes nothing.
		{"Why did we keep report_notes.md?", nil},
		{"Why did we keep 20260211_add_reports.exs?", nil},
		// A dotfile is a file as any other (never49 asked why the
		// .dialyzerignore memory saw deleted was kept), not an
		// extension told alone.
		{"Why did we keep the .lintignore file in the repo?", []string{".lintignore kept"}},
		{"Why did we keep .tool-versions?", nil},
		{"Why did we keep the .ex files?", nil},
		// So is it said deleted.
		{"Why did we delete .lintignore?", nil},
		// An extension told alone is no dotfile: what removed it is
		// judged as a name taken out, not as a file deleted.
		{"Why did we delete the .json files?", []string{".json removed"}},
		{"Why did we delete the .tool-versions file?", []string{".tool-versions deleted"}},
	})
}

// TestCountsKept: a count said to be kept is held unless memory tells it
// removed and never kept.
func TestCountsKept(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Upgraded ReportRenderer: removed silent 5-line truncation, added 10-line default with expand groups."),
		say("Dropped the 30 rows limit from the export, then kept 30 rows for the preview."),
		say("The digest removes 12 lines of noise."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we keep the 5-line cap on the report's results?", []string{"5-line kept"}},
		{"Why did we keep the 10-line default?", nil},
		{"Why did we keep the 30 rows?", nil},
		{"Why didn't we keep the 5-line cap?", nil},
		{"Why did we remove the 5-line cap?", nil},
		{"Why did we keep a 7-line cap?", nil},
	})
}

package recall

import "testing"

// TestMigrationColumns: a column a question says a migration added to a
// table is held where a record of a migration holds the two, as written
// or in words of their groups; the two together elsewhere are no
// migration.
func TestMigrationColumns(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Write", "file": "priv/repo/migrations/20260211205820_add_state_to_reports.exs",
			"diff": "+27 -0 defmodule Report.Repo.Migrations.AddStateToReports do\n@moduledoc \"\"\"\nAdds state column to reports for open/closed lifecycle."},
		edit("lib/report_web/live/report_list_live.ex", "+3 -0 <th>Priority</th> for each of the reports"),
		say("The reports table on the list page now has a Priority column."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Which migration added the state column to the reports table?", nil},
		{"why was the migration that adds the open/closed status column to reports rewritten?", nil},
		{"Which migration added a priority column to the reports table?", []string{"priority column added to reports"}},
		{"when did we add a priority column to the reports table?", nil},
	})
}

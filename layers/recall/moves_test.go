package recall

import "testing"

// TestMovesRun: memory that ran a command moving a file holds where it
// went and where from; a move told the other way round, or the file said
// to be left where it was moved from, never happened.
func TestMovesRun(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Created scripts/build_report.sh and lib/report/checker_view.ex for the report."),
		bash("mkdir -p priv/scripts && mv scripts/build_report.sh priv/scripts/build_report.sh && rmdir scripts", 0, ""),
		bash("git mv lib/report/checker_view.ex lib/report_web/", 0, ""),
		say("The report and its scripts/ folder: scripts/lookup.sh reads priv/scripts/lookup.sh."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we move build_report.sh out of scripts/ into priv/scripts?", nil},
		{"Why was build_report.sh moved out of the top-level scripts/ directory?", nil},
		{"Why did build_report.sh get moved into priv/scripts/?", nil},
		{"Why did we put build_report.sh in priv/scripts?", nil},
		{"Where does build_report.sh live now, and why isn't it in the top-level scripts/ directory?", nil},
		{"Why did we move CheckerView into lib/report_web/?", nil},
		// The other way round.
		{"Why did we move build_report.sh out of priv/scripts into the top-level scripts/ folder?",
			[]string{"build_report.sh from priv/scripts in scripts/"}},
		{"Why was build_report.sh moved out of priv/scripts?", []string{"build_report.sh out of priv/scripts"}},
		{"Why did we leave build_report.sh in the repo-root scripts/ folder instead of putting it in priv/scripts?",
			[]string{"build_report.sh in scripts/"}},
		{"Why did CheckerView get moved back into lib/report/?", []string{"CheckerView in lib/report/"}},
		// A folder set at the root is that folder; one not set there may
		// be deeper down.
		{"Why did build_report.sh move to the root-level scripts/ folder?", []string{"build_report.sh in scripts/"}},
		{"Why did build_report.sh move to scripts/?", nil},
		// A file no command moved is held under its folder as before.
		{"Why did lookup.sh move into priv/scripts/?", nil},
		{"Why did lookup.sh move into lib/report/?", []string{"lookup.sh in lib/report/"}},
		// A file told in words is the file whose name its words join.
		{"Why did we move the build report shell script out of priv/scripts?", []string{"build_report out of priv/scripts"}},
		{"Why did we move the build report script into priv/scripts?", nil},
		{"Why did we move the build script out of priv/scripts?", nil},
		// A folder told in words is one of that name anywhere in a path;
		// a thing memory cannot name moved between two folders is held
		// unless memory moved things only the other way round.
		{"Why did the little report shell script get moved out of the app's priv folder into the top-level scripts/ directory?",
			[]string{"moved from priv in scripts/"}},
		{"Why did the report helper move from the priv dir up to the repo-root scripts folder?", []string{"moved from priv in scripts"}},
		{"Why did the little report shell script get moved out of the top-level scripts folder into the priv folder?", nil},
		{"Why did the report helper get moved out of the top-level scripts folder?", nil},
		{"Why did the checker view move from the report folder to the report_web folder?", nil},
		{"Why did the checker view move from the report_web folder to the report folder?", []string{"moved from report_web in report"}},
		{"Why did we move build_report.sh out of the top-level scripts folder into the priv folder?", nil},
		{"Why did we move build_report.sh out of the priv folder?", []string{"build_report.sh out of priv"}},
		{"Why did we move build_report.sh into the same folder as lookup.sh?", nil},
		{"Why did we move build_report.sh into the parent folder?", nil},
		{"Why did lookup.sh move into the report folder?", nil},
		// A folder holds its subfolders.
		{"Why did we move build_report.sh into priv/?", nil},
		{"Why did the checker view move from the report_web folder to the priv folder?", nil},
		// Where to may come five words past where from.
		{"What was the reason for moving the little report -x shell script out of priv/scripts into the top-level scripts/ folder?",
			[]string{"moved from priv/scripts in scripts/"}},
		{"What was the reason for moving the little report -x shell script out of the top-level scripts/ folder into priv/scripts?", nil},
	})
}

package recall

import "testing"

// TestVersions: a dependency's version is held where a record of L1 that
// names the dependency writes the version, whole or as a release of it.
func TestVersions(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		edit("mix.exs", `+1 -0 {:lazy_html, ">= 0.1.10", only: :test}`),
		bash("mix deps.get 2>&1", 0, "New:\n  lazy_html 0.1.10\n  floki_x 2.1.0"),
		bash("mix deps.update report_api 2>&1", 0, "Upgraded:\n  report_api 1.4.2"),
		say("Still compiling report_view; lookup_cache is next."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did mix deps.get pull lazy_html 0.1.10?", nil},
		{"Why did we add lazy_html at 0.1.10?", nil},
		{"When we bumped report_api to 1.4, what broke?", nil},
		{"Why did we pin report_api to 1.4.2?", nil},
		// A version memory never wrote with the dependency.
		{"Why did mix deps.get pull lazy_html 0.2.0?", []string{"lazy_html 0.2.0"}},
		{"Why did mix deps.get pull lazy_html 0.1.1?", []string{"lazy_html 0.1.1"}},
		{"When we bumped report_view to 1.2, what broke?", []string{"report_view 1.2"}},
		{"When did we move report_api from 1.4 to 1.3?", []string{"report_api 1.3"}},
		{"When we bumped report_api to 11.4, what broke?", []string{"report_api 11.4"}},
		{"Why did we add lazy_html at 1.10?", []string{"lazy_html 1.10"}},
		// A line of releases is held by any release of it.
		{"Which report_api 1.x release did we pin?", nil},
		{"Which report_api 2.x release did we pin?", []string{"report_api 2.x"}},
		{"Which lazy_html 1.x release did we pin?", []string{"lazy_html 1.x"}},
		{"Which lazy_html 0.x release did we pin?", nil},
		{"Which lazy_html 0.1.x release did we pin?", nil},
		// The version is written just after its dependency, not after
		// another's in the same record.
		{"Why did mix deps.get pull lazy_html 2.1?", []string{"lazy_html 2.1"}},
		{"Why did mix deps.get pull floki_x 2.1?", nil},
		// A number that is no dependency's version is not judged here.
		{"Why did lookup_cache take 2.5 seconds, and report_view 1.2 s?", nil},
		{"Why did the report take 2.5 seconds?", nil},
	})
}

// TestDowngrades: a dependency said to go back to an older release is
// held where memory tells of a downgrade or an older release, in its
// words; memory that tells of none saw none.
func TestDowngrades(t *testing.T) {
	none := newMemory(t)
	none.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		edit("mix.exs", `+1 -0 {:lazy_html, ">= 0.1.10", only: :test}`),
		say("Rolled back the report migration and ran it again."),
		say("The ledger view is the version we shipped."))...)
	wantUnknown(t, none.open(), []unknownCase{
		{"why did we have to roll the ledger library back to an older version before the tests would run?", []string{"a dependency downgraded"}},
		{"Why did we pin the ledger package back to the 10.x line?", []string{"a dependency downgraded"}},
		{"Why did we pin lazy_html back to 0.1.10?", []string{"a dependency downgraded"}},
		// Pinned near an older release, its name between.
		{"Which older ledger version did we pin to after the tests failed?", []string{"a dependency downgraded"}},
		{"Why did we pin the ledger package to the version we shipped?", nil},
		// Going back that is no release.
		{"Why did we roll the report migration back to run it again?", nil},
		{"Why did we move the ledger view back to the report?", nil},
		{"Why did we bring the ledger package back up at 1.2?", nil},
	})

	older := newMemory(t)
	older.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("The new release breaks the tests; let me go back to the previous version of the ledger package."))...)
	wantUnknown(t, older.open(), []unknownCase{
		{"why did we have to roll the ledger package back to an older version?", nil},
		{"Which older ledger version did we pin to?", nil},
	})
}

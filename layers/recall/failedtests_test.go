package recall

import "testing"

// TestFailedTests: a test said to fail is held where a command running it
// failed, or a record tells of its failure beside its name; not where its
// runs passed, a git command naming it failed, or a code error is told
// beside it.
func TestFailedTests(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		bash("mix test test/report_live_test.exs 2>&1 | tail -5", 1, "12 tests, 1 failure"),
		bash("mix test test/lookup_test.exs 2>&1 | tail -5", 0, "10 tests, 0 failures"),
		bash("git add test/digest_test.exs lib/digest.ex", 1, "The following paths are ignored by one of your .gitignore files"),
		say("Created test/digest_test.exs - fixed multiple compile errors along the way."),
		say("checker_view_test.exs fails because the fixture has no rows."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did report_live_test.exs fail on its first run?", nil},
		{"Why did ReportLiveTest fail?", nil},
		{"Why did checker_view_test.exs fail?", nil},
		{"Why did lookup_test.exs fail on its first run?", []string{"lookup_test.exs failed"}},
		{"What made LookupTest fail?", []string{"lookup_test failed"}},
		{"What made digest_test.exs fail the first time?", []string{"digest_test.exs failed"}},
		{"Why didn't lookup_test.exs fail?", nil},
		{"Which test in lookup_test.exs checks the cache?", nil},
	})
}

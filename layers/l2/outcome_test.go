package l2

import "testing"

// TestOutcomeIsAStatement: an exchange's outcome is the assistant's last
// text that states something. A plan, a progress note or a question is
// passed over for an earlier statement; an acknowledgement is dropped; a
// plan after a short statement is not joined to it.
func TestOutcomeIsAStatement(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  string
	}{
		{[]string{"All 7 tasks are closed. Let me close the epic:"}, "All 7 tasks are closed."},
		{[]string{"Good - the duplicate helpers are now unused since the shared component handles them."}, "The duplicate helpers are now unused since the shared component handles them."},
		{[]string{"The pre-commit hook rejects the commit because mix format was not run.", "Still compiling test dependencies (first time compilation)."}, "The pre-commit hook rejects the commit because mix format was not run."},
		{[]string{"Let me mark this task as in progress:"}, ""},
		{[]string{"Should I also update the docs?"}, ""},
		{[]string{"Done. The retry wraps the upload in three attempts."}, "Done. The retry wraps the upload in three attempts."},
	} {
		if got := outcomeOf(c.texts); got != c.want {
			t.Errorf("outcomeOf(%q) = %q, want %q", c.texts, got, c.want)
		}
	}
}

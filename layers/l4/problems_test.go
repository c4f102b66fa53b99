package l4

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
	"github.com/memkeep/memkeep/layers/l3"
)

// TestRecurringProblemBehindAnother: a problem that recurs in three
// sessions becomes a solution when it is not the first problem of its
// exchanges, and when the command that met it named other files each
// time. The exchanges' first problems, alike too, make a solution of
// their own, with another id. Reflecting again changes nothing.
func TestRecurringProblemBehindAnother(t *testing.T) {
	var sessions []*l2.File
	for i, files := range []string{
		"lib/shop_web/live/cart_live.ex lib/shop_web/components/layouts/root.html.heex priv/…",
		"lib/billing/invoice_renderer.ex lib/billing_web/live/invoice_live.ex test/billing/…",
		".beads/issues.jsonl assets/js/app.js lib/accounts/session_token.ex lib/accounts_web…",
	} {
		sid := fmt.Sprintf("%08d", i+1)
		base := "2026-02-1" + fmt.Sprint(i+1) + "_1000_" + sid
		e := l2.Exchange{
			ID:           l2.MakeID("x", base, "sub:1"),
			Source:       l2.Subconscious,
			Significance: 0.7,
			Files:        []string{"lib/a.ex"},
			Created:      fmt.Sprintf("2026-02-1%dT10:00:00Z", i+1),
			Problem:      "`mix format --check-formatted` exited 1: lib/a.ex is not formatted",
			Fix:          "`mix format` passed",
			MoreProblems: []l2.ProblemFix{{
				Problem: "`git add " + files + "` exited 1: The following paths are ignored by one of your .gitignore files:",
				Fix:     "`git add -f priv/static/app.css` passed",
			}},
		}
		e.Updated = e.Created
		e.SetTTL()
		sessions = append(sessions, &l2.File{L1: l2.L1Name(base), Exchanges: []l2.Exchange{e}})
	}
	f := &Facts{}
	Reflect(f, sessions, &l3.File{})
	if len(f.Solutions) != 2 {
		t.Fatalf("solutions %+v; want the formatting and the ignored stylesheet", f.Solutions)
	}
	var ignored *Solution
	for i := range f.Solutions {
		if strings.Contains(f.Solutions[i].Problem, ".gitignore") {
			ignored = &f.Solutions[i]
		}
	}
	if ignored == nil || len(ignored.Sessions) != 3 || ignored.Solution != "`git add -f priv/static/app.css` passed" {
		t.Fatalf("the ignored stylesheet: %+v; want it solved by git add -f in 3 sessions", ignored)
	}
	if f.Solutions[0].ID == f.Solutions[1].ID {
		t.Errorf("two solutions drawn from the same exchanges share the id %s", f.Solutions[0].ID)
	}
	if len(ignored.Files) != 0 {
		t.Errorf("files %v: the fix edited none", ignored.Files)
	}
	first := f.Encode()
	if rep := Reflect(f, sessions, &l3.File{}); rep.Changes() != 0 || !bytes.Equal(first, f.Encode()) {
		t.Errorf("a second reflection changed facts.json: %+v", rep)
	}
}

// TestProblemWordsAreTheCommandAndTheMessage: a problem is known by the
// program and subcommand that met it, past a change of directory and the
// variables set, and by its message; not by the command's arguments.
func TestProblemWordsAreTheCommandAndTheMessage(t *testing.T) {
	same := [][2]string{
		{"`cd . && go test ./store` exited 1: database is locked", "`go test ./store/... -run TestPut` exited 1: database is locked"},
		{"`CGO_ENABLED=1 go test ./store` exited 1: database is locked", "`go test -race ./...` exited 1: database is locked"},
	}
	for _, c := range same {
		if j := terms.Jaccard(problemWords(c[0]), problemWords(c[1])); j < sameProblem {
			t.Errorf("%q and %q: similarity %.2f, want the same problem", c[0], c[1], j)
		}
	}
	if j := terms.Jaccard(problemWords("`go test ./store` exited 1: database is locked"), problemWords("`npm ci` exited 1: lockfile out of date")); j >= sameProblem {
		t.Errorf("two problems of other programs and messages: similarity %.2f", j)
	}
}

// TestSolutionShowsTheFixThatAnswersTheError: of the fixes a recurring
// problem had, a solution shows the one its error message points to
// (git's "Use -f", a hook's "Run 'mix format'"), not the one that came
// last, which went round the problem; a later occurrence fixed the plain
// way does not displace it.
func TestSolutionShowsTheFixThatAnswersTheError(t *testing.T) {
	ignored := "`git add lib/shop_web/live/cart_live.ex priv/static/app.css` exited 1: The following paths are ignored by one of your .gitignore files: priv/static hint: Use -f if you really want to add them."
	unformatted := "`git commit -m wip` failed: Pre-commit validation failed: [FORMAT] Code is not formatted. Run 'mix format' to fix."
	session := func(i int, ignoredFix, formatFix string) *l2.File {
		sid := fmt.Sprintf("%08d", i)
		base := fmt.Sprintf("2026-02-1%d_1000_%s", i, sid)
		e := l2.Exchange{
			ID:           l2.MakeID("x", base, "sub:1"),
			Source:       l2.Subconscious,
			Significance: 0.7,
			Created:      fmt.Sprintf("2026-02-1%dT10:00:00Z", i),
			Problem:      ignored,
			Fix:          ignoredFix,
			MoreProblems: []l2.ProblemFix{{Problem: unformatted, Fix: formatFix}},
		}
		e.Updated = e.Created
		e.SetTTL()
		return &l2.File{L1: l2.L1Name(base), Exchanges: []l2.Exchange{e}}
	}
	sessions := []*l2.File{
		session(1, "`git add -f priv/static/app.css && git add lib/shop_web/live/cart_live.ex` passed", "ran `mix format`, then `git commit -m wip` passed"),
		session(2, "`git add` again without `priv/static/app.css` passed", "`git commit -m wip` passed"),
		session(3, "`git add .beads/issues.jsonl assets/js/app.js lib/accounts/session_token.ex…` passed", "edited lib/shop/cart.ex, then `git commit -m wip` passed"),
	}
	f := &Facts{}
	check := func(when string) {
		t.Helper()
		shown := map[string]string{}
		for _, s := range f.Solutions {
			shown[s.Problem] = s.Solution
		}
		if got, want := shown[ignored], "`git add -f priv/static/app.css && git add lib/shop_web/live/cart_live.ex` passed"; got != want {
			t.Errorf("%s, the ignored file is solved by\n %s\nwant\n %s", when, got, want)
		}
		if got, want := shown[unformatted], "ran `mix format`, then `git commit -m wip` passed"; got != want {
			t.Errorf("%s, the unformatted commit is solved by\n %s\nwant\n %s", when, got, want)
		}
	}
	Reflect(f, sessions, &l3.File{})
	if len(f.Solutions) != 2 {
		t.Fatalf("solutions %+v; want the ignored file and the format check", f.Solutions)
	}
	check("at first")
	sessions = append(sessions, session(4, "`git add lib/shop_web/live/cart_live.ex` passed", "`git commit -m wip` passed"))
	Reflect(f, sessions, &l3.File{})
	check("after a fourth session")
	if len(f.Solutions[0].Attempts) != 4 || len(f.Solutions[0].Sessions) != 4 {
		t.Errorf("the fourth session was not counted: %+v", f.Solutions[0])
	}
}

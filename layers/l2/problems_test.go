package l2

import (
	"testing"

	"github.com/memkeep/memkeep/layers/l1"
)

// TestEveryRecoveredProblemIsKept: an exchange that recovered from two
// failures of different commands keeps both, the one its edits fixed
// first; failures one success recovered from are one problem; a call
// Claude Code cancelled because its sibling failed is no problem at all.
func TestEveryRecoveredProblemIsKept(t *testing.T) {
	recs := []l1.Record{
		{TS: "2026-03-01T10:00:00.000Z", Kind: l1.KindPrompt, Text: "ship the token refresh"},
		{TS: "2026-03-01T10:01:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git push", Exit: intp(128), Res: "fatal: The current branch auth has no upstream branch."},
		{TS: "2026-03-01T10:01:01.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git status", Err: true, Res: "<tool_use_error>Sibling tool call errored</tool_use_error>"},
		{TS: "2026-03-01T10:02:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git push --set-upstream origin auth", Exit: intp(0)},
		{TS: "2026-03-01T10:03:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(1), Res: "token expired"},
		{TS: "2026-03-01T10:04:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth -run Refresh", Exit: intp(1), Res: "token expired"},
		{TS: "2026-03-01T10:05:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "auth/token.go", Lines: "40-52", Diff: "+6 -1 if tok.Expired() {"},
		{TS: "2026-03-01T10:06:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(0)},
		{TS: "2026-03-01T10:07:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git status", Exit: intp(0)},
	}
	xs := Extract(recs, "2026-03-01_1000_abcd1234")
	if len(xs) != 1 {
		t.Fatalf("%d exchanges, want 1", len(xs))
	}
	ps := xs[0].Problems()
	if len(ps) != 2 {
		t.Fatalf("problems %+v; want the test failure and the push", ps)
	}
	if want := "`go test ./auth` exited 1: token expired"; ps[0].Problem != want || ps[0].Fix != "edited auth/token.go, then `go test ./auth` passed" {
		t.Errorf("first problem %+v; want %q, fixed by the edit", ps[0], want)
	}
	if want := "`git push` exited 128: fatal: The current branch auth has no upstream branch."; ps[1].Problem != want || ps[1].Fix != "`git push --set-upstream origin auth` passed" {
		t.Errorf("second problem %+v; want %q, fixed by --set-upstream", ps[1], want)
	}
	if xs[0].Problem != ps[0].Problem || len(xs[0].MoreProblems) != 1 {
		t.Errorf("problem %q, more %+v: the first problem heads the record, the rest follow it", xs[0].Problem, xs[0].MoreProblems)
	}
}

// TestFixIsToldByItsDifference: a long command that passed after a
// failure is told by what changed, which its first 80 bytes may not show;
// a short one, a difference within them, or a command L1 cut, whole.
func TestFixIsToldByItsDifference(t *testing.T) {
	files := "lib/shop/cart.ex lib/shop/checkout.ex lib/shop_web/live/cart_live.ex test/shop/cart_test.exs"
	for _, c := range []struct{ failed, passed, want string }{
		{"go test ./auth", "go test ./auth -run Refresh", "`go test ./auth -run Refresh` passed"},
		{"git add " + files + " priv/static/app.css", "git add " + files, "`git add` again without `priv/static/app.css` passed"},
		{"git push origin " + files, "git push origin " + files + " --force-with-lease", "`git push` again with `--force-with-lease` passed"},
		{"git add " + files + " priv/static/app.css", "git add -f " + files + " priv/static/app.css", ""},
		{"git add " + files + " priv/static/app.css tes…", "git add " + files + " test/shop/che…", ""},
		{"mix test " + files, "mix format && mix test " + files, ""},
	} {
		if c.want == "" {
			c.want = "`" + Truncate(c.passed, maxFixCmd) + "` passed"
		}
		if got := passedText(c.failed, c.passed); got != c.want {
			t.Errorf("after %q, %q:\n got %s\nwant %s", c.failed, c.passed, got, c.want)
		}
	}
}

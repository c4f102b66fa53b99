package l2

import (
	"strings"
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
			c.want = "`" + cutCommand(c.passed, maxFixCmd) + "` passed"
		}
		if got := passedText(c.failed, c.passed); got != c.want {
			t.Errorf("after %q, %q:\n got %s\nwant %s", c.failed, c.passed, got, c.want)
		}
	}
}

// TestFixNamesTheStepsThatRepaired: a fix names the commands between the
// failure and the retry that changed something (a formatter, an
// install), not those that looked around or checked, nor those that
// failed: "git commit passed" alone would tell the next session to just
// try again.
func TestFixNamesTheStepsThatRepaired(t *testing.T) {
	recs := []l1.Record{
		{TS: "2026-03-01T10:00:00.000Z", Kind: l1.KindPrompt, Text: "add the live view test and commit"},
		{TS: "2026-03-01T10:01:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix test test/shop_web/live/cart_live_test.exs", Exit: intp(1), Res: "** (UndefinedFunctionError) LazyHTML.from_fragment/1 is undefined"},
		{TS: "2026-03-01T10:02:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "mix.exs", Diff: "+1 -0 {:lazy_html, \">= 0.1.0\", only: :test}"},
		{TS: "2026-03-01T10:03:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix deps.get --only tst", Exit: intp(1), Res: "unknown environment"},
		{TS: "2026-03-01T10:03:30.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix deps.get 2>&1 | tail -5", Exit: intp(0)},
		{TS: "2026-03-01T10:04:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix test test/shop_web/live/cart_live_test.exs", Exit: intp(0)},
		{TS: "2026-03-01T10:05:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git add -A && git commit -m 'test: cart live view'", Exit: intp(1), Res: "Pre-commit validation failed: [FORMAT] Code is not formatted. Run 'mix format' to fix."},
		{TS: "2026-03-01T10:06:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git status --short", Exit: intp(0)},
		{TS: "2026-03-01T10:07:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix format --check-formatted", Exit: intp(1)},
		{TS: "2026-03-01T10:08:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix format && mix compile 2>&1 | tail -3", Exit: intp(0)},
		{TS: "2026-03-01T10:09:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "mix test 2>&1 | tail -5", Exit: intp(0)},
		{TS: "2026-03-01T10:10:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "git add -A && git commit -m 'test: cart live view'", Exit: intp(0)},
	}
	xs := Extract(recs, "2026-03-01_1000_abcd1234")
	if len(xs) != 1 {
		t.Fatalf("%d exchanges, want 1", len(xs))
	}
	fixOf := map[string]string{}
	for _, pf := range xs[0].Problems() {
		fixOf[strings.Join(strings.Fields(pf.Problem)[:2], " ")] = pf.Fix
	}
	if want := "edited mix.exs, ran `mix deps.get`, then `mix test test/shop_web/live/cart_live_test.exs` passed"; fixOf["`mix test"] != want {
		t.Errorf("test fixed by\n %s\nwant\n %s", fixOf["`mix test"], want)
	}
	if want := "ran `mix format`, then `git add -A && git commit -m 'test: cart live view'` passed"; fixOf["`git add"] != want {
		t.Errorf("commit fixed by\n %s\nwant\n %s", fixOf["`git add"], want)
	}
}

// TestRepairs: what counts as a step that repaired something.
func TestRepairs(t *testing.T) {
	for cmd, want := range map[string]bool{
		"mix format":                        true,
		"mix format --check-formatted":      false,
		"cargo fmt":                         true,
		"gofmt -w ./cmd":                    true,
		"gofmt -l .":                        false,
		"npm run format":                    true,
		"npx eslint --fix src":              true,
		"npm install":                       true,
		"python -m pip install requests":    true,
		"go mod tidy":                       true,
		"git add -f priv/static/app.css":    true,
		"git stash list":                    false,
		"git config user.email me@host":     true,
		"git config --get user.email":       false,
		"git status":                        false,
		"rm -rf _build":                     true,
		"sed -i s/a/b/ f.txt":               true,
		"sed -n 1,5p f.txt":                 false,
		"mix test":                          false,
		"mix compile --warnings-as-errors":  false,
		"grep -rn foo lib":                  false,
		"bd update spotter-1 --status done": false,
	} {
		if got := repairs(commandParts(cmd)[0]); got != want {
			t.Errorf("repairs(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestProblemKeepsEveryChainedCommand: a long chained command that failed
// is cut part by part, so the problem still says which commands it ran
// ("… && git commit"), where one cut at 80 bytes ends in the file list.
func TestProblemKeepsEveryChainedCommand(t *testing.T) {
	files := "lib/shop/cart.ex lib/shop/checkout.ex lib/shop_web/live/cart_live.ex test/shop/cart_test.exs"
	r := l1.Record{Tool: "Bash", Cmd: "git add " + files + ` && git commit -m "feat: cart totals"`, Exit: intp(1), Res: "hint: Use -f if you really want to add them."}
	got := problemText(r)
	if !strings.Contains(got, "… && git commit …`") || !strings.HasPrefix(got, "`git add lib/shop/cart.ex") || len(got) > 160 {
		t.Errorf("problem %q; want both commands' starts", got)
	}
	if short := (l1.Record{Tool: "Bash", Cmd: "go vet ./... && go test ./...", Exit: intp(1)}); problemText(short) != "`go vet ./... && go test ./...` exited 1" {
		t.Errorf("a short command is cut: %q", problemText(short))
	}
}

package recall

import "testing"

// TestUserSaid: a flag, a quote or a path that a question says the user
// said is held where a prompt or an answer to the agent's question holds
// it; the agent offering it, or running it, is not the user saying it.
func TestUserSaid(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		prompt("did you push?"),
		prompt("rebase onto main and use --force-with-lease when you push"),
		prompt("run git rebase main, then push"),
		prompt("open a PR for the report work"),
		say("Let me commit with --no-verify since the lint warning is a false positive."),
		bash(`git commit --no-verify -m "feat: report spans"`, 1, "lint failed"),
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "AskUserQuestion",
			"arg": "options: Skip hook (--no-verify); Fix the lint issues",
			"res": `"main was clean; fix the issues in lib/report/summary.ex" (asked: "The hook blocks on lint issues in lib/report/worker.ex. Skip it with --no-verify?")`})...)
	wantUnknown(t, m.open(), []unknownCase{
		{"When the user told us to commit the report work with --no-verify, did the hook still run?", []string{"--no-verify said by the user"}},
		{"why did I tell you to just commit with --no-verify?", []string{"--no-verify said by the user"}},
		{"when I told you to push with --force-with-lease, did it go through?", nil},
		{"when I answered that you should look at lib/report/summary.ex, what did you find?", nil},
		{"when I answered that you should look at lib/report/worker.ex, what did you find?", []string{"lib/report/worker.ex said by the user"}},
		{"when I asked 'did you push?', what did you tell me?", nil},
		{"when I asked 'did you deploy the report spans?', what did you tell me?", []string{"did you deploy the report spans? said by the user"}},
		{"did the commit with --no-verify get through?", nil},
		{"what did you say when I asked you to open a PR with gh pr create?", []string{"gh pr said by the user"}},
		{"when I asked you to rebase onto main with git rebase, what happened?", nil},
		{"what did I tell you to do when the hook blocked the commit?", nil},
	})
}

package recall

import "testing"

// TestUserSaid: a flag, a quote, a path or a command that a question says
// the user said is held where a prompt or an answer to the agent's
// question holds it; the agent offering it, or running it, is not the
// user saying it. What a question says the agent asked the user is held
// in the agent's question or its text asking one.
func TestUserSaid(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		prompt("did you push?"),
		prompt("rebase onto main and use --force-with-lease when you push"),
		prompt("run git rebase main, then push"),
		prompt("open a PR for the report work"),
		prompt("the report server doesnt seem to start"),
		prompt("the report scrollback still does not work? websearch xterm.js tmux interactions"),
		map[string]any{"ts": "2026-02-11T10:00:00Z", "k": "prompt", "agent": "a1b2", "text": "Explore the dark theme of the report view."},
		say("Should the report module go under lib/report/ or lib/reports/?"),
		say("The debounce is 500ms now."),
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
		{"what did you say when I asked you to open a PR with gh pr create?", []string{"gh pr", "gh pr said by the user"}},
		{"when I asked you to rebase onto main with git rebase, what happened?", nil},
		{"what did I tell you to do when the hook blocked the commit?", nil},
		// "Can I tell" asks a way, not what the user said.
		{"how can I tell whether lib/report/worker.ex was linted?", nil},
		{"how can I tell which zorble span the report belonged to?", nil},
		// So is what the user said told in words: a prompt of theirs
		// holds two of them, or all of fewer; a helper agent's prompt
		// is no user's.
		{"Why did I ask you to open a pull request for the report?", nil},
		// Whom the user asked is not what they asked; the user's word
		// may be of the question's word's group (research: websearch).
		{"the report wasn't scrolling - what did I ask the agent to research and what did it dig up?", nil},
		{"what did I ask the assistant to research about the summary spans?", []string{"research about the summary spans said by the user"}},
		{"what happened the first time I asked you why the dev server wouldn't boot?", nil},
		{"when I said the lookup view wouldn't come up, what did you find?", nil},
		// "Told" what happened is said so too; "told … to" asks.
		{"that time i told the assistant the dark theme wouldn't load, what did it find?", nil},
		{"Why did I tell you to bring back the dark theme for the report?", []string{"bring back the dark theme for the report said by the user"}},
		{"Before the lookups, a helper agent was asked about the digest format; what did it find?", nil},
		{"Why did I ask to bring back the dark theme for the report?", []string{"bring back the dark theme for the report said by the user"}},
		{"Why was it the user who wanted the report view's theme dark?", []string{"report view's theme dark said by the user"}},
		// What the agent asked the user is in its question or its text
		// asking one.
		{"When you asked me whether to skip the hook with --no-verify, what did I say?", nil},
		{"When you asked me whether the debounce should be 500ms or 1s, what did I pick?", []string{"500ms asked of the user", "1s asked of the user", "1s"}},
		{"When you asked me whether the report should go under lib/report/, what did I pick?", nil},
		{"When you asked me whether to look at lib/report/summary.ex, what did I say?", []string{"lib/report/summary.ex asked of the user"}},
		// So is what it asked, told in words: its question holds two of
		// them, or all of fewer.
		{"When the agent asked whether it should skip the lint hook, what did I answer?", nil},
		{"When you asked me where the report module should live, what did I say?", nil},
		{"What did I answer when the agent asked whether it should file a bead for the summary spans?",
			[]string{"should file a bead for the summary spans asked of the user"}},
		{"What did I answer when the agent asked whether it should fix the lint issues?", nil},
		{"What did I answer when the agent asked whether to clean up the summary issues?", []string{"clean up the summary issues asked of the user"}},
		{"What did I answer when the agent asked whether the hook should be rewritten?", []string{"hook should be rewritten asked of the user"}},
		{"What did the assistant ask me before it rewrote the report spans?", []string{"rewrote the report spans asked of the user"}},
		{"When you asked me about the debounce, what did I pick?", []string{"debounce asked of the user"}},
		// An asking that is no agent's, or asks nothing, is not judged.
		{"How does the report view fold long lines until you ask for the rest?", nil},
		{"When the hook blocked the commit, what did you ask me?", nil},
	})
}

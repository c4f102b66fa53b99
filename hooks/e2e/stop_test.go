package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/internal/claudetest"
)

// userWork gives the project committed files and then the kind of
// uncommitted work a user has lying around while Claude Code runs: a
// staged change, a file staged and then changed again, an unstaged change
// and an untracked file. It returns the base commit.
func (p *project) userWork() string {
	p.t.Helper()
	p.commitFiles("project files", map[string]string{
		"lib/util.go":   "package lib\n\n// helpers go here\n",
		"src/app.go":    "package main\n\nfunc main() {}\n",
		"docs/guide.md": "# Guide\n\nHow to use the app.\n",
	})
	p.WriteFile("src/app.go", []byte("package main\n\nfunc main() { println(\"staged\") }\n"))
	p.WriteFile("README.md", []byte("# scratch project\n\nstaged line\n"))
	p.Git("add", "src/app.go", "README.md")
	p.WriteFile("README.md", []byte("# scratch project\n\nstaged line\nunstaged line\n"))
	p.WriteFile("docs/guide.md", []byte("# Guide\n\nHow to use the app.\nA change not staged.\n"))
	p.WriteFile("scratch.txt", []byte("user's untracked scratch\n"))
	return p.Git("rev-parse", "HEAD")
}

// userSnapshot is the user's uncommitted work as git shows it.
type userSnapshot struct {
	status   []string // git status --porcelain -uall, memory folder excluded
	cached   string   // git diff --cached
	unstaged string   // git diff of the user's own files
	scratch  string   // the untracked file's content
}

func (p *project) snapshot() userSnapshot {
	p.t.Helper()
	return userSnapshot{
		status:   p.userStatus(),
		cached:   p.Git("diff", "--cached"),
		unstaged: p.Git("diff", "--", "README.md", "docs/guide.md", "src/app.go"),
		scratch:  p.readFile("scratch.txt"),
	}
}

// checkUserWork fails unless the user's work is as before, plus exactly
// the agent's own changes (agentStatus: porcelain lines).
func (p *project) checkUserWork(before userSnapshot, agentStatus ...string) {
	p.t.Helper()
	after := p.snapshot()
	want := append(slices.Clone(before.status), agentStatus...)
	slices.Sort(want)
	got := slices.Clone(after.status)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		p.t.Errorf("git status of the user's work changed:\n got %q\nwant %q", got, want)
	}
	if after.cached != before.cached {
		p.t.Errorf("staged changes (git diff --cached) changed:\nbefore:\n%s\nafter:\n%s", before.cached, after.cached)
	}
	if after.unstaged != before.unstaged {
		p.t.Errorf("unstaged changes (git diff) changed:\nbefore:\n%s\nafter:\n%s", before.unstaged, after.unstaged)
	}
	if after.scratch != before.scratch {
		p.t.Errorf("untracked scratch.txt changed: %q -> %q", before.scratch, after.scratch)
	}
}

// checkMemoryCommits fails unless at least one commit was made after base
// and every commit since touches only .claude/memory/. It returns the
// commits.
func (p *project) checkMemoryCommits(base string) []string {
	p.t.Helper()
	commits, paths := p.memoryCommits(base)
	if len(commits) == 0 {
		p.t.Errorf("no memory commit after %s (git log: %s)", base[:8], p.Git("log", "--oneline", "-5"))
		return nil
	}
	for _, c := range commits {
		for _, f := range paths[c] {
			if !strings.HasPrefix(f, ".claude/memory/") {
				p.t.Errorf("commit %s touches %q, outside .claude/memory/:\n%s", c[:8], f, p.Git("show", "--stat", c))
			}
		}
	}
	if names := p.Git("diff", "--name-only", base, "HEAD"); names != "" {
		for _, f := range strings.Split(names, "\n") {
			if !strings.HasPrefix(f, ".claude/memory/") {
				p.t.Errorf("HEAD differs from the base outside .claude/memory/: %s", f)
			}
		}
	}
	reflog := p.Git("reflog", "--format=%H")
	if !strings.Contains(reflog, commits[len(commits)-1]) {
		p.t.Errorf("the memory commit has no reflog entry:\n%s", reflog)
	}
	p.t.Logf("memory commits:\n%s", p.Git("log", "--format=%h %s", base+"..HEAD"))
	return commits
}

// statusJSON is `memkeep status --json`.
type statusJSON struct {
	Done   bool `json:"done"`
	Layers []struct {
		Layer  string `json:"layer"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"layers"`
}

func (p *project) status(sid string) statusJSON {
	p.t.Helper()
	var st statusJSON
	out := p.memkeep("status", "--json", "--session", sid)
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		p.t.Fatalf("memkeep status --json: %v\n%s", err, out)
	}
	return st
}

// sessionWithMemory runs the Stop enforcement loop of
// memkeep-stop-loop.json on a project with user work and checks it. It is
// scenario 1, and the first session of scenario 2.
func sessionWithMemory(t *testing.T, p *project) (claudetest.Result, time.Duration) {
	base := p.userWork()
	before := p.snapshot()
	t.Logf("user's work before the session: %q", before.status)

	res, took := p.run("Add a retry helper for the flaky upload and write notes about it")
	requireSuccess(t, res)
	if !p.waitBackground(15 * time.Second) {
		t.Errorf("the background consolidation SessionEnd started did not finish")
	}
	agent := p.Server.AgentRequests()

	// Stop asked once, as additionalContext, with ✓/✗ lines and commands.
	asks := stopAsks(agent)
	if len(asks) == 0 {
		t.Fatalf("Stop never asked the agent to update memory after a session with edits "+
			"(result %q; memkeep status: %s; hooks.log: %s)", res.Result, p.memkeep("status", "--session", res.SessionID), p.hooksLog())
	}
	t.Logf("Stop request as the model saw it:\n%s", asks[0].LastUserText())
	missing, cmds := checkStopAsk(t, asks[0], res.SessionID)
	t.Logf("missing %v; commands %q", missing, cmds)
	for i, ask := range asks {
		for _, b := range toolResultAfter(agent, ask) {
			t.Logf("output of the commands of request %d:\n%s", i+1, b.Text)
			if commandFailed(b) {
				t.Errorf("a command the Stop hook asked for failed:\n%s", b.Text)
			}
		}
	}
	if len(asks) != 1 {
		for _, a := range asks[1:] {
			t.Logf("further Stop request:\n%s", a.LastUserText())
		}
		t.Errorf("Stop asked %d times; running the commands of the first request should have satisfied it", len(asks))
	}
	// The next Stop approved: the turn ended with the reply to the
	// request, and Stop ran once more than it asked.
	if want := "Project memory updated."; len(asks) == 1 && res.Result != want {
		t.Errorf("result = %q, want %q (the turn should end after the commands ran)", res.Result, want)
	}
	stops := checkHooksClean(t, res.TranscriptPath)
	if n, want := len(stops), len(asks)+1; n != want {
		t.Errorf("%d Stop hook runs, want %d (each request, then the approval)", n, want)
	}
	if len(stops) > 0 {
		if last := stops[len(stops)-1].Stdout; strings.Contains(last, "pending") || strings.Contains(last, "additionalContext") {
			t.Errorf("the last Stop did not approve a complete memory: %s", last)
		}
	}
	if n := countEvents(p.streamEvents(), "stop", res.SessionID); n != 1 {
		t.Errorf("%d stop events in the stream, want 1 (one answer to the user)", n)
	}

	// A memory commit exists, touches only .claude/memory/, and the
	// user's work is exactly as it was plus the agent's two changes.
	p.checkMemoryCommits(base)
	p.checkUserWork(before, " M lib/util.go", "?? notes/upload-retry.md")
	if ms := p.memoryStatus(); len(ms) > 0 {
		t.Errorf("memory files not clean in git status after the session (committed index entries should match): %q", ms)
	}
	p.fsck()
	if st := p.status(res.SessionID); !st.Done {
		t.Errorf("memkeep status after the session: not done: %+v", st.Layers)
	}
	if log := p.hooksLog(); log != "" {
		t.Errorf("hooks.log records problems in a healthy session:\n%s", log)
	}
	return res, took
}

// Scenario 1: a session edits files while the user has uncommitted work;
// Stop asks with ✓/✗ lines and commands; the agent runs them with Bash;
// the next Stop approves and commits memory, touching nothing else.
func TestStopEnforcementLoop(t *testing.T) {
	start := time.Now()
	p := newProject(t, "memkeep-stop-loop")
	_, took := sessionWithMemory(t, p)
	logTimes(t, start, took)
}

// Scenario 4: an agent that never acts on the Stop request gets at most
// the block budget (default 2) of requests, then the turn ends normally
// with a systemMessage (to the user, not the model) saying what is
// pending. A second agent that acts only partly (runs one command per
// request) shows the budget itself: it is asked exactly twice.
func TestStopLoopSafety(t *testing.T) {
	start := time.Now()
	var times []time.Duration
	for _, tc := range []struct {
		scenario string
		result   string
		ignores  bool // the agent never acts on a request
	}{
		// Ignoring the request: the second Stop sees stop_hook_active and
		// the same things missing, and lets the turn end.
		{"memkeep-ignore-stop", "I'd rather not.", true},
		// Acting partly changes what is missing, so memkeep asks again,
		// up to the budget.
		{"memkeep-partial-stop", "Ran one of them.", false},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			p := newProject(t, tc.scenario)
			res, took := p.run("Add a retry helper for the flaky upload")
			times = append(times, took)
			requireSuccess(t, res)
			p.waitBackground(15 * time.Second)
			agent := p.Server.AgentRequests()
			asks := stopAsks(agent)
			const budget = 2
			for i, a := range asks {
				t.Logf("Stop request %d:\n%s", i+1, a.LastUserText())
			}
			if len(asks) > budget {
				t.Errorf("Stop asked %d times in one turn, over the budget of %d", len(asks), budget)
			}
			if len(asks) == 0 {
				t.Errorf("Stop never asked after a session with an edit")
			}
			switch {
			case tc.ignores && len(asks) > 1:
				// memkeep must not ask again for what the agent ignored
				// (stop_hook_active and the same things missing). A second
				// request is right only when it asks for something new,
				// which happens when the first Stop read a transcript that
				// Claude Code had not finished writing.
				if body(asks[0]) == body(asks[1]) {
					t.Errorf("Stop asked again for exactly what the agent ignored")
				} else {
					t.Logf("NOTE: the second request differs from the first (the first Stop saw a lagging transcript)")
				}
			case !tc.ignores && len(asks) != budget:
				t.Errorf("Stop asked %d times, want the whole budget (%d) for an agent acting partly", len(asks), budget)
			}
			if len(asks) > 0 {
				checkStopAsk(t, asks[0], res.SessionID)
				if !strings.Contains(asks[len(asks)-1].LastUserText(), fmt.Sprintf("this is %d of %d", len(asks), budget)) {
					t.Errorf("request %d does not count itself against the budget", len(asks))
				}
			}
			if res.Result != tc.result {
				t.Errorf("result = %q, want %q: the turn should end on the agent's reply", res.Result, tc.result)
			}
			stops := checkHooksClean(t, res.TranscriptPath)
			t.Logf("%d agent requests, %d Stop requests, %d Stop hook runs", len(agent), len(asks), len(stops))
			if len(stops) != len(asks)+1 {
				t.Errorf("%d Stop hook runs, want %d (each request, then the one that let the turn end)", len(stops), len(asks)+1)
			}
			// The user is told what is pending (a systemMessage, which the
			// transcript keeps as hook_system_message); the model is not.
			if len(stops) > 0 && !strings.Contains(stops[len(stops)-1].Stdout, "memkeep: memory still pending") {
				t.Errorf("the Stop that let the turn end did not say what is pending: %s", stops[len(stops)-1].Stdout)
			}
			if tr := readTranscript(t, res.TranscriptPath); !strings.Contains(tr, `"type":"hook_system_message","content":"memkeep: memory still pending`) {
				t.Errorf("no systemMessage saying what is still pending shown to the user")
			}
			if p.Server.FindRequest("memkeep: memory still pending") != nil {
				t.Errorf("the pending systemMessage reached the model")
			}
			if log := p.hooksLog(); log != "" {
				t.Errorf("hooks.log records problems:\n%s", log)
			}
		})
	}
	logTimes(t, start, times...)
}

// readTranscript reads a session transcript.
func readTranscript(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("transcript: %v", err)
	}
	return string(b)
}

// commandFailed reports whether the output of the commands a Stop request
// asked for shows a failure: a non-zero exit (Claude Code marks the tool
// result as an error), memkeep's "memkeep: …" error lines, or a shell
// that did not find memkeep.
func commandFailed(b claudetest.Block) bool {
	if b.IsError || strings.Contains(b.Text, "command not found") {
		return true
	}
	for _, line := range strings.Split(b.Text, "\n") {
		if strings.HasPrefix(line, "memkeep: ") {
			return true
		}
	}
	return false
}

// body is a Stop request without its "this is N of M" counter.
func body(r *claudetest.Request) string {
	text := r.LastUserText()
	if i := strings.LastIndex(text, "(memkeep asks at most"); i >= 0 {
		return text[:i]
	}
	return text
}

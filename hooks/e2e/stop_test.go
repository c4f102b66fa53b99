package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
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

	// Stop asked once, as additionalContext, for the agent's record.
	asks := stopAsks(agent)
	if len(asks) == 0 {
		t.Fatalf("Stop never asked the agent for its record after a session with edits "+
			"(result %q; memkeep status: %s; hooks.log: %s)", res.Result, p.memkeep("status", "--session", res.SessionID), p.hooksLog())
	}
	t.Logf("Stop request as the model saw it:\n%s", asks[0].LastUserText())
	rec := checkStopAsk(t, asks[0], res.SessionID)
	// The agent first sent the record back with its placeholders: it is
	// refused, naming the field; then it wrote them and it was taken.
	var outputs []claudetest.Block
	for i, r := range agent {
		if r == asks[0] {
			for _, next := range agent[i+1:] {
				outputs = append(outputs, toolResults(next)...)
				if len(outputs) >= 2 {
					break
				}
			}
		}
	}
	if len(outputs) < 2 {
		t.Fatalf("want the outputs of two record commands after the request, got %d", len(outputs))
	}
	t.Logf("the record with its placeholders:\n%s", outputs[0].Text)
	if !outputs[0].IsError || !strings.Contains(outputs[0].Text, "summary: still holds the placeholder") {
		t.Errorf("a record still holding its placeholders was not refused with the field named:\n%s", outputs[0].Text)
	}
	t.Logf("the record written:\n%s", outputs[1].Text)
	if commandFailed(outputs[1]) || !strings.Contains(outputs[1].Text, "convergent with "+rec["exchange"].(string)) {
		t.Errorf("the agent's record was not taken and linked to memkeep's record %v:\n%s", rec["exchange"], outputs[1].Text)
	}
	if len(asks) != 1 {
		for _, a := range asks[1:] {
			t.Logf("further Stop request:\n%s", a.LastUserText())
		}
		t.Errorf("Stop asked %d times; it asks once per exchange", len(asks))
	}
	// The agent's sentence is in L2, conscious, linked to memkeep's own
	// record, which keeps the files.
	l2 := p.l2File(res.SessionID)
	var agentRec, own map[string]any
	for _, e := range l2 {
		if e["summary"] == agentSentence {
			agentRec = e
		}
		if e["id"] == rec["exchange"] {
			own = e
		}
	}
	switch {
	case agentRec == nil:
		t.Errorf("the agent's sentence %q is in no L2 record", agentSentence)
	case agentRec["source"] != "conscious" || agentRec["convergent"] != true || !slices.Contains(anyStrings(agentRec["links"]), rec["exchange"].(string)):
		t.Errorf("the agent's record is not conscious, convergent and linked to %v: %v", rec["exchange"], agentRec)
	case own == nil || own["convergent"] != true || !slices.Contains(anyStrings(own["files"]), "lib/util.go"):
		t.Errorf("memkeep's own record is not convergent or lost its files: %v", own)
	}
	// The next Stop approved: the turn ended with the reply to the
	// request, and Stop ran once more than it asked.
	if want := "Project memory updated."; len(asks) == 1 && res.Result != want {
		t.Errorf("result = %q, want %q (the turn should end after the commands ran)", res.Result, want)
	}
	stops := checkHooksClean(t, res.TranscriptPath)
	if n, want := len(stops), len(asks)+1; n != want {
		t.Errorf("%d Stop hook runs, want %d (the request, then the approval)", n, want)
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

// Scenario 4: an agent that never answers the Stop request, and one that
// sends the record back with its placeholders, are asked once: the turn
// ends on their reply, memkeep's own record stands and is committed, and
// the user is not told anything is pending.
func TestStopLoopSafety(t *testing.T) {
	start := time.Now()
	var times []time.Duration
	for _, tc := range []struct {
		scenario string
		result   string
		refused  bool // the agent ran the command with the placeholders left
	}{
		{"memkeep-ignore-stop", "I'd rather not.", false},
		{"memkeep-placeholder-stop", "Left it as it was.", true},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			p := newProject(t, tc.scenario)
			base := p.Git("rev-parse", "HEAD")
			res, took := p.run("Add a retry helper for the flaky upload")
			times = append(times, took)
			requireSuccess(t, res)
			p.waitBackground(15 * time.Second)
			agent := p.Server.AgentRequests()
			asks := stopAsks(agent)
			for i, a := range asks {
				t.Logf("Stop request %d:\n%s", i+1, a.LastUserText())
			}
			if len(asks) != 1 {
				t.Fatalf("Stop asked %d times, want once", len(asks))
			}
			checkStopAsk(t, asks[0], res.SessionID)
			if tc.refused {
				out := toolResultAfter(agent, asks[0])
				if len(out) == 0 || !out[0].IsError || !strings.Contains(out[0].Text, "still holds the placeholder") {
					t.Errorf("a record with its placeholders was not refused: %+v", out)
				}
			}
			if res.Result != tc.result {
				t.Errorf("result = %q, want %q: the turn should end on the agent's reply", res.Result, tc.result)
			}
			stops := checkHooksClean(t, res.TranscriptPath)
			if len(stops) != 2 {
				t.Errorf("%d Stop hook runs, want 2 (the request, then the one that let the turn end)", len(stops))
			}
			if len(stops) > 0 {
				if last := stops[len(stops)-1].Stdout; strings.Contains(last, "pending") || strings.Contains(last, "additionalContext") {
					t.Errorf("the Stop that let the turn end did not approve a complete memory: %s", last)
				}
			}
			p.checkMemoryCommits(base)
			if ms := p.memoryStatus(); len(ms) > 0 {
				t.Errorf("memory files not clean after the session: %q", ms)
			}
			if st := p.status(res.SessionID); !st.Done {
				t.Errorf("memkeep status after the session: not done: %+v", st.Layers)
			}
			if log := p.hooksLog(); log != "" {
				t.Errorf("hooks.log records problems:\n%s", log)
			}
		})
	}
	logTimes(t, start, times...)
}

// agentSentence is the summary the scripted agent of memkeep-stop-loop
// writes in its record.
const agentSentence = "Wrapped the flaky upload in Retry: three attempts before giving up"

// toolResults are the tool_result blocks of a request's last user message.
func toolResults(r *claudetest.Request) []claudetest.Block {
	var out []claudetest.Block
	for j := len(r.Messages) - 1; j >= 0; j-- {
		if m := r.Messages[j]; m.Role == "user" {
			for _, b := range m.Content {
				if b.Type == "tool_result" {
					out = append(out, b)
				}
			}
			return out
		}
	}
	return nil
}

// anyStrings reads a JSON list of strings.
func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// l2File reads the exchanges of a session's L2 file.
func (p *project) l2File(sid string) []map[string]any {
	p.t.Helper()
	files, _ := filepath.Glob(filepath.Join(p.Dir, ".claude/memory/sessions/*_"+sid[:8]+".l2.json"))
	if len(files) != 1 {
		p.t.Fatalf("L2 files of session %s: %v", sid, files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		p.t.Fatal(err)
	}
	var f struct {
		Exchanges []map[string]any `json:"exchanges"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		p.t.Fatal(err)
	}
	return f.Exchanges
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

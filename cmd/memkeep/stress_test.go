package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memkeep/memkeep/internal/filelock"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
)

// TestStressSessionsWhileUserWorks is issue 13's stress test: eight Claude
// Code sessions fire memkeep's hooks, as separate processes and all at
// once, while the user commits, stashes, switches branches and rebases in
// the same repository. It proves memkeep's contract with the user's git:
//
//  1. no git command of the user fails because memkeep is at work;
//  2. memkeep never leaves .claude/memory dirty in the work tree: after
//     every user command `git status -- .claude/memory` is empty;
//  3. no user commit carries memory, and no memkeep commit (trailer
//     "Memkeep-Commit: memory only") carries anything else;
//  4. once the sessions end and memory is consolidated and committed, the
//     repository passes `git fsck --strict`;
//  5. the event stream committed in HEAD holds every event the hooks
//     recorded, each once: per session one session_start, one prompt and
//     one stop per turn, one event per tool use and one session_end, and
//     no event id twice.
//
// Every hook must also keep Claude Code's hook contract: exit status 0 and
// JSON (or nothing) on stdout.
//
// Each session runs MEMKEEP_STRESS_ROUNDS turns (default 10); the user works
// for as long as the sessions do. The hooks start their background runs
// as they do for users (Stop's `consolidate --settle`, SessionEnd's
// `consolidate --deferred`); the test also runs `consolidate --deferred`
// itself right after each SessionEnd, and waits for every memkeep process
// before it checks, so that none outlives the test.
func TestStressSessionsWhileUserWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test: skipped with -short")
	}
	turns := 10
	if v := os.Getenv("MEMKEEP_STRESS_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("MEMKEEP_STRESS_ROUNDS=%q: want a positive number", v)
		}
		turns = n
	}
	const sessions = 8
	started := time.Now()

	r := newStressRepo(t)
	setupHead := r.setup(sessions)

	// The sessions and the user start together.
	var wg sync.WaitGroup
	ss := make([]*stressSession, sessions)
	for k := range ss {
		ss[k] = newStressSession(r, k)
	}
	done := make(chan struct{})
	u := &userLoop{r: r, recoveries: map[string]int{}}
	var uwg sync.WaitGroup
	uwg.Add(1)
	go func() {
		defer uwg.Done()
		u.work(done)
	}()
	for _, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.run(turns)
		}()
	}
	wg.Wait()
	close(done)
	uwg.Wait()
	sessionsTook := time.Since(started)
	r.bg.Wait()             // the background consolidations SessionEnd started
	waitForProcesses(r.bin) // and those the hooks started (Stop's settle runs)

	// The end of the day: back on main, one last consolidation and commit.
	u.finish()
	for _, args := range [][]string{{"consolidate"}, {"commit"}} {
		res := r.memkeep(nil, args...)
		if res.err != nil {
			r.failf("memkeep %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.err, res.stdout, res.stderr)
		}
	}
	u.observe("after the final consolidate and commit")

	// Assertion 6 first, so that the figures are there whatever fails.
	hist := r.history(setupHead)
	stats := r.hookStats(ss)
	t.Logf("ran %s (sessions and user %s), %d sessions × %d turns", time.Since(started).Round(time.Millisecond), sessionsTook.Round(time.Millisecond), sessions, turns)
	t.Logf("hooks fired: %d (%s); memkeep consolidate --deferred runs: %d", stats.total, stats.byEvent, sessions)
	t.Logf("user git commands: %d in %d rounds, %d failed; recovery after failures: %s", len(u.cmds), u.rounds, u.failed(), u.recoveryCounts())
	if n := strings.Count(r.gitRun("stash", "list").out, "\n"); n > 0 {
		t.Logf("stash entries left (a pop that failed, the stashed memory with them): %d", n)
	}
	t.Logf("commits on main since setup: %d memkeep, %d user (%.1f memkeep commits per user commit); on all branches: %d memkeep, %d user",
		hist.mainMemkeep, hist.mainUser, float64(hist.mainMemkeep)/float64(max(1, hist.mainUser)), hist.allMemkeep, hist.allUser)
	t.Logf("dirty observations of .claude/memory: %d of %d (and %d while a memory commit was writing)", len(u.dirty), u.observations, u.transient)
	if msgs := stats.messages; len(msgs) > 0 {
		t.Logf("hook systemMessages (%d distinct), first ones:\n  %s", len(msgs), strings.Join(firstN(msgs, 5), "\n  "))
	}
	if log := r.hooksLog(); len(log) > 0 {
		t.Logf("hooks.log has %d lines, first ones:\n  %s", len(log), strings.Join(firstN(log, 8), "\n  "))
	}

	// The hook contract, and the commands the test runs itself.
	for _, s := range ss {
		for _, f := range s.failures {
			t.Errorf("session %s: %s", s.id, f)
		}
	}
	for _, f := range r.failures() {
		t.Error(f)
	}

	// 1. No user git command fails.
	for _, c := range u.cmds {
		if c.code != 0 {
			t.Errorf("assertion 1: user command failed (round %d, exit %d): git %s\n%s", c.round, c.code, strings.Join(c.args, " "), indent(c.out))
		}
	}

	// 2. The memory folder is never dirty after a user step.
	if len(u.dirty) > 0 {
		var ex []string
		for _, d := range firstN(u.dirty, 5) {
			ex = append(ex, fmt.Sprintf("after %s:\n%s", d.after, indent(d.status)))
		}
		t.Errorf("assertion 2: .claude/memory was dirty in %d of %d observations; first ones:\n%s", len(u.dirty), u.observations, strings.Join(ex, "\n"))
	}

	// 3. User commits carry no memory, memkeep commits nothing else.
	for _, v := range firstN(hist.violations, 10) {
		t.Errorf("assertion 3: %s", v)
	}
	if n := len(hist.violations); n > 10 {
		t.Errorf("assertion 3: … and %d more commits", n-10)
	}

	// 4. The repository is sound.
	if res := r.gitRun("fsck", "--strict", "--no-dangling", "--no-progress"); res.code != 0 || strings.TrimSpace(res.out) != "" {
		t.Errorf("assertion 4: git fsck --strict: exit %d\n%s", res.code, indent(res.out))
	}

	// 5. Every event in HEAD's stream, once.
	for _, f := range r.checkStream(ss) {
		t.Errorf("assertion 5: %s", f)
	}
}

// stressRepo is the repository the sessions and the user share.
type stressRepo struct {
	t        *testing.T
	bin, dir string
	env      []string
	mu       sync.Mutex
	fails    []string       // failures of the commands the test runs for itself
	bg       sync.WaitGroup // background runs (consolidate --deferred)
}

func newStressRepo(t *testing.T) *stressRepo {
	bin := goBuild(t, "github.com/memkeep/memkeep/cmd/memkeep", "memkeep")
	home := t.TempDir()
	// Nothing of the machine's git or Claude Code set-up reaches the run.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "MEMKEEP_") || k == "HOME" || k == "XDG_CONFIG_HOME"
	})
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Stress User", "GIT_AUTHOR_EMAIL=user@example.com",
		"GIT_COMMITTER_NAME=Stress User", "GIT_COMMITTER_EMAIL=user@example.com")
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Symlinks in the temp dir would make the paths the hooks are given
	// differ from the root memkeep finds.
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	return &stressRepo{t: t, bin: bin, dir: dir, env: env}
}

// setup makes the user's project: a first commit of a few source files,
// `memkeep init`, and the commit of what init set up. It returns HEAD.
func (r *stressRepo) setup(sessions int) string {
	t := r.t
	files := map[string]string{
		"go.mod":          "module example.com/stress\n\ngo 1.22\n",
		"README.md":       "# stress\n\nA project worked on by eight sessions and one user.\n",
		"app/user.go":     "package app\n\n// The user's own file: no session edits it.\n",
		"app/topic.go":    "package app\n\n// Edited by the user on topic branches only.\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n",
	}
	for k := range sessions {
		files[fmt.Sprintf("svc/s%d.go", k)] = fmt.Sprintf("package svc\n\n// Handle%d is what session %d works on.\nfunc Handle%d(n int) int {\n\treturn n\n}\n", k, k, k)
	}
	for name, content := range files {
		p := filepath.Join(r.dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.mustGit("init", "-q", "-b", "main")
	r.mustGit("config", "user.name", "Stress User")
	r.mustGit("config", "user.email", "user@example.com")
	// An automatic gc runs inside the command that starts it, not after
	// the test in the background.
	r.mustGit("config", "gc.autoDetach", "false")
	r.mustGit("add", "-A")
	r.mustGit("commit", "-q", "-m", "First commit")
	if res := r.memkeep(nil, "init"); res.err != nil {
		t.Fatalf("memkeep init: %v\n%s%s", res.err, res.stdout, res.stderr)
	}
	// init commits nothing and says what to commit.
	if strings.TrimSpace(r.mustGit("status", "--porcelain")) != "" {
		r.mustGit("add", ".claude")
		r.mustGit("commit", "-q", "-m", "Set up memkeep project memory")
	}
	if st := strings.TrimSpace(r.mustGit("status", "--porcelain")); st != "" {
		t.Fatalf("work tree not clean after setup:\n%s", st)
	}
	return strings.TrimSpace(r.mustGit("rev-parse", "HEAD"))
}

// gitResult is one finished git command.
type gitResult struct {
	args []string
	code int
	out  string
}

// gitRun runs git in the repository and returns its combined output and
// exit status (-1 when it could not run).
func (r *stressRepo) gitRun(args ...string) gitResult {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		code = -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		if code == -1 {
			out = append(out, []byte("\n("+err.Error()+")")...)
		}
	}
	return gitResult{args: args, code: code, out: string(out)}
}

// mustGit is a git command of the test's own, which must succeed.
func (r *stressRepo) mustGit(args ...string) string {
	r.t.Helper()
	res := r.gitRun(args...)
	if res.code != 0 {
		r.t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), res.code, res.out)
	}
	return res.out
}

// procResult is one finished memkeep process.
type procResult struct {
	stdout, stderr []byte
	err            error
}

// memkeep runs memkeep in the repository as Claude Code or the user would:
// its own process, the repository's root as working directory.
func (r *stressRepo) memkeep(stdin []byte, args ...string) procResult {
	// Claude Code's own hook timeout is 60 s; a hook this slow is a hang.
	return r.memkeepWithin(30*time.Second, stdin, args...)
}

func (r *stressRepo) memkeepWithin(limit time.Duration, stdin []byte, args ...string) procResult {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, args...)
	// As Claude Code runs hooks and the agent's commands: CLAUDECODE=1.
	cmd.Dir, cmd.Env = r.dir, append(slices.Clip(r.env), "CLAUDECODE=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return procResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), err: err}
}

func (r *stressRepo) failf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fails = append(r.fails, fmt.Sprintf(format, args...))
}

func (r *stressRepo) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.fails)
}

// hooksLog is the lines of the hooks' error log under the git dir.
func (r *stressRepo) hooksLog() []string {
	b, err := os.ReadFile(filepath.Join(r.dir, ".git", "memkeep", "hooks.log"))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// stressSession is one Claude Code session: its transcript, which grows
// turn by turn, and the hooks it fires.
type stressSession struct {
	r          *stressRepo
	k          int
	id         string
	transcript string
	b          *fixtures.Builder
	written    int
	msgs, tool int // ids of assistant messages and tool calls
	fired      map[string]int
	tools      int // PostToolUse calls
	turns      int // Stop calls without stop_hook_active
	messages   []string
	failures   []string
}

func newStressSession(r *stressRepo, k int) *stressSession {
	id := fmt.Sprintf("5e55%04x-aaaa-4bbb-8ccc-%012x", k, k+1)
	return &stressSession{
		r: r, k: k, id: id,
		transcript: filepath.Join(r.t.TempDir(), id+".jsonl"),
		b:          fixtures.NewBuilder("2.1.330", id, r.dir).StartAt(time.Now().UTC()),
		fired:      map[string]int{},
	}
}

// run is the session: SessionStart, turns, SessionEnd, and then the
// consolidation SessionEnd hands to the background.
func (s *stressSession) run(turns int) {
	// The sessions open within a second of each other.
	time.Sleep(time.Duration(s.k) * 100 * time.Millisecond)
	s.flush()
	s.hook("SessionStart", map[string]any{"source": "startup"})
	for turn := range turns {
		s.turn(turn)
	}
	s.hook("SessionEnd", map[string]any{"reason": "prompt_input_exit"})
	// In the background, as SessionEnd starts it: the session is over
	// while it runs (it waits for the user's git to be quiet to commit).
	s.r.bg.Add(1)
	go func() {
		defer s.r.bg.Done()
		if res := s.r.memkeepWithin(2*time.Minute, nil, "consolidate", "--deferred"); res.err != nil {
			s.failf("memkeep consolidate --deferred (what SessionEnd starts): %v\nstdout: %s\nstderr: %s", res.err, res.stdout, res.stderr)
		}
	}()
}

// turn is one exchange: the prompt, a read, an edit and a test run, the
// answer, and Stop until it lets the turn end.
func (s *stressSession) turn(turn int) {
	file := filepath.Join(s.r.dir, "svc", fmt.Sprintf("s%d.go", s.k))
	rel := fmt.Sprintf("svc/s%d.go", s.k)
	prompt := fmt.Sprintf("Handle%d returns negative numbers for negative input (case %d); make it return the absolute value in %s and add a test.", s.k, turn, rel)
	if turn == 1 {
		prompt = fmt.Sprintf("From now on always run the svc%d checks before you say a change to %s is done.", s.k, rel)
	}
	// Claude Code fires UserPromptSubmit before it writes the prompt.
	s.hook("UserPromptSubmit", map[string]any{"prompt": prompt, "permission_mode": "default"})
	s.b.Prompt(prompt)
	s.flush()

	s.toolCall("Let me read the handler.", "Read", map[string]any{"file_path": file},
		"     1\tpackage svc\n     2\t\n     3\tfunc Handle(n int) int {\n     4\t\treturn n\n", false,
		map[string]any{"type": "text", "file": map[string]any{"filePath": file, "startLine": 1, "numLines": 6}})
	oldS, newS := "\treturn n\n", fmt.Sprintf("\tif n < 0 {\n\t\treturn -n // case %d\n\t}\n\treturn n\n", turn)
	s.toolCall("Negative input must be folded; I'll return -n when n < 0.", "Edit",
		map[string]any{"file_path": file, "old_string": oldS, "new_string": newS},
		"The file "+file+" has been updated successfully.", false,
		map[string]any{"filePath": file, "oldString": oldS, "newString": newS, "structuredPatch": []any{map[string]any{"oldStart": 4, "oldLines": 1, "newStart": 4, "newLines": 3}}})
	s.toolCall("", "Bash", map[string]any{"command": "go test ./svc/", "description": "Run the svc tests"},
		"ok  \texample.com/stress/svc\t0.003s", false,
		map[string]any{"stdout": "ok  \texample.com/stress/svc\t0.003s", "stderr": "", "interrupted": false, "isImage": false})

	last := fmt.Sprintf("Handle%d now returns the absolute value (case %d) and the svc tests pass.", s.k, turn)
	s.answer(last)
	active := false
	for stops := 1; ; stops++ {
		out := s.hook("Stop", map[string]any{"stop_hook_active": active, "last_assistant_message": last})
		if !active {
			s.turns++
		}
		request, blocks := stopRequest(out)
		if !blocks {
			return
		}
		// Claude Code's limit: it stops honouring a hook that keeps
		// blocking; memkeep promises far fewer (stop.block_budget).
		if stops == 8 {
			s.failf("turn %d: Stop still blocks after %d calls", turn, stops)
			return
		}
		// The agent does what it was asked, and the turn ends again.
		s.agentRecord(request, turn)
		last = fmt.Sprintf("Recorded case %d of Handle%d for the next session.", turn, s.k)
		s.answer(last)
		active = true
	}
}

// agentRecord answers Stop's request as the agent does: it runs the
// `memkeep l2 add` command it was given, with every <…> written, through
// the Bash tool (a PostToolUse like any other).
func (s *stressSession) agentRecord(request string, turn int) {
	const opening = " l2 add <<'"
	i := strings.Index(request, opening)
	if i < 0 {
		s.failf("turn %d: Stop's request holds no `l2 add` command:\n%s", turn, indent(request))
		return
	}
	program := request[strings.LastIndex(request[:i], "\n")+1 : i]
	marker, body, _ := strings.Cut(request[i+len(opening):], "'\n")
	body, _, found := strings.Cut(body, "\n"+marker)
	var rec map[string]any
	if err := json.Unmarshal([]byte(body), &rec); !found || err != nil {
		s.failf("turn %d: the record in Stop's request is not JSON (%v):\n%s", turn, err, indent(request))
		return
	}
	rec["summary"] = fmt.Sprintf("Handle%d in svc/s%d.go returns the absolute value now (case %d); the svc tests pass", s.k, s.k, turn)
	rec["why"] = fmt.Sprintf("Negative input to Handle%d came back negative", s.k)
	rec["decision"] = ""
	rec["learned"] = []string{fmt.Sprintf("svc/s%d.go Handle%d must fold negative input to its absolute value", s.k, s.k)}
	rec["keywords"] = []string{"absolute value", "negative input", fmt.Sprintf("handle%d", s.k), "svc"}
	rec["concept"] = "svc"
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		s.failf("turn %d: encode the record: %v", turn, err)
		return
	}
	res := s.r.memkeep(data, "l2", "add")
	result := strings.TrimSpace(string(res.stdout) + string(res.stderr))
	if res.err != nil {
		s.failf("turn %d: the agent's record, `memkeep l2 add` as Stop's request gave it, failed: %v\n%s", turn, res.err, indent(result))
	}
	command := fmt.Sprintf("%s l2 add <<'%s'\n%s\n%s", program, marker, data, marker)
	s.toolCall("", "Bash", map[string]any{"command": command, "description": "Record the exchange in memkeep"},
		result, res.err != nil, map[string]any{"stdout": string(res.stdout), "stderr": string(res.stderr), "interrupted": false, "isImage": false})
}

// toolCall writes one tool call and its result into the transcript and
// fires PostToolUse for it.
func (s *stressSession) toolCall(text, name string, input map[string]any, result string, isError bool, toolUseResult any) {
	s.msgs++
	s.tool++
	msgID := fmt.Sprintf("msg_s%d_%d", s.k, s.msgs)
	toolID := fmt.Sprintf("toolu_s%d_%d", s.k, s.tool)
	blocks := []map[string]any{fixtures.ToolUse(toolID, name, input)}
	if text != "" {
		blocks = append([]map[string]any{fixtures.Text(text)}, blocks...)
	}
	s.b.Assistant(msgID, blocks...)
	s.b.ToolResult(toolID, result, isError, toolUseResult)
	s.flush()
	s.hook("PostToolUse", map[string]any{"tool_name": name, "tool_input": input, "tool_response": toolUseResult, "tool_use_id": toolID, "permission_mode": "default"})
	s.tools++
}

// answer writes an assistant text into the transcript.
func (s *stressSession) answer(text string) {
	s.msgs++
	s.b.Assistant(fmt.Sprintf("msg_s%d_%d", s.k, s.msgs), fixtures.Text(text))
	s.flush()
}

// flush appends what the builder wrote since the last flush to the
// transcript file, as Claude Code appends lines.
func (s *stressSession) flush() {
	data := s.b.Bytes()
	f, err := os.OpenFile(s.transcript, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		_, err = f.Write(data[s.written:])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.failf("write the transcript: %v", err)
		return
	}
	s.written = len(data)
}

// hook fires one hook as Claude Code does and checks its contract: exit
// status 0, and nothing or one JSON object on stdout. It returns the
// decoded answer (nil when there is none).
func (s *stressSession) hook(event string, fields map[string]any) map[string]any {
	in := map[string]any{"session_id": s.id, "transcript_path": s.transcript, "cwd": s.r.dir, "hook_event_name": event}
	for k, v := range fields {
		in[k] = v
	}
	payload, err := json.Marshal(in)
	if err != nil {
		s.failf("%s: encode the payload: %v", event, err)
		return nil
	}
	s.fired[event]++
	res := s.r.memkeep(payload, "hook", event)
	if res.err != nil {
		s.failf("hook %s failed: %v\nstdout: %s\nstderr: %s", event, res.err, res.stdout, res.stderr)
	}
	if len(bytes.TrimSpace(res.stdout)) == 0 {
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal(res.stdout, &out); err != nil {
		s.failf("hook %s printed no JSON object (%v): %q", event, err, res.stdout)
		return nil
	}
	if msg, ok := out["systemMessage"].(string); ok && msg != "" {
		s.messages = append(s.messages, event+": "+msg)
	}
	return out
}

func (s *stressSession) failf(format string, args ...any) {
	s.failures = append(s.failures, fmt.Sprintf(format, args...))
}

// stopRequest reports whether a Stop answer continues the turn, and with
// what request: decision block (older clients) or additionalContext
// (2.1.163 and later).
func stopRequest(out map[string]any) (string, bool) {
	if out["decision"] == "block" {
		reason, _ := out["reason"].(string)
		return reason, true
	}
	spec, _ := out["hookSpecificOutput"].(map[string]any)
	ctx, _ := spec["additionalContext"].(string)
	return ctx, ctx != ""
}

// userCmd is one git command of the user's, as it ran.
type userCmd struct {
	round int
	args  []string
	code  int
	out   string
}

// dirtyObs is a `git status --porcelain -- .claude/memory` that was not
// empty.
type dirtyObs struct {
	after, status string
}

// userLoop is the user, working in the repository while the sessions run.
type userLoop struct {
	r            *stressRepo
	round        int
	cmds         []userCmd
	rounds       int
	recoveries   map[string]int // recovery commands, by what they did
	observations int
	transient    int // dirty only while a memory commit was writing
	dirty        []dirtyObs
	edits        int
	topics       []string // topic branches not yet brought into main
}

// work repeats rounds of the user's everyday git until done is closed,
// and at least one round.
func (u *userLoop) work(done <-chan struct{}) {
	for {
		u.round++
		u.oneRound()
		u.rounds++
		select {
		case <-done:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// oneRound commits on main, stashes and pops a change, commits on a topic
// branch, and rebases the topic onto main and main onto the topic. A
// failed command ends the round, after the user puts the repository back
// in order (recover).
func (u *userLoop) oneRound() {
	defer u.recover()
	if !u.onMain() {
		return
	}
	// Commit a change of the user's own file.
	u.edit("app/user.go")
	if !u.git("commit", "-q", "-am", fmt.Sprintf("user: change %d", u.edits)) {
		return
	}
	// Stash a local change, pop it, commit it.
	u.edit("app/user.go")
	before := u.stashTop()
	if !u.git("stash", "push") {
		return
	}
	if u.stashTop() == before {
		// Nothing was stashed, so there is nothing to pop: the test's
		// own mistake, not the user's git failing.
		u.r.failf("round %d: git stash saved nothing after an edit of app/user.go", u.round)
		return
	}
	if !u.git("stash", "pop") {
		return
	}
	if !u.git("commit", "-q", "-am", fmt.Sprintf("user: stashed change %d", u.edits)) {
		return
	}
	// A topic branch, while main moves on.
	topic := fmt.Sprintf("topic-%d", u.round)
	if !u.git("switch", "-q", "-c", topic) {
		return
	}
	u.topics = append(u.topics, topic)
	u.edit("app/topic.go")
	if !u.git("commit", "-q", "-am", fmt.Sprintf("user: topic change %d", u.edits)) {
		return
	}
	if !u.git("switch", "-q", "main") {
		return
	}
	u.edit("app/user.go")
	if !u.git("commit", "-q", "-am", fmt.Sprintf("user: change %d on main", u.edits)) {
		return
	}
	// The topic rebased onto main, then main brought to the topic.
	if !u.git("switch", "-q", topic) || !u.git("rebase", "-q", "main") || !u.git("switch", "-q", "main") || !u.git("rebase", "-q", topic) {
		return
	}
	if u.git("branch", "-q", "-d", topic) {
		u.topics = slices.DeleteFunc(u.topics, func(b string) bool { return b == topic })
	}
}

// finish ends the user's day on main, every topic branch merged.
func (u *userLoop) finish() {
	u.round++
	u.recover()
	defer u.recover()
	u.onMain()
}

// onMain switches to main when the user is elsewhere (a round that
// failed), and merges the topic branches a failed round left behind, so
// that their memory commits reach main.
func (u *userLoop) onMain() bool {
	if b := strings.TrimSpace(u.r.gitRun("branch", "--show-current").out); b != "main" {
		if !u.git("switch", "-q", "main") && !u.retry("switch", "-q", "main") {
			return false
		}
	}
	for _, topic := range slices.Clone(u.topics) {
		if !u.git("merge", "-q", "--no-edit", topic) && !u.retry("merge", "-q", "--no-edit", topic) {
			return false
		}
		if u.git("branch", "-q", "-D", topic) {
			u.topics = slices.DeleteFunc(u.topics, func(b string) bool { return b == topic })
		}
	}
	return true
}

// retry is the user's way out when git refuses to run over the memory in
// the work tree: commit it with `memkeep commit` and run the command again,
// a few times. These runs are recovery, not the user's work: they are not
// checked (the refusal that called for them was).
func (u *userLoop) retry(args ...string) bool {
	for range 3 {
		u.recover()
		u.recoveries["memkeep commit"]++
		u.recoveries["git "+args[0]+" (again)"]++
		u.r.memkeep(nil, "commit")
		if u.r.gitRun(args...).code == 0 {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	u.recover()
	return false
}

// stashTop is the newest stash entry, or "".
func (u *userLoop) stashTop() string {
	return strings.TrimSpace(u.r.gitRun("rev-parse", "-q", "--verify", "refs/stash").out)
}

// edit changes one of the files only the user edits.
func (u *userLoop) edit(name string) {
	u.edits++
	p := filepath.Join(u.r.dir, name)
	b, err := os.ReadFile(p)
	if err == nil {
		b = fmt.Appendf(b, "\n// user edit %d\nvar _ = %d\n", u.edits, u.edits)
		err = os.WriteFile(p, b, 0o644)
	}
	if err != nil {
		u.r.failf("user edit of %s: %v", name, err)
	}
}

// git runs one of the user's commands, records it, and then observes the
// memory folder. It reports whether the command succeeded.
func (u *userLoop) git(args ...string) bool {
	res := u.r.gitRun(args...)
	u.cmds = append(u.cmds, userCmd{round: u.round, args: args, code: res.code, out: res.out})
	u.observe("git " + strings.Join(args, " "))
	return res.code == 0
}

// observe records whether .claude/memory differs from the index or HEAD.
// The observation takes no optional lock, so that it disturbs nothing.
// A memory commit writes several files and then the index, as git's own
// checkout does, and a status read in between sees the files ahead of the
// index: a dirty observation is therefore made again while no memkeep
// commit can run (its commit.lock held), and counted as dirty only when it
// is still dirty then; the passing ones are counted as transient.
func (u *userLoop) observe(after string) {
	st, ok := u.status(after)
	u.observations++
	if !ok || st == "" {
		return
	}
	lk, err := filelock.Acquire(filepath.Join(u.r.dir, ".git", "memkeep", "commit.lock"), 10*time.Second)
	if err == nil {
		st, ok = u.status(after)
		lk.Unlock()
	}
	if !ok {
		return
	}
	if st == "" {
		u.transient++
		return
	}
	u.dirty = append(u.dirty, dirtyObs{after: fmt.Sprintf("%s (round %d)", after, u.round), status: st})
}

func (u *userLoop) status(after string) (string, bool) {
	res := u.r.gitRun("--no-optional-locks", "status", "--porcelain", "--", ".claude/memory")
	if res.code != 0 {
		u.r.failf("git status after %s: exit %d\n%s", after, res.code, res.out)
		return "", false
	}
	return strings.TrimRight(res.out, "\n"), true
}

// recover puts the repository back in order after a failed command, as the
// user would, so that the next round starts from a branch: a rebase or
// merge in progress is aborted and unmerged paths are reset (a stash that
// failed to pop stays in the stash list). When aborting keeps failing
// (memory changed under git's feet), the user quits the operation and
// puts their own files back as HEAD has them, leaving the memory folder
// as memkeep wrote it. These commands are not the user's work and are not
// checked.
func (u *userLoop) recover() {
	gitDir := filepath.Join(u.r.dir, ".git")
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(gitDir, name)); return err == nil }
	var last string // the output of the last recovery command that failed
	for try := 0; ; try++ {
		rebasing, merging := exists("rebase-merge") || exists("rebase-apply"), exists("MERGE_HEAD")
		unmerged := strings.TrimSpace(u.r.gitRun("ls-files", "-u").out) != ""
		if !rebasing && !merging && !unmerged {
			return
		}
		var todo [][]string
		switch {
		case try == 10:
			u.r.failf("round %d: the repository stays in the middle of an operation (rebase %v, merge %v, unmerged paths %v); recovery gave up, git last said:\n%s", u.round, rebasing, merging, unmerged, indent(last))
			return
		case try < 3:
			if rebasing {
				todo = append(todo, []string{"rebase", "--abort"})
			}
			if merging {
				todo = append(todo, []string{"merge", "--abort"})
			}
			if unmerged {
				todo = append(todo, []string{"reset", "-q", "--merge"})
			}
		default:
			if rebasing {
				todo = append(todo, []string{"rebase", "--quit"})
			}
			if merging {
				todo = append(todo, []string{"merge", "--quit"})
			}
			todo = append(todo, []string{"reset", "-q"}, []string{"checkout", "-q", "HEAD", "--", ".", ":(exclude).claude/memory"})
		}
		for _, args := range todo {
			kind := "git " + strings.Join(args[:2], " ")
			u.recoveries[kind]++
			if res := u.r.gitRun(args...); res.code != 0 {
				u.recoveries[kind+" (failed)"]++
				last = res.out
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// recoveryCounts is "none", or the recovery commands run, by kind.
func (u *userLoop) recoveryCounts() string {
	var parts []string
	for kind, n := range u.recoveries {
		parts = append(parts, fmt.Sprintf("%s ×%d", kind, n))
	}
	if len(parts) == 0 {
		return "none"
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func (u *userLoop) failed() int {
	n := 0
	for _, c := range u.cmds {
		if c.code != 0 {
			n++
		}
	}
	return n
}

// historyReport is what the commits since setup show.
type historyReport struct {
	mainMemkeep, mainUser int
	allMemkeep, allUser   int
	violations            []string
}

// history classifies every commit since setup, on every branch (the stash
// aside): a memkeep commit carries the trailer Memkeep-Commit: memory only.
// A merge (of a topic branch a failed round left behind) is judged by the
// commits it merges, not by its own diff.
func (r *stressRepo) history(setupHead string) historyReport {
	var h historyReport
	const format = "--format=%x1e%H%x1f%s%x1f%(trailers:key=Memkeep-Commit,valueonly,separator=%x2C)%x1f"
	out := r.mustGit("log", "--exclude=refs/stash", "--all", "^"+setupHead, "--no-renames", "--diff-merges=off", "--name-only", format)
	for _, c := range parseLog(out) {
		memkeep := c.trailer == "memory only"
		if memkeep {
			h.allMemkeep++
		} else {
			h.allUser++
		}
		var wrong []string
		for _, p := range c.paths {
			if underMemory(p) != memkeep {
				wrong = append(wrong, p)
			}
		}
		switch {
		case len(wrong) == 0:
		case memkeep:
			h.violations = append(h.violations, fmt.Sprintf("memkeep commit %.10s %q changes paths outside .claude/memory: %s", c.hash, c.subject, strings.Join(firstN(wrong, 5), ", ")))
		default:
			h.violations = append(h.violations, fmt.Sprintf("user commit %.10s %q changes memory: %s", c.hash, c.subject, strings.Join(firstN(wrong, 5), ", ")))
		}
	}
	for _, c := range parseLog(r.mustGit("log", "--first-parent", "main", "^"+setupHead, format)) {
		if c.trailer == "memory only" {
			h.mainMemkeep++
		} else {
			h.mainUser++
		}
	}
	return h
}

type logCommit struct {
	hash, subject, trailer string
	paths                  []string
}

// parseLog reads the output of git log with history's format.
func parseLog(out string) []logCommit {
	var cs []logCommit
	for _, rec := range strings.Split(out, "\x1e") {
		if strings.TrimSpace(rec) == "" {
			continue
		}
		// The header ends with the format's last \x1f; the names follow.
		i := strings.LastIndex(rec, "\x1f")
		if i < 0 {
			continue
		}
		head, names := rec[:i], rec[i+1:]
		f := strings.Split(head, "\x1f")
		if len(f) < 3 {
			continue
		}
		c := logCommit{hash: f[0], subject: f[1], trailer: strings.TrimSpace(f[2])}
		for _, p := range strings.Split(names, "\n") {
			if p = strings.TrimSpace(p); p != "" {
				c.paths = append(c.paths, p)
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func underMemory(p string) bool { return strings.HasPrefix(p, ".claude/memory/") }

// hookStatsResult sums what the sessions fired.
type hookStatsResult struct {
	total    int
	byEvent  string
	messages []string
}

// hookStats counts the hooks the sessions fired, by event, and collects
// the distinct systemMessages they answered with.
func (r *stressRepo) hookStats(ss []*stressSession) hookStatsResult {
	var res hookStatsResult
	by := map[string]int{}
	seen := map[string]bool{}
	for _, s := range ss {
		for ev, n := range s.fired {
			by[ev] += n
			res.total += n
		}
		for _, m := range s.messages {
			if !seen[m] {
				seen[m] = true
				res.messages = append(res.messages, m)
			}
		}
	}
	var parts []string
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"} {
		parts = append(parts, fmt.Sprintf("%s %d", ev, by[ev]))
	}
	res.byEvent = strings.Join(parts, ", ")
	return res
}

// streamEvent is the part of a stream line the check reads.
type streamEvent struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	SessionID string `json:"session_id"`
}

// checkStream reads every stream file in HEAD and compares each session's
// events with the hooks it fired: the session's start and end once, a
// prompt and a stop per turn (Stop records no event when it runs again
// with stop_hook_active), an event per tool use; and no id twice.
func (r *stressRepo) checkStream(ss []*stressSession) []string {
	var fails []string
	names := r.mustGit("ls-tree", "-r", "--name-only", "HEAD", "--", ".claude/memory/stream")
	counts := map[string]map[string]int{} // session, type
	lines := map[string]string{}          // id, the line
	files := 0
	for _, name := range strings.Fields(names) {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		files++
		data := r.mustGit("show", "HEAD:"+name)
		for i, line := range strings.Split(data, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var ev streamEvent
			if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.ID == "" {
				fails = append(fails, fmt.Sprintf("%s:%d is no event (%v): %.120s", name, i+1, err, line))
				continue
			}
			if prev, dup := lines[ev.ID]; dup {
				what := "a second event with the same id"
				if prev == line {
					what = "the same event twice"
				}
				fails = append(fails, fmt.Sprintf("id %s in %s: %s: %.160s", ev.ID, name, what, line))
				continue
			}
			lines[ev.ID] = line
			if counts[ev.SessionID] == nil {
				counts[ev.SessionID] = map[string]int{}
			}
			typ := ev.Type
			if typ == "edit" {
				typ = "tool_use" // PostToolUse records an edit as "edit"
			}
			counts[ev.SessionID][typ]++
		}
	}
	if files == 0 {
		return append(fails, "HEAD has no stream file under .claude/memory/stream")
	}
	for _, s := range ss {
		want := map[string]int{
			"session_start": s.fired["SessionStart"],
			"prompt":        s.fired["UserPromptSubmit"],
			"tool_use":      s.tools,
			"stop":          s.turns,
			"session_end":   s.fired["SessionEnd"],
		}
		got := counts[s.id]
		for _, typ := range []string{"session_start", "prompt", "tool_use", "stop", "session_end"} {
			if got[typ] != want[typ] {
				fails = append(fails, fmt.Sprintf("session %s: %d %s events in HEAD's stream, want %d", s.id, got[typ], typ, want[typ]))
			}
		}
		for typ, n := range got {
			if _, ok := want[typ]; !ok {
				fails = append(fails, fmt.Sprintf("session %s: %d unexpected %s events", s.id, n, typ))
			}
		}
	}
	return fails
}

func firstN[T any](xs []T, n int) []T { return xs[:min(n, len(xs))] }

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "    (no output)"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

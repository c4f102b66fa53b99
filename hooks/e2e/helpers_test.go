package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memkeep/memkeep/internal/claudetest"
)

// TestMain removes the memkeep binary built for the package's tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

// memkeepBin builds cmd/memkeep once for the whole package (a build per
// test would cost seconds each on 2 cores) into a folder of its own, which
// the tests put first on PATH.
func memkeepBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		start := time.Now()
		buildDir, buildErr = os.MkdirTemp("", "memkeep-e2e-bin-")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "memkeep")
		out, err := exec.Command("go", "build", "-o", buildBin, "github.com/memkeep/memkeep/cmd/memkeep").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build cmd/memkeep: %v\n%s", err, out)
		}
		t.Logf("built memkeep in %v", time.Since(start).Round(time.Millisecond))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// project is a claudetest harness with memkeep installed.
type project struct {
	*claudetest.Harness
	t  *testing.T
	mk string // the memkeep binary
}

// newProject starts a harness with the scenario fixtures/e2e/<scenario>.json
// and runs `memkeep init --local --program <built binary>` in it. The
// built binary's folder heads PATH for every run, so the agent runs the
// Stop hook's commands as printed ("memkeep …").
func newProject(t *testing.T, scenario string) *project {
	t.Helper()
	bin := claudetest.Require(t)
	mk := memkeepBin(t)
	h := claudetest.New(t, bin, claudetest.LoadScenario(t, scenario))
	h.Env = append(h.Env, "PATH="+filepath.Dir(mk)+string(os.PathListSeparator)+os.Getenv("PATH"))
	p := &project{Harness: h, t: t, mk: mk}
	// Registered after the harness's cleanups, so it runs before them:
	// the background consolidation must be gone before its folder is.
	t.Cleanup(func() { p.waitBackground(20 * time.Second) })
	out := p.memkeep("init", "--local", "--program", mk)
	t.Logf("memkeep init:\n%s", out)
	if keep := os.Getenv("MEMKEEP_E2E_KEEP"); keep != "" {
		// Debugging aid: keep a copy of the project and HOME of each test.
		t.Cleanup(func() {
			dst := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
			os.RemoveAll(dst)
			os.MkdirAll(dst, 0o755)
			exec.Command("cp", "-a", p.Dir, p.Home, dst).Run()
			t.Logf("project kept in %s", dst)
		})
	}
	return p
}

// memkeep runs the built memkeep in the project and returns its standard
// output, failing the test if it fails.
func (p *project) memkeep(args ...string) string {
	p.t.Helper()
	out, err := p.memkeepErr(args...)
	if err != nil {
		p.t.Fatalf("memkeep %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (p *project) memkeepErr(args ...string) (string, error) {
	cmd := exec.Command(p.mk, args...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "HOME="+p.Home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

// path is a path under the project.
func (p *project) path(rel string) string { return filepath.Join(p.Dir, filepath.FromSlash(rel)) }

// stateDir is memkeep's local state under the git dir.
func (p *project) stateDir() string { return p.path(".git/memkeep") }

// hooksLog is the content of <git dir>/memkeep/hooks.log ("" when absent).
func (p *project) hooksLog() string {
	b, _ := os.ReadFile(filepath.Join(p.stateDir(), "hooks.log"))
	return string(b)
}

// waitBackground waits for the `memkeep consolidate --deferred` that
// SessionEnd starts detached (its own session, so Claude Code does not wait
// for it): until no memkeep process runs in the project any more. It then
// reports whether the deferred work is done (SessionEnd's markers are
// gone), logging what is left when it is not or when the time limit
// passed. Every test waits for it at the end too, before its temporary
// folders are removed.
func (p *project) waitBackground(limit time.Duration) bool {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		pids := p.memkeepProcesses()
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			p.t.Logf("memkeep processes still running in the project after %v: %v", limit, pids)
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	ents, _ := os.ReadDir(filepath.Join(p.stateDir(), "deferred"))
	if len(ents) > 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		p.t.Logf("deferred consolidation still owed: %v", names)
		return false
	}
	return true
}

// memkeepProcesses lists the processes running the built memkeep with the
// project as their working directory (Linux /proc; the pinned Claude Code
// is the linux-x64 build, so the tests only run there).
func (p *project) memkeepProcesses() []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != p.mk {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == p.Dir {
			out = append(out, e.Name())
		}
	}
	return out
}

// run runs claude and fails the test unless it produced a result.
func (p *project) run(prompt string, opts ...claudetest.RunOption) (claudetest.Result, time.Duration) {
	p.t.Helper()
	start := time.Now()
	res, err := p.Run(p.t.Context(), prompt, opts...)
	if err != nil {
		p.t.Fatalf("claude run: %v", err)
	}
	return res, time.Since(start)
}

// requireSuccess fails the test unless the run ended normally.
func requireSuccess(t *testing.T, res claudetest.Result) {
	t.Helper()
	if res.ExitCode != 0 || res.IsError || res.Subtype != "success" {
		t.Fatalf("run failed: exit %d, is_error %v, subtype %q, result %q\nstderr: %s",
			res.ExitCode, res.IsError, res.Subtype, res.Result, res.Stderr)
	}
}

// stopAsks are the agent requests whose last user message is a Stop hook
// request (memkeep's additionalContext on 2.1.330, or a block reason on a
// client that gets decision "block").
func stopAsks(reqs []*claudetest.Request) []*claudetest.Request {
	var out []*claudetest.Request
	for _, r := range reqs {
		if isStopAsk(r.LastUserText()) {
			out = append(out, r)
		}
	}
	return out
}

func isStopAsk(s string) bool {
	return strings.Contains(s, claudetest.StopContextLabel) || strings.HasPrefix(s, claudetest.StopFeedbackPrefix)
}

// recordHeredoc is the record Stop asks for: the JSON of the heredoc.
var recordHeredoc = regexp.MustCompile(`(?s)\n([^\n]*l2 add <<'MEMKEEP_RECORD')\n(.*?)\nMEMKEEP_RECORD`)

// checkStopAsk checks a Stop request as the model saw it: additionalContext
// (no blocking error), at most 1,500 characters, one command whose record
// is prefilled with this session's id and memkeep's record of the
// exchange, <…> left for the agent, and no chore memkeep can do itself.
// It returns the record as prefilled.
func checkStopAsk(t *testing.T, r *claudetest.Request, sessionID string) map[string]any {
	t.Helper()
	text := r.LastUserText()
	i := strings.Index(text, claudetest.StopContextLabel)
	if i < 0 {
		t.Errorf("Stop request not sent as additionalContext (Claude Code %s supports it):\n%s", claudetest.Version, text)
	}
	if strings.Contains(r.Text(), "blocking error") {
		t.Errorf("the Stop request reached the model as a blocking error")
	}
	ask := strings.TrimPrefix(strings.TrimSpace(text[max(i, 0):]), claudetest.StopContextLabel)
	ask = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ask), "</system-reminder>"))
	if n := len([]rune(ask)); n > 1500 {
		t.Errorf("the Stop request is %d characters, over 1,500:\n%s", n, ask)
	}
	for _, chore := range []string{"l3 assign", "l4 reflect", "memkeep render", "consolidate"} {
		if strings.Contains(ask, chore) {
			t.Errorf("the Stop request asks for the chore %q:\n%s", chore, ask)
		}
	}
	m := recordHeredoc.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no `memkeep l2 add <<'MEMKEEP_RECORD'` command in the Stop request:\n%s", text)
	}
	if n := strings.Count(text, "l2 add <<"); n != 1 {
		t.Errorf("the Stop request holds %d commands, want one", n)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(m[2]), &rec); err != nil {
		t.Fatalf("the record in the Stop request is not JSON: %v\n%s", err, m[2])
	}
	if rec["session"] != sessionID {
		t.Errorf("record session = %v, want this session %s", rec["session"], sessionID)
	}
	if x, _ := rec["exchange"].(string); !strings.HasPrefix(x, "x-") {
		t.Errorf("record exchange = %v, want memkeep's record of it", rec["exchange"])
	}
	for _, f := range []string{"summary", "why", "concept"} {
		if v, _ := rec[f].(string); !strings.HasPrefix(v, "<") || !strings.HasSuffix(v, ">") {
			t.Errorf("record %s = %q, want a <…> for the agent", f, v)
		}
	}
	return rec
}

// toolResultAfter returns the tool_result blocks of the request that
// followed r in reqs (what the commands r asked for printed).
func toolResultAfter(reqs []*claudetest.Request, r *claudetest.Request) []claudetest.Block {
	for i, x := range reqs {
		if x != r || i+1 >= len(reqs) {
			continue
		}
		next := reqs[i+1]
		for j := len(next.Messages) - 1; j >= 0; j-- {
			m := next.Messages[j]
			if m.Role != "user" {
				continue
			}
			var out []claudetest.Block
			for _, b := range m.Content {
				if b.Type == "tool_result" {
					out = append(out, b)
				}
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	return nil
}

// streamEvent is the part of a stream event the tests look at.
type streamEvent struct {
	Type      string `json:"type"`
	SessionID string `json:"session_id"`
	Summary   string `json:"summary"`
}

// streamEvents reads every event of the project's stream.
func (p *project) streamEvents() []streamEvent {
	p.t.Helper()
	files, _ := filepath.Glob(p.path(".claude/memory/stream/*.jsonl"))
	var out []streamEvent
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			p.t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var ev streamEvent
			if err := json.Unmarshal(sc.Bytes(), &ev); err == nil {
				out = append(out, ev)
			}
		}
	}
	return out
}

// countEvents counts the stream events of a type for a session.
func countEvents(evs []streamEvent, typ, sid string) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ && e.SessionID == sid {
			n++
		}
	}
	return n
}

// memoryCommits returns the commits after base (oldest first) with the
// paths each one changed.
func (p *project) memoryCommits(base string) (commits []string, paths map[string][]string) {
	p.t.Helper()
	paths = map[string][]string{}
	log := p.Git("log", "--reverse", "--format=%H", base+"..HEAD")
	if log == "" {
		return nil, paths
	}
	for _, c := range strings.Split(log, "\n") {
		commits = append(commits, c)
		names := p.Git("show", "--name-only", "--format=", c)
		paths[c] = strings.Split(names, "\n")
	}
	return commits, paths
}

// userStatus is `git status --porcelain -uall` without the memory folder's
// own lines: the user's view of their work.
func (p *project) userStatus() []string {
	p.t.Helper()
	var out []string
	for _, line := range strings.Split(p.Git("status", "--porcelain", "-uall"), "\n") {
		// The memory folder is memkeep's; settings.local.json is what init
		// wrote (Claude Code ignores it through the global gitignore it
		// writes into HOME on its first run, so it leaves the list then).
		if line == "" || strings.HasPrefix(line[3:], ".claude/memory/") || line[3:] == ".claude/settings.local.json" {
			continue
		}
		out = append(out, line)
	}
	return out
}

// memoryStatus is what `git status --porcelain -uall` lists under the
// memory folder (nothing, once a commit landed and nothing changed since).
func (p *project) memoryStatus() []string {
	p.t.Helper()
	var out []string
	for _, line := range strings.Split(p.Git("status", "--porcelain", "-uall", "--", ".claude/memory"), "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// fsck runs git fsck --strict and fails the test on any problem.
func (p *project) fsck() {
	p.t.Helper()
	cmd := exec.Command("git", "fsck", "--strict", "--no-dangling")
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "HOME="+p.Home)
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		p.t.Errorf("git fsck --strict: %v\n%s", err, out)
	}
}

// logTimes reports how long the test's runs took.
func logTimes(t *testing.T, start time.Time, runs ...time.Duration) {
	t.Helper()
	var parts []string
	for i, d := range runs {
		parts = append(parts, fmt.Sprintf("run %d %v", i+1, d.Round(time.Millisecond)))
	}
	t.Logf("TIMING %s: %v total (%s)", t.Name(), time.Since(start).Round(time.Millisecond), strings.Join(parts, ", "))
}

// commitFile writes and commits files in the project (setup only).
func (p *project) commitFiles(msg string, files map[string]string) {
	p.t.Helper()
	names := make([]string, 0, len(files))
	for name, content := range files {
		p.WriteFile(name, []byte(content))
		names = append(names, name)
	}
	slices.Sort(names)
	p.Git(append([]string{"add", "--"}, names...)...)
	p.Git("commit", "-q", "-m", msg)
}

// readFile reads a file under the project ("" when absent).
func (p *project) readFile(rel string) string {
	b, _ := os.ReadFile(p.path(rel))
	return string(b)
}

// hookRun is one hook execution as Claude Code recorded it in the session
// transcript (an attachment line such as hook_success, or an error kind).
type hookRun struct {
	Kind     string // attachment type: hook_success, hook_non_blocking_error, …
	Event    string // hookEvent
	Name     string // hookName, like "PostToolUse:Edit"
	Stdout   string
	Stderr   string
	ExitCode int
}

// hookErrorKinds are the attachment types Claude Code 2.1.330 writes when a
// hook failed in a way the user or the model is shown.
var hookErrorKinds = []string{"hook_non_blocking_error", "hook_blocking_error", "hook_error_during_execution",
	"hook_cancelled", "hook_failed", "hook_stopped_continuation"}

// hookRuns reads the hook executions of a transcript, and the hook errors
// its stop_hook_summary lines list.
func hookRuns(t *testing.T, transcript string) (runs []hookRun, summaryErrors []string) {
	t.Helper()
	b, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("transcript: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Type       string `json:"type"`
			Subtype    string `json:"subtype"`
			HookErrors []any  `json:"hookErrors"`
			Attachment struct {
				Type      string `json:"type"`
				HookEvent string `json:"hookEvent"`
				HookName  string `json:"hookName"`
				Stdout    string `json:"stdout"`
				Stderr    string `json:"stderr"`
				ExitCode  int    `json:"exitCode"`
			} `json:"attachment"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.Type == "system" && line.Subtype == "stop_hook_summary" {
			for _, e := range line.HookErrors {
				summaryErrors = append(summaryErrors, fmt.Sprint(e))
			}
		}
		a := line.Attachment
		if line.Type != "attachment" || a.HookEvent == "" || !strings.HasPrefix(a.Type, "hook_") {
			continue
		}
		if a.Type != "hook_success" && !slices.Contains(hookErrorKinds, a.Type) {
			continue // context, system messages: the output of a run already listed
		}
		runs = append(runs, hookRun{Kind: a.Type, Event: a.HookEvent, Name: a.HookName, Stdout: a.Stdout, Stderr: a.Stderr, ExitCode: a.ExitCode})
	}
	return runs, summaryErrors
}

// checkHooksClean fails the test when a hook failed in Claude Code's eyes
// (an error attachment, a non-zero exit, a stop_hook_summary error, output
// that is not one JSON object) and returns the Stop runs.
func checkHooksClean(t *testing.T, transcript string) (stops []hookRun) {
	t.Helper()
	runs, summaryErrs := hookRuns(t, transcript)
	if len(runs) == 0 {
		t.Errorf("no hook runs recorded in the transcript")
	}
	for _, r := range runs {
		if r.Kind != "hook_success" || r.ExitCode != 0 {
			t.Errorf("hook %s: %s, exit %d\nstdout: %s\nstderr: %s", r.Name, r.Kind, r.ExitCode, r.Stdout, r.Stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(r.Stdout), &v); err != nil {
			t.Errorf("hook %s printed something other than one JSON object: %q", r.Name, r.Stdout)
		}
		if r.Event == "Stop" {
			stops = append(stops, r)
		}
	}
	if len(summaryErrs) > 0 {
		t.Errorf("Stop hook errors recorded by Claude Code: %v", summaryErrs)
	}
	return stops
}

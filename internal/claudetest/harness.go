package claudetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// DefaultTimeout bounds one Claude Code run when the caller's context has
// no earlier deadline. A scripted run takes a few seconds; a hang (a hook
// that never returns, a server that never answers) should fail the test
// long before go test's own timeout kills the whole package.
const DefaultTimeout = 2 * time.Minute

// DefaultAllowedTools are the tools pre-approved for a run, so that
// Claude Code never stops to ask for a permission nobody can grant.
var DefaultAllowedTools = []string{"Bash", "Edit", "Write", "Read"}

// Harness is one isolated Claude Code world: a git repository to work
// in (Dir), a private HOME (so runs read no user settings and write their
// transcripts where the test can find them), and the scripted server.
// Several runs on one Harness share all three, which is how a test
// drives a second session or a --resume.
type Harness struct {
	// Bin is the Claude Code binary.
	Bin string
	// Dir is the project directory: a fresh git repository with one
	// commit, the working directory of every run.
	Dir string
	// Home is HOME for Claude Code and its hooks.
	Home string
	// Server is the scripted Messages API.
	Server *Server
	// Env is added to the environment of every run (and so of the hooks),
	// as "KEY=value" entries; later entries win.
	Env []string

	t testing.TB
}

// Option configures a Harness at creation.
type Option func(*options)

type options struct {
	project string
}

// ProjectDirName names the project directory (default "project"). A
// name with spaces or other shell-hostile characters checks that hook
// commands and transcript paths survive them.
func ProjectDirName(name string) Option { return func(o *options) { o.project = name } }

// New creates a Harness for bin with the given script and registers its
// cleanup with t. The project directory is a git repository with a
// committed README.md, so hooks that commit or diff have a HEAD to work
// against; git identity comes from a .gitconfig in the private HOME.
func New(t testing.TB, bin string, script Script, opts ...Option) *Harness {
	t.Helper()
	o := options{project: "project"}
	for _, opt := range opts {
		opt(&o)
	}
	if err := script.Validate(); err != nil {
		t.Fatalf("claudetest: invalid script %q: %v", script.Name, err)
	}
	root := t.TempDir()
	// Resolve symlinks once so that the paths in payloads, transcripts
	// and requests (Claude Code reports the real path) compare equal to
	// ours.
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	h := &Harness{
		Bin:  bin,
		Dir:  filepath.Join(root, o.project),
		Home: filepath.Join(root, "home"),
		t:    t,
	}
	for _, d := range []string{h.Dir, h.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeHomeState(h.Home, h.Dir); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	if err := initRepo(h.Dir, h.env(nil)); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	h.Server = NewServer(script, t.Logf)
	h.Server.SetTemplateData(h.Dir, h.Home)
	t.Cleanup(h.Server.Close)
	return h
}

// writeHomeState writes the state an established user has: onboarding
// done and the project trusted, plus a git identity for hooks that
// commit. Claude Code 2.1.330 runs headless (-p) without any of it (no
// prompt, project hooks still fire), but a pre-seeded HOME keeps the runs
// on the same path a real user's would take instead of a first-run one.
// Claude Code rewrites this file on every run, adding its own keys.
func writeHomeState(home, dir string) error {
	state := map[string]any{
		"hasCompletedOnboarding": true,
		"lastOnboardingVersion":  Version,
		"numStartups":            1,
		"projects": map[string]any{
			dir: map[string]any{"allowedTools": []string{}, "hasTrustDialogAccepted": true},
		},
	}
	b, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), b, 0o600); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		return err
	}
	gitconfig := "[user]\n\tname = claudetest\n\temail = claudetest@example.invalid\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
	return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644)
}

func initRepo(dir string, env []string) error {
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# scratch project\n"), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "README.md"},
		{"commit", "-q", "-m", "initial commit"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// Result is what one Claude Code run produced.
type Result struct {
	// Fields of the --output-format json object.
	Type       string  `json:"type"`
	Subtype    string  `json:"subtype"`
	IsError    bool    `json:"is_error"`
	Result     string  `json:"result"`
	SessionID  string  `json:"session_id"`
	NumTurns   int     `json:"num_turns"`
	DurationMS int     `json:"duration_ms"`
	CostUSD    float64 `json:"total_cost_usd"`
	StopReason string  `json:"stop_reason"`

	// JSON is the whole output object, for fields not decoded above.
	JSON map[string]any `json:"-"`
	// Stdout and Stderr are the process's raw output.
	Stdout, Stderr []byte `json:"-"`
	// ExitCode is the process's exit status.
	ExitCode int `json:"-"`
	// Elapsed is the wall-clock time of the whole process.
	Elapsed time.Duration `json:"-"`
	// TranscriptPath is where Claude Code wrote the session transcript:
	// $HOME/.claude/projects/<munged project dir>/<session id>.jsonl.
	TranscriptPath string `json:"-"`
}

// RunOption adjusts one run.
type RunOption func(*runConfig)

type runConfig struct {
	resume  string
	timeout time.Duration
	env     []string
	args    []string
	tools   []string
	mode    string
}

// Resume continues an earlier session (claude --resume ID).
func Resume(sessionID string) RunOption { return func(c *runConfig) { c.resume = sessionID } }

// Timeout replaces DefaultTimeout for this run.
func Timeout(d time.Duration) RunOption { return func(c *runConfig) { c.timeout = d } }

// Env adds "KEY=value" entries to this run's environment.
func Env(kv ...string) RunOption { return func(c *runConfig) { c.env = append(c.env, kv...) } }

// Args appends extra command-line arguments (e.g. "--model", "x").
func Args(args ...string) RunOption { return func(c *runConfig) { c.args = append(c.args, args...) } }

// AllowedTools replaces DefaultAllowedTools.
func AllowedTools(tools ...string) RunOption { return func(c *runConfig) { c.tools = tools } }

// PermissionMode replaces the default "acceptEdits". (bypassPermissions
// is refused when running as root, which CI containers usually are.)
func PermissionMode(mode string) RunOption { return func(c *runConfig) { c.mode = mode } }

// Run runs `claude -p prompt --output-format json` in h.Dir against the
// scripted server and waits for it. The error is non-nil only when the
// run could not produce a result: the binary did not start, timed out,
// or printed no JSON result. A run that Claude Code itself reports as
// failed (is_error, non-zero exit) returns a Result and no error, so the
// test can look at why.
func (h *Harness) Run(ctx context.Context, prompt string, opts ...RunOption) (Result, error) {
	cfg := runConfig{timeout: DefaultTimeout, tools: DefaultAllowedTools, mode: "acceptEdits"}
	for _, o := range opts {
		o(&cfg)
	}
	args := []string{"-p", prompt, "--output-format", "json", "--permission-mode", cfg.mode}
	if len(cfg.tools) > 0 {
		args = append(args, "--allowedTools")
		args = append(args, cfg.tools...)
	}
	if cfg.resume != "" {
		args = append(args, "--resume", cfg.resume)
	}
	args = append(args, cfg.args...)

	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.Bin, args...)
	cmd.Dir = h.Dir
	cmd.Env = h.env(append(append([]string(nil), h.Env...), cfg.env...))
	cmd.Stdin = nil // /dev/null: with -p the prompt is an argument
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Hooks are children of Claude Code; make sure a timeout does not
	// leave the output pipes held open by one of them.
	cmd.WaitDelay = 5 * time.Second

	errsBefore := len(h.Server.Errors())
	start := time.Now()
	err := cmd.Run()
	res := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Elapsed: time.Since(start)}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	// Time to the first API request tells a slow start-up (usually a
	// loaded machine) from a slow conversation when a run takes long.
	firstReq := "no request"
	for _, r := range h.Server.Requests() {
		if r.Time.After(start) {
			firstReq = "first request after " + r.Time.Sub(start).Round(time.Millisecond).String()
			break
		}
	}
	h.t.Logf("claudetest: claude -p %q (%s) exit %d in %v, %s", clip(prompt, 60),
		strings.Join(args[2:], " "), res.ExitCode, res.Elapsed.Round(time.Millisecond), firstReq)
	if ctx.Err() != nil {
		return res, fmt.Errorf("claude did not finish within %v: %w\nstderr: %s", cfg.timeout, ctx.Err(), clip(stderr.String(), 2000))
	}
	if errs := h.Server.Errors()[errsBefore:]; len(errs) > 0 {
		return res, fmt.Errorf("the script failed during the run: %w", errors.Join(errs...))
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return res, fmt.Errorf("running claude: %w", err)
	}
	out := bytes.TrimSpace(stdout.Bytes())
	// The JSON result is the last line; anything before it is noise we
	// tolerate rather than fail on.
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return res, fmt.Errorf("claude printed no JSON result (exit %d): %v\nstdout: %s\nstderr: %s",
			res.ExitCode, err, clip(stdout.String(), 2000), clip(stderr.String(), 2000))
	}
	_ = json.Unmarshal(out, &res.JSON)
	if res.SessionID != "" {
		res.TranscriptPath = h.TranscriptPath(res.SessionID)
	}
	return res, nil
}

// SetScript validates script and gives it to the server (see
// Server.SetScript), failing the test if it is invalid.
func (h *Harness) SetScript(script Script) {
	h.t.Helper()
	if err := script.Validate(); err != nil {
		h.t.Fatalf("claudetest: invalid script %q: %v", script.Name, err)
	}
	h.Server.SetScript(script)
}

// TranscriptPath is where Claude Code keeps the transcript of a session
// run in h.Dir: the project directory with every character other than
// ASCII letters and digits replaced by "-".
func (h *Harness) TranscriptPath(sessionID string) string {
	return filepath.Join(h.Home, ".claude", "projects", MungePath(h.Dir), sessionID+".jsonl")
}

// MungePath is Claude Code's folder name for a project directory under
// ~/.claude/projects.
func MungePath(dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// env builds a run's environment: the test process's environment minus
// anything that would make Claude Code talk to a real service, read the
// developer's own configuration, or think it is nested inside another
// Claude Code session; plus the offline settings; plus extra.
func (h *Harness) env(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE"),
			strings.HasPrefix(k, "OTEL_"), strings.HasPrefix(k, "XDG_CONFIG"),
			k == "HOME", k == "DISABLE_TELEMETRY", k == "DISABLE_AUTOUPDATER":
			continue
		}
		env = append(env, kv)
	}
	// Hooks written in Go and run via `go run` or `go test` would lose
	// their build cache with the new HOME; point them at the real one.
	if os.Getenv("GOCACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			env = append(env, "GOCACHE="+filepath.Join(dir, "go-build"))
		}
	}
	if os.Getenv("GOPATH") == "" {
		if home, err := os.UserHomeDir(); err == nil {
			env = append(env, "GOPATH="+filepath.Join(home, "go"))
		}
	}
	env = append(env,
		"HOME="+h.Home,
		"ANTHROPIC_API_KEY=test",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
	if h.Server != nil {
		env = append(env, "ANTHROPIC_BASE_URL="+h.Server.URL)
	}
	return append(env, extra...)
}

// WriteFile writes a file under h.Dir (creating directories), failing the
// test on error.
func (h *Harness) WriteFile(rel string, data []byte) {
	h.t.Helper()
	p := filepath.Join(h.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// Git runs git in h.Dir with the harness's environment and returns its
// trimmed output, failing the test on error.
func (h *Harness) Git(args ...string) string {
	h.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = h.Dir, h.env(nil)
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// AllHookEvents are the hook events a memory tool cares about, in the
// order Claude Code fires them in a headless run.
var AllHookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd"}

// InstallHooks writes h.Dir/.claude/settings.json registering
// command(event) as a command hook for each event (matching every tool
// where the event has a matcher). It replaces any existing settings
// file; tests of an installer should run the installer instead.
func (h *Harness) InstallHooks(command func(event string) string, events ...string) {
	h.t.Helper()
	hooks := map[string]any{}
	for _, ev := range events {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command(ev)}}}
		switch ev {
		case "PreToolUse", "PostToolUse":
			group["matcher"] = "*"
		}
		hooks[ev] = []any{group}
	}
	b, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		h.t.Fatal(err)
	}
	h.WriteFile(filepath.Join(".claude", "settings.json"), append(b, '\n'))
}

// LoadScenario loads fixtures/e2e/<name>.json, looking for the fixtures
// folder in the test's working directory and its parents (so a test in
// any package of the module finds it), and fails the test if it is
// missing or invalid.
func LoadScenario(t testing.TB, name string) Script {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "fixtures", "e2e", name+".json")
		if _, err := os.Stat(p); err == nil {
			s, err := LoadScript(p)
			if err != nil {
				t.Fatalf("claudetest: %v", err)
			}
			return s
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("claudetest: scenario %q: no fixtures/e2e/%s.json in the working directory or its parents", name, name)
		}
		dir = parent
	}
}

// GoBuild builds a Go main package (an import path or a directory) into
// a temporary directory and returns the binary's path: the way to get a
// hook command under test onto Claude Code's command line without
// installing it. The binary lives until the test ends.
func GoBuild(t testing.TB, pkg string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

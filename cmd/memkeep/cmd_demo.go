package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/internal/shellquote"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
)

type demoOptions struct {
	Dir string
}

func demoCommand(s *streams) *cli.Command {
	var o demoOptions
	return &cli.Command{
		Name:  "demo",
		Usage: "newcomer tour: replay a bundled session through every hook and show the memory it leaves",
		UsageText: `memkeep demo
memkeep demo --dir /tmp/tour    # keep the demo repository somewhere you choose`,
		Description: `Creates a small git project in ~/.cache/memkeep/demo (the next demo
replaces it; --dir chooses another place), sets memkeep up in it,
and replays a bundled Claude Code session (a bug report, a fix, a rule)
through every hook in the order Claude Code fires them. When the Stop hook
asks for memory work, the demo runs the commands it asks for, as the agent
would. Then it shows the memory files, memkeep log, the review of the
memory commits, and what the next session would be told.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "create the demo in `DIR` (must not exist) instead of ~/.cache/memkeep/demo", Destination: &o.Dir},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			return runDemo(ctx, o, s)
		},
	}
}

// demoDirEnv hands the demo's folder to the copy of memkeep the demo
// re-runs itself as (see runDemo).
const demoDirEnv = "MEMKEEP_DEMO_DIR"

func runDemo(ctx context.Context, o demoOptions, s *streams) error {
	exe, err := selfCommand()
	if err != nil {
		return err
	}
	dir := os.Getenv(demoDirEnv)
	if dir == "" {
		dir = o.Dir
		if dir == "" {
			if dir, err = demoHome(); err != nil {
				return err
			}
		} else if err := os.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("--dir: %w (give a folder that does not exist yet)", err)
		}
		dir, _ = filepath.Abs(dir)
		// `go run` starts memkeep from a build folder it deletes on exit:
		// hooks installed with that path, and the commands Stop names,
		// would point at nothing. The demo copies itself into its folder,
		// puts it first on PATH, and runs from there, as an installed
		// memkeep would: the hooks and Stop's commands name `memkeep`.
		return rerunFromCopy(ctx, exe, dir, s)
	}
	root := filepath.Join(dir, "shop")
	say := func(format string, args ...any) { fmt.Fprintf(s.out, format+"\n", args...) }

	say("== 1. A small project: %s", tildePath(root))
	if err := demoProject(root); err != nil {
		return err
	}
	l, err := memdir.Find(root)
	if err != nil {
		return err
	}

	say("\n== 2. memkeep init (hooks in .claude/settings.local.json, merge driver, memory folder)")
	if err := os.MkdirAll(l.WorkMemoryDir(), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(l.WorkMemoryDir(), ".gitattributes"), memoryAttributes(), 0o644); err != nil {
		return err
	}
	if err := l.PrepareShadow(); err != nil {
		return err
	}
	if err := gitstore.InstallMergeDriver(l, exe); err != nil {
		return err
	}
	if _, err := hooks.Install(settingsPath(l, true), exe); err != nil {
		return err
	}
	say("   hooks: %s", strings.Join(hooks.Events, ", "))

	// Background consolidation would outlive the demo: run it in line.
	os.Setenv("MEMKEEP_NO_SPAWN", "1")
	// The hooks run here, in this process, for the demo's project: a
	// Claude Code session's project, when the demo is run from one, must
	// not take its place.
	os.Setenv("CLAUDE_PROJECT_DIR", root)
	sid := "d3m0d3m0-5e55-4a11-8000-000000000001"
	transcript := filepath.Join(dir, "home", ".claude", "projects", projectSlug(root), sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		return err
	}
	say("\n== 3. A Claude Code session, replayed through every hook")
	for _, st := range fixtures.DemoSession(root, sid, time.Now().Add(-2*time.Minute)) {
		if err := appendFile(transcript, st.Lines); err != nil {
			return err
		}
		if st.Event == "" {
			continue
		}
		out := fireHook(st.Event, sid, transcript, root, st.Fields)
		say("-> %-16s %s", st.Event, describeStep(st))
		if st.Event == "Stop" {
			if err := demoStop(ctx, s, exe, root, sid, transcript, st, out); err != nil {
				return err
			}
		}
		if st.Event == "SessionEnd" {
			say("   SessionEnd refined the transcript's tail and left the deep consolidation to `memkeep consolidate --deferred`:")
			if err := runShell(s, exe, root, "memkeep consolidate --deferred"); err != nil {
				return err
			}
		}
	}

	say("\n== 4. The memory, as committed in %s", memdir.MemoryRel)
	if err := listMemory(s.out, l); err != nil {
		return err
	}
	say("\n== 5. memkeep log")
	if err := runShell(s, exe, root, "memkeep log"); err != nil {
		return err
	}
	say("\n== 6. memkeep diff: the review of every memory commit, as a pull request would show it")
	first, err := firstCommit(root)
	if err != nil {
		return err
	}
	if err := runShell(s, exe, root, "memkeep diff "+first+"..HEAD"); err != nil {
		return err
	}
	say("\n== 7. What the next session is told at SessionStart (memkeep context)")
	if err := runShell(s, exe, root, "memkeep context"); err != nil {
		return err
	}
	say("\n== 8. A question for the memory (memkeep recall)")
	if err := runShell(s, exe, root, `memkeep recall "why was the cart total wrong"`); err != nil {
		return err
	}
	say("\nThe demo repository stays in %s (the next demo replaces it): try `cd %s && git log --stat`, or `%s recall cart` there.", tildePath(root), tildePath(root), tildePath(exe))
	return nil
}

// demoHome is where the demo lives when no --dir is given: a folder of
// memkeep's in the user's cache (~/.cache/memkeep/demo), which the next
// demo replaces, so that what it prints and the hooks it installs name a
// place that stays, not a temporary one. A folder there that is not a
// demo's is never removed.
func demoHome() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return os.MkdirTemp("", "memkeep-demo-")
	}
	dir := filepath.Join(cache, "memkeep", "demo")
	if _, err := os.Stat(dir); err == nil {
		if _, err := os.Stat(filepath.Join(dir, "shop", ".git")); err != nil {
			return "", fmt.Errorf("%s exists and is not a memkeep demo: move it, or pass --dir", dir)
		}
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// tildePath writes a path under the home folder as ~/….
func tildePath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rest, ok := strings.CutPrefix(p, home+string(filepath.Separator)); ok {
			return "~/" + filepath.ToSlash(rest)
		}
	}
	return p
}

// rerunFromCopy copies the memkeep binary exe into dir/bin and runs the
// demo again from that copy, with dir/bin first on PATH.
func rerunFromCopy(ctx context.Context, exe, dir string, s *streams) error {
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return err
	}
	self := filepath.Join(bin, "memkeep")
	if err := os.WriteFile(self, data, 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, self, "demo")
	cmd.Env = append(os.Environ(), demoDirEnv+"="+dir, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.in, s.out, s.err
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return cli.Exit("", ee.ExitCode())
		}
		return err
	}
	return nil
}

// demoProject creates the project and its first commit with the git CLI
// (the demo is a tour of a git workflow; memkeep itself never runs git).
func demoProject(root string) error {
	for _, f := range fixtures.DemoProject() {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.Content), 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "."},
		{"-c", "user.name=memkeep demo", "-c", "user.email=demo@memkeep.invalid", "commit", "-q", "-m", "shop: first version"},
	} {
		if _, err := gitOut(root, args...); err != nil {
			return err
		}
	}
	return nil
}

func firstCommit(root string) (string, error) {
	out, err := gitOut(root, "rev-list", "--max-parents=0", "HEAD")
	return strings.TrimSpace(out), err
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", errors.New("the demo needs the git command (memkeep itself does not)")
		}
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func appendFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// fireHook runs a hook in-process, exactly as `memkeep hook EVENT` does.
func fireHook(event, sid, transcript, root string, fields map[string]any) hooks.Output {
	in := map[string]any{"session_id": sid, "transcript_path": transcript, "cwd": root, "hook_event_name": event}
	for k, v := range fields {
		in[k] = v
	}
	b, _ := json.Marshal(in)
	var out bytes.Buffer
	hooks.Run(event, bytes.NewReader(b), &out, hookDeps())
	var o hooks.Output
	_ = json.Unmarshal(out.Bytes(), &o)
	return o
}

func describeStep(st fixtures.Step) string {
	switch st.Event {
	case "UserPromptSubmit":
		return fmt.Sprintf("%q", st.Fields["prompt"])
	case "SessionStart":
		return fmt.Sprintf("(%v): memory is empty, so there is no context to inject yet", st.Fields["source"])
	case "PostToolUse":
		in, _ := st.Fields["tool_input"].(map[string]any)
		if c, ok := in["command"].(string); ok {
			return fmt.Sprintf("%v: %s", st.Fields["tool_name"], c)
		}
		f, _ := in["file_path"].(string)
		return fmt.Sprintf("%v %s", st.Fields["tool_name"], filepath.Base(f))
	case "SessionEnd":
		return fmt.Sprintf("(%v)", st.Fields["reason"])
	case "Stop":
		return "the agent finished its answer"
	}
	return ""
}

// demoStop shows what Stop answered and, when it asks for the agent's
// record of the exchange, answers as the agent would (the step's Record)
// and fires Stop again.
func demoStop(ctx context.Context, s *streams, exe, root, sid, transcript string, st fixtures.Step, out hooks.Output) error {
	for round := 0; round < 3; round++ {
		ask := out.Reason
		if out.HookSpecificOutput != nil {
			ask = out.HookSpecificOutput.AdditionalContext
		}
		if ask == "" {
			if out.SystemMessage != "" {
				fmt.Fprintf(s.out, "   Stop: %s\n", out.SystemMessage)
			} else {
				fmt.Fprintln(s.out, "   Stop: memory complete; the turn ends (the memory waits in .git/memkeep/memory for its commit: git status stays clean)")
			}
			return nil
		}
		fmt.Fprintln(s.out, "   Stop asks the agent for its own record of the exchange:")
		for _, line := range strings.Split(strings.TrimSpace(ask), "\n") {
			fmt.Fprintf(s.out, "   | %s\n", line)
		}
		rec, err := answerRecord(ask, st.Record)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "   the agent writes its record: %q\n", st.Record["summary"])
		cmd := exec.Command(exe, "l2", "add")
		cmd.Dir, cmd.Stdin = root, bytes.NewReader(rec)
		if b, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(s.out, "   (failed: %v: %s)\n", err, b)
		} else {
			fmt.Fprintf(s.out, "   memkeep l2 add: %s", b)
		}
		next := map[string]any{"stop_hook_active": true, "last_assistant_message": st.Fields["last_assistant_message"]}
		out = fireHook("Stop", sid, transcript, root, next)
	}
	return nil
}

// recordHeredoc finds the record in a Stop request: the JSON between
// `l2 add <<'MEMKEEP_RECORD'` and the closing MEMKEEP_RECORD line.
// Compiled on first use: package-level patterns are compiled at every
// start of the binary, hooks included.
var recordHeredoc = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)l2 add <<'MEMKEEP_RECORD'\n(.*?)\nMEMKEEP_RECORD`)
})

// answerRecord plays the agent answering the Stop hook's request for its
// record: every field that still holds a <…> placeholder gets the answer
// of the same name ("" or [] when answers has none), the fields memkeep
// prefilled are kept. It returns the record as JSON, ready for the
// standard input of `memkeep l2 add`.
func answerRecord(request string, answers map[string]any) ([]byte, error) {
	m := recordHeredoc().FindStringSubmatch(request)
	if m == nil {
		return nil, errors.New("the request holds no `l2 add <<'MEMKEEP_RECORD'` record")
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(m[1]), &rec); err != nil {
		return nil, err
	}
	for k, v := range rec {
		if !holdsPlaceholder(v) {
			continue
		}
		_, list := v.([]any)
		switch a, ok := answers[k]; {
		case ok:
			rec[k] = a
		case list:
			rec[k] = []string{}
		default:
			rec[k] = ""
		}
	}
	return json.MarshalIndent(rec, "", "  ")
}

// holdsPlaceholder reports whether a record's value is, or lists, a
// placeholder.
func holdsPlaceholder(v any) bool {
	switch x := v.(type) {
	case string:
		return l2.IsPlaceholder(x)
	case []any:
		return slices.ContainsFunc(x, holdsPlaceholder)
	}
	return false
}

// selfCommand is the path that runs this memkeep: the executable itself,
// or, when it is not named memkeep (a test binary standing in for it), the
// memkeep it was started as.
func selfCommand() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if filepath.Base(exe) == "memkeep" {
		return exe, nil
	}
	if filepath.Base(os.Args[0]) == "memkeep" {
		if p, err := exec.LookPath(os.Args[0]); err == nil {
			return filepath.Abs(p)
		}
	}
	return exe, nil
}

// runShell runs a memkeep command line through sh, with memkeep being this
// binary, as an agent's Bash tool would.
func runShell(s *streams, exe, dir, line string) error {
	cmd := exec.Command("sh", "-c", shellquote.Quote(exe)+strings.TrimPrefix(line, "memkeep"))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = s.out, s.err
	return cmd.Run()
}

func listMemory(w io.Writer, l memdir.Layout) error {
	return filepath.WalkDir(l.MemoryDir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := l.Rel(p)
		fmt.Fprintf(w, "   %7d  %s\n", fi.Size(), rel)
		return nil
	})
}

package hooks

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/memkeep/memkeep/internal/jsonscan"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

// syncWait bounds how long a hook waits for another process refining the
// same transcript before it leaves the work to the next hook.
const syncWait = 300 * time.Millisecond

func sessionStart(e *Env) (Output, error) {
	var errs []error
	// Locks a killed memkeep commit left would make git fail for the user
	// until the next memory commit; a session's start clears them.
	e.Deps.Git.Recover(e.Layout)
	// The memory as the checked-out branch has it, before the context is
	// made from it.
	errs = append(errs, e.Deps.Git.Sync(e.Layout))
	errs = append(errs, e.Deps.Stream.Append(e.Layout, Event{
		Type: "session_start", Direction: "in", SessionID: e.In.SessionID,
		Summary: "session " + orDefault(e.In.Source, "startup"),
	}))
	// Work a SessionEnd had to defer (or whose background run died) is
	// picked up here, off the hook's path.
	if deferredWork(e.Layout, time.Minute, e.Deps.Now()) {
		errs = append(errs, spawnConsolidate(e.Layout))
	}
	ctx, err := e.Deps.Memory.Context(e.Layout, e.Config.Context.Budget, e.In.SessionID, orDefault(e.In.Source, "startup"))
	errs = append(errs, err)
	out := Output{}
	if ctx != "" {
		out.HookSpecificOutput = &Specific{HookEventName: "SessionStart", AdditionalContext: ctx}
	}
	return out, errors.Join(errs...)
}

func userPromptSubmit(e *Env) (Output, error) {
	var errs []error
	st := loadState(e.Layout, e.In.SessionID)
	st.Turn++
	errs = append(errs, saveState(e.Layout, e.In.SessionID, st))
	errs = append(errs, e.Deps.Stream.Append(e.Layout, Event{
		Type: "prompt", Direction: "in", SessionID: e.In.SessionID,
		Summary: firstLine(e.In.Prompt), Content: e.In.Prompt,
	}))
	rules, err := e.Deps.Memory.RecordPrompt(e.Layout, e.In.SessionID, e.In.Prompt)
	errs = append(errs, err)
	recall, err := e.Deps.Memory.Recall(e.Layout, e.In.SessionID, e.In.Prompt, e.Config.Recall)
	errs = append(errs, err)
	out := Output{}
	var ctx []string
	if len(rules) > 0 {
		// Said as it is stored: a rule the user stated, kept at once; the
		// next sessions start with it.
		ctx = append(ctx, "memkeep recorded what you stated as "+rulesCount(len(rules))+" of the project's memory (a rule at once; every next session starts with it; a later statement of the opposite replaces it): "+strings.Join(rules, " "))
	}
	if recall != "" {
		ctx = append(ctx, recall)
	}
	if len(ctx) > 0 {
		out.HookSpecificOutput = &Specific{HookEventName: "UserPromptSubmit", AdditionalContext: strings.Join(ctx, "\n\n")}
	}
	return out, errors.Join(errs...)
}

// toolCapture is the part of a tool's input PostToolUse records.
type toolCapture struct {
	FilePath string // file_path
	Command  string // command
	Pattern  string // pattern
}

// captureTool reads the members of a tool input that PostToolUse records;
// tools with other inputs record only their name. The input is scanned, not
// decoded: a Write's input carries the whole file.
func captureTool(raw []byte) toolCapture {
	var c toolCapture
	_ = jsonscan.Members(raw, func(key, val []byte) {
		switch string(key) {
		case "file_path":
			c.FilePath = jsonscan.String(val)
		case "command":
			c.Command = jsonscan.String(val)
		case "pattern":
			c.Pattern = jsonscan.String(val)
		}
	})
	return c
}

func postToolUse(e *Env) (Output, error) {
	edit := isEdit(e.In.ToolName)
	err := countTool(e.Layout, e.In.SessionID, edit)
	in := captureTool(e.In.ToolInput)
	summary := e.In.ToolName
	meta := map[string]string{"tool": e.In.ToolName}
	switch {
	case in.FilePath != "":
		rel := in.FilePath
		if r, ok := e.Layout.Rel(in.FilePath); ok {
			rel = r
		}
		summary += " " + rel
		meta["file"] = rel
	case in.Command != "":
		summary += ": " + firstLine(in.Command)
	case in.Pattern != "":
		summary += " " + firstLine(in.Pattern)
	}
	typ := "tool_use"
	if edit {
		typ = "edit"
	}
	serr := e.Deps.Stream.Append(e.Layout, Event{Type: typ, Direction: "internal", SessionID: e.In.SessionID, Summary: summary, Content: in.Command, Metadata: meta})
	return Output{}, errors.Join(err, serr)
}

func subagentStop(e *Env) (Output, error) {
	serr := e.Deps.Stream.Append(e.Layout, Event{
		Type: "subagent_stop", Direction: "internal", SessionID: e.In.SessionID,
		Summary: "subagent " + orDefault(e.In.AgentID, "?") + " finished", Metadata: map[string]string{"agent": e.In.AgentID},
	})
	if e.In.AgentTranscriptPath == "" || e.In.TranscriptPath == "" {
		return Output{}, serr
	}
	// The parent's L1 file takes the subagent's records, marked with its id.
	parent, err := l1.Sync(e.Layout, e.In.TranscriptPath, l1.SyncOptions{LockWait: syncWait})
	if err != nil {
		return Output{}, errors.Join(serr, err)
	}
	_, err = l1.Sync(e.Layout, e.In.AgentTranscriptPath, l1.SyncOptions{Base: parent.Base, Final: true, LockWait: syncWait})
	return Output{}, errors.Join(serr, err)
}

func preCompact(e *Env) (Output, error) {
	errs := []error{e.Deps.Git.Sync(e.Layout)}
	if e.In.TranscriptPath != "" {
		_, err := l1.Sync(e.Layout, e.In.TranscriptPath, l1.SyncOptions{LockWait: syncWait})
		errs = append(errs, err)
	}
	ch, err := e.Deps.Memory.Consolidate(e.Layout, e.In.SessionID)
	errs = append(errs, err)
	if ch.Changed {
		_, err := e.Deps.Git.Commit(e.Layout, e.Config.Commit, e.In.SessionID, ch.Summary)
		errs = append(errs, err)
	}
	errs = append(errs, e.Deps.Stream.Append(e.Layout, Event{Type: "pre_compact", Direction: "internal", SessionID: e.In.SessionID, Summary: "compaction (" + orDefault(e.In.Trigger, "auto") + ")"}))
	return Output{}, errors.Join(errs...)
}

// sessionEnd flushes the transcript into L1 (fast: only the tail) and
// hands consolidation and the commit to a background `memkeep consolidate
// --deferred`, because Claude Code gives SessionEnd 1.5 s and a deep
// consolidation of a long session may need more. The marker written first
// means the work is never lost: if the background run dies, the next
// SessionStart starts it again.
func sessionEnd(e *Env) (Output, error) {
	errs := []error{e.Deps.Git.Sync(e.Layout)}
	if e.In.TranscriptPath != "" {
		_, err := l1.Sync(e.Layout, e.In.TranscriptPath, l1.SyncOptions{Final: true, LockWait: syncWait})
		errs = append(errs, err)
	}
	errs = append(errs, e.Deps.Stream.Append(e.Layout, Event{Type: "session_end", Direction: "internal", SessionID: e.In.SessionID, Summary: "session ended (" + orDefault(e.In.Reason, "other") + ")"}))
	if err := markDeferred(e.Layout, e.In.SessionID); err != nil {
		return Output{}, errors.Join(append(errs, err)...)
	}
	errs = append(errs, spawnConsolidate(e.Layout))
	return Output{}, errors.Join(errs...)
}

func deferredDir(l memdir.Layout) string { return filepath.Join(l.StateDir(), "deferred") }

// markDeferred records that a session's consolidation is owed.
func markDeferred(l memdir.Layout, sid string) error {
	if err := os.MkdirAll(deferredDir(l), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(deferredDir(l), sessionKey(sid)), []byte(sid), 0o644)
}

// DeferredSessions lists the sessions whose consolidation is owed.
func DeferredSessions(l memdir.Layout) []string {
	ents, _ := os.ReadDir(deferredDir(l))
	var out []string
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(deferredDir(l), e.Name())); err == nil {
			out = append(out, string(b))
		}
	}
	return out
}

// ClearDeferred removes a session's marker once its work is done.
func ClearDeferred(l memdir.Layout, sid string) error {
	err := os.Remove(filepath.Join(deferredDir(l), sessionKey(sid)))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// deferredWork reports markers older than age: their background run did
// not finish.
func deferredWork(l memdir.Layout, age time.Duration, now time.Time) bool {
	ents, _ := os.ReadDir(deferredDir(l))
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > age {
			return true
		}
	}
	return false
}

// spawnConsolidate starts `memkeep consolidate --deferred` detached from
// Claude Code: its own session, no shared pipes, so the hook returns at
// once and Claude Code does not wait for it.
func spawnConsolidate(l memdir.Layout) error { return Spawn(l, "consolidate", "--deferred") }

// Spawn starts this program with args in the project's root as a
// background process of its own session, which outlives the hook; nothing
// with MEMKEEP_NO_SPAWN set (tests, benchmarks, the demo).
func Spawn(l memdir.Layout, args ...string) error {
	if os.Getenv("MEMKEEP_NO_SPAWN") != "" {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = l.Root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start memkeep %s in the background: %w", strings.Join(args, " "), err)
	}
	return cmd.Process.Release()
}

// firstLine is the first line of s, whole: the event stream redacts a
// summary before it cuts it to length, and a secret cut here first would
// lose the tail its redaction rule recognises it by.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// rulesCount is "a rule" or "2 rules".
func rulesCount(n int) string {
	if n == 1 {
		return "a rule"
	}
	return strconv.Itoa(n) + " rules"
}

// Package hooks answers Claude Code's hook calls: `memkeep hook <Event>`
// reads the event's JSON on standard input and prints one JSON answer.
//
// Every handler follows the same contract (SPEC §5): read stdin to EOF,
// print only JSON on stdout, finish fast, and never make Claude Code fail.
// An internal error is logged under the git dir (memkeep/hooks.log) and
// reported once as a systemMessage; the exit status is always 0.
//
// Where a hook's data goes, by event:
//
//	SessionStart      stream event; context from Memory.Context  -> additionalContext
//	UserPromptSubmit  stream event; rules stated (Memory.RecordPrompt); recall -> additionalContext
//	PostToolUse       tool counter under the git dir; stream event
//	Stop              L1 sync of the transcript tail; Memory.Micro; enforcement (stop.go); commit
//	SubagentStop      L1 sync of the subagent transcript into the parent's L1 file
//	PreCompact        L1 sync; Memory.Consolidate
//	SessionEnd        final L1 sync (flush); Memory.Consolidate within budget, else deferred
package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/jsonscan"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Events lists the hook events memkeep handles, in the order Claude Code
// fires them in a session.
var Events = []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd"}

// Input is the JSON Claude Code sends on stdin. Fields belong to different
// events; those an event does not send stay empty.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`

	Source string `json:"source,omitempty"` // SessionStart: startup, resume, clear, compact
	Prompt string `json:"prompt,omitempty"` // UserPromptSubmit

	ToolName  string          `json:"tool_name,omitempty"` // PostToolUse
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`

	StopHookActive       bool   `json:"stop_hook_active,omitempty"` // Stop, SubagentStop
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	AgentID              string `json:"agent_id,omitempty"` // SubagentStop
	AgentTranscriptPath  string `json:"agent_transcript_path,omitempty"`

	Trigger string `json:"trigger,omitempty"` // PreCompact: manual, auto
	Reason  string `json:"reason,omitempty"`  // SessionEnd
}

// Output is the JSON answer. Empty fields are omitted, so the zero Output
// prints as {} (carry on, nothing to add).
type Output struct {
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"`
	SuppressOutput     bool      `json:"suppressOutput,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific carries context for the model.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Env is what a handler works with.
type Env struct {
	Layout memdir.Layout
	Config config.Config
	Deps   Deps
	In     Input
	// started is when the hook process began, for budgets.
	started time.Time
}

// Run handles one hook call and returns the exit status, always 0: a
// problem inside memkeep must never break the user's session.
func Run(event string, stdin io.Reader, stdout io.Writer, deps Deps) int {
	started := time.Now()
	deps = deps.withDefaults()
	raw, _ := io.ReadAll(io.LimitReader(stdin, 64<<20))
	out, env, err := dispatch(event, raw, deps, started)
	if err != nil && env != nil {
		if msg := env.logError(event, err); msg != "" && out.SystemMessage == "" {
			out.SystemMessage = msg
		}
	}
	stdout.Write(encodeOutput(out))
	return 0
}

// encodeOutput is the answer's one line of JSON. Most calls have nothing to
// say, and their {} is written without waking encoding/json's reflection.
func encodeOutput(out Output) []byte {
	if out == (Output{}) {
		return []byte("{}\n")
	}
	b, err := json.Marshal(out)
	if err != nil {
		return []byte("{}\n")
	}
	return append(b, '\n')
}

func dispatch(event string, raw []byte, deps Deps, started time.Time) (out Output, env *Env, err error) {
	// A fault reading a mapped file that another process cut short
	// (fastfile.Map) becomes a panic recovered below, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in %s hook: %v\n%s", event, r, debug.Stack())
			out = Output{}
		}
	}()
	var in Input
	if len(bytes.TrimSpace(raw)) > 0 {
		if jerr := decodeInput(raw, &in); jerr != nil {
			// Nothing can be known about the project; say so on stderr only.
			fmt.Fprintf(os.Stderr, "memkeep: %s hook: input is not JSON: %v\n", event, jerr)
			return Output{}, nil, nil
		}
	}
	if in.Event == "" {
		in.Event = event
	}
	// The project is where Claude Code was started (CLAUDE_PROJECT_DIR);
	// cwd follows the agent's `cd` and may be another repository.
	dir := os.Getenv("CLAUDE_PROJECT_DIR")
	if dir == "" {
		dir = in.Cwd
	}
	if dir == "" {
		dir = "."
	}
	l, ferr := memdir.Find(dir)
	if ferr != nil {
		// Not a git project: memkeep has nothing to keep here.
		return Output{}, nil, nil
	}
	if !l.Initialised() {
		// memkeep is not set up in this project (no .claude/memory/).
		return Output{}, nil, nil
	}
	if lerr := l.CheckLinks(); lerr != nil {
		return Output{}, &Env{Layout: l, Deps: deps, In: in, started: started}, lerr
	}
	if perr := l.PrepareShadow(); perr != nil {
		return Output{}, &Env{Layout: l, Deps: deps, In: in, started: started}, perr
	}
	cfg, cerr := config.Load(l.ConfigFile())
	env = &Env{Layout: l, Config: cfg, Deps: deps, In: in, started: started}
	h, ok := handler(event)
	if !ok {
		return Output{}, env, fmt.Errorf("unknown hook event %q (memkeep handles %s)", event, strings.Join(Events, ", "))
	}
	out, err = h(env)
	if err == nil && cerr != nil {
		err = cerr
	}
	return out, env, err
}

// decodeInput reads the hook payload. A PostToolUse payload carries the
// tool's whole response (a file read, a command's output); memkeep never
// uses it, so the payload is scanned rather than decoded and only the
// members below are read.
func decodeInput(raw []byte, in *Input) error {
	return jsonscan.Members(raw, func(key, val []byte) {
		str := func() string { return jsonscan.String(val) }
		switch string(key) {
		case "session_id":
			in.SessionID = str()
		case "transcript_path":
			in.TranscriptPath = str()
		case "cwd":
			in.Cwd = str()
		case "hook_event_name":
			in.Event = str()
		case "permission_mode":
			in.PermissionMode = str()
		case "source":
			in.Source = str()
		case "prompt":
			in.Prompt = str()
		case "tool_name":
			in.ToolName = str()
		case "tool_input":
			in.ToolInput = json.RawMessage(val)
		case "tool_use_id":
			in.ToolUseID = str()
		case "stop_hook_active":
			in.StopHookActive = string(val) == "true"
		case "last_assistant_message":
			in.LastAssistantMessage = str()
		case "agent_id":
			in.AgentID = str()
		case "agent_transcript_path":
			in.AgentTranscriptPath = str()
		case "trigger":
			in.Trigger = str()
		case "reason":
			in.Reason = str()
		}
	})
}

// handler returns the handler of an event; see the package doc. (A switch,
// not a map: a package-level map is built by every process at start-up.)
func handler(event string) (func(*Env) (Output, error), bool) {
	switch event {
	case "SessionStart":
		return sessionStart, true
	case "UserPromptSubmit":
		return userPromptSubmit, true
	case "PostToolUse":
		return postToolUse, true
	case "Stop":
		return stop, true
	case "SubagentStop":
		return subagentStop, true
	case "PreCompact":
		return preCompact, true
	case "SessionEnd":
		return sessionEnd, true
	}
	return nil, false
}

// logError appends err to hooks.log under the git dir and returns the
// message to surface, or "" when the same problem was already surfaced
// (users see a problem once, not on every turn).
func (e *Env) logError(event string, err error) string {
	dir := e.Layout.StateDir()
	os.MkdirAll(dir, 0o755)
	// One line per distinct problem: a joined error lists each once.
	var lines strings.Builder
	seenMsg := map[string]bool{}
	for _, msg := range strings.Split(err.Error(), "\n") {
		if msg = strings.TrimSpace(msg); msg != "" && !seenMsg[msg] {
			seenMsg[msg] = true
			fmt.Fprintf(&lines, "%s %s %s: %s\n", e.Deps.Now().UTC().Format(time.RFC3339), e.In.SessionID, event, msg)
		}
	}
	if f, ferr := os.OpenFile(filepath.Join(dir, "hooks.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); ferr == nil {
		f.WriteString(lines.String())
		f.Close()
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	key := filepath.Join(dir, "surfaced")
	seen, _ := os.ReadFile(key)
	if bytes.Contains(seen, []byte(first+"\n")) {
		return ""
	}
	if f, ferr := os.OpenFile(key, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); ferr == nil {
		f.WriteString(first + "\n")
		f.Close()
	}
	return "memkeep: " + first + " (details in " + filepath.Join(dir, "hooks.log") + "; run `memkeep doctor`)"
}

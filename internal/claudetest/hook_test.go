package claudetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memkeep/memkeep/internal/shellquote"
)

// The test binary doubles as the hook command: Claude Code runs
// `CLAUDETEST_HOOK=<Event> <this test binary>`, and TestMain turns that
// process into a hook that records its payload and answers per the
// CLAUDETEST_* settings the test put in the run's environment. A Go hook
// (rather than a shell script) keeps the recording exact: the payload is
// stored byte for byte, whatever its size or line breaks.
func TestMain(m *testing.M) {
	if ev := os.Getenv("CLAUDETEST_HOOK"); ev != "" {
		os.Exit(recordingHook(ev, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// Environment of the recording hook.
const (
	envHookDir     = "CLAUDETEST_HOOK_DIR"       // where hooks.jsonl and state go
	envHookContext = "CLAUDETEST_HOOK_CONTEXT"   // SessionStart additionalContext
	envStopMode    = "CLAUDETEST_STOP_MODE"      // "", "block-once", "context-once", "block-always"
	envStopReason  = "CLAUDETEST_STOP_REASON"    // the block reason or Stop context
	envPromptCtx   = "CLAUDETEST_PROMPT_CONTEXT" // UserPromptSubmit additionalContext
	envSystemMsg   = "CLAUDETEST_SYSTEM_MESSAGE" // systemMessage of a Stop that does not block
)

// hookRecord is one line of hooks.jsonl.
type hookRecord struct {
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
	Output  string          `json:"output,omitempty"`
}

func recordingHook(event string, stdin io.Reader, stdout io.Writer) int {
	dir := os.Getenv(envHookDir)
	payload, err := io.ReadAll(stdin)
	if err != nil || dir == "" {
		fmt.Fprintln(os.Stderr, "recording hook:", err, dir)
		return 1
	}
	var out string
	switch event {
	case "SessionStart":
		if c := os.Getenv(envHookContext); c != "" {
			// Tag the context with the payload's source so a test can
			// tell a startup's context from a resume's in a request.
			var p struct {
				Source string `json:"source"`
			}
			_ = json.Unmarshal(payload, &p)
			out = mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "SessionStart", "additionalContext": c + " source=" + p.Source}})
		}
	case "UserPromptSubmit":
		if c := os.Getenv(envPromptCtx); c != "" {
			out = mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "UserPromptSubmit", "additionalContext": c}})
		}
	case "Stop":
		mode, reason := os.Getenv(envStopMode), os.Getenv(envStopReason)
		once := filepath.Join(dir, "stop-answered")
		_, statErr := os.Stat(once)
		first := os.IsNotExist(statErr)
		switch {
		case mode == "block-always" || mode == "block-once" && first:
			out = mustJSON(map[string]any{"decision": "block", "reason": reason})
		case mode == "context-once" && first:
			out = mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "Stop", "additionalContext": reason}})
		}
		if out != "" && first {
			_ = os.WriteFile(once, nil, 0o644)
		}
		if m := os.Getenv(envSystemMsg); out == "" && m != "" {
			out = mustJSON(map[string]any{"systemMessage": m})
		}
	}
	if !json.Valid(payload) {
		payload = mustRaw(string(payload))
	}
	line := mustJSON(hookRecord{Event: event, Payload: payload, Output: out})
	f, err := os.OpenFile(filepath.Join(dir, "hooks.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "recording hook:", err)
		return 1
	}
	_, _ = f.WriteString(line + "\n")
	_ = f.Close()
	if out != "" {
		fmt.Fprintln(stdout, out)
	}
	return 0
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func mustRaw(s string) json.RawMessage { return json.RawMessage(mustJSON(s)) }

// hookRecords reads what the recording hooks logged.
func hookRecords(t *testing.T, dir string) []hookRecord {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "hooks.jsonl"))
	if err != nil {
		t.Fatalf("no hook fired: %v", err)
	}
	defer f.Close()
	var recs []hookRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r hookRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("hooks.jsonl: %v", err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// recordingHarness is a Harness whose project has the recording hook
// installed for every event.
func recordingHarness(t *testing.T, script Script, env ...string) (*Harness, string) {
	return recordingHarnessOpts(t, script, nil, env...)
}

func recordingHarnessOpts(t *testing.T, script Script, opts []Option, env ...string) (*Harness, string) {
	t.Helper()
	bin := Require(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := New(t, bin, script, opts...)
	hookDir := t.TempDir()
	h.Env = append([]string{envHookDir + "=" + hookDir}, env...)
	h.InstallHooks(func(ev string) string {
		return "CLAUDETEST_HOOK=" + ev + " " + shellquote.Quote(self)
	}, AllHookEvents...)
	return h, hookDir
}

package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memkeep/memkeep/internal/shellquote"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
)

// fakeMemory answers Pending from a list, one answer per call, and counts
// what the hooks asked of it.
type fakeMemory struct {
	noMemory
	pending  []Pending
	calls    int
	err      error
	panicky  bool
	rules    []string
	contexts int
	// asks answers Ask, one per call (the last repeats); settles counts
	// Settle.
	asks    []*RecordAsk
	askN    int
	settles int
}

func (f *fakeMemory) Ask(memdir.Layout, string, int) (*RecordAsk, error) {
	if len(f.asks) == 0 {
		return nil, nil
	}
	a := f.asks[min(f.askN, len(f.asks)-1)]
	f.askN++
	return a, nil
}

func (f *fakeMemory) Settle(memdir.Layout, string) (Change, error) {
	f.settles++
	return Change{}, nil
}

func (f *fakeMemory) Pending(memdir.Layout, string) (Pending, error) {
	if f.panicky {
		panic("memory exploded")
	}
	if f.err != nil {
		return Pending{}, f.err
	}
	p := f.pending[min(f.calls, len(f.pending)-1)]
	f.calls++
	return p, nil
}

func (f *fakeMemory) RecordPrompt(_ memdir.Layout, _ string, prompt string) ([]string, error) {
	if strings.Contains(strings.ToLower(prompt), "always") {
		f.rules = append(f.rules, prompt)
		return []string{prompt}, nil
	}
	return nil, nil
}

func (f *fakeMemory) Context(memdir.Layout, int, string, string) (string, error) {
	f.contexts++
	return "## Rules\n- always run the linter", nil
}

type fakeGit struct{ commits int }

func (g *fakeGit) Recover(memdir.Layout)    {}
func (g *fakeGit) Sync(memdir.Layout) error { return nil }

func (g *fakeGit) Commit(memdir.Layout, string, string, string) (string, error) {
	g.commits++
	return "committed abc1234", nil
}

func missing(detail string) Pending {
	return Pending{Layers: []LayerStatus{
		{Layer: "L1", OK: true, Detail: "12 lines"},
		{Layer: "L2", OK: false, Detail: detail, Commands: []string{"memkeep l2 add --session s1 --range 3-9 --summary '…'"}},
		{Layer: "L3", OK: true, Detail: "all assigned"},
	}}
}

var complete = Pending{Layers: []LayerStatus{{Layer: "L1", OK: true}, {Layer: "L2", OK: true}}}

func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	os.MkdirAll(filepath.Join(dir, ".claude", "memory"), 0o755)
	return dir
}

func call(t *testing.T, dir, event string, fields map[string]any, deps Deps) Output {
	t.Helper()
	in := map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": event}
	for k, v := range fields {
		in[k] = v
	}
	b, _ := json.Marshal(in)
	var out bytes.Buffer
	if code := Run(event, bytes.NewReader(b), &out, deps); code != 0 {
		t.Fatalf("%s exited %d", event, code)
	}
	var o Output
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("%s printed non-JSON %q: %v", event, out.String(), err)
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("%s printed more than one line: %q", event, out.String())
	}
	return o
}

func edit(t *testing.T, dir string, deps Deps) {
	call(t, dir, "PostToolUse", map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(dir, "a.go")}}, deps)
}

// worthAsk is an exchange worth the agent's record.
func worthAsk(key string) *RecordAsk {
	return &RecordAsk{SessionID: "s1", Exchange: "x-" + key, Key: key, L1Range: [2]int{3, 9},
		Files: []string{"a.go"}, Commands: []string{"go test ./..."}, Concept: "cart-totals", Why: "1 file changed"}
}

func TestStopDoesNotAskWhenNothingIsWorthARecord(t *testing.T) {
	dir := project(t)
	git := &fakeGit{}
	deps := Deps{Memory: &fakeMemory{pending: []Pending{complete}}, Git: git}
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "what does this do?"}, deps)
	call(t, dir, "PostToolUse", map[string]any{"tool_name": "Read"}, deps)
	if o := call(t, dir, "Stop", nil, deps); o.Decision != "" || o.SystemMessage != "" || o.HookSpecificOutput != nil {
		t.Fatalf("a turn with nothing worth a record was interrupted: %+v", o)
	}
	if git.commits != 1 {
		t.Errorf("commits = %d, want 1", git.commits)
	}
}

// TestStopAsksOnceForTheAgentsRecord: the request is one command, the
// agent's record prefilled with what memkeep knows and <…> where only the
// agent can write; it is never made twice for the same exchange, and the
// Stop after it commits, whether the agent answered or not.
func TestStopAsksOnceForTheAgentsRecord(t *testing.T) {
	dir := project(t)
	mem := &fakeMemory{pending: []Pending{complete}, asks: []*RecordAsk{worthAsk("k1")}}
	git := &fakeGit{}
	deps := Deps{Memory: mem, Git: git}
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "fix the bug"}, deps)
	edit(t, dir, deps)
	o := call(t, dir, "Stop", nil, deps)
	if o.Decision != "block" {
		t.Fatalf("want a request, got %+v", o)
	}
	for _, want := range []string{selfProgram() + " l2 add <<'MEMKEEP_RECORD'\n{", `"session": "s1"`, `"exchange": "x-k1"`, `"l1_range": [3, 9]`, `"files": ["a.go"]`, `"commands": ["go test ./..."]`, `"summary": "<`, `"why": "<`, `"decision": "<`, `"learned": ["<`, `"keywords": ["<`, `"concept": "<the concept: cart-totals`, "\nMEMKEEP_RECORD"} {
		if !strings.Contains(o.Reason, want) {
			t.Errorf("request lacks %q:\n%s", want, o.Reason)
		}
	}
	for _, chore := range []string{"l3 assign", "l4 reflect", "memkeep render", "consolidate"} {
		if strings.Contains(o.Reason, chore) {
			t.Errorf("the request asks for the chore %q:\n%s", chore, o.Reason)
		}
	}
	if git.commits != 0 {
		t.Errorf("committed before the agent's record")
	}
	// The agent ignored it: the same exchange is never asked about again.
	o = call(t, dir, "Stop", map[string]any{"stop_hook_active": true}, deps)
	if o.Decision != "" || o.HookSpecificOutput != nil {
		t.Fatalf("asked twice about the same exchange: %+v", o)
	}
	if git.commits != 1 {
		t.Errorf("commits = %d after the second Stop, want 1", git.commits)
	}
	// The next turn, the same exchange still unrecorded: not asked again.
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "and now?"}, deps)
	edit(t, dir, deps)
	if o := call(t, dir, "Stop", nil, deps); o.Decision != "" {
		t.Fatalf("asked again in a later turn about the same exchange: %+v", o)
	}
	// A new exchange worth a record is asked about.
	mem.asks = []*RecordAsk{worthAsk("k2")}
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "next"}, deps)
	edit(t, dir, deps)
	if o := call(t, dir, "Stop", nil, deps); o.Decision != "block" || !strings.Contains(o.Reason, `"exchange": "x-k2"`) {
		t.Fatalf("a new exchange was not asked about: %+v", o)
	}
}

func TestStopBlockBudgetPerTurn(t *testing.T) {
	dir := project(t)
	// Each Stop finds another exchange to ask about.
	mem := &fakeMemory{pending: []Pending{complete}, asks: []*RecordAsk{worthAsk("a"), worthAsk("b"), worthAsk("c"), worthAsk("d")}}
	deps := Deps{Memory: mem, Git: &fakeGit{}}
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "refactor"}, deps)
	edit(t, dir, deps)
	for i := 1; i <= 2; i++ {
		if o := call(t, dir, "Stop", map[string]any{"stop_hook_active": i > 1}, deps); o.Decision != "block" {
			t.Fatalf("stop %d: want a request, got %+v", i, o)
		}
	}
	if o := call(t, dir, "Stop", map[string]any{"stop_hook_active": true}, deps); o.Decision != "" {
		t.Fatalf("third stop must let the turn end with the budget spent, got %+v", o)
	}
	// A new prompt is a new turn with a fresh budget.
	call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "continue"}, deps)
	edit(t, dir, deps)
	if o := call(t, dir, "Stop", nil, deps); o.Decision != "block" {
		t.Fatalf("new turn: want a request, got %+v", o)
	}
}

func TestStopEnforceRemindNeverAsksTheAgent(t *testing.T) {
	dir := project(t)
	os.WriteFile(filepath.Join(dir, ".claude", "memory", "config.yaml"), []byte("stop:\n  enforce: remind\n"), 0o644)
	deps := Deps{Memory: &fakeMemory{pending: []Pending{complete}, asks: []*RecordAsk{worthAsk("k1")}}, Git: &fakeGit{}}
	edit(t, dir, deps)
	o := call(t, dir, "Stop", nil, deps)
	if o.Decision != "" || o.HookSpecificOutput != nil || !strings.Contains(o.SystemMessage, "worth a record") {
		t.Fatalf("remind: want only a message to the user, got %+v", o)
	}
}

func TestStopCommitsWhenComplete(t *testing.T) {
	dir := project(t)
	git := &fakeGit{}
	deps := Deps{Memory: &fakeMemory{pending: []Pending{complete}}, Git: git}
	edit(t, dir, deps)
	if o := call(t, dir, "Stop", nil, deps); o.Decision != "" || o.SystemMessage != "" {
		t.Fatalf("got %+v", o)
	}
	if git.commits != 1 {
		t.Fatalf("commits = %d, want 1", git.commits)
	}
}

func TestHooksNeverFail(t *testing.T) {
	dir := project(t)
	// A broken layer: the error is surfaced once, then only logged.
	deps := Deps{Memory: &fakeMemory{err: errors.New("facts.json: unexpected end of JSON input")}}
	o := call(t, dir, "Stop", nil, deps)
	if !strings.Contains(o.SystemMessage, "facts.json: unexpected end of JSON input") || o.Decision != "" {
		t.Fatalf("first failure must be surfaced, got %+v", o)
	}
	if o := call(t, dir, "Stop", nil, deps); o.SystemMessage != "" {
		t.Fatalf("the same failure surfaced twice: %+v", o)
	}
	log, _ := os.ReadFile(filepath.Join(dir, ".git", "memkeep", "hooks.log"))
	if bytes.Count(log, []byte("unexpected end of JSON input")) != 2 {
		t.Fatalf("both failures must be logged:\n%s", log)
	}
	// A panic inside a layer.
	o = call(t, dir, "Stop", nil, Deps{Memory: &fakeMemory{panicky: true}})
	if !strings.Contains(o.SystemMessage, "panic in Stop hook") {
		t.Fatalf("panic not reported: %+v", o)
	}
	// Garbage on stdin, an unknown event, a folder that is no project.
	for _, c := range []struct{ event, stdin string }{
		{"Stop", "not json"},
		{"Stop", ""},
		{"NoSuchEvent", `{"cwd":"` + dir + `"}`},
		{"Stop", `{"cwd":"` + t.TempDir() + `"}`},
	} {
		var out bytes.Buffer
		if code := Run(c.event, strings.NewReader(c.stdin), &out, Deps{}); code != 0 || !json.Valid(out.Bytes()) {
			t.Errorf("%s with %q: exit %d, output %q", c.event, c.stdin, code, out.String())
		}
	}
}

func TestSessionStartAndPromptContext(t *testing.T) {
	dir := project(t)
	mem := &fakeMemory{}
	deps := Deps{Memory: mem}
	o := call(t, dir, "SessionStart", map[string]any{"source": "startup"}, deps)
	if o.HookSpecificOutput == nil || o.HookSpecificOutput.HookEventName != "SessionStart" || !strings.Contains(o.HookSpecificOutput.AdditionalContext, "always run the linter") {
		t.Fatalf("got %+v", o)
	}
	o = call(t, dir, "UserPromptSubmit", map[string]any{"prompt": "From now on always run the linter"}, deps)
	if len(mem.rules) != 1 || o.HookSpecificOutput == nil || !strings.Contains(o.HookSpecificOutput.AdditionalContext, "a rule at once") {
		t.Fatalf("rule not recorded: %v %+v", mem.rules, o)
	}
}

// TestMain clears CLAUDE_PROJECT_DIR: run from inside a Claude Code
// session, it would send the hooks under test to that session's project.
func TestMain(m *testing.M) {
	os.Unsetenv("CLAUDE_PROJECT_DIR")
	os.Exit(m.Run())
}

// TestProjectDirWinsOverCwd: the agent's `cd` into another repository
// moves cwd, not the project the session belongs to.
func TestProjectDirWinsOverCwd(t *testing.T) {
	project, elsewhere := project(t), project(t)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	call(t, elsewhere, "PostToolUse", map[string]any{"tool_name": "Bash"}, Deps{})
	lp, _ := memdir.Find(project)
	le, _ := memdir.Find(elsewhere)
	if tools, _ := readCounters(lp, "s1"); tools != 1 {
		t.Errorf("the project counted %d tools, want 1", tools)
	}
	if tools, _ := readCounters(le, "s1"); tools != 0 {
		t.Errorf("the folder cwd pointed to counted %d tools, want 0", tools)
	}
}

func TestPostToolUseCounts(t *testing.T) {
	dir := project(t)
	l, _ := memdir.Find(dir)
	for i := 0; i < 5; i++ {
		call(t, dir, "PostToolUse", map[string]any{"tool_name": []string{"Edit", "Bash", "Write", "Read", "Grep"}[i]}, Deps{})
	}
	if tools, edits := readCounters(l, "s1"); tools != 5 || edits != 2 {
		t.Fatalf("tools %d edits %d, want 5 and 2", tools, edits)
	}
}

func ExampleCommand() {
	fmt.Println(Command("/home/me/go/bin/memkeep", "Stop"))
	fmt.Println(Command("/Users/me/My Tools/memkeep", "SessionStart"))
	// Output:
	// /home/me/go/bin/memkeep hook Stop
	// '/Users/me/My Tools/memkeep' hook SessionStart
}

func TestAskAgentByClientVersion(t *testing.T) {
	for _, c := range []struct {
		v       string
		context bool
	}{{"", false}, {"2.1.39", false}, {"2.1.162", false}, {"2.1.163", true}, {"2.1.330", true}, {"2.2.0", true}, {"10.0", true}, {"1.0.58", false}, {"garbage", false}} {
		o := askAgent(c.v, "run memkeep l2 add")
		gotContext := o.HookSpecificOutput != nil && o.HookSpecificOutput.AdditionalContext == "run memkeep l2 add" && o.Decision == ""
		gotBlock := o.Decision == "block" && o.Reason == "run memkeep l2 add" && o.HookSpecificOutput == nil
		if gotContext != c.context || gotBlock == c.context {
			t.Errorf("client %q: got %+v", c.v, o)
		}
	}
}

func TestStopWaitsForTheTranscriptToCatchUp(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	msg := "All tests pass now.\nDetails follow."
	os.WriteFile(p, []byte(`{"type":"user","message":{"content":"go"}}`+"\n"), 0o644)
	go func() {
		time.Sleep(60 * time.Millisecond)
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"All tests pass now.\nDetails follow."}]}}` + "\n")
		f.Close()
	}()
	start := time.Now()
	if !waitForTranscript(p, msg, time.Second) {
		t.Fatal("transcript reported missing")
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > 600*time.Millisecond {
		t.Fatalf("returned after %v: did not wait for the message, or waited too long", d)
	}
	// A transcript that never appears: give up after the wait, say so.
	start = time.Now()
	if waitForTranscript(filepath.Join(t.TempDir(), "none.jsonl"), msg, 80*time.Millisecond) {
		t.Fatal("a missing transcript reported present")
	}
	if time.Since(start) < 80*time.Millisecond {
		t.Fatal("gave up before the wait")
	}
}

// The message is looked for in the last 16 KiB first, then in the last
// 256 KiB: a long answer, or lines Claude Code writes after it, put its
// start further from the end.
func TestStopFindsTheMessageBeyondTheFirstWindow(t *testing.T) {
	msg := "Refactored the store."
	line := `{"type":"assistant","message":{"content":[{"type":"text","text":"Refactored the store. ` + strings.Repeat("x", 40<<10) + `"}]}}` + "\n"
	for _, c := range []struct {
		name  string
		after int  // bytes written after the message's line
		found bool // within the wait
	}{
		{"at the end", 0, true},
		{"40 KiB before the end", 0, true}, // the line itself is 40 KiB long
		{"100 KiB before the end", 60 << 10, true},
		{"beyond 256 KiB", 300 << 10, false},
	} {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		data := line
		if c.name == "at the end" {
			data = `{"type":"assistant","message":{"content":[{"type":"text","text":"Refactored the store."}]}}` + "\n"
		}
		data += strings.Repeat(`{"type":"system","subtype":"turn_duration"}`+"\n", c.after/44)
		os.WriteFile(p, []byte(data), 0o644)
		start := time.Now()
		if !waitForTranscript(p, msg, 60*time.Millisecond) {
			t.Fatalf("%s: transcript reported missing", c.name)
		}
		waited := time.Since(start) >= 60*time.Millisecond
		if waited == c.found {
			t.Errorf("%s: waited %v, want found at once = %v", c.name, time.Since(start), c.found)
		}
	}
}

// settleMemory reports concepts and reflection missing until Settle runs.
type settleMemory struct {
	fakeMemory
	settled bool
}

func (m *settleMemory) Pending(memdir.Layout, string) (Pending, error) {
	if m.settled {
		return complete, nil
	}
	return Pending{Layers: []LayerStatus{{Layer: "L3", OK: false, Detail: "1 L2 record without a concept"}, {Layer: "L4", OK: false, Detail: "L2 changed since the last reflection"}}}, nil
}

func (m *settleMemory) Settle(memdir.Layout, string) (Change, error) {
	m.settled = true
	return Change{Summary: "reflected", Changed: true}, nil
}

// TestStopDoesTheChoresItself: concepts, reflection and memory.md are
// memkeep's own work, done in the Stop, never asked of the agent.
func TestStopDoesTheChoresItself(t *testing.T) {
	dir := project(t)
	mem, git := &settleMemory{}, &fakeGit{}
	deps := Deps{Memory: mem, Git: git}
	edit(t, dir, deps)
	o := call(t, dir, "Stop", nil, deps)
	if o.Decision != "" || o.HookSpecificOutput != nil || !mem.settled || git.commits != 1 {
		t.Fatalf("want settle + commit and no request, got %+v settled=%v commits=%d", o, mem.settled, git.commits)
	}
}

// recordingStream keeps the events the hooks append.
type recordingStream struct{ events []Event }

func (r *recordingStream) Append(_ memdir.Layout, e Event) error {
	r.events = append(r.events, e)
	return nil
}

// TestEveryHandlerAppendsAStreamEvent: the stream is the record of all that
// happened, so each event leaves a trace in it.
func TestEveryHandlerAppendsAStreamEvent(t *testing.T) {
	dir := project(t)
	rec := &recordingStream{}
	deps := Deps{Stream: rec, Memory: &fakeMemory{pending: []Pending{complete}}, Git: &fakeGit{}}
	t.Setenv("MEMKEEP_NO_SPAWN", "1")
	for _, ev := range Events {
		before := len(rec.events)
		call(t, dir, ev, map[string]any{"prompt": "hi", "tool_name": "Read", "agent_id": "a1"}, deps)
		if len(rec.events) == before {
			t.Errorf("%s appended no stream event", ev)
		}
	}
}

// TestTranscriptNeedleMatchesJavaScriptJSON: the needle must appear in the
// transcript as Claude Code (JSON.stringify) writes it, or Stop would wait
// its whole budget on every message with <, > or &.
func TestTranscriptNeedleMatchesJavaScriptJSON(t *testing.T) {
	for msg, written := range map[string]string{
		"Use <T> & \"quotes\" here": `Use <T> & \"quotes\" here`,
		"tab\there":                 `tab\there`,
		"before\u2028after the sep": `before`,
	} {
		if got := string(transcriptNeedle(msg)); got != written {
			t.Errorf("%q: needle %q, want %q", msg, got, written)
		}
	}
}

// TestDecodeInputMatchesEncodingJSON: the scanner reads the same fields as
// a full decode would, whatever else the payload carries.
func TestDecodeInputMatchesEncodingJSON(t *testing.T) {
	payload := map[string]any{
		"session_id": "s1", "transcript_path": "/tmp/a b/t.jsonl", "cwd": "/work/\"quoted\"", "hook_event_name": "PostToolUse",
		"permission_mode": "acceptEdits", "tool_name": "Read", "tool_input": map[string]any{"file_path": "/x/é.go", "limit": 5},
		"tool_response":    map[string]any{"file": map[string]any{"content": strings.Repeat("line with \\ and \"quotes\"\n", 50000)}},
		"stop_hook_active": true, "last_assistant_message": "done <ok> \u2028 next", "prompt": "tab\there",
		"unknown_future_field": []any{1, "two", map[string]any{"three": nil}},
	}
	raw, _ := json.Marshal(payload)
	var want, got Input
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if err := decodeInput(raw, &got); err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if string(wb) != string(gb) {
		t.Fatalf("decodeInput differs from encoding/json:\n got %s\nwant %s", gb, wb)
	}
	if err := decodeInput([]byte(`{"session_id": "s1", "cwd": `), &got); err == nil {
		t.Fatal("a truncated payload must be an error")
	}
}

// TestRecordRequestRunsAsPrinted: the command Stop asks for names
// memkeep the way the agent's shell can run it: `memkeep` when that is
// this binary on PATH, else its absolute path.
func TestRecordRequestRunsAsPrinted(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	t.Setenv("PATH", t.TempDir())
	if r := RecordRequest(*worthAsk("k")); !strings.Contains(r, "\n"+shellquote.Quote(exe)+" l2 add <<") {
		t.Errorf("memkeep not on PATH, the command must use the binary's path:\n%s", r)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "memkeep")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if r := RecordRequest(*worthAsk("k")); !strings.Contains(r, "\nmemkeep l2 add <<") {
		t.Errorf("memkeep on PATH is this binary, the command must say memkeep:\n%s", r)
	}
}

// TestRecordRequestStaysShort: an exchange that touched many files and
// ran long commands still gets a request of at most 1,500 characters,
// whose JSON is valid once its placeholders are written.
func TestRecordRequestStaysShort(t *testing.T) {
	a := worthAsk("k")
	for i := range 40 {
		a.Files = append(a.Files, fmt.Sprintf("internal/some/deeply/nested/package%02d/file_with_a_long_name.go", i))
		a.Commands = append(a.Commands, strings.Repeat(fmt.Sprintf("go test ./pkg%d/... -run 'TestX' && ", i), 5))
	}
	r := RecordRequest(*a)
	if len(r) > 1500 {
		t.Errorf("request is %d characters, over 1500:\n%s", len(r), r)
	}
	i, j := strings.Index(r, "<<'MEMKEEP_RECORD'\n"), strings.LastIndex(r, "\nMEMKEEP_RECORD")
	if i < 0 || j < i {
		t.Fatalf("no heredoc in:\n%s", r)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(r[i+len("<<'MEMKEEP_RECORD'\n"):j]), &rec); err != nil {
		t.Fatalf("the record is not valid JSON: %v\n%s", err, r)
	}
	if files, _ := rec["files"].([]any); len(files) == 0 {
		t.Errorf("the files were all dropped to make room:\n%s", r)
	}
}

// TestTranscriptThatIsNoFileNeverHangs: a transcript_path that is a FIFO
// (no writer ever comes) or a device that never ends fails fast in every
// hook that reads the transcript, and says what was wrong.
func TestTranscriptThatIsNoFileNeverHangs(t *testing.T) {
	dir := project(t)
	fifo := filepath.Join(t.TempDir(), "session.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		for _, event := range []string{"Stop", "SessionEnd", "PreCompact", "SubagentStop"} {
			fields := map[string]any{"transcript_path": p, "agent_transcript_path": p, "last_assistant_message": "done"}
			start := time.Now()
			o := call(t, dir, event, fields, Deps{})
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("%s with transcript %s took %v", event, p, took)
			}
			// The problem is shown once (the first hook), then only logged.
			if event == "Stop" && !strings.Contains(o.SystemMessage, p+" is not a regular file") {
				t.Errorf("%s with transcript %s: want a message saying it is no regular file, got %+v", event, p, o)
			}
		}
	}
}

package claudetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests exercise the scripted server over HTTP, without Claude
// Code, so the harness's own behaviour is checked everywhere.

// post sends a Messages request body and returns the response.
func post(t *testing.T, s *Server, path string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// messagesBody is a minimal Messages request; tools makes it an agent
// request.
func messagesBody(stream bool, tools bool, userText string) map[string]any {
	body := map[string]any{
		"model":      "claude-test",
		"max_tokens": 100,
		"stream":     stream,
		"system":     []any{map[string]any{"type": "text", "text": "You are a test."}},
		"messages": []any{
			map[string]any{"role": "user", "content": "first prompt"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": "true"}}}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": []any{map[string]any{"type": "text", "text": "tool said hi"}}},
				map[string]any{"type": "text", "text": userText},
			}},
		},
	}
	if tools {
		body["tools"] = []any{map[string]any{"name": "Bash", "input_schema": map[string]any{}}}
	}
	return body
}

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var evs []sseEvent
	var name string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("bad SSE data %q: %v", line, err)
			}
			if d["type"] != name {
				t.Errorf("event %q carries data of type %v", name, d["type"])
			}
			evs = append(evs, sseEvent{name, d})
		case line == "":
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	return evs
}

// assembled is a streamed message put back together the way a client
// does: text deltas appended, input_json_delta fragments concatenated
// and parsed at content_block_stop.
type assembled struct {
	texts  []string
	tools  []Block
	stop   string
	events []string
}

func assemble(t *testing.T, evs []sseEvent) assembled {
	t.Helper()
	var a assembled
	var cur map[string]any
	var text, js strings.Builder
	for _, ev := range evs {
		a.events = append(a.events, ev.name)
		switch ev.name {
		case "content_block_start":
			cur = ev.data["content_block"].(map[string]any)
			text.Reset()
			js.Reset()
		case "content_block_delta":
			d := ev.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text.WriteString(d["text"].(string))
			case "input_json_delta":
				js.WriteString(d["partial_json"].(string))
			default:
				t.Errorf("unknown delta %v", d["type"])
			}
		case "content_block_stop":
			if cur["type"] == "tool_use" {
				var in map[string]any
				if err := json.Unmarshal([]byte(js.String()), &in); err != nil {
					t.Fatalf("tool input deltas do not form JSON: %q: %v", js.String(), err)
				}
				a.tools = append(a.tools, Block{Type: "tool_use", ID: cur["id"].(string), Name: cur["name"].(string), Input: in})
			} else {
				a.texts = append(a.texts, text.String())
			}
		case "message_delta":
			a.stop, _ = ev.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	return a
}

func TestServerStreamsScriptedTurns(t *testing.T) {
	script := Script{Turns: []Turn{{
		Text: "Running ünïcode ✓ {{.Dir}}",
		Tools: []ToolUse{
			{Name: "Bash", Input: map[string]any{"command": `{{match "run: (.+)" .LastUser}}`, "timeout": 5.0}},
			{Name: "Write", Input: map[string]any{"file_path": "sub/a.txt", "content": "x"}},
			{Name: "Read", Input: map[string]any{"file_path": "/abs/b.txt"}},
		},
	}}}
	s := NewServer(script, t.Logf)
	defer s.Close()
	s.SetTemplateData("/proj", "/home")

	resp := post(t, s, "/v1/messages", messagesBody(true, true, "please run: make lint"))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	a := assemble(t, readSSE(t, resp.Body))
	wantEvents := "message_start ping " +
		strings.Repeat("content_block_start content_block_delta content_block_delta content_block_stop ", 4) +
		"message_delta message_stop"
	if got := strings.Join(a.events, " "); got != wantEvents {
		t.Errorf("events:\n got %s\nwant %s", got, wantEvents)
	}
	if len(a.texts) != 1 || a.texts[0] != "Running ünïcode ✓ /proj" {
		t.Errorf("text = %q", a.texts)
	}
	if a.stop != "tool_use" {
		t.Errorf("stop_reason = %q", a.stop)
	}
	if len(a.tools) != 3 {
		t.Fatalf("tools = %+v", a.tools)
	}
	if a.tools[0].Input["command"] != "make lint" || a.tools[0].Input["timeout"] != 5.0 {
		t.Errorf("Bash input = %v", a.tools[0].Input)
	}
	if a.tools[1].Input["file_path"] != "/proj/sub/a.txt" || a.tools[2].Input["file_path"] != "/abs/b.txt" {
		t.Errorf("file paths = %v, %v", a.tools[1].Input["file_path"], a.tools[2].Input["file_path"])
	}
	if a.tools[0].ID == a.tools[1].ID {
		t.Errorf("tool_use ids repeat: %s", a.tools[0].ID)
	}

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests recorded", len(reqs))
	}
	r := reqs[0]
	if r.Answer != "turn 0" || r.System != "You are a test." || r.Model != "claude-test" || !r.Stream {
		t.Errorf("recorded %+v", r)
	}
	if got := r.LastUserText(); got != "tool said hi\nplease run: make lint" {
		t.Errorf("LastUserText = %q", got)
	}
	if !strings.Contains(r.Text(), "first prompt") || s.FindRequest("tool said hi") != r || s.FindRequest("absent") != nil {
		t.Errorf("Text/FindRequest do not see the whole request")
	}
	if s.Remaining() != 0 {
		t.Errorf("Remaining = %d", s.Remaining())
	}
}

func TestServerPlainJSONAndDefault(t *testing.T) {
	s := NewServer(Script{}, t.Logf)
	defer s.Close()
	resp := post(t, s, "/v1/messages", messagesBody(false, true, "hi"))
	var msg struct {
		Type       string  `json:"type"`
		Role       string  `json:"role"`
		Model      string  `json:"model"`
		StopReason string  `json:"stop_reason"`
		Content    []Block `json:"content"`
		Usage      struct {
			InputTokens, OutputTokens int
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.Role != "assistant" || msg.Model != "claude-test" || msg.StopReason != "end_turn" ||
		len(msg.Content) != 1 || msg.Content[0].Text != DefaultTurn.Text {
		t.Errorf("non-streaming reply = %+v", msg)
	}
	if got := s.Requests()[0].Answer; got != "default" {
		t.Errorf("exhausted script answered by %q", got)
	}
}

func TestServerSideRequestsAndGates(t *testing.T) {
	script := Script{
		Turns: []Turn{
			{Text: "first"},
			{When: &When{LastUserContains: "Stop hook feedback"}, Text: "reacting"},
			{When: &When{RequestContains: "You are a test."}, Text: "system matched"},
		},
		Default: &Turn{Text: "waiting"},
	}
	s := NewServer(script, t.Logf)
	defer s.Close()
	reply := func(tools bool, user string) string {
		resp := post(t, s, "/v1/messages", messagesBody(false, tools, user))
		var msg struct{ Content []Block }
		if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
			t.Fatal(err)
		}
		return msg.Content[0].Text
	}
	steps := []struct {
		tools bool
		user  string
		want  string
		left  int
	}{
		{false, "generate a title", "Scripted session", 3}, // side request: not from the script
		{true, "go", "first", 2},
		{true, "something else", "waiting", 2}, // gate not met: default, turn kept
		{false, "Stop hook feedback: x", "Scripted session", 2},
		{true, "Stop hook feedback:\nrun x", "reacting", 1},
		{true, "anything", "system matched", 0},
		{true, "anything", "waiting", 0},
	}
	for i, st := range steps {
		if got := reply(st.tools, st.user); got != st.want {
			t.Errorf("step %d: reply %q, want %q", i, got, st.want)
		}
		if got := s.Remaining(); got != st.left {
			t.Errorf("step %d: %d turns left, want %d", i, got, st.left)
		}
	}
	if n := len(s.AgentRequests()); n != 5 {
		t.Errorf("%d agent requests, want 5", n)
	}
	s.SetScript(Script{Turns: []Turn{{Text: "new script"}}})
	if got := reply(true, "x"); got != "new script" {
		t.Errorf("after SetScript: %q", got)
	}
}

func TestServerOtherEndpoints(t *testing.T) {
	s := NewServer(Script{}, t.Logf)
	defer s.Close()
	resp := post(t, s, "/v1/messages/count_tokens", messagesBody(false, true, "count me"))
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ct); err != nil || resp.StatusCode != 200 || ct.InputTokens < 1 {
		t.Errorf("count_tokens: %d %+v %v", resp.StatusCode, ct, err)
	}
	if resp := post(t, s, "/api/hello", map[string]any{}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint answered %d", resp.StatusCode)
	}
	if u := s.Unknown(); len(u) != 1 || u[0] != "POST /api/hello" {
		t.Errorf("Unknown = %v", u)
	}
	if resp := post(t, s, "/v1/messages", "not an object"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed body answered %d", resp.StatusCode)
	}
	if n := s.Remaining(); n != 0 || len(s.Requests()) != 3 {
		t.Errorf("requests recorded: %d", len(s.Requests()))
	}
}

func TestParseScriptRejectsMistakes(t *testing.T) {
	bad := map[string]string{
		"unknown field":    `{"turns":[{"txt":"typo"}]}`,
		"empty turn":       `{"turns":[{}]}`,
		"nameless tool":    `{"turns":[{"tools":[{"input":{}}]}]}`,
		"bad template":     `{"turns":[{"text":"{{.Dir"}]}`,
		"unknown variable": `{"turns":[{"tools":[{"name":"Bash","input":{"command":"{{.Nope}}"}}]}]}`,
		"bad regexp":       `{"turns":[{"tools":[{"name":"Bash","input":{"command":"{{match \"(\" .LastUser}}"}}]}]}`,
		"gated default":    `{"turns":[],"default":{"text":"x","when":{"last_user_contains":"y"}}}`,
	}
	for name, src := range bad {
		if _, err := ParseScript([]byte(src)); err == nil {
			t.Errorf("%s: accepted %s", name, src)
		}
	}
	good := `{"turns":[{"text":"t {{.Home}}","tools":[{"name":"Bash","input":{"command":"{{join \" && \" (matchAll \"x\" .LastUser)}} {{shellQuote .Dir}}"}}]}]}`
	if _, err := ParseScript([]byte(good)); err != nil {
		t.Errorf("rejected a valid script: %v", err)
	}
}

func TestTemplateFuncs(t *testing.T) {
	data := TemplateData{Dir: "/it's here", LastUser: "Stop hook feedback:\nrun: a b\nrun: c\nother"}
	cases := map[string]string{
		`{{match "run: (.+)" .LastUser}}`:                      "a b",
		`{{match "nothing" .LastUser}}`:                        "",
		`{{join "; " (matchAll "(?m)^run: (.+)$" .LastUser)}}`: "a b; c",
		`{{join "," (matchAll "run" .LastUser)}}`:              "run,run",
		`cd {{shellQuote .Dir}}`:                               `cd '/it'\''s here'`,
		`plain text with no template`:                          "plain text with no template",
	}
	for src, want := range cases {
		got, err := renderString(src, data)
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", src, got, err, want)
		}
	}
}

// Every scenario shipped under fixtures/e2e must load.
func TestScenarioFixturesLoad(t *testing.T) {
	files, err := filepath.Glob("../../fixtures/e2e/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	for _, f := range files {
		s, err := LoadScript(f)
		if err != nil {
			t.Error(err)
			continue
		}
		if got := LoadScenario(t, s.Name); len(got.Turns) != len(s.Turns) {
			t.Errorf("LoadScenario(%q) differs from LoadScript", s.Name)
		}
	}
}

func TestFindClaude(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()

	// Isolate from the machine's own installation.
	t.Setenv("PATH", empty)
	t.Setenv("XDG_CACHE_HOME", empty)
	t.Setenv("MEMKEEP_CLAUDE_DIR", "")

	t.Setenv("MEMKEEP_CLAUDE_BIN", exe)
	if p, ok := FindClaude(); !ok || p != exe {
		t.Errorf("from MEMKEEP_CLAUDE_BIN: %q %v", p, ok)
	}
	t.Setenv("MEMKEEP_CLAUDE_BIN", plain)
	t.Setenv("PATH", dir)
	if p, ok := FindClaude(); ok {
		t.Errorf("a non-executable MEMKEEP_CLAUDE_BIN fell back to %q", p)
	}
	t.Setenv("MEMKEEP_CLAUDE_BIN", "")
	if p, ok := FindClaude(); !ok || p != exe {
		t.Errorf("from PATH: %q %v", p, ok)
	}
	t.Setenv("PATH", empty)
	if p, ok := FindClaude(); ok {
		t.Errorf("found %q with nothing installed", p)
	}
	t.Setenv("MEMKEEP_CLAUDE_DIR", dir)
	if p, ok := FindClaude(); !ok || p != exe {
		t.Errorf("from MEMKEEP_CLAUDE_DIR: %q %v", p, ok)
	}
	t.Setenv("MEMKEEP_CLAUDE_DIR", "")
	cached := filepath.Join(empty, "memkeep", "claude-"+Version)
	if err := os.MkdirAll(cached, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cached, "claude"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, ok := FindClaude(); !ok || p != filepath.Join(cached, "claude") {
		t.Errorf("from the install script's cache: %q %v", p, ok)
	}
}

func TestMungePath(t *testing.T) {
	if got, want := MungePath("/tmp/my project's dir/a_b.c"), "-tmp-my-project-s-dir-a-b-c"; got != want {
		t.Errorf("MungePath = %q, want %q", got, want)
	}
}

// fakeTB records what Require does instead of ending the test.
type fakeTB struct {
	testing.TB
	skipped, failed string
}

func (f *fakeTB) Helper()             {}
func (f *fakeTB) Skip(args ...any)    { f.skipped = fmt.Sprint(args...) }
func (f *fakeTB) Fatal(args ...any)   { f.failed = fmt.Sprint(args...) }
func (f *fakeTB) Logf(string, ...any) {}

func TestRequireWithoutBinary(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("XDG_CACHE_HOME", empty)
	t.Setenv("MEMKEEP_CLAUDE_DIR", "")
	t.Setenv("MEMKEEP_CLAUDE_BIN", "")

	t.Setenv("MEMKEEP_REQUIRE_CLAUDE", "")
	f := &fakeTB{TB: t}
	Require(f)
	if f.skipped != SkipMessage || f.failed != "" {
		t.Errorf("without a binary: skipped %q, failed %q", f.skipped, f.failed)
	}

	t.Setenv("MEMKEEP_REQUIRE_CLAUDE", "1")
	f = &fakeTB{TB: t}
	Require(f)
	if !strings.HasPrefix(f.failed, SkipMessage) || f.skipped != "" {
		t.Errorf("with MEMKEEP_REQUIRE_CLAUDE: skipped %q, failed %q", f.skipped, f.failed)
	}
}

func TestGoBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the Go compiler")
	}
	bin := GoBuild(t, "./testdata/hello")
	out, err := exec.Command(bin).Output()
	if err != nil || string(out) != "hello from a built hook\n" {
		t.Errorf("built binary said %q, %v", out, err)
	}
}

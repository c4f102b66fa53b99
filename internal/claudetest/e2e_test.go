package claudetest

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// These tests run the real Claude Code binary. They pin down what the
// hooks contract looks like in practice (which events fire in which
// order, which fields each payload has, where hook output lands in the
// next request), so a Claude Code upgrade that changes any of it fails
// here first, with the harness's own recording hook rather than
// memkeep's.

// payload decodes a hook record's stdin JSON.
func (r hookRecord) payload(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Payload, &m); err != nil {
		t.Fatalf("%s payload is not a JSON object: %v: %s", r.Event, err, r.Payload)
	}
	return m
}

func events(recs []hookRecord) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Event)
	}
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// requireKeys fails unless m has every key in want.
func requireKeys(t *testing.T, event string, m map[string]any, want ...string) {
	t.Helper()
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s payload lacks %q; has %v", event, k, keys(m))
		}
	}
}

// systemText is the text of the request's system-role messages: where
// Claude Code 2.1.330 puts SessionStart context and hook error labels.
func systemText(r *Request) string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "system" {
			parts = append(parts, m.Text())
		}
	}
	return strings.Join(parts, "\n")
}

func TestRealClientHooksAndStopBlock(t *testing.T) {
	// A project path with a space and a quote: the transcript path and
	// the payloads must survive it.
	h, hookDir := recordingHarnessOpts(t, LoadScenario(t, "stop-block"), []Option{ProjectDirName("my project's dir")},
		envHookContext+"=MARKER-123",
		envStopMode+"=block-once",
		envStopReason+"=please run: echo fixed")
	ctx := context.Background()
	const prompt = "write the notes"
	res, err := h.Run(ctx, prompt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first run: %v wall, %d ms reported by Claude Code, %d turns", res.Elapsed, res.DurationMS, res.NumTurns)
	if res.IsError || res.ExitCode != 0 || res.Subtype != "success" {
		t.Fatalf("run failed: exit %d, %+v\nstderr: %s", res.ExitCode, res.JSON, res.Stderr)
	}
	if want := "Ran what the Stop hook asked for."; res.Result != want {
		t.Errorf("result = %q, want %q (the reply to the block reason)", res.Result, want)
	}
	if n := h.Server.Remaining(); n != 0 {
		t.Errorf("%d script turns never requested", n)
	}
	if u := h.Server.Unknown(); len(u) > 0 {
		t.Errorf("requests to unknown endpoints: %v", u)
	}

	// The tools really ran in the project.
	if b, err := os.ReadFile(h.Dir + "/notes.txt"); err != nil || string(b) != "hello world\n" {
		t.Errorf("notes.txt = %q, %v; want the Write then the Edit applied", b, err)
	}
	if _, err := os.Stat(res.TranscriptPath); err != nil {
		t.Errorf("transcript not where the harness says: %v", err)
	}

	// Every hook fired, in this order, with real payloads.
	recs := hookRecords(t, hookDir)
	wantEvents := []string{
		"SessionStart", "UserPromptSubmit",
		"PreToolUse", "PostToolUse", // Write
		"PreToolUse", "PostToolUse", // Edit
		"PreToolUse", "PostToolUse", // Bash cat
		"Stop",                      // blocks
		"PreToolUse", "PostToolUse", // Bash echo fixed
		"Stop", // approves
		"SessionEnd",
	}
	if got := events(recs); !slices.Equal(got, wantEvents) {
		t.Fatalf("hook events:\n got %v\nwant %v", got, wantEvents)
	}
	var tools []string
	var stops []map[string]any
	for _, r := range recs {
		p := r.payload(t)
		t.Logf("%s payload fields: %v", r.Event, keys(p))
		requireKeys(t, r.Event, p, "session_id", "transcript_path", "cwd", "hook_event_name")
		if p["session_id"] != res.SessionID || p["transcript_path"] != res.TranscriptPath ||
			p["cwd"] != h.Dir || p["hook_event_name"] != r.Event {
			t.Errorf("%s: common fields %v / %v / %v / %v; want %s, %s, %s",
				r.Event, p["session_id"], p["transcript_path"], p["cwd"], p["hook_event_name"],
				res.SessionID, res.TranscriptPath, h.Dir)
		}
		switch r.Event {
		case "SessionStart":
			if p["source"] != "startup" {
				t.Errorf("SessionStart source = %v, want startup", p["source"])
			}
		case "UserPromptSubmit":
			requireKeys(t, r.Event, p, "prompt", "permission_mode")
			if p["prompt"] != prompt {
				t.Errorf("UserPromptSubmit prompt = %v", p["prompt"])
			}
		case "PreToolUse":
			requireKeys(t, r.Event, p, "tool_name", "tool_input", "tool_use_id")
		case "PostToolUse":
			requireKeys(t, r.Event, p, "tool_name", "tool_input", "tool_response", "tool_use_id")
			tools = append(tools, p["tool_name"].(string))
		case "Stop":
			requireKeys(t, r.Event, p, "stop_hook_active", "last_assistant_message")
			stops = append(stops, p)
		case "SessionEnd":
			requireKeys(t, r.Event, p, "reason")
		}
	}
	if want := []string{"Write", "Edit", "Bash", "Bash"}; !slices.Equal(tools, want) {
		t.Errorf("PostToolUse tools = %v, want %v", tools, want)
	}
	if stops[0]["stop_hook_active"] != false || stops[0]["last_assistant_message"] != "All done." {
		t.Errorf("first Stop: stop_hook_active=%v last_assistant_message=%v", stops[0]["stop_hook_active"], stops[0]["last_assistant_message"])
	}
	if stops[1]["stop_hook_active"] != true || stops[1]["last_assistant_message"] != res.Result {
		t.Errorf("second Stop: stop_hook_active=%v last_assistant_message=%v", stops[1]["stop_hook_active"], stops[1]["last_assistant_message"])
	}

	// SessionStart's additionalContext reaches the model in a system-role
	// message, labelled.
	agent := h.Server.AgentRequests()
	if len(agent) != 6 {
		t.Fatalf("%d agent requests, want one per script turn (6)", len(agent))
	}
	if !strings.Contains(systemText(agent[0]), SessionStartContextLabel+"MARKER-123 source=startup") {
		t.Errorf("SessionStart context not in a system message of the first request:\n%.2000s", systemText(agent[0]))
	}

	// The Stop block reason comes back as a new user turn, and once more
	// in a system message with the "blocking error" label; turn 4 waited
	// for it and ran the command it named.
	blocked := agent[4]
	if blocked.Answer != "turn 4" {
		t.Errorf("request after the block answered by %s, want turn 4", blocked.Answer)
	}
	if got, want := blocked.LastUserText(), StopFeedbackPrefix+"please run: echo fixed"; got != want {
		t.Errorf("block reason as user turn = %q, want %q", got, want)
	}
	if last := blocked.Messages[len(blocked.Messages)-1]; last.Role != "system" ||
		!strings.HasPrefix(last.Text(), StopBlockingErrorLabel) || !strings.HasSuffix(last.Text(), ": please run: echo fixed") {
		t.Errorf("message after the block reason = %s %q, want the blocking error label", last.Role, last.Text())
	}
	if cmd := blocked.Reply[0].Input["command"]; cmd != "echo fixed" {
		t.Errorf("templated command = %v, want the one from the block reason", cmd)
	}
	if got := agent[5].LastUserText(); got != "fixed" {
		t.Errorf("tool result of the block's command = %q, want its output", got)
	}

	// --resume continues the same session: the history is sent again and
	// SessionStart fires with source "resume".
	h.SetScript(LoadScenario(t, "resume"))
	res2, err := h.Run(ctx, "continue please", Resume(res.SessionID))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("resumed run: %v wall", res2.Elapsed)
	if res2.IsError || res2.Result != "Resumed where we left off." {
		t.Fatalf("resumed run: %+v\nstderr: %s", res2.JSON, res2.Stderr)
	}
	if res2.SessionID != res.SessionID || res2.TranscriptPath != res.TranscriptPath {
		t.Errorf("resume changed the session: %s -> %s", res.SessionID, res2.SessionID)
	}
	resumed := h.Server.AgentRequests()[len(agent)]
	if !strings.Contains(resumed.Text(), "Ran what the Stop hook asked for.") {
		t.Errorf("resumed request lacks the earlier conversation")
	}
	// The startup context stays where it was (message 1) and the resume
	// context follows the new prompt as a system message of its own.
	if !strings.Contains(resumed.Messages[1].Text(), "source=startup") {
		t.Errorf("resumed request lost the startup context in message 1")
	}
	if last := resumed.Messages[len(resumed.Messages)-1]; last.Role != "system" ||
		last.Text() != SessionStartContextLabel+"MARKER-123 source=resume" {
		t.Errorf("resumed request's last message = %s %q, want the resume context", last.Role, last.Text())
	}
	if resumed.LastUserText() != "continue please" {
		t.Errorf("resumed request's last user message = %q", resumed.LastUserText())
	}
	var resumeStart map[string]any
	for _, r := range hookRecords(t, hookDir)[len(recs):] {
		if r.Event == "SessionStart" {
			resumeStart = r.payload(t)
		}
	}
	if resumeStart == nil || resumeStart["source"] != "resume" {
		t.Errorf("no SessionStart with source resume: %v", resumeStart)
	} else {
		t.Logf("SessionStart(resume) payload fields: %v", keys(resumeStart))
	}
}

// TestRealClientStopAdditionalContext checks the alternative to a block
// that SPEC §5 mentions: a Stop hook returning
// hookSpecificOutput.additionalContext. In 2.1.330 it continues the turn,
// and the model sees only a system reminder, no "blocking error" label.
func TestRealClientStopAdditionalContext(t *testing.T) {
	h, hookDir := recordingHarness(t, LoadScenario(t, "stop-context"),
		envStopMode+"=context-once",
		envStopReason+"=please run: echo fixed")
	res, err := h.Run(context.Background(), "say done")
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Result != "Noted the Stop hook's context." {
		t.Fatalf("the Stop context did not continue the turn: %+v\nstderr: %s", res.JSON, res.Stderr)
	}
	agent := h.Server.AgentRequests()
	if len(agent) != 2 {
		t.Fatalf("%d agent requests, want 2", len(agent))
	}
	want := "<system-reminder>\n" + StopContextLabel + "please run: echo fixed\n</system-reminder>"
	if got := agent[1].LastUserText(); got != want {
		t.Errorf("Stop context as the model sees it = %q, want %q", got, want)
	}
	if strings.Contains(agent[1].Text(), "blocking error") {
		t.Errorf("additionalContext was labelled as an error")
	}
	var stops []bool
	for _, r := range hookRecords(t, hookDir) {
		if r.Event == "Stop" {
			stops = append(stops, r.payload(t)["stop_hook_active"].(bool))
		}
	}
	if !reflect.DeepEqual(stops, []bool{false, true}) {
		t.Errorf("Stop stop_hook_active sequence = %v, want [false true]", stops)
	}
}

// TestRealClientBlockCapAndOtherOutputs pins down what a hook's budget
// is measured against: an agent that never acts on a Stop block. Claude
// Code 2.1.330 feeds 8 consecutive blocks back to the model, then runs
// Stop a 9th time and ends the turn despite its block (with an empty
// result). It also checks where UserPromptSubmit context lands, and that
// a systemMessage goes to the user (transcript) but never to the model.
func TestRealClientBlockCapAndOtherOutputs(t *testing.T) {
	h, hookDir := recordingHarness(t, Script{Turns: []Turn{{Text: "first"}}},
		envPromptCtx+"=PROMPTCTX-789",
		envStopMode+"=block-always",
		envStopReason+"=BLOCKED do the thing",
		envSystemMsg+"=SYSMSG-321")
	res, err := h.Run(context.Background(), "loop")
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Subtype != "success" {
		t.Fatalf("capped run: %+v\nstderr: %s", res.JSON, res.Stderr)
	}
	t.Logf("capped run: %v wall, result %q", res.Elapsed, res.Result)

	var active []bool
	for _, r := range hookRecords(t, hookDir) {
		if r.Event == "Stop" {
			active = append(active, r.payload(t)["stop_hook_active"].(bool))
		}
	}
	want := []bool{false}
	for range MaxConsecutiveStopBlocks {
		want = append(want, true)
	}
	if !slices.Equal(active, want) {
		t.Errorf("Stop calls (stop_hook_active) = %v, want 9 calls, only the first inactive", active)
	}
	agent := h.Server.AgentRequests()
	if len(agent) != 1+MaxConsecutiveStopBlocks {
		t.Fatalf("%d agent requests, want the prompt plus 8 fed-back blocks", len(agent))
	}
	for i, r := range agent[1:] {
		if r.LastUserText() != StopFeedbackPrefix+"BLOCKED do the thing" {
			t.Errorf("request %d: last user %q", i+1, r.LastUserText())
		}
	}

	// UserPromptSubmit context is appended to the first system-role
	// message (with the environment and skills), labelled.
	first := agent[0]
	if first.Messages[1].Role != "system" ||
		!strings.Contains(first.Messages[1].Text(), "\n"+UserPromptSubmitContextLabel+"PROMPTCTX-789\n") {
		t.Errorf("UserPromptSubmit context not in the first system message")
	}
	// The Stop hook never approves here, so its systemMessage is unused;
	// the model never sees systemMessage text in any case.
	if h.Server.FindRequest("SYSMSG-321") != nil {
		t.Errorf("a systemMessage reached the model")
	}
}

// TestRealClientSystemMessage: a Stop hook that approves with a
// systemMessage shows it to the user (a hook_system_message attachment in
// the transcript) and not to the model.
func TestRealClientSystemMessage(t *testing.T) {
	h, _ := recordingHarness(t, Script{Turns: []Turn{{Text: "first"}}}, envSystemMsg+"=SYSMSG-321")
	res, err := h.Run(context.Background(), "x")
	if err != nil || res.IsError {
		t.Fatalf("run: %v %+v", err, res.JSON)
	}
	if h.Server.FindRequest("SYSMSG-321") != nil {
		t.Errorf("the systemMessage reached the model")
	}
	b, err := os.ReadFile(res.TranscriptPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"type":"hook_system_message","content":"SYSMSG-321"`) {
		t.Errorf("transcript has no hook_system_message attachment for the systemMessage")
	}
}

// TestRealClientScriptErrorFailsRun: a turn that cannot be rendered
// must fail the run even though Claude Code, retrying, ends it normally.
func TestRealClientScriptErrorFailsRun(t *testing.T) {
	h := New(t, Require(t), Script{})
	h.Server.SetScript(Script{Turns: []Turn{{Text: "{{.Nope}}"}}}) // unvalidated on purpose
	_, err := h.Run(context.Background(), "x")
	if err == nil || !strings.Contains(err.Error(), "can't evaluate field Nope") {
		t.Errorf("Run error = %v, want the template error", err)
	}
}

package claudetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Server is a scripted Anthropic Messages API on 127.0.0.1. It answers
// POST /v1/messages (streaming as server-sent events, or plain JSON) from
// a Script, answers POST /v1/messages/count_tokens with an estimate, and
// records every request it receives so tests can assert on what Claude
// Code sent (system prompt, hook context, tool results, block reasons).
//
// It is safe for concurrent use: Claude Code sends side requests (titles)
// in parallel with the agent loop.
type Server struct {
	// URL is the base URL to give Claude Code as ANTHROPIC_BASE_URL.
	URL string

	srv  *httptest.Server
	logf func(format string, args ...any)

	mu       sync.Mutex
	script   Script
	next     int // index of the next unconsumed turn
	data     TemplateData
	requests []*Request
	unknown  []string
	errs     []error
	ids      int // tool_use ids handed out
	replies  int // messages answered
}

// Request is one HTTP request the server received. For Messages API
// calls the decoded fields are filled in.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	Time   time.Time

	// Model, Stream, MaxTokens and Tools come from the request body.
	Model     string
	Stream    bool
	MaxTokens int
	// Tools are the names of the tools offered to the model; empty for
	// side requests such as title generation.
	Tools []string
	// System is the system prompt's text blocks joined by newlines.
	System   string
	Messages []Message

	// Answer says how the server answered: "turn N" (script turn N,
	// counting from 0), "default", "side" (a request without tools) or
	// "other" for non-Messages endpoints.
	Answer string
	// Reply is the assistant content the server sent back (nil for
	// non-Messages endpoints).
	Reply []Block

	seq int // numbers replies, for message ids
}

// Message is one message of a Messages API request. Besides "user" and
// "assistant", Claude Code 2.1.330 sends "system" messages inside the
// list: that is where it puts the environment block and hook context
// (see SessionStartContextLabel).
type Message struct {
	Role    string
	Content []Block
}

// Block is one content block (text, tool_use, tool_result, ...). Text
// holds the text of a text block or the flattened text of a tool
// result.
type Block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	IsError   bool           `json:"is_error,omitempty"`
}

// Text flattens the message's text and tool results, one block per line.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// IsMessages reports whether this was a Messages API call (not
// count_tokens or anything else).
func (r *Request) IsMessages() bool {
	return r.Method == http.MethodPost && r.Path == "/v1/messages"
}

// Text is the system prompt and every message's text, flattened: what a
// test searches to ask "did the model get to see X?".
func (r *Request) Text() string {
	parts := []string{r.System}
	for _, m := range r.Messages {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// LastUserText is the text of the last user message (tool results
// included), which is where Claude Code puts whatever just happened:
// the prompt, tool output, or a Stop hook's block reason.
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text()
		}
	}
	return ""
}

// NewServer starts a scripted server. logf (t.Logf, typically; may be
// nil) receives one line per request so a failing test shows the
// conversation. Close it when done.
func NewServer(script Script, logf func(format string, args ...any)) *Server {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	s := &Server{script: script, logf: logf}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// Errors returns the scripting errors so far (a turn whose template
// failed when rendered for a request).
func (s *Server) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

// SetScript replaces the script; the next tools-bearing request gets its
// first turn. Use it between runs when one test drives several sessions.
// It does not validate (Harness.SetScript does); a broken turn shows up
// in Errors when it is used.
func (s *Server) SetScript(script Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.next = script, 0
}

// SetTemplateData sets the Dir and Home that turn templates see.
func (s *Server) SetTemplateData(dir, home string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data.Dir, s.data.Home = dir, home
}

// Remaining is the number of script turns not consumed yet; a scenario
// that ran to completion ends with 0.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script.Turns) - s.next
}

// Requests returns a copy of the list of requests received so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// AgentRequests returns the Messages requests that carried tools: the
// agent loop, one per model turn.
func (s *Server) AgentRequests() []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.IsMessages() && len(r.Tools) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// FindRequest returns the first Messages request whose Text contains
// substr, or nil: "did the model ever get to see this?".
func (s *Server) FindRequest(substr string) *Request {
	for _, r := range s.Requests() {
		if r.IsMessages() && strings.Contains(r.Text(), substr) {
			return r
		}
	}
	return nil
}

// Unknown lists "METHOD /path" of requests the server had no answer for.
func (s *Server) Unknown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unknown...)
}

// wireRequest is the part of a Messages API body the server decodes.
type wireRequest struct {
	Model     string          `json:"model"`
	Stream    bool            `json:"stream"`
	MaxTokens int             `json:"max_tokens"`
	System    json.RawMessage `json:"system"`
	Messages  []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// wireBlock is a content block as sent; a tool result's content is a
// string or a list of blocks.
type wireBlock struct {
	Block
	Content json.RawMessage `json:"content,omitempty"`
}

// decodeBlocks accepts the two shapes of "content": a string, or a list
// of blocks (tool results nest one more level).
func decodeBlocks(raw json.RawMessage) []Block {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var ws []wireBlock
	if json.Unmarshal(raw, &ws) != nil {
		return nil
	}
	out := make([]Block, 0, len(ws))
	for _, w := range ws {
		b := w.Block
		if b.Type == "tool_result" && b.Text == "" {
			var parts []string
			for _, inner := range decodeBlocks(w.Content) {
				if inner.Text != "" {
					parts = append(parts, inner.Text)
				}
			}
			b.Text = strings.Join(parts, "\n")
		}
		out = append(out, b)
	}
	return out
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := &Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Time: time.Now()}

	switch {
	case req.IsMessages():
		s.serveMessages(w, req)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		// A rough estimate is all Claude Code needs (it budgets context
		// with it); 4 bytes per token is the usual rule of thumb.
		req.Answer = "other"
		s.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": max(1, len(body)/4)})
	default:
		req.Answer = "other"
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.unknown = append(s.unknown, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		s.logf("claudetest server: unknown endpoint %s %s", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, map[string]any{
			"type":  "error",
			"error": map[string]any{"type": "not_found_error", "message": "claudetest: no such endpoint " + r.URL.Path},
		})
	}
}

func (s *Server) record(req *Request) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
}

func (s *Server) serveMessages(w http.ResponseWriter, req *Request) {
	var wr wireRequest
	if err := json.Unmarshal(req.Body, &wr); err != nil {
		req.Answer = "other"
		s.record(req)
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"type":  "error",
			"error": map[string]any{"type": "invalid_request_error", "message": err.Error()},
		})
		return
	}
	req.Model, req.Stream, req.MaxTokens = wr.Model, wr.Stream, wr.MaxTokens
	for _, t := range wr.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	var sys []string
	for _, b := range decodeBlocks(wr.System) {
		sys = append(sys, b.Text)
	}
	req.System = strings.Join(sys, "\n")
	for _, m := range wr.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: decodeBlocks(m.Content)})
	}

	content, err := s.reply(req)
	if err != nil {
		// A template that fails at run time is a broken scenario. Claude
		// Code retries even a 400 once (and then gets the next turn or
		// the default), so the run itself may well "succeed": the error
		// is kept for Errors, which Harness.Run turns into a failure.
		// 400 rather than 500, which Claude Code retries with backoff.
		s.logf("claudetest server: %v", err)
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"type":  "error",
			"error": map[string]any{"type": "invalid_request_error", "message": "claudetest: " + err.Error()},
		})
		return
	}
	s.logf("claudetest server: %s stream=%v tools=%d msgs=%d -> %s%s",
		req.Path, req.Stream, len(req.Tools), len(req.Messages), req.Answer, summarize(content))

	msg := map[string]any{
		"id":            fmt.Sprintf("msg_claudetest_%03d", req.seq),
		"type":          "message",
		"role":          "assistant",
		"model":         req.Model,
		"content":       []any{},
		"stop_reason":   nil,
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": max(1, len(req.Body)/4), "output_tokens": 1},
	}
	stop := "end_turn"
	for _, b := range content {
		if b.Type == "tool_use" {
			stop = "tool_use"
		}
	}
	if !req.Stream {
		blocks := make([]any, len(content))
		for i, b := range content {
			blocks[i] = wireContent(b, true)
		}
		msg["content"] = blocks
		msg["stop_reason"] = stop
		msg["usage"].(map[string]any)["output_tokens"] = outputTokens(content)
		writeJSON(w, http.StatusOK, msg)
		return
	}
	streamMessage(w, msg, content, stop)
}

// reply picks the assistant content for a Messages request and records
// the request (under the lock, so the answer and the record agree).
func (s *Server) reply(req *Request) ([]Block, error) {
	s.mu.Lock()
	defer func() {
		s.requests = append(s.requests, req)
		s.mu.Unlock()
	}()
	s.replies++
	req.seq = s.replies

	// Side requests (session titles, summaries) carry no tools; answering
	// them from the script would make scenarios depend on how many of
	// them this client version happens to send.
	if len(req.Tools) == 0 {
		req.Answer = "side"
		req.Reply = []Block{{Type: "text", Text: "Scripted session"}}
		return req.Reply, nil
	}

	turn := s.script.Default
	req.Answer = "default"
	if turn == nil {
		turn = &DefaultTurn
	}
	if s.next < len(s.script.Turns) && s.script.Turns[s.next].When.matches(req) {
		turn = &s.script.Turns[s.next]
		req.Answer = fmt.Sprintf("turn %d", s.next)
		s.next++
	}

	data := s.data
	data.LastUser = req.LastUserText()
	data.Conversation = req.Text()
	var out []Block
	if turn.Text != "" {
		text, err := renderString(turn.Text, data)
		if err != nil {
			return nil, fmt.Errorf("%s: text: %w", req.Answer, err)
		}
		out = append(out, Block{Type: "text", Text: text})
	}
	for _, tu := range turn.Tools {
		in, err := renderInput(tu.Input, data)
		if err != nil {
			return nil, fmt.Errorf("%s: tool %s: %w", req.Answer, tu.Name, err)
		}
		s.ids++
		out = append(out, Block{Type: "tool_use", ID: fmt.Sprintf("toolu_claudetest_%03d", s.ids), Name: tu.Name, Input: in})
	}
	req.Reply = out
	return out, nil
}

// wireContent is a content block as the API sends it; in a streamed
// content_block_start the tool input starts empty and the text starts
// blank, both filled by deltas.
func wireContent(b Block, full bool) map[string]any {
	switch b.Type {
	case "tool_use":
		in := map[string]any{}
		if full {
			in = b.Input
		}
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": in}
	default:
		text := ""
		if full {
			text = b.Text
		}
		return map[string]any{"type": "text", "text": text}
	}
}

func outputTokens(content []Block) int {
	n := 0
	for _, b := range content {
		n += len(b.Text) / 4
		if b.Input != nil {
			in, _ := json.Marshal(b.Input)
			n += len(in) / 4
		}
	}
	return max(1, n)
}

// streamMessage writes the message as the Messages API's server-sent
// events. Text and tool input are split over two deltas each so the
// client's accumulation is exercised the way real streaming does.
func streamMessage(w http.ResponseWriter, msg map[string]any, content []Block, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	send("message_start", map[string]any{"type": "message_start", "message": msg})
	send("ping", map[string]any{"type": "ping"})
	for i, b := range content {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": wireContent(b, false)})
		var deltas []map[string]any
		switch b.Type {
		case "tool_use":
			in, _ := json.Marshal(b.Input)
			for _, part := range halves(string(in)) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
			}
		default:
			for _, part := range halves(b.Text) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": part})
			}
		}
		for _, d := range deltas {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outputTokens(content)},
	})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// halves splits s in two at a rune boundary (one part when s is short).
func halves(s string) []string {
	if len(s) < 2 {
		return []string{s}
	}
	mid := len(s) / 2
	for mid < len(s) && !utf8.RuneStart(s[mid]) {
		mid++
	}
	if mid >= len(s) {
		return []string{s}
	}
	return []string{s[:mid], s[mid:]}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func summarize(content []Block) string {
	var parts []string
	for _, b := range content {
		switch b.Type {
		case "tool_use":
			in, _ := json.Marshal(b.Input)
			parts = append(parts, fmt.Sprintf("%s(%s)", b.Name, clip(string(in), 120)))
		default:
			parts = append(parts, fmt.Sprintf("%q", clip(b.Text, 60)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

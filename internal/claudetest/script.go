package claudetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/memkeep/memkeep/internal/shellquote"
)

// Script is what the scripted "model" answers, read from a scenario file
// under fixtures/e2e. Turns answer the requests that carry tools (the
// agent loop) in order; requests without tools (title generation and other
// side requests) never consume a turn.
//
// A turn with a When condition is a gate: until a request satisfies it,
// the server answers with Default and the turn stays next in line. That is
// how a scenario waits for, say, a Stop hook's block reason to come back as
// a user turn before reacting to it.
type Script struct {
	// Name is informational (shown in logs); LoadScript sets it from the
	// file name when empty.
	Name string `json:"name,omitempty"`
	// Turns are consumed one per tools-bearing request.
	Turns []Turn `json:"turns"`
	// Default answers requests when no turn applies (script exhausted or
	// the next turn's condition not met). When nil, DefaultTurn is used.
	Default *Turn `json:"default,omitempty"`
}

// Turn is one assistant message: optional text followed by zero or more
// tool calls. The stop reason follows from the content: tool_use when
// there are tool calls, end_turn otherwise.
type Turn struct {
	// When, if set, must match the request for this turn to be used.
	When *When `json:"when,omitempty"`
	// Text is sent as a text block before any tool calls.
	Text string `json:"text,omitempty"`
	// Tools are tool_use blocks, sent in order.
	Tools []ToolUse `json:"tools,omitempty"`
}

// ToolUse is one tool call. Every string inside Input is a text/template
// executed with TemplateData, so "{{.Dir}}" is the project directory and
// `{{match "memkeep \\S+" .LastUser}}` copies a command out of the last
// user message. A relative "file_path" or "notebook_path" is made
// absolute against the project directory, since Claude Code's file tools
// refuse relative paths.
type ToolUse struct {
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// When is a turn's condition. All set fields must hold.
type When struct {
	// LastUserContains: the text of the request's last user message
	// (text blocks and tool results, including any system reminders
	// Claude Code attached) contains this string.
	LastUserContains string `json:"last_user_contains,omitempty"`
	// RequestContains: the flattened text of the whole request (system
	// prompt and every message) contains this string.
	RequestContains string `json:"request_contains,omitempty"`
}

// DefaultTurn is what the server says when a script has nothing (more) to
// say: a plain end of turn.
var DefaultTurn = Turn{Text: "done"}

// TemplateData is what the templates in a turn see.
type TemplateData struct {
	// Dir is the project directory Claude Code runs in.
	Dir string
	// Home is the HOME given to Claude Code.
	Home string
	// LastUser is the text of the request's last user message.
	LastUser string
	// Conversation is the text of the whole request (system prompt and
	// every message), for what the agent was told a few messages ago.
	Conversation string
}

// LoadScript reads a scenario file (JSON, unknown fields rejected so a
// typo in a fixture fails loudly instead of silently doing nothing).
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	s, err := ParseScript(data)
	if err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return s, nil
}

// ParseScript decodes and validates a script, including its templates.
func ParseScript(data []byte) (Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, err
	}
	if err := s.Validate(); err != nil {
		return Script{}, err
	}
	return s, nil
}

// Validate checks that every turn says something and every template
// parses, so mistakes show up when the script is loaded rather than as a
// confusing reply halfway through a Claude Code run.
func (s Script) Validate() error {
	check := func(where string, t Turn) error {
		if t.Text == "" && len(t.Tools) == 0 {
			return fmt.Errorf("%s: neither text nor tools", where)
		}
		if _, err := parseTemplate(t.Text); err != nil {
			return fmt.Errorf("%s: text: %w", where, err)
		}
		for j, tu := range t.Tools {
			if tu.Name == "" {
				return fmt.Errorf("%s: tool %d has no name", where, j)
			}
			if _, err := renderValue(tu.Input, TemplateData{}); err != nil {
				return fmt.Errorf("%s: tool %s: %w", where, tu.Name, err)
			}
		}
		return nil
	}
	for i, t := range s.Turns {
		if err := check(fmt.Sprintf("turn %d", i), t); err != nil {
			return err
		}
	}
	if s.Default != nil {
		if s.Default.When != nil {
			return fmt.Errorf("default: a default turn cannot have a condition")
		}
		if err := check("default", *s.Default); err != nil {
			return err
		}
	}
	return nil
}

// matches reports whether the turn's condition holds for req.
func (w *When) matches(req *Request) bool {
	if w == nil {
		return true
	}
	if w.LastUserContains != "" && !strings.Contains(req.LastUserText(), w.LastUserContains) {
		return false
	}
	if w.RequestContains != "" && !strings.Contains(req.Text(), w.RequestContains) {
		return false
	}
	return true
}

// templateFuncs are the helpers available in templates. They exist so a
// scenario can act on what a hook told the model (copy the commands out of
// a block reason) without the harness knowing anything about memkeep.
var templateFuncs = template.FuncMap{
	// match returns the first match of pattern in s, or its first capture
	// group when the pattern has one; "" when nothing matches.
	"match": func(pattern, s string) (string, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return "", err
		}
		m := re.FindStringSubmatch(s)
		switch {
		case m == nil:
			return "", nil
		case len(m) > 1:
			return m[1], nil
		default:
			return m[0], nil
		}
	},
	// matchAll returns every match (or first capture group) of pattern.
	"matchAll": func(pattern, s string) ([]string, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			if len(m) > 1 {
				out = append(out, m[1])
			} else {
				out = append(out, m[0])
			}
		}
		return out, nil
	},
	"join": func(sep string, parts []string) string { return strings.Join(parts, sep) },
	// replace replaces every match of pattern in s by repl ($1 expands),
	// as an agent edits text it was given: {{replace "<[^<>]*>" "…" .LastUser}}.
	"replace": func(pattern, repl, s string) (string, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return "", err
		}
		return re.ReplaceAllString(s, repl), nil
	},
	"shellQuote": shellquote.Quote,
}

func parseTemplate(s string) (*template.Template, error) {
	return template.New("").Funcs(templateFuncs).Option("missingkey=error").Parse(s)
}

func renderString(s string, data TemplateData) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	t, err := parseTemplate(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// renderValue executes the templates in every string of a decoded JSON
// value. Rendering after decoding (rather than on the raw file) means a
// template's output never needs JSON escaping.
func renderValue(v any, data TemplateData) (any, error) {
	switch v := v.(type) {
	case string:
		return renderString(v, data)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			r, err := renderValue(e, data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			r, err := renderValue(e, data)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	default:
		return v, nil
	}
}

// pathKeys are the inputs of Claude Code's file tools that must be
// absolute paths.
var pathKeys = []string{"file_path", "notebook_path"}

// renderInput renders a tool input and absolutises its file paths.
func renderInput(in map[string]any, data TemplateData) (map[string]any, error) {
	if in == nil {
		return map[string]any{}, nil
	}
	r, err := renderValue(in, data)
	if err != nil {
		return nil, err
	}
	out := r.(map[string]any)
	for _, k := range pathKeys {
		if p, ok := out[k].(string); ok && p != "" && !filepath.IsAbs(p) && data.Dir != "" {
			out[k] = filepath.Join(data.Dir, p)
		}
	}
	return out, nil
}

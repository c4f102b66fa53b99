package l1

import (
	"bytes"
	"encoding/json"
	"github.com/memkeep/memkeep/layers/scrub"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memkeep/memkeep/internal/jsonscan"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Options tune a refinement.
type Options struct {
	// Root is the project's work tree root. Paths under it are written
	// repo-relative. Empty means the first "cwd" seen in the transcript.
	Root string
}

// Stats counts what a refinement read, kept and dropped.
type Stats struct {
	Lines     int            `json:"lines"`
	BytesIn   int64          `json:"bytes_in"`
	Records   int            `json:"records"`
	Skipped   map[string]int `json:"skipped,omitempty"` // dropped lines by type
	Malformed int            `json:"malformed,omitempty"`
	Oversize  int            `json:"oversize,omitempty"`
}

func (s *Stats) skip(kind string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[kind]++
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.Lines += o.Lines
	s.BytesIn += o.BytesIn
	s.Records += o.Records
	s.Malformed += o.Malformed
	s.Oversize += o.Oversize
	for k, v := range o.Skipped {
		if s.Skipped == nil {
			s.Skipped = map[string]int{}
		}
		s.Skipped[k] += v
	}
}

// State is everything a Refiner carries from one increment to the next. It
// is plain data so that a hook can store it under the git dir and a later
// process can resume exactly where the last one stopped.
type State struct {
	// Offset is the byte offset of the first line not yet read.
	Offset int64 `json:"offset"`
	// Root is the resolved project root used to relativise paths.
	Root string `json:"root,omitempty"`
	// SessionRoot is the project root of the session as the transcript
	// records it (the git top level of its first cwd, or that cwd when it
	// is not on this machine), kept only when it is another tree than
	// Root: a session recorded in another checkout, or on another machine,
	// and imported here. Its paths are written relative to it.
	SessionRoot string `json:"session_root,omitempty"`
	// SessionID and Start (first timestamp) name the session's L1 file.
	SessionID string `json:"session_id,omitempty"`
	Start     string `json:"start,omitempty"`
	// Version is the Claude Code version of the latest line that said it:
	// hooks choose their answer's form by it.
	Version string `json:"version,omitempty"`
	// Text is assistant text waiting for the rest of its API message.
	Text *Record `json:"text,omitempty"`
	// TextMsg is the message.id of Text.
	TextMsg string `json:"text_msg,omitempty"`
	// Tools are tool calls in call order, waiting for their own result or
	// for an earlier call's: records are written in call order.
	Tools []pendingTool `json:"tools,omitempty"`
	Stats Stats         `json:"stats"`
}

type pendingTool struct {
	ID   string `json:"id"`
	Rec  Record `json:"rec"`
	Done bool   `json:"done,omitempty"` // the result arrived
}

// Refiner turns transcript lines into L1 records. Feed it complete lines
// in order with Line; call Flush when the transcript has ended. The same
// lines give the same records however they are split into increments.
type Refiner struct {
	opts Options
	st   State
}

// NewRefiner starts a refinement at the beginning of a transcript.
func NewRefiner(opts Options) *Refiner {
	return &Refiner{opts: opts, st: State{Root: opts.Root}}
}

// ResumeRefiner continues a refinement from a saved State.
func ResumeRefiner(st State, opts Options) *Refiner {
	if st.Root == "" {
		st.Root = opts.Root
	}
	return &Refiner{opts: opts, st: st}
}

// State returns a copy of the refiner's state for saving.
func (r *Refiner) State() State { return r.st }

// Stats returns the counts so far.
func (r *Refiner) Stats() Stats { return r.st.Stats }

// apiMessage is the part of a Messages API message L1 reads.
type apiMessage struct {
	ID      string         `json:"id"`
	Content jsontext.Value `json:"content"`
}

// block is one content block of any kind; fields of other kinds stay empty.
type block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Input     jsontext.Value `json:"input"`
	ToolUseID string         `json:"tool_use_id"`
	Content   jsontext.Value `json:"content"`
	IsError   bool           `json:"is_error"`
}

// Transcripts are decoded leniently: unknown members are skipped and invalid
// UTF-8 becomes U+FFFD rather than failing the line.
var decodeOpts = jsonv2.JoinOptions(jsonv2.RejectUnknownMembers(false), jsontext.AllowInvalidUTF8(true))

// Line refines one complete transcript line that starts at byte offset off
// (the line excludes its newline). It returns the records the line
// completes, which may belong to earlier lines.
func (r *Refiner) Line(line []byte, off int64) []Record {
	st := &r.st
	st.Stats.Lines++
	st.Stats.BytesIn += int64(len(line)) + 1
	st.Offset = off + int64(len(line)) + 1
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	if off == 0 {
		// A byte order mark an editor or a copy added to the file.
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	f, err := scanTop(line)
	if err != nil {
		st.Stats.Malformed++
		return nil
	}
	if st.Root == "" && f.cwd != "" {
		st.Root = f.cwd
	}
	if st.SessionRoot == "" && f.cwd != "" {
		st.SessionRoot = sessionRoot(f.cwd, st.Root)
	}
	if st.SessionID == "" && f.sessionID != "" {
		st.SessionID = f.sessionID
	}
	if f.version != "" {
		st.Version = f.version
	}
	switch f.typ {
	case "user":
		return r.user(f, off)
	case "assistant":
		return r.assistant(f, off)
	case "":
		st.Stats.skip("untyped")
	default:
		st.Stats.skip(f.typ)
	}
	return nil
}

func (r *Refiner) noteStart(ts string) {
	if r.st.Start == "" && ts != "" {
		r.st.Start = ts
	}
}

// maxCompact bounds a compaction summary. The summary restates a
// conversation whose prompts, text and tool calls L1 already holds; its
// head (the request and intent) is what is worth keeping, and of the rest
// the sections that say what failed and what the user said
// (compactSections), each to maxCompactSection.
const (
	maxCompact        = 4000
	maxCompactSection = 1600
)

// compactSections are the sections of Claude Code's compaction summary
// kept past its head: the errors met and how each was fixed, which the
// head (its analysis, told in order) often does not reach ("LiveView
// test: sandbox isolation (Project not found)"), and the user's own
// messages.
var compactSections = []string{"errors and fixes", "all user messages"}

// compactText gives what L1 keeps of a compaction summary: its head, and
// its sections of compactSections that begin past the head.
func compactText(t string) string {
	if len(t) <= maxCompact {
		return t
	}
	out := truncate(t, maxCompact)
	// Lower-cased byte for byte, so that an index into it is one into t
	// (strings.ToLower changes the length of some letters: İ).
	lower := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, t)
	for _, name := range compactSections {
		i := strings.Index(lower[maxCompact:], name)
		if i < 0 {
			continue
		}
		i += maxCompact
		start := strings.LastIndexByte(t[:i], '\n') + 1
		end := len(t)
		for j := i; ; {
			k := strings.IndexByte(t[j:], '\n')
			if k < 0 {
				break
			}
			j += k + 1
			if sectionHeading(t[j:]) {
				end = j
				break
			}
		}
		out += "\n\n" + truncate(strings.TrimSpace(t[start:end]), maxCompactSection)
	}
	return out
}

// sectionHeading reports whether a line opens a numbered section of the
// summary ("5. Problem Solving:", "6. **All user messages**:").
func sectionHeading(line string) bool {
	rest := strings.TrimLeft(line, "0123456789")
	return len(rest) < len(line) && strings.HasPrefix(rest, ". ")
}

// isCompaction tells the transcripts of Claude Code's compaction agent
// (subagents/agent-acompact-*.jsonl): their prompt is Claude Code's own
// instruction, not the user's, and their text is the compaction summary.
func isCompaction(agent string) bool { return strings.HasPrefix(agent, "acompact") }

func agentOf(f topFields) string {
	if f.agentID != "" {
		return f.agentID
	}
	if f.sidechain {
		return "sidechain"
	}
	return ""
}

func (r *Refiner) assistant(f topFields, off int64) []Record {
	m, err := decodeMessage(f.message)
	if err != nil {
		r.st.Stats.Malformed++
		return nil
	}
	var out []Record
	if r.st.Text != nil && r.st.TextMsg != m.ID {
		out = r.flushText(out)
	}
	blocks, _ := decodeBlocks(m.Content)
	for _, b := range blocks {
		switch b.Type {
		case "text":
			t := strings.TrimSpace(b.Text)
			if t == "" {
				continue
			}
			t = r.clean(t)
			if r.st.Text == nil {
				r.noteStart(f.timestamp)
				kind := KindText
				if isCompaction(agentOf(f)) {
					kind = KindCompact
				}
				r.st.Text = &Record{TS: f.timestamp, Kind: kind, Off: off, Agent: agentOf(f), Text: t}
				r.st.TextMsg = m.ID
			} else {
				r.st.Text.Text += "\n\n" + t
			}
		case "tool_use":
			r.noteStart(f.timestamp)
			rec := r.toolCall(b, f, off)
			r.st.Tools = append(r.st.Tools, pendingTool{ID: b.ID, Rec: rec})
		}
	}
	return out
}

func (r *Refiner) flushText(out []Record) []Record {
	if r.st.Text != nil {
		out = r.emit(out, *r.st.Text)
		r.st.Text = nil
		r.st.TextMsg = ""
	}
	return out
}

func (r *Refiner) emit(out []Record, rec Record) []Record {
	if rec.Kind == KindCompact {
		rec.Text = compactText(rec.Text)
	}
	r.st.Stats.Records++
	return append(out, rec)
}

func (r *Refiner) user(f topFields, off int64) []Record {
	out := r.flushText(nil)
	m, err := decodeMessage(f.message)
	if err != nil {
		r.st.Stats.Malformed++
		return out
	}
	if f.meta {
		r.st.Stats.skip("meta")
		return out
	}
	var prompt []string
	if len(m.Content) > 0 && m.Content[0] == '"' {
		prompt = append(prompt, jsonscan.String(m.Content))
	} else {
		blocks, _ := decodeBlocks(m.Content)
		for _, b := range blocks {
			switch b.Type {
			case "text":
				prompt = append(prompt, b.Text)
			case "tool_result":
				out = r.toolResult(out, b, f)
			}
		}
	}
	text := strings.TrimSpace(strings.Join(prompt, "\n\n"))
	if text == "" {
		return out
	}
	kind := KindPrompt
	if isCompaction(agentOf(f)) {
		r.st.Stats.skip("compaction_prompt")
		return out
	}
	if f.compact {
		kind = KindCompact
	} else {
		// A typed prompt ends the previous turn: tool calls that never got
		// a result (interrupted) are written now, before it.
		out = r.flushTools(out)
	}
	r.noteStart(f.timestamp)
	return r.emit(out, Record{TS: f.timestamp, Kind: kind, Off: off, Agent: agentOf(f), Text: r.clean(text)})
}

func (r *Refiner) flushTools(out []Record) []Record {
	for _, p := range r.st.Tools {
		out = r.emit(out, p.Rec)
	}
	r.st.Tools = nil
	return out
}

// Flush writes everything still pending. Call it once the transcript has
// ended (a full refine, or the SessionEnd hook).
func (r *Refiner) Flush() []Record {
	return r.flushTools(r.flushText(nil))
}

// decodeMessage reads the id and content of a Messages API message. The
// rest (usage, model, stop reason) is skipped by the scanner, not decoded.
func decodeMessage(v []byte) (apiMessage, error) {
	var m apiMessage
	if len(v) == 0 {
		return m, jsonscan.ErrSyntax
	}
	err := jsonscan.Members(v, func(key, val []byte) {
		switch string(key) {
		case "id":
			m.ID = jsonscan.String(val)
		case "content":
			m.Content = val
		}
	})
	return m, err
}

// decodeBlocks reads a content array. Each block's strings are decoded
// only for the members L1 uses; tool inputs and results stay raw, so a
// tool_result holding a whole file is skipped at scanning speed rather
// than unquoted. A malformed block is skipped.
func decodeBlocks(v []byte) ([]block, error) {
	if len(v) == 0 || v[0] != '[' {
		return nil, nil
	}
	var bs []block
	err := jsonscan.Elements(v, func(el []byte) {
		var b block
		if jsonscan.Members(el, func(key, val []byte) {
			switch string(key) {
			case "type":
				b.Type = jsonscan.String(val)
			case "text":
				b.Text = jsonscan.String(val)
			case "id":
				b.ID = jsonscan.String(val)
			case "name":
				b.Name = jsonscan.String(val)
			case "input":
				b.Input = val
			case "tool_use_id":
				b.ToolUseID = jsonscan.String(val)
			case "content":
				b.Content = val
			case "is_error":
				b.IsError = string(val) == "true"
			}
		}) == nil {
			bs = append(bs, b)
		}
	})
	return bs, err
}

// clean relativises machine paths and redacts secrets: nothing leaves L1
// without passing through it.
func (r *Refiner) clean(s string) string {
	if sr := r.st.SessionRoot; sr != "-" && sr != "" && strings.Contains(s, sr) {
		s = scrub.Paths(s, sr)
	}
	return scrub.Text(s, r.st.Root)
}

// sessionRoot is the project root of a session whose transcript says it
// ran in cwd: the git top level above cwd when that exists here, else cwd.
// It is "-" (none: paths are relative to root) when it is root or lies
// inside it: a session started in a subfolder of this project.
func sessionRoot(cwd, root string) string {
	top := cwd
	for d := cwd; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	top = strings.TrimSuffix(top, "/")
	if root = strings.TrimSuffix(root, "/"); top == root || strings.HasPrefix(top, root+"/") || strings.HasPrefix(cwd, root+"/") || cwd == root {
		return "-"
	}
	return top
}

// EncodeRecord writes rec as one L1 line (with its newline). The encoding
// is byte-stable: fixed field order, no HTML escaping.
func EncodeRecord(buf *bytes.Buffer, rec Record) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rec) // a Record always encodes
}

// Encode returns records as L1 JSONL bytes.
func Encode(recs []Record) []byte {
	var buf bytes.Buffer
	for _, rec := range recs {
		EncodeRecord(&buf, rec)
	}
	return buf.Bytes()
}

// SkippedKinds lists the dropped line types in a stable order, for reports.
func (s Stats) SkippedKinds() []string {
	ks := make([]string, 0, len(s.Skipped))
	for k := range s.Skipped {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

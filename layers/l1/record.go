// Package l1 refines raw Claude Code transcripts into L1: one compact JSON
// record per user prompt, assistant text, and tool call, with secrets
// redacted before any other part of memkeep sees the text. The schema is
// documented in docs/format.md.
package l1

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Kinds of L1 records.
const (
	KindPrompt  = "prompt"  // a user prompt (typed, or a slash command)
	KindCompact = "compact" // the summary Claude Code writes after compaction
	KindText    = "text"    // assistant text, the lines of one API message joined
	KindTool    = "tool"    // one tool call with its result
)

// Record is one line of an L1 file. Field names are short because L1 is
// kept for every session; omitted fields are empty.
type Record struct {
	// TS is the source line's timestamp, as Claude Code wrote it (RFC 3339).
	TS string `json:"ts"`
	// Kind is one of the Kind constants.
	Kind string `json:"k"`
	// Off is the byte offset of the source line in the raw transcript: the
	// pointer back to the source. For text it is the message's first line,
	// for tools the line of the tool_use.
	Off int64 `json:"off"`
	// Agent names the subagent for sidechain content ("a881341"), or
	// "sidechain" when Claude Code did not say which.
	Agent string `json:"agent,omitempty"`
	// Text is the prompt, compaction summary or assistant text.
	Text string `json:"text,omitempty"`

	// Tool call fields.
	Tool  string `json:"tool,omitempty"`  // tool name: Bash, Edit, Read, …
	File  string `json:"file,omitempty"`  // target file, repo-relative when under the project
	Lines string `json:"lines,omitempty"` // line range read or edited: "10-49"
	Cmd   string `json:"cmd,omitempty"`   // Bash command (truncated)
	Exit  *int   `json:"exit,omitempty"`  // Bash exit status, when known
	Pat   string `json:"pat,omitempty"`   // Grep/Glob pattern
	Diff  string `json:"diff,omitempty"`  // edit summary: "+3 -1" and the first changed line
	Arg   string `json:"arg,omitempty"`   // a short form of any other tool's input
	Res   string `json:"res,omitempty"`   // a short result
	Err   bool   `json:"err,omitempty"`   // the tool call failed; Res holds the error text
}

// ReadFile decodes an L1 file. Lines that do not decode are skipped and
// counted, so a damaged file still yields what it can.
func ReadFile(path string) (recs []Record, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return Read(f)
}

// Read decodes L1 records from r, one per line.
func Read(r io.Reader) (recs []Record, bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var rec Record
		if json.Unmarshal(line, &rec) != nil {
			bad++
			continue
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return recs, bad, fmt.Errorf("read L1: %w", err)
	}
	return recs, bad, nil
}

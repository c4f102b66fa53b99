package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/memdir"
)

// sessionState is what the hooks remember about one Claude Code session,
// under <git dir>/memkeep/hooks/<session>.json. It is local: it never
// reaches a commit.
type sessionState struct {
	// Turn counts user prompts; blocks are budgeted per turn.
	Turn int `json:"turn"`
	// BlockTurn and Blocks count the Stop blocks of the current turn.
	BlockTurn int `json:"block_turn"`
	Blocks    int `json:"blocks"`
	// Asked are the exchanges (RecordAsk.Key) Stop has asked the agent
	// about, or reminded the user of, or let go with the block budget
	// spent: never one twice.
	Asked []string `json:"asked,omitempty"`
	// Tools and Edits are the tool counters at the last completed
	// consolidation: the new material since is measured against them.
	Tools int `json:"tools"`
	Edits int `json:"edits"`
}

// sessionKey names a session's files under the git dir.
func sessionKey(sid string) string { return memdir.SafeName(sid) }

func hooksDir(l memdir.Layout) string { return filepath.Join(l.StateDir(), "hooks") }

func statePath(l memdir.Layout, sid string) string {
	return filepath.Join(hooksDir(l), sessionKey(sid)+".json")
}

func loadState(l memdir.Layout, sid string) sessionState {
	var st sessionState
	if b, err := os.ReadFile(statePath(l, sid)); err == nil {
		_ = json.Unmarshal(b, &st) // a damaged file starts the session's count afresh
	}
	return st
}

func saveState(l memdir.Layout, sid string, st sessionState) error {
	b, _ := json.Marshal(st)
	return atomicfile.WriteFile(statePath(l, sid), b, 0o644)
}

// Tool uses are counted by appending one byte per call to
// <session>.tools ('e' for an edit, 't' for anything else): PostToolUse,
// the hottest hook, then does a single O_APPEND write and no
// read-modify-write, so concurrent calls never lose a count.
func countersPath(l memdir.Layout, sid string) string {
	return filepath.Join(hooksDir(l), sessionKey(sid)+".tools")
}

func countTool(l memdir.Layout, sid string, edit bool) error {
	c := byte('t')
	if edit {
		c = 'e'
	}
	f, err := fastfile.Open(countersPath(l, sid), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(hooksDir(l), 0o755); err != nil {
			return err
		}
		f, err = fastfile.Open(countersPath(l, sid), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	if err != nil {
		return err
	}
	_, werr := f.Write([]byte{c})
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

func readCounters(l memdir.Layout, sid string) (tools, edits int) {
	b, _ := os.ReadFile(countersPath(l, sid))
	return len(b), bytes.Count(b, []byte{'e'})
}

// isEdit tells the tools that change files.
func isEdit(tool string) bool {
	switch tool {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return true
	}
	return false
}

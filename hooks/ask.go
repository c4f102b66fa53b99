package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memkeep/memkeep/layers/l2"
)

// recordEnd ends the heredoc that carries the agent's record: a word no
// record's text is likely to hold alone on a line.
const recordEnd = "MEMKEEP_RECORD"

// maxRequest bounds the request: it is read in the middle of the agent's
// turn, and long requests get skimmed.
const maxRequest = 1500

// RecordRequest is the Stop hook's request for the agent's record of an
// exchange (and what `memkeep status` shows): one command, the record as
// JSON on stdin through a quoted heredoc (nothing needs shell quoting),
// with memkeep's knowledge filled in and <…> where only the agent can
// write.
func RecordRequest(a RecordAsk) string {
	files, cmds := a.Files, a.Commands
	for {
		s := formatRequest(a, files, cmds)
		if len(s) <= maxRequest || len(files) <= 1 && len(cmds) == 0 {
			return s
		}
		// Too long: fewer commands first, then fewer files (memkeep's own
		// record keeps them all).
		if len(cmds) > 0 {
			cmds = cmds[:len(cmds)-1]
		} else {
			files = files[:len(files)-1]
		}
	}
}

// jsonString is s as a JSON string, <…> left as they are for the agent
// to read.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonList is a JSON list of strings on one line, each cut to n bytes
// (0: whole).
func jsonList(items []string, n int) string {
	q := make([]string, len(items))
	for i, s := range items {
		if n > 0 {
			s = l2.Truncate(s, n)
		}
		q[i] = jsonString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func formatRequest(a RecordAsk, files, cmds []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memkeep: before you finish, record this exchange for the next session (%s). ", a.Why)
	b.WriteString("Run this command with the Bash tool, writing each <…> yourself (\"\" or [] where there is nothing to say), then finish your answer. ")
	b.WriteString("memkeep does the rest (concepts, memory.md, the commit).\n\n")
	fmt.Fprintf(&b, "%s l2 add <<'%s'\n{\n", selfProgram(), recordEnd)
	fmt.Fprintf(&b, "  \"session\": %s,\n  \"exchange\": %s,\n  \"l1_range\": [%d, %d],\n", jsonString(a.SessionID), jsonString(a.Exchange), a.L1Range[0], a.L1Range[1])
	fmt.Fprintf(&b, "  \"files\": %s,\n", jsonList(files, 0))
	if len(cmds) > 0 {
		fmt.Fprintf(&b, "  \"commands\": %s,\n", jsonList(cmds, 80))
	}
	fmt.Fprintf(&b, "  \"summary\": %s,\n", jsonString(l2.Placeholders.Summary))
	fmt.Fprintf(&b, "  \"why\": %s,\n", jsonString(l2.Placeholders.Why))
	fmt.Fprintf(&b, "  \"decision\": %s,\n", jsonString(l2.Placeholders.Decision))
	fmt.Fprintf(&b, "  \"learned\": [%s],\n", jsonString(l2.Placeholders.Learned))
	fmt.Fprintf(&b, "  \"keywords\": [%s],\n", jsonString(l2.Placeholders.Keywords))
	concept := "as memkeep proposes, or a better name"
	if a.Concept != "" {
		concept = a.Concept + " " + concept
	}
	fmt.Fprintf(&b, "  \"concept\": %s\n}\n%s", jsonString(l2.ConceptPlaceholder(concept)), recordEnd)
	return b.String()
}

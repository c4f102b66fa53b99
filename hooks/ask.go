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

// RecordRequest is the text of the Stop hook's request for a (what
// `memkeep status` shows).
func RecordRequest(a RecordAsk) string { return recordRequest(a) }

// recordRequest is the Stop hook's request for the agent's record of an
// exchange: one command, the record as JSON on stdin through a quoted
// heredoc (nothing needs shell quoting), with memkeep's knowledge filled
// in and <…> where only the agent can write.
func recordRequest(a RecordAsk) string {
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

func formatRequest(a RecordAsk, files, cmds []string) string {
	q := func(v any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // the <…> are read by the agent
		_ = enc.Encode(v)
		return strings.TrimSuffix(strings.ReplaceAll(b.String(), `","`, `", "`), "\n")
	}
	short := make([]string, len(cmds))
	for i, c := range cmds {
		short[i] = clip(c, 80)
	}
	if files == nil {
		files = []string{}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "memkeep: before you finish, record this exchange for the next session (%s). ", a.Why)
	b.WriteString("Run this command with the Bash tool, writing each <…> yourself (\"\" or [] where there is nothing to say), then finish your answer. ")
	b.WriteString("memkeep does the rest (concepts, memory.md, the commit).\n\n")
	fmt.Fprintf(&b, "%s l2 add <<'%s'\n{\n", selfProgram(), recordEnd)
	fmt.Fprintf(&b, "  \"session\": %s,\n  \"exchange\": %s,\n  \"l1_range\": [%d, %d],\n", q(a.SessionID), q(a.Exchange), a.L1Range[0], a.L1Range[1])
	fmt.Fprintf(&b, "  \"files\": %s,\n", q(files))
	if len(short) > 0 {
		fmt.Fprintf(&b, "  \"commands\": %s,\n", q(short))
	}
	fmt.Fprintf(&b, "  \"summary\": %s,\n", q(l2.Placeholders.Summary))
	fmt.Fprintf(&b, "  \"why\": %s,\n", q(l2.Placeholders.Why))
	fmt.Fprintf(&b, "  \"decision\": %s,\n", q(l2.Placeholders.Decision))
	fmt.Fprintf(&b, "  \"learned\": [%s],\n", q(l2.Placeholders.Learned))
	fmt.Fprintf(&b, "  \"keywords\": [%s],\n", q(l2.Placeholders.Keywords))
	concept := "as memkeep proposes, or a better name"
	if a.Concept != "" {
		concept = a.Concept + " " + concept
	}
	fmt.Fprintf(&b, "  \"concept\": %s\n}\n%s", q(fmt.Sprintf(l2.Placeholders.Concept, concept)), recordEnd)
	return b.String()
}

// clip cuts s to n bytes at a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

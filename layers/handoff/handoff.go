// Package handoff keeps where a session's work stood when it ended or
// was compacted: what was being done, how it came out, and what was left
// unfinished (a command still failing, files edited but not committed,
// the next steps the agent named, questions it left open). The next
// session on the branch starts from it (SessionStart opens with it), as a
// colleague's handoff note would.
//
// It is derived from the session's L1 records alone (plus, from the
// caller, which edited files git still sees as uncommitted), so it is the
// same whoever computes it, and it is stored in the session's L2 file,
// committed with the rest of the memory: a teammate who clones the
// repository gets it too.
package handoff

import (
	"slices"
	"strings"

	"github.com/memkeep/memkeep/layers/l1"
)

// Handoff is where a session's work stood at its end.
type Handoff struct {
	// Branch is the branch checked out when the handoff was made.
	Branch string `json:"branch,omitempty"`
	// Time is the time of the session's last record.
	Time string `json:"time"`
	// Doing is the last request the user typed.
	Doing string `json:"doing"`
	// Outcome is the opening of the agent's last answer.
	Outcome string `json:"outcome,omitempty"`
	// Failing is the last command that failed and was not run again
	// successfully, with its error.
	Failing string `json:"failing,omitempty"`
	// Edited lists the files the session changed; Uncommitted those of
	// them git still saw as changed when the handoff was made.
	Edited      []string `json:"edited,omitempty"`
	Uncommitted []string `json:"uncommitted,omitempty"`
	// Next holds what the agent said comes next; Questions what it asked
	// and nobody answered.
	Next      []string `json:"next,omitempty"`
	Questions []string `json:"questions,omitempty"`
}

// Empty reports whether the handoff says nothing.
func (h *Handoff) Empty() bool { return h == nil || h.Doing == "" && h.Outcome == "" }

// Limits keep a handoff a note, not a transcript.
const (
	maxText  = 300
	maxItems = 4
	maxFiles = 12
)

// From derives the handoff of a session from its L1 records (subagents'
// records are their own work, not the session's state, and are skipped).
func From(recs []l1.Record) *Handoff {
	h := &Handoff{}
	lastText := ""
	failing := map[string]string{} // command → its error, while it fails
	var failOrder []string
	edited := map[string]bool{}
	// Once the agent has answered and then runs memkeep's commands (Stop
	// asked it to record the turn), what it says next is about memory,
	// not the user's work.
	bookkeeping := false
	for _, r := range recs {
		if r.Agent != "" {
			continue
		}
		if r.TS != "" {
			h.Time = seconds(r.TS)
		}
		switch r.Kind {
		case l1.KindPrompt:
			if t := oneLine(r.Text); t != "" && !strings.HasPrefix(t, "<") {
				h.Doing = cut(t, maxText)
				lastText = "" // an answer is to the latest request
				bookkeeping = false
			}
		case l1.KindText:
			if !bookkeeping {
				lastText = r.Text
			}
		case l1.KindTool:
			switch r.Tool {
			case "Bash":
				c := oneLine(r.Cmd)
				if strings.HasPrefix(c, "memkeep ") || strings.Contains(r.Cmd, "\nmemkeep ") {
					bookkeeping = bookkeeping || lastText != ""
					continue // memkeep's own bookkeeping is not the user's work
				}
				if c == "" {
					continue
				}
				if r.Err || r.Exit != nil && *r.Exit != 0 {
					if _, seen := failing[c]; !seen {
						failOrder = append(failOrder, c)
					}
					failing[c] = oneLine(r.Res)
				} else {
					delete(failing, c)
				}
			case "Edit", "Write", "MultiEdit", "NotebookEdit":
				if r.File != "" && !r.Err && !strings.HasPrefix(r.File, ".claude/memory/") {
					edited[r.File] = true
				}
			}
		}
	}
	for i := len(failOrder) - 1; i >= 0; i-- {
		if e, ok := failing[failOrder[i]]; ok {
			h.Failing = cut("`"+failOrder[i]+"`", maxText/2)
			if e != "" {
				h.Failing += ": " + cut(e, maxText/2)
			}
			break
		}
	}
	for f := range edited {
		h.Edited = append(h.Edited, f)
	}
	slices.Sort(h.Edited)
	if len(h.Edited) > maxFiles {
		h.Edited = h.Edited[:maxFiles]
	}
	sents := sentences(lastText)
	if len(sents) > 0 {
		h.Outcome = cut(strings.Join(sents[:min(2, len(sents))], " "), maxText)
	}
	for _, s := range sents {
		switch {
		case strings.HasSuffix(s, "?") && len(h.Questions) < maxItems:
			h.Questions = append(h.Questions, cut(s, maxText))
		case saysNext(s) && len(h.Next) < maxItems:
			h.Next = append(h.Next, cut(s, maxText))
		}
	}
	if h.Doing == "" && h.Outcome == "" {
		return nil
	}
	return h
}

// nextCues mark a sentence that names work still to do.
var nextCues = []string{"next", "todo", "to do", "remaining", "remains", "still need", "still have to", "left to", "not yet", "follow-up", "follow up", "later", "should also", "would still", "yet to", "pending", "unfinished"}

func saysNext(s string) bool {
	low := strings.ToLower(s)
	for _, c := range nextCues {
		if i := strings.Index(low, c); i >= 0 && (i == 0 || !isLetter(low[i-1])) && (i+len(c) == len(low) || !isLetter(low[i+len(c)])) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }

// sentences splits prose into sentences, dropping code blocks and list
// markup, one line each.
func sentences(s string) []string {
	var out []string
	inCode := false
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inCode = !inCode
			continue
		}
		if inCode || t == "" || strings.HasPrefix(t, "|") {
			continue
		}
		t = strings.TrimLeft(t, "-*#> 0123456789.")
		t = strings.TrimSpace(t)
		for t != "" {
			i := sentenceEnd(t)
			out = append(out, strings.TrimSpace(t[:i]))
			t = strings.TrimSpace(t[i:])
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return len(s) < 3 })
}

// sentenceEnd is the index just past the first sentence of t: after ". ",
// "? " or "! " (a file name such as cart.go does not end a sentence), or
// the end of t.
func sentenceEnd(t string) int {
	for i := 0; i+1 < len(t); i++ {
		if (t[i] == '.' || t[i] == '?' || t[i] == '!') && t[i+1] == ' ' {
			return i + 1
		}
	}
	return len(t)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to n bytes at a word boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], ' ')
	if i < n/2 {
		i = n
	}
	return strings.TrimRight(s[:i], " ,;:") + "…"
}

// seconds is an RFC 3339 time to the second, as memkeep's files keep times.
func seconds(ts string) string {
	if len(ts) >= 19 {
		return ts[:19] + "Z"
	}
	return ts
}

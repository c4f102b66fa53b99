package recall

import (
	"fmt"
	"slices"
	"strings"
)

// Answer writes hits as `memkeep recall` prints them: each the lines that
// answer, where they are, and what they belong to.
func Answer(hits []Hit) string {
	var b strings.Builder
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s\n", i+1, h.Snippet)
		for _, e := range h.Further[:min(len(h.Further), 1)] {
			fmt.Fprintf(&b, "   … %s\n", e)
		}
		for _, e := range h.bestExcerpt(3) {
			fmt.Fprintf(&b, "   · %s\n", e)
		}
		if where := h.where(); where != "" {
			fmt.Fprintf(&b, "   %s\n", where)
		}
		if ctx := h.context(160); ctx != "" {
			fmt.Fprintf(&b, "   %s\n", ctx)
		}
	}
	return b.String()
}

// where says where a hit's lines are.
func (h Hit) where() string {
	var parts []string
	switch {
	case h.Layer == "L1" || h.Exchange != nil && h.Lines[0] > 0:
		parts = append(parts, fmt.Sprintf("%s lines %s", h.File, lineRange(h.Lines)))
	case h.Layer == "L2" && h.Lines[0] > 0:
		parts = append(parts, fmt.Sprintf("%s %s, %s lines %s", h.Kind, h.ID, h.File, lineRange(h.Lines)))
	case h.File != "":
		parts = append(parts, fmt.Sprintf("%s %s %s, %s", h.Layer, h.Kind, h.ID, h.File))
	default:
		parts = append(parts, fmt.Sprintf("%s %s %s", h.Layer, h.Kind, h.ID))
	}
	if h.Time != "" {
		parts = append(parts, h.Time[:10])
	}
	if h.Expired {
		parts = append(parts, "expired")
	}
	return strings.Join(parts, " · ")
}

func lineRange(r [2]int) string {
	if r[0] == r[1] {
		return itoa(r[0])
	}
	return itoa(r[0]) + "–" + itoa(r[1])
}

// context names the exchange and concept a hit belongs to.
func (h Hit) context(n int) string {
	var parts []string
	if h.Exchange != nil && h.Exchange.Text != "" && h.Exchange.Text != h.Snippet {
		parts = append(parts, fmt.Sprintf("in exchange %s: %s", h.Exchange.ID, cut(h.Exchange.Text, n)))
	}
	if h.Concept != nil {
		parts = append(parts, "concept "+h.Concept.Text)
	}
	return strings.Join(parts, " · ")
}

// ForPrompt writes the hits a prompt is given: the answering lines with
// where they are, within budget bytes, and the command that finds more.
// No hits give "".
func ForPrompt(hits []Hit, query string, budget int) string {
	if len(hits) == 0 {
		return ""
	}
	head := "memkeep: from the project's memory (earlier sessions), lines that bear on this prompt:\n"
	more := fmt.Sprintf("More: memkeep recall %q", cut(strings.Join(strings.Fields(query), " "), 80))
	item := func(h Hit, lines, further int) string {
		var b strings.Builder
		b.WriteString("- " + h.Snippet + "\n")
		for _, e := range h.Further[:further] {
			b.WriteString(furtherLine(e))
		}
		for _, e := range h.bestExcerpt(lines) {
			b.WriteString(promptLine(e))
		}
		b.WriteString("  (" + h.where())
		if ctx := h.context(promptExchange); ctx != "" {
			b.WriteString("; " + ctx)
		}
		b.WriteString(")\n")
		return b.String()
	}
	// Every answer is shown with its best line; what the budget has
	// left then goes to more lines of the best answers, in rank order.
	lines := make([]int, 0, len(hits))
	used := len(head) + len(more)
	for _, h := range hits {
		n := len(item(h, promptLines, 0))
		if used+n > budget {
			break
		}
		used += n
		lines = append(lines, promptLines)
	}
	// The rest goes first to the answers' own records' further lines,
	// then to the lines around them.
	further := make([]int, len(lines))
	for i := range lines {
		for further[i] < len(hits[i].Further) {
			grow := len(furtherLine(hits[i].Further[further[i]]))
			if used+grow > budget {
				break
			}
			used += grow
			further[i]++
		}
		for lines[i] < excerptMax && lines[i] < len(hits[i].Excerpt) {
			grow := len(promptLine(hits[i].rankedLine(lines[i])))
			if used+grow > budget {
				break
			}
			used += grow
			lines[i]++
		}
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(head)
	for i, n := range lines {
		b.WriteString(item(hits[i], n, further[i]))
	}
	b.WriteString(more)
	return b.String()
}

// promptExchange is how much of an answer's exchange the prompt hook
// names it by.
const promptExchange = 80

// furtherLine is how the prompt hook shows a further line of an
// answer's own record.
func furtherLine(e string) string { return "  … " + e + "\n" }

// promptLine is how the prompt hook shows a line around an answer.
func promptLine(e string) string { return "  · " + e + "\n" }

// promptLines is how many lines around it every answer the prompt hook
// shows gets, before the budget's rest goes to the best answers. (2 until
// the seventeenth session: over the eval's 37 fresh sets the hook showed
// the evidence for 962 questions of 1,493 at 2, 971 at 1, 966 at 0.)
const promptLines = 1

// rankedLine is the excerpt line of rank n (0 the best): the one that
// bestExcerpt(n+1) adds to bestExcerpt(n).
func (h Hit) rankedLine(n int) string {
	if len(h.excerptRank) != len(h.Excerpt) {
		return h.Excerpt[n]
	}
	return h.Excerpt[slices.Index(h.excerptRank, n)]
}

// bestExcerpt gives the n best-scored excerpt lines, in file order.
func (h Hit) bestExcerpt(n int) []string {
	if len(h.excerptRank) != len(h.Excerpt) {
		return h.Excerpt[:min(len(h.Excerpt), n)]
	}
	var out []string
	for i, e := range h.Excerpt {
		if h.excerptRank[i] < n {
			out = append(out, e)
		}
	}
	return out
}

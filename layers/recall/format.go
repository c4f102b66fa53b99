package recall

import (
	"fmt"
	"strings"
)

// Answer writes hits as `memkeep recall` prints them: each the lines that
// answer, where they are, and what they belong to.
func Answer(hits []Hit) string {
	var b strings.Builder
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s\n", i+1, h.Snippet)
		for _, e := range h.Excerpt[:min(len(h.Excerpt), 3)] {
			fmt.Fprintf(&b, "   · %s\n", e)
		}
		if where := h.where(); where != "" {
			fmt.Fprintf(&b, "   %s\n", where)
		}
		if ctx := h.context(); ctx != "" {
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
func (h Hit) context() string {
	var parts []string
	if h.Exchange != nil && h.Exchange.Text != "" && h.Exchange.Text != h.Snippet {
		parts = append(parts, fmt.Sprintf("in exchange %s: %s", h.Exchange.ID, cut(h.Exchange.Text, 160)))
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
	var b strings.Builder
	b.WriteString(head)
	for i, h := range hits {
		item := "- " + h.Snippet + "\n"
		// The best answer is shown with the lines around it; the others
		// with fewer, so that three fit the budget.
		ex := h.Excerpt
		if i > 0 {
			ex = h.bestExcerpt(2)
		}
		for _, e := range ex {
			item += "  · " + e + "\n"
		}
		item += "  (" + h.where()
		if ctx := h.context(); ctx != "" {
			item += "; " + ctx
		}
		item += ")\n"
		if b.Len()+len(item)+len(more) > budget {
			break
		}
		b.WriteString(item)
	}
	if b.Len() == len(head) {
		return ""
	}
	b.WriteString(more)
	return b.String()
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

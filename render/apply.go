package render

import (
	"bytes"
	"slices"
	"strings"
)

// ReadPendingEdits reads the edits in have (memory.md as it is) that are
// a person's and not carried back yet: the differences from both written
// (the file as memkeep last wrote it; nil when there is no such copy) and
// now (what the memory renders to now). A difference from one of them
// only is memkeep's own: a session's exchanges not rendered yet, or
// another clone's rendering that came with a pull or a merge. Without
// written, only rewordings and additions are read: a line missing from
// have may be one it never showed yet.
func ReadPendingEdits(have, written, now []byte) ([]Edit, []Unmapped) {
	if (written != nil && bytes.Equal(have, written)) || bytes.Equal(have, now) {
		return nil, nil
	}
	edits, unmapped := ReadEdits(have, now)
	if written == nil {
		return slices.DeleteFunc(edits, func(e Edit) bool { return e.Kind == EditDelete }), nil
	}
	e1, u1 := ReadEdits(have, written)
	edits = slices.DeleteFunc(edits, func(e Edit) bool {
		return !slices.ContainsFunc(e1, func(x Edit) bool { return x.Kind == e.Kind && x.ID == e.ID && x.Text == e.Text })
	})
	unmapped = slices.DeleteFunc(unmapped, func(u Unmapped) bool {
		return !slices.ContainsFunc(u1, func(x Unmapped) bool { return x.Text == u.Text })
	})
	return edits, unmapped
}

// ApplyEdits makes edits in doc, a memory.md, as a person would: a
// rewording replaces the text of the item with its id and keeps the
// item's note and id, a deletion removes the item's line, an addition is
// a new line at the top of Rules. Reading the result against doc
// (ReadEdits) gives the edits back. It returns the edits it found no
// place for: an item not in doc, or no Rules section for an addition.
func ApplyEdits(doc []byte, edits []Edit) (out []byte, unplaced []Edit) {
	if len(edits) == 0 {
		return doc, nil
	}
	list, rest := items(doc)
	lines := strings.SplitAfter(string(doc), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	gone := make([]bool, len(lines))
	var adds []string
	var addEdits []Edit
	for _, e := range edits {
		placed := false
		switch e.Kind {
		case EditAdd:
			if t := strings.TrimSpace(e.Text); t != "" && !strings.Contains(t, "\n") {
				adds = append(adds, "- "+t+"\n")
				addEdits = append(addEdits, e)
				placed = true
			}
		case EditReword, EditDelete:
			if e.ID == "" {
				break
			}
			for _, it := range list {
				if it.id != e.ID || it.line < 1 || it.end < it.line || it.end > len(lines) {
					continue
				}
				if e.Kind == EditDelete {
					for l := it.line; l <= it.end; l++ {
						gone[l-1] = true
					}
					placed = true
					continue
				}
				t := strings.TrimSpace(e.Text)
				line := lines[it.line-1]
				i := strings.Index(line, it.text)
				if t == "" || strings.Contains(t, "\n") || it.text == "" || i < 0 {
					continue
				}
				lines[it.line-1] = line[:i] + t + line[i+len(it.text):]
				placed = true
			}
		}
		if !placed {
			unplaced = append(unplaced, e)
		}
	}
	at := -1 // the line (0-based) the additions go before
	if len(adds) > 0 {
		var ok bool
		if at, ok = rulesStart(doc, list, rest); !ok {
			unplaced = append(unplaced, addEdits...)
			adds = nil
		}
	}
	var b strings.Builder
	b.Grow(len(doc))
	for i, l := range lines {
		if i == at {
			for _, a := range adds {
				b.WriteString(a)
			}
			if !isListLine(l) {
				b.WriteString("\n")
			}
		}
		if gone[i] {
			continue
		}
		// A deletion leaves no run of blank lines behind.
		if l == "\n" && i > 0 && gone[i-1] && lastIsBlank(b.String()) {
			continue
		}
		b.WriteString(l)
	}
	if at == len(lines) && len(adds) > 0 {
		if !lastIsBlank(b.String()) {
			b.WriteString("\n")
		}
		for _, a := range adds {
			b.WriteString(a)
		}
	}
	return []byte(b.String()), unplaced
}

// rulesStart finds where a new rule goes: the first line (0-based) of the
// block that follows the Rules heading, or the end of the file; from the
// items and other blocks of doc (items), not a second parse.
func rulesStart(doc []byte, list, rest []item) (int, bool) {
	heading := -1
	for _, r := range rest {
		if r.raw == "## Rules" {
			heading = r.line
			break
		}
	}
	if heading <= 0 {
		return 0, false
	}
	next := 0
	for _, it := range slices.Concat(list, rest) {
		if it.line > heading && (next == 0 || it.line < next) {
			next = it.line
		}
	}
	if next == 0 {
		return strings.Count(string(doc), "\n") + boolInt(len(doc) > 0 && doc[len(doc)-1] != '\n'), true
	}
	return next - 1, true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isListLine reports whether a line starts a bullet.
func isListLine(l string) bool {
	t := strings.TrimLeft(l, " ")
	return strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ")
}

func lastIsBlank(s string) bool {
	return s == "" || strings.HasSuffix(s, "\n\n")
}

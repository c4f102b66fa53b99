package render

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	gmtext "github.com/yuin/goldmark/text"
)

// memory.md is the human surface of the memory: a reviewer may edit it in
// a pull request. ReadEdits compares the file with what memkeep renders
// from the memory files, through goldmark's syntax tree of both, item by
// item by the id each item ends with, and names the edits it can carry
// back to facts.json and concepts.json: a rule reworded, a rule or a
// concept line deleted, a rule added under Rules. Any other difference
// is unmapped: left in place, and named by status and doctor.

// Edit kinds.
const (
	EditReword = "reword" // a rule's text changed
	EditDelete = "delete" // a rule or concept line removed
	EditAdd    = "add"    // a new line under Rules
)

// Edit is one change a reviewer made to memory.md.
type Edit struct {
	Kind string
	ID   string // the rule or concept; "" for an added rule
	Text string // the new text of a reworded or added rule
	Line int    // where in the edited file (for a deletion, where it was)
}

// Unmapped is a difference memkeep cannot carry back.
type Unmapped struct {
	Line int
	Text string
}

// item is a list item of memory.md.
type item struct {
	section string // "Rules" (with Candidate rules), "Concepts", …
	id      string
	text    string // the item's text without its note and id
	raw     string // the item's line as written
	line    int
	end     int // its last line
}

// ReadEdits reads the edits in have (memory.md as it is) against want
// (memory.md as memkeep wrote it). No difference gives nothing.
func ReadEdits(have, want []byte) ([]Edit, []Unmapped) {
	if bytes.Equal(have, want) {
		return nil, nil
	}
	haveItems, haveRest := items(have)
	wantItems, wantRest := items(want)
	byID := map[string]item{}
	for _, it := range haveItems {
		if it.id != "" {
			byID[it.id] = it
		}
	}
	wanted := map[string]bool{}
	var edits []Edit
	var unmapped []Unmapped
	for _, w := range wantItems {
		wanted[w.id] = true
		h, ok := byID[w.id]
		switch {
		case !ok && (w.section == "Rules" || w.section == "Concepts"):
			edits = append(edits, Edit{Kind: EditDelete, ID: w.id, Line: w.line})
		case !ok:
			unmapped = append(unmapped, Unmapped{Line: w.line, Text: "removed: " + w.raw})
		case h.raw == w.raw:
		case w.section == "Rules" && h.section == "Rules" && h.text != w.text && strings.TrimSpace(h.text) != "":
			edits = append(edits, Edit{Kind: EditReword, ID: w.id, Text: h.text, Line: h.line})
		default:
			unmapped = append(unmapped, Unmapped{Line: h.line, Text: h.raw})
		}
	}
	for _, h := range haveItems {
		switch {
		case h.id != "" && wanted[h.id]:
		case h.section == "Rules" && h.id == "" && strings.TrimSpace(h.text) != "":
			edits = append(edits, Edit{Kind: EditAdd, Text: h.text, Line: h.line})
		default:
			unmapped = append(unmapped, Unmapped{Line: h.line, Text: h.raw})
		}
	}
	// Headings, paragraphs and comments: the rest of the file, line by line.
	seen := map[string]int{}
	for _, l := range wantRest {
		seen[l.raw]++
	}
	for _, l := range haveRest {
		if seen[l.raw] > 0 {
			seen[l.raw]--
			continue
		}
		unmapped = append(unmapped, Unmapped{Line: l.line, Text: l.raw})
	}
	return edits, unmapped
}

// items parses memory.md with goldmark and gives its list items, each
// with its section and id, and the lines of every other block.
func items(src []byte) (list []item, rest []item) {
	doc := markdown().Parser().Parse(gmtext.NewReader(src))
	section := ""
	lineOf := lineIndex(src)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			title := string(nodeText(n, src))
			if n.Level == 2 {
				section = title
			}
			rest = append(rest, item{raw: strings.Repeat("#", n.Level) + " " + title, line: lineOf(n)})
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			raw := strings.TrimSpace(string(blockSource(n, src)))
			it := item{section: section, raw: raw, line: lineOf(n), end: lastLine(n, src)}
			it.text, it.id = splitItem(raw)
			list = append(list, it)
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.HTMLBlock, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.ThematicBreak:
			for l := range strings.SplitSeq(strings.TrimSpace(string(blockSource(n, src))), "\n") {
				if strings.TrimSpace(l) != "" {
					rest = append(rest, item{raw: strings.TrimSpace(l), line: lineOf(n)})
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return list, rest
}

// The trailing parts of a rendered item: its note in emphasis and its id.
var itemTail = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(.*?)(?:\\s+\\*\\((?:[^*]|\\*\\*[^*]*\\*\\*)*\\)\\*)?(?:\\s+`([a-z]-[0-9a-f]{8})`)?$")
})

// splitItem gives an item's text without its note and its id.
func splitItem(raw string) (text, id string) {
	raw = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(raw, "- "), "* "))
	m := itemTail().FindStringSubmatch(raw)
	if m == nil {
		return raw, ""
	}
	return strings.TrimSpace(m[1]), m[2]
}

// blockSource is the source text of a block node: its lines, or its
// children's for a container.
func blockSource(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			for i := range n.Lines().Len() {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	walk(n)
	return b.Bytes()
}

// nodeText is the plain text of an inline container (a heading).
func nodeText(n ast.Node, src []byte) []byte {
	return bytes.TrimSpace(blockSource(n, src))
}

// lastLine gives the last line (1-based) of a block node's source.
func lastLine(n ast.Node, src []byte) int {
	stop := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock {
			for i := range c.Lines().Len() {
				stop = max(stop, c.Lines().At(i).Stop)
			}
		}
		return ast.WalkContinue, nil
	})
	if stop <= 0 {
		return 0
	}
	return bytes.Count(src[:stop-1], []byte("\n")) + 1
}

// lineIndex gives a node's first line number (1-based).
func lineIndex(src []byte) func(ast.Node) int {
	return func(n ast.Node) int {
		for c := n; c != nil; c = c.FirstChild() {
			if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
				return bytes.Count(src[:c.Lines().At(0).Start], []byte("\n")) + 1
			}
		}
		return 0
	}
}

// markdown is the goldmark configuration memkeep reads and renders with.
var markdown = sync.OnceValue(func() goldmark.Markdown { return newMarkdown() })

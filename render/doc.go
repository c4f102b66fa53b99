package render

import (
	"bytes"
)

// This file is the one description of memory.md from which both of its
// writings come: the Markdown committed in the repository and the HTML
// view. Describing the document once keeps the two from drifting apart,
// and writing the HTML directly (instead of parsing our own Markdown back)
// keeps a Markdown parser out of the binary: memkeep starts on every tool
// call, and goldmark's package initialisation alone cost ~0.6 ms of that.
//
// The model is deliberately only as rich as memory.md needs: four kinds
// of block and four kinds of inline span.

// spanKind is what an inline span is.
type spanKind uint8

const (
	spanText   spanKind = iota // plain text: raw in Markdown, escaped in HTML
	spanStrong                 // **kids** / <strong>
	spanEm                     // *kids* / <em>
	spanCode                   // `text` / <code>
)

// span is a piece of inline content. Text and code carry text; strong and
// emphasis carry nested spans, because memory.md puts a strong "needs
// review" inside an emphasised note.
type span struct {
	kind spanKind
	text string
	kids []span
}

func text(s string) span         { return span{kind: spanText, text: s} }
func code(s string) span         { return span{kind: spanCode, text: s} }
func strong(kids ...span) span   { return span{kind: spanStrong, kids: kids} }
func emphasis(kids ...span) span { return span{kind: spanEm, kids: kids} }

// blockKind is what a block is.
type blockKind uint8

const (
	blockHeading blockKind = iota
	blockParagraph
	blockItem    // a bullet; consecutive items form one list
	blockComment // a note to people editing memory.md, not part of the view
)

// block is one line of memory.md (a heading, a paragraph, a list item or
// the comment) and its inline content.
type block struct {
	kind  blockKind
	level int    // heading level, 1 to 6
	text  string // the comment's text
	spans []span
}

// doc is the whole document, blocks in order.
type doc struct {
	blocks []block
}

func (d *doc) heading(level int, spans ...span) {
	d.blocks = append(d.blocks, block{kind: blockHeading, level: min(max(level, 1), 6), spans: spans})
}

func (d *doc) paragraph(spans ...span) {
	d.blocks = append(d.blocks, block{kind: blockParagraph, spans: spans})
}

func (d *doc) item(spans ...span) {
	d.blocks = append(d.blocks, block{kind: blockItem, spans: spans})
}

func (d *doc) comment(s string) {
	d.blocks = append(d.blocks, block{kind: blockComment, text: s})
}

// markdown writes the document as memory.md: one block per line, a blank
// line between blocks except between consecutive list items (so they form
// one tight list), and exactly one newline at the end. Text is written
// raw, as memory.md always was: escaping it now would change the bytes of
// every committed memory.md that holds a Markdown character.
func (d *doc) markdown() []byte {
	var b bytes.Buffer
	for i, bl := range d.blocks {
		if i > 0 && !(bl.kind == blockItem && d.blocks[i-1].kind == blockItem) {
			b.WriteByte('\n')
		}
		switch bl.kind {
		case blockHeading:
			for range bl.level {
				b.WriteByte('#')
			}
			b.WriteByte(' ')
		case blockItem:
			b.WriteString("- ")
		case blockComment:
			b.WriteString("<!-- " + bl.text + " -->")
		}
		writeMarkdownSpans(&b, bl.spans)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// markdownInline is spans as Markdown, for text that is not a whole block
// (the SessionStart context reuses the file lists).
func markdownInline(spans []span) string {
	var b bytes.Buffer
	writeMarkdownSpans(&b, spans)
	return b.String()
}

func writeMarkdownSpans(b *bytes.Buffer, spans []span) {
	for _, s := range spans {
		switch s.kind {
		case spanText:
			b.WriteString(s.text)
		case spanCode:
			b.WriteString("`" + s.text + "`")
		case spanStrong:
			b.WriteString("**")
			writeMarkdownSpans(b, s.kids)
			b.WriteString("**")
		case spanEm:
			b.WriteString("*")
			writeMarkdownSpans(b, s.kids)
			b.WriteString("*")
		}
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// progress draws a one-line bar on a terminal and nothing elsewhere, so
// that logs and pipes stay clean.
type progress struct {
	w            io.Writer
	on           bool
	total, seen  int64
	files, drawn int
}

func newProgress(w io.Writer, on bool, total int64) *progress {
	return &progress{w: w, on: on && total > 0, total: total}
}

func (p *progress) add(n int64, files int) {
	p.seen += n
	p.files += files
	if !p.on {
		return
	}
	const width = 30
	frac := float64(p.seen) / float64(p.total)
	if frac > 1 {
		frac = 1
	}
	fill := int(frac * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%%  %d files  %s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), frac*100, p.files, humanBytes(p.seen))
	p.drawn++
}

func (p *progress) done() {
	if p.on && p.drawn > 0 {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// writeJSON prints v as indented JSON, the form every --json flag uses.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

type renderOptions struct {
	Dir  string
	HTML string
}

func renderCommand(s *streams) *cli.Command {
	var o renderOptions
	return &cli.Command{
		Name:  "render",
		Usage: "render memory.md (and optionally a browsable HTML view) from the memory files",
		UsageText: `memkeep render
memkeep render --html /tmp/memory-view`,
		Description: `memory.md is a pure function of facts.json, concepts.json and the L2 files:
rendering twice gives the same bytes, and the file is written only when they
change.`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "html", Usage: "also write a browsable site into `DIR`: an index with search, a page per concept and per session", Destination: &o.HTML}},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runRender(ctx, o, s)
		},
	}
}

func runRender(_ context.Context, o renderOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	wrote, edits, err := consolidate.Render(l)
	if err != nil {
		return err
	}
	rel, _ := l.Rel(l.DigestFile())
	reportDigestEdits(s, rel, edits)
	switch {
	case len(edits.Unmapped) > 0:
		fmt.Fprintf(s.out, "%s left as it is until the edits above are resolved\n", rel)
	case wrote:
		fmt.Fprintf(s.out, "wrote %s\n", rel)
	default:
		fmt.Fprintf(s.out, "%s is current\n", rel)
	}
	if o.HTML != "" {
		m, err := consolidate.Load(l)
		if err != nil {
			return err
		}
		p, err := render.Site(o.HTML, m.View(), render.SiteOptions{L1: func(base string) []string {
			b, err := os.ReadFile(l.L1File(base))
			if err != nil {
				return nil
			}
			return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		}, Project: readProject(l)})
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "wrote %s\n", p)
	}
	return nil
}

// reportDigestEdits says what a reviewer's edits of memory.md became, and
// which edits memkeep could not carry back.
func reportDigestEdits(s *streams, rel string, d consolidate.DigestEdits) {
	for _, e := range d.Applied {
		switch e.Kind {
		case render.EditReword:
			fmt.Fprintf(s.out, "%s line %d: rule %s reworded: %s\n", rel, e.Line, e.ID, e.Text)
		case render.EditDelete:
			fmt.Fprintf(s.out, "%s: %s removed from memory.md, forgotten\n", rel, e.ID)
		case render.EditAdd:
			fmt.Fprintf(s.out, "%s line %d: rule added: %s\n", rel, e.Line, e.Text)
		}
	}
	for _, u := range d.Unmapped {
		fmt.Fprintf(s.out, "%s line %d: an edit memkeep cannot carry back (only rule and concept lines can be edited): %s\n", rel, u.Line, u.Text)
	}
}

// readProject reads project.md, the human-owned project description, if
// there is one.
func readProject(l memdir.Layout) []byte {
	b, _ := os.ReadFile(filepath.Join(l.MemoryDir(), "project.md"))
	return b
}

package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
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
		Flags: []cli.Flag{&cli.StringFlag{Name: "html", Usage: "also write index.html into `DIR`", Destination: &o.HTML}},
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
	wrote, err := consolidate.Render(l)
	if err != nil {
		return err
	}
	rel, _ := l.Rel(l.DigestFile())
	if wrote {
		fmt.Fprintf(s.out, "wrote %s\n", rel)
	} else {
		fmt.Fprintf(s.out, "%s is current\n", rel)
	}
	if o.HTML != "" {
		m, err := consolidate.Load(l)
		if err != nil {
			return err
		}
		p, err := render.HTML(o.HTML, m.View())
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "wrote %s\n", p)
	}
	return nil
}

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l4"
)

type recallOptions struct {
	Dir   string
	Query string
	JSON  bool
}

func recallCommand(s *streams) *cli.Command {
	var o recallOptions
	return &cli.Command{
		Name:      "recall",
		Usage:     "search the memory, L4 → L3 → L2, with provenance",
		ArgsUsage: "QUERY",
		UsageText: `memkeep recall "why was the cart total wrong"
memkeep recall cart/cart.go --json`,
		Description: `Ranks rules, solutions, core logic, concepts and exchanges by how much of the
query's words, stems and path words they hold; at equal relevance the more
permanent layer comes first. Only hits at or above the threshold (config
recall.threshold, default 0.35) are shown.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the hits as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() == 0 {
				return usagef("recall takes a QUERY, like: memkeep recall \"session registry\"")
			}
			o.Query = strings.Join(c.Args().Slice(), " ")
			return runRecall(ctx, o, s)
		},
	}
}

func runRecall(_ context.Context, o recallOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	cfg, _ := config.Load(l.ConfigFile())
	hits, err := consolidate.Recall(l, o.Query, l4.SearchOptions{Threshold: cfg.Recall.Threshold, Max: 10})
	if err != nil {
		return err
	}
	if o.JSON {
		if hits == nil {
			hits = []l4.Hit{}
		}
		return writeJSON(s.out, hits)
	}
	if len(hits) == 0 {
		fmt.Fprintln(s.out, "nothing relevant in memory")
		return nil
	}
	for _, h := range hits {
		fmt.Fprintf(s.out, "%.2f  %s %-10s %s  %s\n", h.Score, h.Layer, h.Kind, h.ID, h.Text)
		if h.Source != "" {
			fmt.Fprintf(s.out, "      %s\n", h.Source)
		}
	}
	return nil
}

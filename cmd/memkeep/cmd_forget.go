package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
)

type forgetOptions struct {
	Dir    string
	ID     string
	Reason string
	JSON   bool
	Now    func() time.Time
}

func forgetCommand(s *streams) *cli.Command {
	var o forgetOptions
	return &cli.Command{
		Name:      "forget",
		Usage:     "remove a rule, solution, core logic, concept or L2 record, keeping why in the history",
		ArgsUsage: "ID",
		UsageText: `memkeep forget r-1a2b3c4d --reason "we moved to tabs in v2"`,
		Description: `Removes the item and records its id, text, reason and time under "forgotten"
in facts.json. Reflection and extraction never bring a forgotten item back.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Usage: "why it is forgotten (required)", Destination: &o.Reason},
			&cli.BoolFlag{Name: "json", Usage: "print the history entry as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usagef("forget takes exactly one ID (r-…, s-…, k-…, c-…, x-… or f-…), got %d arguments", c.NArg())
			}
			if o.Reason == "" {
				return usagef("forget needs --reason: the history keeps why an item was removed, like --reason \"superseded by r-5e6f7a8b\"")
			}
			o.ID = c.Args().First()
			return runForget(ctx, o, s)
		},
	}
}

func runForget(_ context.Context, o forgetOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	fg, err := consolidate.Forget(l, o.ID, o.Reason, nowOr(o.Now))
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(s.out, fg)
	}
	fmt.Fprintf(s.out, "forgot %s (%s): %s\n", fg.ID, fg.Reason, fg.Text)
	return nil
}

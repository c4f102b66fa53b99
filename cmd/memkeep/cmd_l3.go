package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
)

type l3AssignOptions struct {
	Dir      string
	Exchange string
	Concept  string
	New      string
	JSON     bool
}

// l3Command groups the L3 subcommands.
func l3Command(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "l3",
		Usage:     "group L2 records into concepts (what the Stop hook asks for)",
		UsageText: `memkeep l3 assign x-1a2b3c4d --concept c-5e6f7a8b`,
		Commands:  []*cli.Command{l3AssignCommand(s)},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown l3 command %q (want assign)", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

func l3AssignCommand(s *streams) *cli.Command {
	var o l3AssignOptions
	return &cli.Command{
		Name:      "assign",
		Usage:     "put an L2 record into an existing concept or a new one",
		ArgsUsage: "EXCHANGE",
		UsageText: `memkeep l3 assign x-1a2b3c4d --concept c-5e6f7a8b
memkeep l3 assign x-1a2b3c4d --new session-sync`,
		Description: `memkeep status (and the Stop hook) show memkeep's proposal for each record
without a concept. Confirm it with --concept, or name a new concept with --new.
A new name close to an existing concept's ("auth" and "authentication") is
refused with the existing concept named, so concepts never duplicate.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "concept", Usage: "existing concept `ID`", Destination: &o.Concept},
			&cli.StringFlag{Name: "new", Usage: "create a concept named `NAME`", Destination: &o.New},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usagef("l3 assign takes exactly one EXCHANGE id (like x-1a2b3c4d), got %d arguments", c.NArg())
			}
			if (o.Concept == "") == (o.New == "") {
				return usagef("give exactly one of --concept ID or --new NAME")
			}
			o.Exchange = c.Args().First()
			return runL3Assign(ctx, o, s)
		},
	}
}

func runL3Assign(_ context.Context, o l3AssignOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	res, err := consolidate.Assign(l, o.Exchange, o.Concept, o.New)
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(s.out, map[string]any{"exchange": res.Exchange, "concept": res.Concept, "created": res.Created})
	}
	verb := "assigned"
	if res.Created {
		verb = "created concept " + res.Concept.Name + ";"
	}
	fmt.Fprintf(s.out, "%s %s → %s (%s, %d records)\n", verb, res.Exchange, res.Concept.ID, res.Concept.Name, len(res.Concept.Exchanges))
	return nil
}

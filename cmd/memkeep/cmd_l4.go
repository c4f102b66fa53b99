package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
)

type l4Options struct {
	Dir  string
	Text string
	JSON bool
	Now  func() time.Time
}

// l4Command groups the permanent-memory subcommands.
func l4Command(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "l4",
		Usage: "permanent memory: reflect on L2 and L3, add rules",
		UsageText: `memkeep l4 reflect
memkeep l4 add-rule "Run gofmt before committing."`,
		Commands: []*cli.Command{l4ReflectCommand(s), l4AddRuleCommand(s)},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown l4 command %q (want reflect or add-rule)", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

func l4ReflectCommand(s *streams) *cli.Command {
	var o l4Options
	return &cli.Command{
		Name:      "reflect",
		Usage:     "derive rules, solutions and core logic; render memory.md",
		UsageText: `memkeep l4 reflect --json`,
		Description: `Promotes rules stated in 3 or more sessions, solutions to problems solved in
3 or more sessions, and concepts changed in 3 or more sessions as core logic;
counts contradictions and flags items contradicted 5 or more times for review;
rebuilds the keyword index; renders memory.md.
Running it twice changes nothing the second time.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON", Destination: &o.JSON}},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runL4Reflect(ctx, o, s)
		},
	}
}

func runL4Reflect(_ context.Context, o l4Options, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	sum, err := consolidate.Reflect(l)
	if err != nil {
		return err
	}
	return printSummary(s, sum, o.JSON)
}

func l4AddRuleCommand(s *streams) *cli.Command {
	var o l4Options
	return &cli.Command{
		Name:      "add-rule",
		Usage:     "add a rule by hand (promoted at once)",
		ArgsUsage: "TEXT",
		UsageText: `memkeep l4 add-rule "Never push to main; open a pull request."`,
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the rule as JSON", Destination: &o.JSON}},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() == 0 {
				return usagef("l4 add-rule takes the rule TEXT, like: memkeep l4 add-rule \"Run gofmt before committing.\"")
			}
			o.Text = strings.Join(c.Args().Slice(), " ")
			return runL4AddRule(ctx, o, s)
		},
	}
}

func runL4AddRule(_ context.Context, o l4Options, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	r, added, err := consolidate.AddRule(l, o.Text, nowOr(o.Now))
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(s.out, map[string]any{"rule": r, "added": added})
	}
	if !added {
		fmt.Fprintf(s.out, "rule %s already exists: %s\n", r.ID, r.Text)
		return nil
	}
	fmt.Fprintf(s.out, "added rule %s: %s\n", r.ID, r.Text)
	return nil
}

// printSummary reports a consolidation or reflection.
func printSummary(s *streams, sum consolidate.Summary, asJSON bool) error {
	if asJSON {
		out := map[string]any{
			"summary": sum.String(), "changed": sum.Changed(), "sessions": sum.Sessions,
			"added": sum.Added, "updated": sum.Updated, "removed": sum.Removed, "linked": sum.Linked,
			"assigned": sum.Assigned, "concepts_created": sum.ConceptsCreated,
			"reflection": sum.Reflection, "rendered": sum.Rendered, "written": relPaths(sum.Written),
		}
		if sum.EvalErr != nil {
			out["evaluator_error"] = sum.EvalErr.Error()
		}
		return writeJSON(s.out, out)
	}
	if sum.EvalErr != nil {
		fmt.Fprintf(s.err, "memkeep: the evaluator failed, heuristic scores used: %v\n", sum.EvalErr)
	}
	fmt.Fprintln(s.out, sum.String())
	return nil
}

func relPaths(ps []string) []string {
	out := []string{}
	l, err := findLayout("")
	for _, p := range ps {
		if err == nil {
			if r, ok := l.Rel(p); ok {
				p = r
			}
		}
		out = append(out, p)
	}
	return out
}

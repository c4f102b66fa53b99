package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l2"
)

type l2AddOptions struct {
	Dir          string
	Session      string
	Input        l2.Input
	Range        string
	Significance string
	JSON         bool
	Now          func() time.Time
}

// l2Command groups the L2 subcommands the agent runs when Stop asks.
func l2Command(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "l2",
		Usage:     "add exchanges and facts to a session's L2 (what the Stop hook asks for)",
		UsageText: `memkeep l2 add --session 3f2a9c1e --range 12-40 --summary "Expired tokens caused the 401s; refresh in middleware" --file auth/token.go`,
		Commands:  []*cli.Command{l2AddCommand(s)},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown l2 command %q (want add)", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

func l2AddCommand(s *streams) *cli.Command {
	var o l2AddOptions
	return &cli.Command{
		Name:  "add",
		Usage: "add a conscious exchange or fact to a session's L2",
		UsageText: `memkeep l2 add --session 3f2a9c1e --range 12-40 --summary "Expired tokens caused the 401s" --file auth/token.go --type iteration
echo '` + l2.ExampleInput + `' | memkeep l2 add --session 3f2a9c1e
memkeep l2 add --session 3f2a9c1e --range 12-40 --fact-file auth/token.go --lines 10-42 --summary "Tokens are refreshed in the middleware"`,
		Description: `Records what mattered in an exchange, in the agent's words. Without --summary
the record is read as JSON from standard input (the fields of docs/format.md,
"L2"). The record is checked: its L1 range must lie in the session's L1, its
files must be files the session read or changed, a fact's lines must overlap
lines the session saw, and a session keeps at most 10 facts. A record nearly
identical to an existing one is merged into it. A record that describes the
same experience as an extracted one is linked to it and both are boosted.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "session `ID` (default: the session whose L1 changed last)", Destination: &o.Session},
			&cli.StringFlag{Name: "summary", Usage: "one sentence: what happened or what holds", Destination: &o.Input.Summary},
			&cli.StringFlag{Name: "details", Usage: "the why and the how", Destination: &o.Input.Details},
			&cli.StringSliceFlag{Name: "file", Usage: "a file the record is about (repeatable)", Destination: &o.Input.Files},
			&cli.StringSliceFlag{Name: "keyword", Usage: "a keyword (repeatable)", Destination: &o.Input.Keywords},
			&cli.StringFlag{Name: "range", Usage: "L1 lines `FIRST-LAST` the record covers", Destination: &o.Range},
			&cli.StringFlag{Name: "type", Usage: "one of " + strings.Join(l2.Types, ", "), Destination: &o.Input.Type},
			&cli.StringFlag{Name: "significance", Usage: "0–1 (default 0.7)", Destination: &o.Significance},
			&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeatable)", Destination: &o.Input.Tags},
			&cli.StringFlag{Name: "fact-file", Usage: "make it a fact that holds in `FILE`", Destination: &o.Input.File},
			&cli.StringFlag{Name: "lines", Usage: "the fact's line range in its file, like 10-42", Destination: &o.Input.Lines},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runL2Add(ctx, o, s)
		},
	}
}

func runL2Add(_ context.Context, o l2AddOptions, s *streams) error {
	in := o.Input
	if in.Summary == "" {
		b, err := io.ReadAll(s.in)
		if err != nil {
			return err
		}
		if len(strings.TrimSpace(string(b))) == 0 {
			return usagef("give the record with --summary and the other flags, or as JSON on standard input, like:\n  %s", l2.ExampleInput)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return fmt.Errorf("the record on standard input is not valid JSON for an L2 record: %v\nA valid record looks like:\n  %s", err, l2.ExampleInput)
		}
	}
	if o.Range != "" {
		r, err := parseRange(o.Range)
		if err != nil {
			return usagef("--range: %v", err)
		}
		in.L1Range = r
	}
	if o.Significance != "" {
		v, err := strconv.ParseFloat(o.Significance, 64)
		if err != nil {
			return usagef("--significance: %q is not a number between 0 and 1, like 0.7", o.Significance)
		}
		in.Significance = &v
	}
	if in.File != "" && in.Kind == "" {
		in.Kind = "fact"
	}
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	res, err := consolidate.AddL2(l, o.Session, in, nowOr(o.Now))
	var ve *l2.ValidationError
	if errors.As(err, &ve) {
		return err
	}
	if err != nil {
		return err
	}
	return printAdd(s, res, o.JSON)
}

func printAdd(s *streams, res l2.AddResult, asJSON bool) error {
	if asJSON {
		return writeJSON(s.out, map[string]any{"id": res.ID, "merged": res.Merged, "linked": res.Linked})
	}
	verb := "added"
	if res.Merged {
		verb = "merged into"
	}
	fmt.Fprintf(s.out, "%s %s", verb, res.ID)
	if res.Linked != "" {
		fmt.Fprintf(s.out, " (convergent with %s)", res.Linked)
	}
	fmt.Fprintln(s.out)
	return nil
}

// parseRange reads "12-40" (or "12") as an L1 range.
func parseRange(v string) ([2]int, error) {
	a, b, found := strings.Cut(v, "-")
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y := x
	var err2 error
	if found {
		y, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	if err1 != nil || err2 != nil || x < 1 || y < x {
		return [2]int{}, fmt.Errorf("%q is not a range of L1 lines like 12-40", v)
	}
	return [2]int{x, y}, nil
}

func nowOr(f func() time.Time) time.Time {
	if f == nil {
		return time.Now()
	}
	return f()
}

package main

import (
	"context"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
)

type rememberOptions struct {
	Dir     string
	Kind    string // remember, learn, decide
	Text    string
	Why     string
	Files   []string
	Session string
	JSON    bool
	Now     func() time.Time
}

// rememberCommand, learnCommand and decideCommand are the conscious path.
func rememberCommand(s *streams) *cli.Command { return consciousCommand(s, consolidate.KindRemember) }
func learnCommand(s *streams) *cli.Command    { return consciousCommand(s, consolidate.KindLearn) }
func decideCommand(s *streams) *cli.Command   { return consciousCommand(s, consolidate.KindDecide) }

func consciousCommand(s *streams, kind string) *cli.Command {
	usage := map[string][2]string{
		consolidate.KindRemember: {"keep something worth remembering about the project", `memkeep remember "The staging DB is reset every night" --why "tests there must not rely on old data"`},
		consolidate.KindLearn:    {"record something learned (a cause, a pitfall, how a part works)", `memkeep learn "cart.Total overwrote the sum instead of adding each line's price" --file cart/cart.go`},
		consolidate.KindDecide:   {"record a decision and its reason", `memkeep decide "Use flock for the memory lock" --why "locks die with their process, so a crash leaves none"`},
	}
	o := rememberOptions{Kind: kind}
	return &cli.Command{
		Name:      kind,
		Usage:     usage[kind][0],
		ArgsUsage: "TEXT",
		UsageText: usage[kind][1],
		Description: `Writes a conscious L2 record in the current session (--session, or the
session whose L1 changed last). When it describes the same experience as an
exchange memkeep extracted (close in time, the same files, overlapping words),
both are linked and boosted. "Always …" and "never …" are also kept as rule
candidates. Conscious records never expire.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "why", Usage: "the reason or context", Destination: &o.Why},
			&cli.StringSliceFlag{Name: "file", Usage: "a file it is about (repeatable)", Destination: &o.Files},
			&cli.StringFlag{Name: "session", Usage: "session `ID`", Destination: &o.Session},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() == 0 {
				return usagef("%s takes the TEXT to keep, like: %s", kind, usage[kind][1])
			}
			o.Text = strings.Join(c.Args().Slice(), " ")
			return runRemember(ctx, o, s)
		},
	}
}

func runRemember(_ context.Context, o rememberOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	res, err := consolidate.Remember(l, o.Session, o.Kind, o.Text, o.Why, o.Files, nowOr(o.Now))
	if err != nil {
		return err
	}
	return printAdd(s, res, o.JSON)
}

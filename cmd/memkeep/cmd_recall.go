package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/recall"
)

type recallOptions struct {
	Dir       string
	Query     string
	JSON      bool
	Max       int
	Threshold float64
	Rebuild   bool
}

func recallCommand(s *streams) *cli.Command {
	var o recallOptions
	return &cli.Command{
		Name:      "recall",
		Usage:     "search the memory, L4 → L3 → L2 → L1, with provenance",
		ArgsUsage: "QUERY",
		UsageText: `memkeep recall "why was the cart total wrong"
memkeep recall cart/cart.go --json`,
		Description: `Searches rules, solutions, core logic, concepts, exchanges and facts, and
every L1 line (prompts, the assistant's text, each tool call's file, command,
pattern, change and result), ranked by BM25 with the words developers use for
the same things. Each answer is the most specific place: a few L1 lines, with
the exchange and concept they belong to. Memory answers when an answer covers
at least recall.threshold of the query (default ` + fmt.Sprint(config.Default().Recall.Threshold) + `); then that answer, those
ranked above it and the others that cover as much are shown.

The index lives under the git dir and is kept current as sessions go;
--rebuild builds it again.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the hits as JSON", Destination: &o.JSON},
			&cli.IntFlag{Name: "max", Usage: "the most answers", Value: 10, Destination: &o.Max},
			&cli.FloatFlag{Name: "threshold", Usage: "the least share of the query an answer covers, 0–1 (default: config recall.threshold)", Value: -1, Destination: &o.Threshold},
			&cli.BoolFlag{Name: "rebuild", Usage: "build the search index again (no QUERY needed)", Destination: &o.Rebuild},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if o.Rebuild && c.NArg() == 0 {
				return runRecall(ctx, o, s)
			}
			if c.NArg() == 0 {
				return usagef("recall takes a QUERY, like: memkeep recall \"session registry\"")
			}
			o.Query = strings.Join(c.Args().Slice(), " ")
			if onQuery != nil && !o.Rebuild {
				onQuery()
			}
			return runRecall(ctx, o, s)
		},
	}
}

// neverMentions opens what recall says of a question naming things memory
// never mentions, before their names.
const neverMentions = "nothing relevant in memory: it never mentions "

func runRecall(_ context.Context, o recallOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	if o.Rebuild {
		if err := recall.Build(l); err != nil {
			return err
		}
		if o.Query == "" {
			fmt.Fprintln(s.out, "recall index built")
			return nil
		}
	}
	cfg, _ := config.Load(l.ConfigFile())
	ix, err := recall.Open(l, "")
	if err != nil {
		return err
	}
	defer ix.Close()
	threshold := cfg.Recall.Threshold
	if o.Threshold >= 0 {
		threshold = o.Threshold
	}
	hits := ix.Search(o.Query, recall.Options{Threshold: threshold, Max: o.Max})
	if ix.NeedsRebuild() {
		rebuildInBackground(l)
	}
	if o.JSON {
		if hits == nil {
			hits = []recall.Hit{}
		}
		return writeJSON(s.out, hits)
	}
	if len(hits) == 0 {
		if names := ix.Unknown(o.Query); len(names) > 0 {
			fmt.Fprintf(s.out, "%s%s\n", neverMentions, strings.Join(names, ", "))
			return nil
		}
		fmt.Fprintln(s.out, "nothing relevant in memory")
		return nil
	}
	fmt.Fprint(s.out, recall.Answer(hits))
	return nil
}

// rebuildInBackground starts `memkeep recall --rebuild` detached, so that
// a prompt never waits for a full build of the index. One runs at a time
// (the index's lock), and one is started at most once a minute.
func rebuildInBackground(l memdir.Layout) {
	if os.Getenv("MEMKEEP_NO_SPAWN") != "" {
		_ = recall.Build(l) // tests and the demo: at once, in the foreground
		return
	}
	mark := filepath.Join(recall.Dir(l), "rebuild-started")
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < time.Minute {
		return
	}
	if os.MkdirAll(recall.Dir(l), 0o755) != nil || os.WriteFile(mark, nil, 0o644) != nil {
		return
	}
	_ = os.Chtimes(mark, time.Now(), time.Now())
	exe, err := os.Executable()
	if err != nil {
		return
	}
	cmd := exec.Command(exe, "recall", "--rebuild")
	cmd.Dir = l.Root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

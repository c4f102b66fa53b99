package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/gitstore/merge"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/render"
)

// --- commit ---

type commitOptions struct {
	Message string
	Session string
	Mode    string
	JSON    bool
}

func commitCommand(s *streams) *cli.Command {
	var o commitOptions
	return &cli.Command{
		Name:  "commit",
		Usage: "commit pending memory (.claude/memory only) now",
		UsageText: `memkeep commit
memkeep commit -m "memory: record the auth decision"`,
		Description: `Commits the memory folder as it is on disk, touching nothing else: the
user's staged, unstaged and untracked work stays as it was. When committing
would be wrong now (detached HEAD, a merge or rebase in progress, git's
index.lock held) the commit is deferred and retried by the next memkeep run.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "commit subject instead of the computed per-layer summary", Destination: &o.Message},
			&cli.StringFlag{Name: "session", Usage: "Claude Code session `ID` for the Memkeep-Session trailer", Destination: &o.Session},
			&cli.StringFlag{Name: "mode", Usage: "auto | stage | off (default: config.yaml's commit setting)", Destination: &o.Mode},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("commit takes no arguments (use -m for a message)")
			}
			return runCommit(ctx, o, s)
		},
	}
}

func runCommit(_ context.Context, o commitOptions, s *streams) error {
	l, err := findLayout("")
	if err != nil {
		return err
	}
	cfg, _ := config.Load(l.ConfigFile())
	mode := o.Mode
	if mode == "" {
		mode = cfg.Commit
	}
	switch mode {
	case "auto", "stage", "off":
	default:
		return usagef("--mode %q: want auto, stage or off", mode)
	}
	opts := gitstore.Options{Mode: gitstore.Mode(mode), Message: o.Message, Scan: cfg.Scan}
	if o.Session != "" {
		opts.Trailers = []gitstore.Trailer{{Key: "Memkeep-Session", Value: o.Session}}
	}
	res, err := gitstore.Commit(l, opts)
	if o.JSON {
		if jerr := writeJSON(s.out, res); jerr != nil {
			return jerr
		}
	} else {
		switch res.Status {
		case gitstore.Committed:
			fmt.Fprintf(s.out, "committed %s on %s: %s\n", short(res.Commit), res.Branch, res.Subject)
		case gitstore.Staged:
			fmt.Fprintf(s.out, "staged %d memory path(s); commit them with git when you like\n", len(res.Changed))
		case gitstore.NoChange:
			fmt.Fprintln(s.out, "nothing to commit: memory equals HEAD")
		case gitstore.Deferred:
			fmt.Fprintf(s.out, "deferred: %s (the change waits; the next memkeep run commits it)\n", res.Reason)
		case gitstore.Disabled:
			fmt.Fprintln(s.out, "commit is off (config.yaml: commit: off)")
		}
	}
	return err
}

// --- log ---

type logOptions struct {
	N    int
	JSON bool
}

func logCommand(s *streams) *cli.Command {
	var o logOptions
	return &cli.Command{
		Name:      "log",
		Usage:     "list the memory commits, newest first, with what changed per layer",
		UsageText: "memkeep log\nmemkeep log -n 5 --json",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Value: 20, Usage: "show at most `N` commits", Destination: &o.N},
			&cli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			l, err := findLayout("")
			if err != nil {
				return err
			}
			entries, err := gitstore.Log(l, o.N)
			if err != nil {
				return err
			}
			if o.JSON {
				return writeJSON(s.out, entries)
			}
			if len(entries) == 0 {
				fmt.Fprintln(s.out, "no memory commits yet")
			}
			for _, e := range entries {
				fmt.Fprintf(s.out, "%s %s %s\n", short(e.Hash), e.Time.Local().Format("2006-01-02 15:04"), e.Subject)
			}
			return nil
		},
	}
}

// --- diff ---

type diffOptions struct {
	Range  string
	Format string
	Link   string
}

func diffCommand(s *streams) *cli.Command {
	var o diffOptions
	return &cli.Command{
		Name:      "diff",
		Usage:     "review a memory change: rules, concepts, exchanges and sessions added, changed, removed",
		ArgsUsage: "[A..B | A...B]",
		UsageText: `memkeep diff                      # the last memory commit
memkeep diff main...HEAD          # what this branch taught the memory, from its merge base: the PR review
memkeep diff main...HEAD --link https://example.com/memory/   # ids link to the published HTML view
memkeep diff HEAD~3..HEAD --format json
memkeep diff main...HEAD --format html > memory-review.html`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "markdown", Usage: "markdown | json | html (a standalone page)", Destination: &o.Format},
			&cli.StringFlag{Name: "link", Usage: "`URL` of the published HTML view (memkeep render --html): ids link to their items", Destination: &o.Link},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 1 {
				return usagef("diff takes at most one A..B range")
			}
			if o.Format != "markdown" && o.Format != "json" && o.Format != "html" {
				return usagef("--format %q: want markdown, json or html", o.Format)
			}
			o.Range = c.Args().First()
			l, err := findLayout("")
			if err != nil {
				return err
			}
			from, to := gitstore.ParseRange(o.Range)
			rv, err := gitstore.Diff(l, from, to)
			if err != nil {
				return err
			}
			if o.Format == "json" {
				b, err := rv.JSON()
				if err != nil {
					return err
				}
				_, err = s.out.Write(b)
				return err
			}
			rv.Link = o.Link
			if o.Format == "html" {
				page, err := render.Page("Memory review", []byte(rv.Markdown()))
				if err != nil {
					return err
				}
				_, err = s.out.Write(page)
				return err
			}
			_, err = fmt.Fprint(s.out, rv.Markdown())
			return err
		},
	}
}

// --- merge-driver ---

func mergeDriverCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "git merge driver for memory files (registered by memkeep init)",
		ArgsUsage: "%O %A %B %P",
		UsageText: `git config merge.memkeep.driver "memkeep merge-driver %O %A %B %P"`,
		Description: `Git runs this for files under .claude/memory/ (see its .gitattributes): the
base, ours and theirs versions are merged by record id and the result is
written to %A. Exit 0 when clean, 1 on a conflict the rules cannot
resolve, above 128 on a crash.`,
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 4 {
				return usagef("merge-driver takes %%O %%A %%B %%P (got %d arguments)", c.NArg())
			}
			a := c.Args().Slice()
			if code := merge.RunMergeDriver(a[0], a[1], a[2], a[3], consolidate.RenderFiles); code != merge.ExitClean {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}

// --- context ---

type contextOptions struct{ Budget int }

func contextCommand(s *streams) *cli.Command {
	var o contextOptions
	return &cli.Command{
		Name:      "context",
		Usage:     "print exactly what the SessionStart hook injects",
		UsageText: "memkeep context\nmemkeep context --budget 3000",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "characters; 0 takes config.yaml's context.budget (6000 unless set)", Destination: &o.Budget, HideDefault: true},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			l, err := findLayout("")
			if err != nil {
				return err
			}
			if o.Budget == 0 {
				cfg, _ := config.Load(l.ConfigFile())
				o.Budget = cfg.Context.Budget
			}
			if o.Budget < 0 || o.Budget > 9500 {
				return usagef("--budget %d: want 1–9500 characters (Claude Code moves more than 10,000 into a file)", o.Budget)
			}
			text, err := sessionContext(l, o.Budget, time.Now(), "", "startup")
			if err != nil {
				return err
			}
			if strings.TrimSpace(text) == "" {
				fmt.Fprintln(s.err, "memkeep: no memory to inject yet")
				return nil
			}
			_, err = fmt.Fprintln(s.out, text)
			return err
		},
	}
}

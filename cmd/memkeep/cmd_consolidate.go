package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/recall"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
)

type consolidateOptions struct {
	Dir      string
	Deep     bool
	Deferred bool
	Settle   bool
	Session  string
	JSON     bool
	Now      func() time.Time
}

func consolidateCommand(s *streams) *cli.Command {
	var o consolidateOptions
	return &cli.Command{
		Name:  "consolidate",
		Usage: "run the deterministic memory pipeline now (L1 → L2 → L3 → L4 → memory.md)",
		UsageText: `memkeep consolidate
memkeep consolidate --deep --session 3f2a9c1e --json`,
		Description: `Extracts exchanges from every session whose L1 grew since its L2 (or only
--session), links them with conscious records of the same experience, assigns
concepts where memkeep's proposal is confident, reflects into L4 and renders
memory.md. --deep extracts every session again and gives every record a
concept (the proposal, or a new concept), as SessionEnd does when no agent is
there to answer. Files are written only when their bytes change.

With evaluator: in .claude/memory/config.yaml, that command scores the
exchanges instead of the heuristic (which stays the fallback).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "deep", Usage: "extract every session again and assign every record a concept", Destination: &o.Deep},
			&cli.StringFlag{Name: "session", Usage: "only this session `ID`", Destination: &o.Session},
			&cli.BoolFlag{Name: "deferred", Usage: "consolidate the sessions whose SessionEnd left the work for later (deep)", Destination: &o.Deferred},
			&cli.BoolFlag{Name: "settle", Usage: "what a Stop leaves to the background for --session: concepts, reflection, memory.md, the recall index and the commit", Destination: &o.Settle},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runConsolidate(ctx, o, s)
		},
	}
}

func runConsolidate(_ context.Context, o consolidateOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	cfg, cerr := config.Load(l.ConfigFile())
	if cerr != nil {
		fmt.Fprintf(s.err, "memkeep: %v\n", cerr)
	}
	if o.Settle {
		return settleInBackground(l, o.Session, cfg)
	}
	// A run for one session is its end, as SessionEnd's is.
	opts := withGit(l, consolidate.Options{SessionID: o.Session, Deep: o.Deep, Handoff: o.Session != ""})
	if cfg.Evaluator != "" {
		opts.Evaluator = l2.CommandEvaluator(cfg.Evaluator, 30*time.Second)
	}
	if !o.Deferred {
		sum, err := consolidate.Consolidate(l, opts)
		if err != nil {
			return err
		}
		commitAfter(l, cfg.Commit, o.Session, s)
		warmCaches(l, cfg.Context.Budget)
		return printSummary(s, sum, o.JSON)
	}
	// Deferred work: each session SessionEnd marked, deeply; the marker
	// goes only once its session is done.
	opts.Deep = true
	var total consolidate.Summary
	var errs []error
	deferred := hooks.DeferredSessions(l)
	defer func() {
		if len(deferred) > 0 {
			commitWhenQuiet(l, cfg.Commit, strings.Join(deferred, ","), s)
			warmCaches(l, cfg.Context.Budget)
		}
	}()
	for _, sid := range deferred {
		opts.SessionID, opts.Handoff = sid, true
		sum, err := consolidate.Consolidate(l, opts)
		switch {
		case errors.Is(err, l2.ErrNoSession):
			// Opened and closed before a prompt: there is nothing to
			// consolidate, now or later.
		case err != nil:
			errs = append(errs, fmt.Errorf("session %s: %w (its marker is kept; the next run tries again)", sid, err))
			continue
		}
		total.Add(sum)
		errs = append(errs, hooks.ClearDeferred(l, sid))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return printSummary(s, total, o.JSON)
}

// committing makes c and its subcommands commit the memory they wrote
// once they succeed, as a consolidation does: memkeep writes memory in its
// own copy under the git dir, and the work tree gets it in the commit
// (replacing memkeep's previous commit of the same stretch of work). The
// commit says only when it failed or must wait. Run by an agent inside a
// Claude Code session (CLAUDECODE set), it keeps the hooks' pace.
func committing(c *cli.Command, s *streams) *cli.Command {
	if act := c.Action; act != nil {
		c.Action = func(ctx context.Context, cmd *cli.Command) error {
			if err := act(ctx, cmd); err != nil {
				return err
			}
			l, err := memdir.Find(".")
			if err != nil || !l.Initialised() {
				return nil
			}
			cfg, _ := config.Load(l.ConfigFile())
			o := gitstore.Options{Mode: gitstore.Mode(cfg.Commit), Scan: cfg.Scan}
			if os.Getenv("CLAUDECODE") != "" {
				// The agent's command, inside a session whose hooks
				// commit: the hooks' pace, not a commit per command.
				o = paced(o)
			}
			if res, err := gitstore.Commit(l, o); err != nil || res.Status != gitstore.Committed {
				reportCommit(s, res, err) // only what failed or waits
			}
			return nil
		}
	}
	for _, sub := range c.Commands {
		committing(sub, s)
	}
	return c
}

// settleInBackground is the work a Stop hands to `memkeep consolidate
// --settle` (hooks.Memory.SettleLater): the extraction (Micro) and Settle for the session, the recall
// index brought up to date, and the commit at the hooks' pace. Runs for
// the same project wait for each other, so that a quick succession of
// turns settles in order; what fails here is done by the next Stop or the
// session's end.
func settleInBackground(l memdir.Layout, sid string, cfg config.Config) error {
	lk, err := filelock.Acquire(filepath.Join(l.StateDir(), "settle.lock"), time.Minute)
	if err != nil {
		return err
	}
	defer lk.Unlock()
	if _, err := consolidate.Micro(l, sid, consolidate.Options{LockWait: consolidate.LockWait}); err != nil && !errors.Is(err, l2.ErrNoSession) {
		return err
	}
	sum, err := consolidate.Settle(l, sid, consolidate.Options{LockWait: consolidate.LockWait})
	updateRecall(l, recall.UpdateOptions{Session: sid})
	if err != nil {
		return err
	}
	_, cerr := gitAdapter{}.Commit(l, cfg.Commit, sid, change(sum).Summary)
	return cerr
}

// commitWhenQuiet is commitAfter for the background run SessionEnd
// starts: it waits, up to quietWait, until git has been left alone in
// the work tree (and no git command of a person's runs there) before it
// commits, so that the person's next git command never meets memkeep's
// lock. What still cannot be committed waits for the next hook.
func commitWhenQuiet(l memdir.Layout, mode, sessions string, s *streams) {
	cfg, _ := config.Load(l.ConfigFile())
	start := time.Now()
	for {
		res, err := gitstore.Commit(l, gitstore.Options{Mode: gitstore.Mode(mode), Trailers: sessionTrailers(sessions), Scan: cfg.Scan, Quiet: gitQuiet, Auto: true})
		// A held index.lock is waited for briefly: a git command holds it
		// for moments, a crashed one for good.
		busy := (res.Status == gitstore.Waiting || res.Status == gitstore.Deferred && strings.Contains(res.Reason, "is running in this work tree")) &&
			time.Since(start) < quietWait ||
			res.Status == gitstore.Deferred && strings.Contains(res.Reason, "index.lock") && time.Since(start) < lockedWait
		if err != nil || !busy {
			reportCommit(s, res, err)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// quietWait bounds commitWhenQuiet's wait for a quiet work tree, and
// lockedWait its wait for an index.lock to go.
const (
	quietWait  = time.Minute
	lockedWait = 5 * time.Second
)

// commitAfter commits the memory a consolidation wrote, in the configured
// mode. A commit that cannot happen now is deferred by gitstore (and said
// on stderr); it never fails the consolidation, whose files are written.
func commitAfter(l memdir.Layout, mode, sessions string, s *streams) {
	cfg, _ := config.Load(l.ConfigFile())
	res, err := gitstore.Commit(l, gitstore.Options{Mode: gitstore.Mode(mode), Trailers: sessionTrailers(sessions), Scan: cfg.Scan})
	reportCommit(s, res, err)
}

func sessionTrailers(sessions string) []gitstore.Trailer {
	var trailers []gitstore.Trailer
	for _, sid := range strings.Split(sessions, ",") {
		if sid != "" {
			trailers = append(trailers, gitstore.Trailer{Key: "Memkeep-Session", Value: sid})
		}
	}
	return trailers
}

// reportCommit says on stderr what a commit did.
func reportCommit(s *streams, res gitstore.Result, err error) {
	switch {
	case err != nil:
		fmt.Fprintf(s.err, "memkeep: commit: %v (the memory is written; `memkeep commit` retries)\n", err)
	case res.Status == gitstore.Deferred:
		fmt.Fprintf(s.err, "memkeep: commit deferred: %s\n", res.Reason)
	case res.Status == gitstore.Committed:
		fmt.Fprintf(s.err, "memkeep: committed %s %s\n", short(res.Commit), res.Subject)
	}
}

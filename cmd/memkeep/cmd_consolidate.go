package main

import (
	"context"
	"errors"
	"fmt"
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
			commitAfter(l, cfg.Commit, strings.Join(deferred, ","), s)
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

// commitAfter commits the memory a consolidation wrote, in the configured
// mode. A commit that cannot happen now is deferred by gitstore (and said
// on stderr); it never fails the consolidation, whose files are written.
func commitAfter(l memdir.Layout, mode, sessions string, s *streams) {
	var trailers []gitstore.Trailer
	for _, sid := range strings.Split(sessions, ",") {
		if sid != "" {
			trailers = append(trailers, gitstore.Trailer{Key: "Memkeep-Session", Value: sid})
		}
	}
	cfg, _ := config.Load(l.ConfigFile())
	res, err := gitstore.Commit(l, gitstore.Options{Mode: gitstore.Mode(mode), Trailers: trailers, Scan: cfg.Scan})
	switch {
	case err != nil:
		fmt.Fprintf(s.err, "memkeep: commit: %v (the memory is written; `memkeep commit` retries)\n", err)
	case res.Status == gitstore.Deferred:
		fmt.Fprintf(s.err, "memkeep: commit deferred: %s\n", res.Reason)
	case res.Status == gitstore.Committed:
		fmt.Fprintf(s.err, "memkeep: committed %s %s\n", short(res.Commit), res.Subject)
	}
}

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
)

type statusOptions struct {
	Dir     string
	Session string
	JSON    bool
}

func statusCommand(s *streams) *cli.Command {
	var o statusOptions
	return &cli.Command{
		Name:  "status",
		Usage: "what is pending per layer, and the record Stop would ask the agent for",
		UsageText: `memkeep status
memkeep status --session 3f2a9c1e --json`,
		Description: `Checks, for a session (default: the one whose L1 changed last), that L2
covers every exchange of its L1, that every L2 record has a concept, that L4
reflection ran after the last L2 or L3 change, and that memory.md is current.
Each missing piece comes with commands that can be pasted as they are
(the Stop hook runs the ones that need no judgement itself). When the
session's newest exchange is worth a record of the agent's own and has
none, status shows the request Stop makes for it.
Exit status 0 whether or not something is pending; use --json to script it.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "session `ID`", Destination: &o.Session},
			&cli.BoolFlag{Name: "json", Usage: "print the status as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStatus(ctx, o, s)
		},
	}
}

func runStatus(_ context.Context, o statusOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	sid := o.Session
	if sid == "" {
		if base, err := consolidate.ResolveSession(l, ""); err == nil {
			sid = base
		}
	}
	st, err := consolidate.Pending(l, sid)
	if err != nil {
		return err
	}
	cfg, _ := config.Load(l.ConfigFile())
	ask, err := consolidate.AskFor(l, sid, cfg.Stop.MinEdits)
	if err != nil {
		return err
	}
	request := ""
	if ask != nil {
		request = hooks.RecordRequest(hooks.RecordAsk(*ask))
	}
	waiting, _ := gitstore.MemoryUncommitted(l)
	pend, _ := gitstore.Pending(l)
	if o.JSON {
		out := map[string]any{"session_id": st.SessionID, "base": st.Base, "done": st.Done(), "layers": st.Layers, "uncommitted": waiting}
		if pend != nil {
			out["commit_waits"] = pend.Reason
		}
		if ask != nil {
			out["ask"] = map[string]any{"exchange": ask.Exchange, "l1_range": ask.L1Range, "why": ask.Why, "request": request}
		}
		return writeJSON(s.out, out)
	}
	if st.Base != "" {
		fmt.Fprintf(s.out, "session %s\n", st.Base)
	}
	for _, ly := range st.Layers {
		mark := "✓"
		if !ly.OK {
			mark = "✗"
		}
		fmt.Fprintf(s.out, "%s %s: %s\n", mark, ly.Layer, ly.Detail)
		for _, c := range ly.Commands {
			fmt.Fprintf(s.out, "    %s\n", c)
		}
	}
	if len(waiting) > 0 {
		names := waiting
		if len(names) > 4 {
			names = append(names[:4:4], fmt.Sprintf("%d more", len(waiting)-4))
		}
		fmt.Fprintf(s.out, "… commit: %d memory file(s) wait in .git/memkeep/memory for the next memory commit (%s); `memkeep commit` commits them now\n", len(waiting), strings.Join(names, ", "))
		if pend != nil {
			fmt.Fprintf(s.out, "    %s\n", pend.Reason)
		}
	}
	if request != "" {
		fmt.Fprintf(s.out, "\nWhat Stop asks the agent for:\n%s\n", request)
	}
	return nil
}

package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/hooks"
)

func hookCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "Claude Code hook entry point: event JSON on stdin, answer JSON on stdout",
		ArgsUsage: "EVENT",
		UsageText: `echo '{"session_id":"s1","cwd":"'"$PWD"'"}' | memkeep hook SessionStart`,
		Description: `Claude Code runs this for each event memkeep installs (memkeep init):
` + strings.Join(hooks.Events, ", ") + `.

It always exits 0: a problem inside memkeep is logged under the git dir
(memkeep/hooks.log) and shown once as a systemMessage, never as a failed hook.`,
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usagef("hook takes one EVENT argument (%s)", strings.Join(hooks.Events, ", "))
			}
			hooks.Run(c.Args().First(), s.in, s.out, hookDeps())
			return nil
		},
	}
}

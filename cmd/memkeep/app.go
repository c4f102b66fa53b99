package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v3"
)

// Exit statuses shared by every command (SPEC §4).
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a mistake in how a command was called: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// streams are the standard streams a command writes to; tests substitute
// buffers.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// commands lists the subcommands. Each lives in its own cmd_<name>.go file
// with an options struct, the flags that fill it, and a run function that
// tests may call directly.
func commands(s *streams) []*cli.Command {
	return []*cli.Command{
		initCommand(s),
		doctorCommand(s),
		demoCommand(s),
		hookCommand(s),
		refineCommand(s),
		committing(importCommand(s), s),
		statusCommand(s),
		committing(l2Command(s), s),
		committing(l3Command(s), s),
		committing(l4Command(s), s),
		committing(rememberCommand(s), s),
		committing(learnCommand(s), s),
		committing(decideCommand(s), s),
		committing(forgetCommand(s), s),
		consolidateCommand(s),
		recallCommand(s),
		contextCommand(s),
		streamCommand(s),
		commitCommand(s),
		logCommand(s),
		diffCommand(s),
		committing(renderCommand(s), s),
		mergeDriverCommand(s),
	}
}

func newApp(s *streams) *cli.Command {
	app := &cli.Command{
		Name:  "memkeep",
		Usage: "project memory for Claude Code, kept as plain files in git",
		Description: `memkeep listens to Claude Code through its hooks, refines each session
transcript (L1), distils it into exchanges and facts (L2), concepts (L3) and
permanent rules, solutions and core logic (L4), and commits every change of
.claude/memory/ so that a reviewer reads memory as a diff.

Exit status: 0 on success, 1 on failure, 2 on bad usage.`,
		Reader:                s.in,
		Writer:                s.out,
		ErrWriter:             s.err,
		EnableShellCompletion: false,
		HideHelpCommand:       true,
		Commands:              commands(s),
		Version:               version(),
		OnUsageError: func(ctx context.Context, cmd *cli.Command, err error, isSub bool) error {
			return usageError{err.Error() + flagSuggestion(cmd, err)}
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown command %q%s", c.Args().First(), commandSuggestion(c.Commands, c.Args().First()))
			}
			return cli.ShowRootCommandHelp(c)
		},
		// Errors are printed once, by run, with the exit status they carry.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
	}
	for _, c := range app.Commands {
		setUsageHandler(c)
	}
	return app
}

func setUsageHandler(c *cli.Command) {
	c.OnUsageError = func(ctx context.Context, cmd *cli.Command, err error, isSub bool) error {
		return usageError{err.Error() + flagSuggestion(cmd, err)}
	}
	for _, sub := range c.Commands {
		setUsageHandler(sub)
	}
}

// run executes the command line and returns the exit status. It never
// panics on bad input: a panic inside a command is reported as an internal
// error with exit status 1.
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) (code int) {
	s := &streams{in: in, out: out, err: errw}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(errw, "memkeep: internal error: %v\n(this is a bug; please report it with the command you ran)\n", r)
			code = exitFailure
		}
	}()
	err := newApp(s).Run(ctx, args)
	if err == nil {
		return exitOK
	}
	var ue usageError
	if errors.As(err, &ue) || isCLIUsage(err) {
		fmt.Fprintf(errw, "memkeep: %s\nRun 'memkeep --help' or 'memkeep COMMAND --help' for usage.\n", err)
		return exitUsage
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(errw, "memkeep: %s\n", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintf(errw, "memkeep: %s\n", err)
	return exitFailure
}

// isCLIUsage recognises the few usage errors urfave/cli returns without
// going through OnUsageError (unknown commands, missing required flags).
func isCLIUsage(err error) bool {
	m := err.Error()
	for _, p := range []string{"No help topic for", "flag provided but not defined", "Required flag", "Required flags", "invalid value"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

// flagSuggestion is ": did you mean --json?" for an unknown flag close to
// one of cmd's, or "".
func flagSuggestion(cmd *cli.Command, err error) string {
	_, name, ok := strings.Cut(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	name = strings.TrimLeft(name, "-")
	if s := cli.SuggestFlag(cmd.Flags, name, true); s != "" && nearEnough(strings.TrimLeft(s, "-"), name) {
		return "; did you mean " + s + "?"
	}
	return ""
}

// commandSuggestion is `; did you mean "recall"?` for a mistyped command
// close to one of cmds, or "".
func commandSuggestion(cmds []*cli.Command, name string) string {
	if s := cli.SuggestCommand(cmds, name); s != "" && nearEnough(s, name) {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// nearEnough reports whether a suggestion is near enough to what was typed to
// offer: the two share their first two letters, or one contains the other
// (urfave/cli always proposes its best match, however far).
func nearEnough(suggestion, typed string) bool {
	if len(typed) < 2 {
		return false
	}
	return strings.HasPrefix(suggestion, typed[:2]) || strings.Contains(suggestion, typed) || strings.Contains(typed, suggestion)
}

// version is the module version memkeep was installed at (go install
// …@v1.2.3), else the commit it was built from, else "devel".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		return "devel-" + rev[:12] + dirty
	}
	return "devel"
}

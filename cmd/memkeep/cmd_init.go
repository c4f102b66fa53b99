package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/memdir"
)

type initOptions struct {
	Local     bool
	Uninstall bool
	Program   string // the memkeep command written into the hooks
}

func initCommand(s *streams) *cli.Command {
	var o initOptions
	return &cli.Command{
		Name:  "init",
		Usage: "set up memkeep in this repository: memory folder, hooks, merge driver",
		UsageText: `memkeep init            # hooks in .claude/settings.json, shared with the team
memkeep init --local    # hooks in .claude/settings.local.json, only for you
memkeep init --uninstall`,
		Description: `Creates .claude/memory/ (with its .gitattributes), memkeep's local state under
the git dir, registers the memory merge driver in the repository's git
config, and merges memkeep's hooks into the Claude Code settings without
touching other keys or other tools' hooks. Running it again changes nothing.

--uninstall removes exactly the hooks and the merge driver it added; the
memory itself stays.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "local", Usage: "write the hooks to .claude/settings.local.json (not committed)", Destination: &o.Local},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove memkeep's hooks and merge driver", Destination: &o.Uninstall},
			&cli.StringFlag{Name: "program", Usage: "the memkeep `COMMAND` the hooks run (default: memkeep when it is on PATH, else this binary's path)", Destination: &o.Program},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("init takes no arguments")
			}
			return runInit(ctx, o, s)
		},
	}
}

func settingsPath(l memdir.Layout, local bool) string {
	name := "settings.json"
	if local {
		name = "settings.local.json"
	}
	return filepath.Join(l.Root, ".claude", name)
}

// hookProgram picks the memkeep command the hooks run. Shared settings are
// committed, so they name `memkeep` from PATH when that is this binary;
// otherwise, and for local settings, the absolute path of this binary.
func hookProgram(local bool) (string, error) {
	exe, onPath, err := hooks.Executable()
	if err != nil {
		return "", err
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", errors.New("this memkeep was started by `go run` from a temporary folder the hooks cannot use; install it (go install ./cmd/memkeep) and run `memkeep init` again, or pass --program")
	}
	if !local && onPath {
		return "memkeep", nil
	}
	return exe, nil
}

func runInit(_ context.Context, o initOptions, s *streams) error {
	l, err := memdir.Find(".")
	if err != nil {
		return err
	}
	settings := settingsPath(l, o.Local)
	if o.Uninstall {
		res, err := hooks.Uninstall(settings)
		if err != nil {
			return err
		}
		if err := uninstallMergeDriver(l); err != nil {
			return err
		}
		fmt.Fprintf(s.out, "removed memkeep's hooks (%s) from %s and its merge driver; .claude/memory/ is kept\n", listOrNone(res.Removed), rel(l, settings))
		return nil
	}
	// Hooks in both settings files run twice per event: every event in the
	// stream twice, every tool counted twice, two Stop hooks blocking.
	if other := settingsPath(l, !o.Local); hasHooks(other) {
		flag := ""
		if !o.Local {
			flag = " --local"
		}
		return fmt.Errorf("memkeep's hooks are already in %s, and Claude Code would run both sets: keep them there, or move them with `memkeep init --uninstall%s` and then this command again", rel(l, other), flag)
	}
	program := o.Program
	if program == "" {
		if program, err = hookProgram(o.Local); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(l.WorkMemoryDir(), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(l.StateDir(), 0o755); err != nil {
		return err
	}
	// The attributes go in the work tree, for the person to commit with
	// the setup, and in memkeep's copy of the memory, which its commits
	// record.
	for _, dir := range []string{l.WorkMemoryDir(), l.MemoryDir()} {
		attrs := filepath.Join(dir, ".gitattributes")
		if old, err := os.ReadFile(attrs); err != nil || string(old) != string(memoryAttributes()) {
			if err := atomicfile.WriteFile(attrs, memoryAttributes(), 0o644); err != nil {
				return err
			}
		}
		if err := l.PrepareShadow(); err != nil {
			return err
		}
	}
	if err := installMergeDriver(l, program); err != nil {
		return err
	}
	res, err := hooks.Install(settings, program)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "memkeep is set up in %s\n", l.Root)
	fmt.Fprintf(s.out, "  memory:       %s/ (the folder and its .gitattributes, which routes merges to memkeep)\n", memdir.MemoryRel)
	fmt.Fprintf(s.out, "  hooks:        %s (added: %s)\n", rel(l, settings), listOrNone(res.Added))
	if len(res.Repaired) > 0 {
		fmt.Fprintf(s.out, "                repaired, their program no longer ran: %s\n", strings.Join(res.Repaired, ", "))
	}
	fmt.Fprintf(s.out, "  merge driver: merge.memkeep in %s\n", rel(l, filepath.Join(l.CommonDir, "config")))
	fmt.Fprintf(s.out, "  local state:  %s\n", rel(l, l.StateDir()))
	share := "git add .claude && git commit -m 'Set up memkeep project memory'"
	if o.Local {
		share = "git add " + memdir.MemoryRel + " && git commit -m 'Set up memkeep project memory' (your hooks stay in your own settings.local.json)"
	}
	fmt.Fprintf(s.out, "Nothing is committed yet. So that teammates get the memory%s, commit the setup:\n  %s\n", map[bool]string{false: " and the hooks", true: ""}[o.Local], share)
	fmt.Fprintf(s.out, "Next: `memkeep import` brings in this project's earlier Claude Code sessions; `memkeep doctor` checks the setup.\n")
	return nil
}

// hasHooks reports whether the settings file at path holds memkeep hooks.
func hasHooks(path string) bool {
	evs, err := hooks.Installed(path)
	return err == nil && len(evs) > 0
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none, already there"
	}
	return strings.Join(xs, ", ")
}

func rel(l memdir.Layout, p string) string {
	if r, ok := l.Rel(p); ok {
		return r
	}
	return p
}

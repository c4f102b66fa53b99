package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
)

type doctorOptions struct{ JSON bool }

// check is one line of the doctor's report.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// Advice marks checks whose failure is worth knowing but not an error.
	Advice bool `json:"advice,omitempty"`
}

func doctorCommand(s *streams) *cli.Command {
	var o doctorOptions
	return &cli.Command{
		Name:      "doctor",
		Usage:     "explain what is installed, what is missing, and what to run",
		UsageText: "memkeep doctor\nmemkeep doctor --json | jq '.[] | select(.ok == false)'",
		Description: `Checks the repository, the memory folder, the hooks in the Claude Code
settings, the merge driver, config.yaml, deferred work and recent hook errors.
Exit status 1 when something required is missing.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the checks as JSON", Destination: &o.JSON}},
		Action: func(ctx context.Context, c *cli.Command) error {
			return runDoctor(ctx, o, s)
		},
	}
}

func runDoctor(_ context.Context, o doctorOptions, s *streams) error {
	var checks []check
	l, err := memdir.Find(".")
	if err != nil {
		checks = append(checks, check{Name: "repository", Detail: err.Error(), Fix: "cd into your project, or `git init`"})
		return reportChecks(s, o.JSON, checks)
	}
	checks = append(checks, check{Name: "repository", OK: true, Detail: l.Root})

	checks = append(checks, check{Name: "memory folder", OK: l.Initialised(), Detail: memdir.MemoryRel, Fix: "memkeep init"})
	if lerr := l.CheckAllLinks(); lerr != nil {
		checks = append(checks, check{Name: "no symbolic links", Detail: lerr.Error(), Fix: "replace the link with a real folder or file (git rm --cached it if it is tracked), then memkeep doctor"})
	} else {
		checks = append(checks, check{Name: "no symbolic links", OK: true, Detail: "nothing in " + memdir.MemoryRel + " leads outside the repository"})
	}

	attrs, _ := os.ReadFile(filepath.Join(l.WorkMemoryDir(), ".gitattributes"))
	checks = append(checks, check{Name: ".gitattributes", OK: bytes.Equal(attrs, memoryAttributes()), Detail: memdir.MemoryRel + "/.gitattributes routes memory merges to memkeep", Fix: "memkeep init"})

	checks = append(checks, hookChecks(l)...)

	if probs := gitstore.Health(l); len(probs) > 0 {
		for _, p := range probs {
			checks = append(checks, check{Name: "git settings", Detail: p.What, Fix: p.Fix})
		}
	} else {
		checks = append(checks, check{Name: "git settings", OK: true, Detail: "memory can be committed here"})
	}

	ok, detail := mergeDriverStatus(l)
	checks = append(checks, check{Name: "merge driver", OK: ok, Detail: detail, Fix: "memkeep init"})

	_, cerr := config.Load(l.ConfigFile())
	c := check{Name: "config.yaml", OK: cerr == nil, Detail: "absent or valid: defaults apply where unset"}
	if cerr != nil {
		c.Detail, c.Fix = cerr.Error(), "edit "+memdir.MemoryRel+"/config.yaml"
	}
	checks = append(checks, c)

	if u, err := consolidate.DigestUnmapped(l); err == nil && len(u) > 0 {
		var lines []string
		for _, e := range u[:min(len(u), 5)] {
			lines = append(lines, fmt.Sprintf("line %d: %s", e.Line, e.Text))
		}
		checks = append(checks, check{Name: "memory.md edits", Detail: fmt.Sprintf("%d edit(s) memkeep cannot carry back into the memory files (only rule and concept lines can be edited): %s", len(u), strings.Join(lines, "; ")),
			Fix: "undo them in " + memdir.MemoryRel + "/memory.md, or make the change with memkeep commands (remember, l4 add-rule, forget); memkeep renders it again once they are gone"})
	} else {
		checks = append(checks, check{Name: "memory.md edits", OK: true, Detail: "none, or all carried back"})
	}

	if d := hooks.DeferredSessions(l); len(d) > 0 {
		checks = append(checks, check{Name: "deferred work", Detail: fmt.Sprintf("%d session(s) wait for consolidation", len(d)), Fix: "memkeep consolidate --deferred", Advice: true})
	} else {
		checks = append(checks, check{Name: "deferred work", OK: true, Detail: "none"})
	}

	logPath := filepath.Join(l.StateDir(), "hooks.log")
	if b, err := os.ReadFile(logPath); err == nil && len(b) > 0 {
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		checks = append(checks, check{Name: "hook errors", Detail: fmt.Sprintf("%d logged, last: %s", len(lines), lines[len(lines)-1]), Fix: "read " + logPath + "; delete it once handled", Advice: true})
	} else {
		checks = append(checks, check{Name: "hook errors", OK: true, Detail: "none logged"})
	}

	if dir, err := claudeProjectDir(l.Root); err == nil {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.jsonl")); len(m) > 0 {
			imported, _ := filepath.Glob(filepath.Join(l.SessionsDir(), "*.l1.jsonl"))
			c := check{Name: "transcripts", OK: len(imported) >= len(m), Detail: fmt.Sprintf("%d Claude Code session(s) for this project, %d in memory", len(m), len(imported)), Advice: true}
			if !c.OK {
				c.Fix = "memkeep import"
			}
			checks = append(checks, c)
		}
	}
	return reportChecks(s, o.JSON, checks)
}

// hookChecks reports which settings file holds memkeep's hooks and whether
// the program they run can be found.
func hookChecks(l memdir.Layout) []check {
	var found []string
	var program string
	for _, local := range []bool{false, true} {
		p := settingsPath(l, local)
		evs, err := hooks.Installed(p)
		if err != nil {
			if !os.IsNotExist(err) {
				return []check{{Name: "hooks", Detail: err.Error(), Fix: "fix the JSON of " + p}}
			}
			continue
		}
		if len(evs) > 0 {
			found = append(found, fmt.Sprintf("%s (%d of %d events)", rel(l, p), len(evs), len(hooks.Events)))
			if len(evs) < len(hooks.Events) {
				return []check{{Name: "hooks", Detail: "incomplete in " + rel(l, p) + ": " + strings.Join(evs, ", "), Fix: "memkeep init"}}
			}
			if program == "" {
				program = installedProgram(p)
			}
		}
	}
	if len(found) == 0 {
		return []check{{Name: "hooks", Detail: "not in .claude/settings.json or .claude/settings.local.json", Fix: "memkeep init (or install the plugin, see README)"}}
	}
	checks := []check{{Name: "hooks", OK: true, Detail: strings.Join(found, ", ")}}
	if program != "" {
		_, err := exec.LookPath(program)
		c := check{Name: "hook program", OK: err == nil, Detail: program}
		if err != nil {
			c.Detail = program + " cannot be found: Claude Code will report hook errors"
			c.Fix = "go install github.com/memkeep/memkeep/cmd/memkeep@latest, or memkeep init --local"
		}
		checks = append(checks, c)
	}
	return checks
}

// installedProgram reads the program of memkeep's SessionStart hook back
// from a settings file.
func installedProgram(path string) string {
	b, _ := os.ReadFile(path)
	i := bytes.Index(b, []byte(" hook SessionStart"))
	if i < 0 {
		return ""
	}
	j := bytes.LastIndex(b[:i], []byte(`"command": "`))
	if j < 0 {
		return ""
	}
	return strings.Trim(string(b[j+len(`"command": "`):i]), `'`)
}

func reportChecks(s *streams, asJSON bool, checks []check) error {
	failed := 0
	for _, c := range checks {
		if !c.OK && !c.Advice {
			failed++
		}
	}
	if asJSON {
		if err := writeJSON(s.out, checks); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			mark := "✓"
			if !c.OK {
				mark = "✗"
				if c.Advice {
					mark = "!"
				}
			}
			fmt.Fprintf(s.out, "%s %-15s %s\n", mark, c.Name, c.Detail)
			if !c.OK && c.Fix != "" {
				fmt.Fprintf(s.out, "  %-15s run: %s\n", "", c.Fix)
			}
		}
	}
	if failed > 0 {
		return cli.Exit("", exitFailure)
	}
	return nil
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

type refineOptions struct {
	Transcript string
	Output     string // "" or "-" means standard output
	Root       string
	Stats      bool
}

func refineCommand(s *streams) *cli.Command {
	var o refineOptions
	return &cli.Command{
		Name:      "refine",
		Usage:     "refine a raw Claude Code transcript into L1 JSONL",
		ArgsUsage: "TRANSCRIPT",
		UsageText: `memkeep refine ~/.claude/projects/-home-me-app/3f2a….jsonl > session.l1.jsonl
memkeep refine -o session.l1.jsonl --stats transcript.jsonl`,
		Description: `Reads a Claude Code session transcript and writes its L1 refinement: one JSON
line per user prompt, assistant text and tool call (see docs/format.md), with
secrets redacted. Lines of unknown or dropped types are skipped and counted;
malformed lines never stop the refinement.

Paths under the project root (default: the enclosing git work tree, else the
transcript's own working directory) are written repo-relative.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write L1 to `FILE` (atomically) instead of standard output", Destination: &o.Output},
			&cli.StringFlag{Name: "root", Usage: "project root `DIR` for repo-relative paths", Destination: &o.Root},
			&cli.BoolFlag{Name: "stats", Usage: "print what was kept and skipped to standard error", Destination: &o.Stats},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usagef("refine takes exactly one TRANSCRIPT argument, got %d", c.NArg())
			}
			o.Transcript = c.Args().First()
			return runRefine(ctx, o, s)
		},
	}
}

func runRefine(_ context.Context, o refineOptions, s *streams) error {
	root := o.Root
	if root == "" {
		if l, err := memdir.Find("."); err == nil {
			root = l.Root
		}
	}
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
	}
	recs, st, err := l1.RefineFile(o.Transcript, l1.Options{Root: root})
	if err != nil {
		return fmt.Errorf("refine %s: %w", o.Transcript, err)
	}
	if st.Stats.Lines > 0 && st.Stats.Malformed == st.Stats.Lines {
		return fmt.Errorf("refine %s: none of its %d lines is JSON; is it a Claude Code transcript (a .jsonl file under ~/.claude/projects/)?", o.Transcript, st.Stats.Lines)
	}
	out := l1.Encode(recs)
	if o.Output == "" || o.Output == "-" {
		if _, err := s.out.Write(out); err != nil {
			return err
		}
	} else if err := atomicfile.WriteOutput(o.Output, out, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", o.Output, err)
	}
	if o.Stats {
		fmt.Fprintln(s.err, formatStats(st.Stats, int64(len(out))))
	}
	return nil
}

// formatStats is the one-line summary shared by refine and import.
func formatStats(st l1.Stats, bytesOut int64) string {
	red := 0.0
	if st.BytesIn > 0 {
		red = 100 * (1 - float64(bytesOut)/float64(st.BytesIn))
	}
	line := fmt.Sprintf("%d lines, %s in, %s out (%.1f%% reduction), %d records", st.Lines, humanBytes(st.BytesIn), humanBytes(bytesOut), red, st.Records)
	if len(st.Skipped) > 0 || st.Malformed > 0 || st.Oversize > 0 {
		line += "; skipped:"
		for _, k := range st.SkippedKinds() {
			line += fmt.Sprintf(" %s %d,", k, st.Skipped[k])
		}
		if st.Malformed > 0 {
			line += fmt.Sprintf(" malformed %d,", st.Malformed)
		}
		if st.Oversize > 0 {
			line += fmt.Sprintf(" oversize %d,", st.Oversize)
		}
		line = line[:len(line)-1]
	}
	return line
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// isTerminal reports whether f is a character device (a terminal), where a
// progress bar may redraw itself.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

type importOptions struct {
	Paths []string
	JSON  bool
}

func importCommand(s *streams) *cli.Command {
	var o importOptions
	return &cli.Command{
		Name:      "import",
		Usage:     "refine this project's existing Claude Code transcripts into .claude/memory/sessions/",
		ArgsUsage: "[PATH…]",
		UsageText: `memkeep import                      # every session Claude Code kept for this project
memkeep import ~/old/3f2a….jsonl    # one transcript (its subagents/ folder comes along)`,
		Description: `Without PATH, imports the transcripts under ~/.claude/projects/<this project's
path with every non-alphanumeric character turned into '-'>/, including the
subagents/ folders. A PATH may be a transcript file or a folder of them.
Importing again rewrites the same files with the same bytes.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Paths = c.Args().Slice()
			return runImport(ctx, o, s)
		},
	}
}

// projectSlug is Claude Code's folder name for a project: every character
// of its path that is not an ASCII letter or digit becomes '-'.
func projectSlug(root string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, root)
}

// claudeProjectDir is where Claude Code keeps the transcripts of the
// project at root.
func claudeProjectDir(root string) (string, error) {
	base := os.Getenv("CLAUDE_CONFIG_DIR")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot find your home folder (%v); pass the transcript paths explicitly", err)
		}
		base = filepath.Join(home, ".claude")
	}
	return filepath.Join(base, "projects", projectSlug(root)), nil
}

// sessionFiles groups transcript files into main transcripts and the
// subagent transcripts stored beside them in <session>/subagents/.
type sessionFiles struct {
	main      string
	subagents []string
}

func collectTranscripts(paths []string) ([]sessionFiles, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	byMain := map[string]*sessionFiles{}
	var order []string
	var orphans []string
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "subagents" {
			continue
		}
		abs, _ := filepath.Abs(f)
		if _, dup := byMain[abs]; dup {
			continue
		}
		sf := &sessionFiles{main: f}
		byMain[abs] = sf
		order = append(order, abs)
	}
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) != "subagents" {
			continue
		}
		// <dir>/<session>/subagents/agent-x.jsonl belongs to <dir>/<session>.jsonl.
		parent, _ := filepath.Abs(filepath.Dir(filepath.Dir(f)) + ".jsonl")
		if sf, ok := byMain[parent]; ok {
			sf.subagents = append(sf.subagents, f)
		} else {
			orphans = append(orphans, f)
		}
	}
	var out []sessionFiles
	for _, k := range order {
		sf := byMain[k]
		// A main transcript named on the command line brings its subagents.
		if len(sf.subagents) == 0 {
			dir := strings.TrimSuffix(sf.main, ".jsonl")
			if m, _ := filepath.Glob(filepath.Join(dir, "subagents", "*.jsonl")); len(m) > 0 {
				sort.Strings(m)
				sf.subagents = m
			}
		}
		out = append(out, *sf)
	}
	for _, f := range orphans {
		out = append(out, sessionFiles{main: f})
	}
	return out, nil
}

type importSummary struct {
	Files     int            `json:"files"`
	Sessions  int            `json:"sessions"`
	BytesIn   int64          `json:"bytes_in"`
	BytesOut  int64          `json:"bytes_out"`
	Reduction float64        `json:"reduction"`
	Skipped   map[string]int `json:"skipped"`
	Malformed int            `json:"malformed"`
	Written   []string       `json:"written"`
}

func runImport(_ context.Context, o importOptions, s *streams) error {
	l, err := findLayout("")
	if err != nil {
		return err
	}
	paths := o.Paths
	if len(paths) == 0 {
		dir, err := claudeProjectDir(l.Root)
		if err != nil {
			return err
		}
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("no transcripts for this project in %s (Claude Code writes them there once you have run a session here); pass transcript paths to import others", dir)
		}
		paths = []string{dir}
	}
	sessions, err := collectTranscripts(paths)
	if err != nil {
		return err
	}
	if len(sessions) == 0 {
		return fmt.Errorf("no .jsonl transcripts found in %s", strings.Join(paths, ", "))
	}
	var total int64
	for _, sf := range sessions {
		for _, f := range append([]string{sf.main}, sf.subagents...) {
			if fi, err := os.Stat(f); err == nil {
				total += fi.Size()
			}
		}
	}
	bar := newProgress(s.err, isTerminal(s.err), total)
	sum := importSummary{Skipped: map[string]int{}}
	var st l1.Stats
	for _, sf := range sessions {
		res, err := l1.Import(l, sf.main, sf.subagents)
		if err != nil {
			bar.done()
			return fmt.Errorf("import %s: %w", sf.main, err)
		}
		st.Add(res.Stats)
		sum.Files += res.Files
		sum.BytesOut += res.BytesOut
		if res.Base != "" {
			sum.Sessions++
			sum.Written = append(sum.Written, memdir.MemoryRel+"/sessions/"+res.Base+".l1.jsonl")
		}
		bar.add(res.Stats.BytesIn, res.Files)
	}
	bar.done()
	sum.BytesIn = st.BytesIn
	sum.Malformed = st.Malformed
	for k, v := range st.Skipped {
		sum.Skipped[k] = v
	}
	if st.BytesIn > 0 {
		sum.Reduction = 1 - float64(sum.BytesOut)/float64(st.BytesIn)
	}
	if o.JSON {
		return writeJSON(s.out, sum)
	}
	fmt.Fprintf(s.out, "imported %s into %s: %s\n", consolidate.Plural(sum.Files, "file"), consolidate.Plural(sum.Sessions, "session"), formatStats(st, sum.BytesOut))
	return nil
}

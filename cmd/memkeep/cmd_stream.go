package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/stream"
)

// streamCommand groups the event stream subcommands. Each has an options
// struct filled by its flags and a runStreamX function tests call directly;
// Dir (the folder to find the project from, "." on the command line) is the
// seam that lets them run in a temporary repository.
func streamCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "stream",
		Usage: "write, query and check the append-only event stream (.claude/memory/stream/)",
		UsageText: `memkeep stream write --type decision --summary "keep the stream append-only"
memkeep stream query --since 2h --type prompt`,
		Description: `Every hook and every 'memkeep stream write' appends one JSON line to
.claude/memory/stream/<YYYY-MM>.jsonl (see docs/format.md, "Stream"). The files
are committed and never rewritten; secrets are redacted before anything is
written.`,
		Commands: []*cli.Command{
			streamWriteCommand(s),
			streamQueryCommand(s),
			streamStatsCommand(s),
			streamValidateCommand(s),
			streamAuditCommand(s),
			streamArchiveCommand(s),
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown stream command %q (want write, query, stats, validate, audit or archive)", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

// noArgs rejects positional arguments for commands that take none, where a
// stray word is most likely a flag without its dashes.
func noArgs(c *cli.Command) error {
	if c.NArg() > 0 {
		return usagef("%s takes no arguments, got %q (did you mean a flag? see --help)", c.FullName(), c.Args().First())
	}
	return nil
}

func findLayout(dir string) (memdir.Layout, error) {
	if dir == "" {
		dir = "."
	}
	l, err := memdir.Find(dir)
	if err != nil {
		return l, err
	}
	if err := l.CheckLinks(); err != nil {
		return l, err
	}
	if !l.Initialised() {
		return l, errNotInitialised(l)
	}
	// What a pull, a merge or a checkout brought into HEAD's memory is
	// taken in before the command reads or writes memory.
	return l, gitstore.Sync(l)
}

// errNotInitialised is the refusal of a command run before memkeep init:
// it would otherwise create memory, and commit it, on the user's branch.
func errNotInitialised(l memdir.Layout) error {
	if gitstore.SparseExcludesMemory(l) {
		return fmt.Errorf("the sparse checkout of %s leaves out %s: memkeep neither reads nor commits memory it cannot see, and leaves the committed memory as it is; `git sparse-checkout add %s` brings it in; nothing was written", l.Root, memdir.MemoryRel, memdir.MemoryRel)
	}
	return fmt.Errorf("memkeep is not set up in %s (no %s): run memkeep init first; nothing was written", l.Root, memdir.MemoryRel)
}

// --- write ---

type streamWriteOptions struct {
	Dir       string
	Type      string
	Summary   string
	Content   string // "-" reads standard input
	Session   string
	Surface   string
	Direction string
	Meta      []string // key=value
	JSON      bool
}

func streamWriteCommand(s *streams) *cli.Command {
	o := streamWriteOptions{Surface: stream.SurfaceCLI, Direction: stream.DirInternal}
	return &cli.Command{
		Name:  "write",
		Usage: "append one event to the stream",
		UsageText: `memkeep stream write --type decision --summary "use O_APPEND for the stream" --meta issue=12
git log -1 --format=%B | memkeep stream write --type commit --summary "release 1.2" --content -`,
		Description: `Prints the new event's id (the whole line with --json). The event's time is
now; it goes to the file of the current month. Type and surface are lowercase
names (letters, digits, '_', '-', '.'); direction is in, out or internal.`,
		DisableSliceFlagSeparator: true, // a --meta value may hold commas
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Aliases: []string{"t"}, Usage: "event `TYPE` (prompt, tool_use, decision, …)", Required: true, Destination: &o.Type},
			&cli.StringFlag{Name: "summary", Aliases: []string{"s"}, Usage: "one-line `SUMMARY`", Required: true, Destination: &o.Summary},
			&cli.StringFlag{Name: "content", Aliases: []string{"c"}, Usage: "longer `TEXT`; - reads standard input", Destination: &o.Content},
			&cli.StringFlag{Name: "session", Usage: "session `ID` the event belongs to", Destination: &o.Session},
			&cli.StringFlag{Name: "surface", Usage: "`NAME` of what wrote the event", Value: o.Surface, Destination: &o.Surface},
			&cli.StringFlag{Name: "direction", Usage: "`DIR`: in, out or internal", Value: o.Direction, Destination: &o.Direction},
			&cli.StringSliceFlag{Name: "meta", Aliases: []string{"m"}, Usage: "metadata `KEY=VALUE` (repeatable)", Destination: &o.Meta},
			&cli.BoolFlag{Name: "json", Usage: "print the stored event as its JSON line", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamWrite(ctx, o, s)
		},
	}
}

func runStreamWrite(_ context.Context, o streamWriteOptions, s *streams) error {
	meta := map[string]string{}
	for _, kv := range o.Meta {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--meta %q: want KEY=VALUE", kv)
		}
		meta[k] = v
	}
	content := o.Content
	if content == "-" {
		b, err := io.ReadAll(s.in)
		if err != nil {
			return fmt.Errorf("read content from standard input: %w", err)
		}
		content = string(b)
	}
	ev := stream.Event{Surface: o.Surface, Type: o.Type, Direction: o.Direction, Summary: o.Summary,
		SessionID: o.Session, Content: content, Metadata: meta}
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	ev, err = stream.Append(l, ev)
	if errors.Is(err, stream.ErrInvalidEvent) {
		return usagef("%v", err) // a flag value is wrong: exit 2
	}
	if err != nil {
		return err
	}
	if o.JSON {
		_, err = fmt.Fprintf(s.out, "%s\n", stream.Encode(ev))
		return err
	}
	_, err = fmt.Fprintln(s.out, ev.ID)
	return err
}

// --- query ---

type streamQueryOptions struct {
	Dir     string
	Since   string
	Until   string
	Types   []string
	Session string
	Text    string
	Limit   int
	JSON    bool
	Now     time.Time // zero means time.Now; tests fix it
}

func streamQueryCommand(s *streams) *cli.Command {
	o := streamQueryOptions{Limit: 50}
	return &cli.Command{
		Name:  "query",
		Usage: "list events, newest first",
		UsageText: `memkeep stream query --since 2h
memkeep stream query --type prompt --type stop --session 258c7280 --limit 10
memkeep stream query --since 2026-03-01 --until 2026-03-08 --text parser --json`,
		Description: `--since and --until take an age (30m, 2h, 7d, 2w) or a date or time in UTC
(2026-03-14, 2026-03-14T15:04, RFC 3339); --until is exclusive. --session
matches a prefix of the session id. --json prints each event as its stream
line (JSON Lines), newest first. Archived months are searched too.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "since", Usage: "only events at or after `WHEN`", Destination: &o.Since},
			&cli.StringFlag{Name: "until", Usage: "only events before `WHEN`", Destination: &o.Until},
			&cli.StringSliceFlag{Name: "type", Aliases: []string{"t"}, Usage: "only events of `TYPE` (repeatable, or comma-separated)", Destination: &o.Types},
			&cli.StringFlag{Name: "session", Usage: "only events of session `ID` (a prefix is enough)", Destination: &o.Session},
			&cli.StringFlag{Name: "text", Usage: "only events whose text contains `TEXT` (any case)", Destination: &o.Text},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "at most `N` events; 0 for all", Value: o.Limit, Destination: &o.Limit},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamQuery(ctx, o, s)
		},
	}
}

func runStreamQuery(_ context.Context, o streamQueryOptions, s *streams) error {
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	f := stream.Filter{Types: o.Types, Session: o.Session, Text: o.Text, Limit: o.Limit}
	if o.Limit < 0 {
		return usagef("--limit %d: want 0 (all) or more", o.Limit)
	}
	var err error
	if o.Since != "" {
		if f.Since, err = stream.ParseSince(o.Since, now); err != nil {
			return usagef("--since: %v", err)
		}
	}
	if o.Until != "" {
		if f.Until, err = stream.ParseSince(o.Until, now); err != nil {
			return usagef("--until: %v", err)
		}
	}
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	evs, bad, err := stream.Query(l, f)
	if err != nil {
		return fmt.Errorf("query the event stream: %w", err)
	}
	for _, ev := range evs {
		if o.JSON {
			fmt.Fprintf(s.out, "%s\n", stream.Encode(ev))
			continue
		}
		sid := ev.SessionID
		if len(sid) > 8 {
			sid = sid[:8]
		}
		if sid == "" {
			sid = "-"
		}
		fmt.Fprintf(s.out, "%s  %-11s  %-13s  %-8s  %s\n", ev.Time.Format("2006-01-02 15:04:05"), ev.Surface, ev.Type, sid, ev.Summary)
	}
	if bad > 0 {
		fmt.Fprintf(s.err, "memkeep: skipped %d malformed line(s); run 'memkeep stream validate' to see where\n", bad)
	}
	return nil
}

// --- stats ---

type streamStatsOptions struct {
	Dir  string
	JSON bool
}

func streamStatsCommand(s *streams) *cli.Command {
	var o streamStatsOptions
	return &cli.Command{
		Name:      "stats",
		Usage:     "count events per type, surface and session",
		UsageText: `memkeep stream stats --json | jq .types`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the counts as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamStats(ctx, o, s)
		},
	}
}

func runStreamStats(_ context.Context, o streamStatsOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	st, err := stream.ReadStats(l)
	if err != nil {
		return fmt.Errorf("read the event stream: %w", err)
	}
	if o.JSON {
		return writeJSON(s.out, st)
	}
	w := s.out
	fmt.Fprintf(w, "events     %d in %d file(s), %d archived, %s\n", st.Events, st.Files, st.ArchivedFiles, humanBytes(st.Bytes))
	if st.Events > 0 {
		fmt.Fprintf(w, "span       %s – %s UTC\n", st.First.Format("2006-01-02 15:04"), st.Last.Format("2006-01-02 15:04"))
	}
	if st.Malformed > 0 {
		fmt.Fprintf(w, "malformed  %d line(s); run 'memkeep stream validate'\n", st.Malformed)
	}
	fmt.Fprintf(w, "types      %s\n", topCounts(st.Types, 0))
	fmt.Fprintf(w, "surfaces   %s\n", topCounts(st.Surfaces, 0))
	fmt.Fprintf(w, "sessions   %d", len(st.Sessions))
	if len(st.Sessions) > 0 {
		short := map[string]int{}
		for id, n := range st.Sessions {
			if len(id) > 8 {
				id = id[:8]
			}
			short[id] += n
		}
		fmt.Fprintf(w, " (most events: %s)", topCounts(short, 5))
	}
	fmt.Fprintln(w)
	return nil
}

// topCounts lists "name n" pairs, largest count first (then by name), at
// most max of them when max > 0.
func topCounts(m map[string]int, max int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	more := 0
	if max > 0 && len(keys) > max {
		more, keys = len(keys)-max, keys[:max]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	out := strings.Join(parts, ", ")
	if more > 0 {
		out += fmt.Sprintf(", and %d more", more)
	}
	return out
}

// --- validate and audit ---

type streamCheckOptions struct {
	Dir  string
	JSON bool
}

func streamValidateCommand(s *streams) *cli.Command {
	var o streamCheckOptions
	return &cli.Command{
		Name:      "validate",
		Usage:     "check every stream line against the schema (exit 1 when a problem is found)",
		UsageText: `memkeep stream validate && git commit .claude/memory/stream`,
		Description: `Reports, as FILE:LINE: problem, lines that are not JSON (a write cut short by
a crash shows up as the last line, without its newline), missing or malformed
fields, times not in UTC, events filed under another month, ids used twice and
lines not in the form memkeep writes. Readers skip malformed lines, so a
problem here loses that line only.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the problems as a JSON array", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamValidate(ctx, o, s)
		},
	}
}

func runStreamValidate(_ context.Context, o streamCheckOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	probs, err := stream.Validate(l)
	if err != nil {
		return fmt.Errorf("validate the event stream: %w", err)
	}
	return reportProblems(s, o.JSON, probs, "the event stream is valid", "stream validate found %d problem(s)")
}

func streamAuditCommand(s *streams) *cli.Command {
	var o streamCheckOptions
	return &cli.Command{
		Name:      "audit",
		Usage:     "look for secrets that reached the stream and for ids shared between files (exit 1 when found)",
		UsageText: `memkeep stream audit`,
		Description: `Runs redaction again over every event's summary, content and metadata and
reports each field it would change, naming the kind of secret without printing
it. The stream is committed: a secret found here is in git history too, so
rotate the credential and remove it from history, not only from the file.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the findings as a JSON array", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamAudit(ctx, o, s)
		},
	}
}

func runStreamAudit(_ context.Context, o streamCheckOptions, s *streams) error {
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	probs, err := stream.Audit(l)
	if err != nil {
		return fmt.Errorf("audit the event stream: %w", err)
	}
	return reportProblems(s, o.JSON, probs, "no secrets and no shared ids found in the event stream", "stream audit found %d problem(s)")
}

// reportProblems prints problems one per line (or as JSON) and turns their
// presence into exit status 1.
func reportProblems(s *streams, asJSON bool, probs []stream.Problem, okMsg, failFormat string) error {
	if asJSON {
		if probs == nil {
			probs = []stream.Problem{}
		}
		if err := writeJSON(s.out, probs); err != nil {
			return err
		}
	} else {
		for _, p := range probs {
			fmt.Fprintln(s.out, p)
		}
	}
	if len(probs) > 0 {
		return cli.Exit(fmt.Sprintf(failFormat, len(probs)), exitFailure)
	}
	if !asJSON {
		fmt.Fprintln(s.err, okMsg)
	}
	return nil
}

// --- archive ---

type streamArchiveOptions struct {
	Dir       string
	OlderThan string
	DryRun    bool
	JSON      bool
	Now       time.Time // zero means time.Now; tests fix it
}

func streamArchiveCommand(s *streams) *cli.Command {
	o := streamArchiveOptions{OlderThan: "90d"}
	return &cli.Command{
		Name:  "archive",
		Usage: "move whole months older than a cutoff to stream/archive/",
		UsageText: `memkeep stream archive --older-than 90d --dry-run
memkeep stream archive --older-than 26w`,
		Description: `Moves stream/<YYYY-MM>.jsonl to stream/archive/<YYYY-MM>.jsonl unchanged once
the whole month is older than the cutoff. Git records a pure rename: nothing to
review line by line, no new object in the repository, and merges still follow
the file. Archived months stay searchable with 'stream query'.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "older-than", Usage: "archive months that ended more than `AGE` ago (30d, 26w, …)", Value: o.OlderThan, Destination: &o.OlderThan},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "say what would move, move nothing", Destination: &o.DryRun},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.JSON},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runStreamArchive(ctx, o, s)
		},
	}
}

func runStreamArchive(_ context.Context, o streamArchiveOptions, s *streams) error {
	age, err := stream.ParseAge(o.OlderThan)
	if err != nil {
		return usagef("--older-than: %v", err)
	}
	if age < 24*time.Hour {
		return usagef("--older-than %s: want at least a day (1d); the current month is never archived", o.OlderThan)
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	l, err := findLayout(o.Dir)
	if err != nil {
		return err
	}
	res, err := stream.Archive(l, stream.ArchiveOptions{Before: now.Add(-age), DryRun: o.DryRun})
	if err != nil {
		return err
	}
	if o.JSON {
		if res.Months == nil {
			res.Months = []string{}
		}
		return writeJSON(s.out, res)
	}
	verb := "archived"
	if o.DryRun {
		verb = "would archive"
	}
	if len(res.Months) == 0 {
		fmt.Fprintf(s.out, "nothing to archive: no month ended more than %s ago\n", o.OlderThan)
		return nil
	}
	fmt.Fprintf(s.out, "%s %s (%d events, %s) to %s/stream/%s/\n", verb, strings.Join(res.Months, ", "), res.Events, humanBytes(res.Bytes), memdir.MemoryRel, stream.ArchiveDirName)
	return nil
}

package stream

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/redact"
)

// Problem is one finding of Validate or Audit, at a line of a stream file.
type Problem struct {
	File string `json:"file"` // repo-relative, slash-separated
	Line int    `json:"line"` // 1-based; 0 when the problem is the file itself
	Msg  string `json:"message"`
}

// String renders a problem the way compilers do, so that editors and
// terminals can jump to it.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// relName names a stream file for problems: repo-relative when possible.
func relName(l memdir.Layout, path string) string {
	if r, ok := l.Rel(path); ok {
		return r
	}
	return filepath.ToSlash(path)
}

// seenID remembers where an id was first met, to report duplicates.
type seenID struct {
	at   string // "file:line"
	line []byte // the line's bytes, to tell a copied line from a collision
}

// Validate checks every line of every stream file, live and archived,
// against the schema and lists the problems found, in file and line order:
// lines that are not JSON (a torn write shows up here, often as the last
// line without its newline), missing or malformed fields, times not in
// UTC, events filed under another month or out of time order, ids used
// twice (a copied line or a collision of two random ids, told apart),
// lines that are not in the canonical encoding (they would not survive a
// rewrite byte for byte), and files named otherwise than <YYYY-MM>.jsonl. No problems means a nil
// slice; err is for files that could not be read.
func Validate(l memdir.Layout) ([]Problem, error) {
	files, odd, err := listFiles(l)
	if err != nil {
		return nil, err
	}
	var probs []Problem
	for _, p := range odd {
		probs = append(probs, Problem{File: relName(l, p), Msg: "not a stream file name (want <YYYY-MM>.jsonl); its events are ignored"})
	}
	ids := map[string]seenID{}
	for _, mf := range files {
		name := relName(l, mf.Path)
		report := func(n int, format string, args ...any) {
			probs = append(probs, Problem{File: name, Line: n, Msg: fmt.Sprintf(format, args...)})
		}
		f, err := os.Open(mf.Path)
		if err != nil {
			return probs, err
		}
		lines := 0
		var latest time.Time // latest event time so far in this file
		latestAt := 0
		complete, err := scanLines(f, func(n int, line []byte) error {
			lines = n
			if len(bytes.TrimSpace(line)) == 0 {
				report(n, "blank line")
				return nil
			}
			ev, msgs := decode(line, true)
			for _, m := range msgs {
				report(n, "%s", m)
			}
			if t := ev.Time; !t.IsZero() && (t.Before(mf.Month) || !t.Before(mf.end())) {
				report(n, "event of %s filed under %s (belongs in %s)", t.Format("2006-01"), mf.Month.Format("2006-01"), MonthFile(t))
			}
			if t := ev.Time; !t.IsZero() {
				if back := latest.Sub(t); back > digestSkew {
					report(n, "out of time order: %s earlier than line %d (readers of the file's tail, like the session-start digest, may stop before later lines)", back.Round(time.Second), latestAt)
				}
				if t.After(latest) {
					latest, latestAt = t, n
				}
			}
			if ev.ID != "" {
				at := fmt.Sprintf("%s:%d", name, n)
				if prev, ok := ids[ev.ID]; ok {
					if bytes.Equal(prev.line, line) {
						report(n, "duplicate of the line at %s (same id %s, same bytes)", prev.at, ev.ID)
					} else {
						report(n, "id %s is also used by a different event at %s", ev.ID, prev.at)
					}
				} else {
					ids[ev.ID] = seenID{at: at, line: bytes.Clone(line)}
				}
			}
			if len(msgs) == 0 && !bytes.Equal(Encode(ev), line) {
				report(n, "not in canonical form (field order, time format or escaping differ from what memkeep writes)")
			}
			return nil
		})
		f.Close()
		if err != nil {
			return probs, fmt.Errorf("read %s: %w", name, err)
		}
		if !complete {
			report(lines, "last line has no newline (a write was cut short); the next append starts a new line")
		}
	}
	return probs, nil
}

// redactionMark finds the markers redaction leaves, to name what kind of
// secret a field holds without printing the secret.
var redactionMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[REDACTED(?::[^\]\s]{1,40})?\]`) })

// Audit looks for secrets that reached the stream anyway (written by an
// older memkeep, by hand, or of a kind redaction learnt to see later): it
// runs redaction again over each event's summary, content and metadata
// values and reports every field that would change, naming the kind of
// secret and never printing it. It also reports ids that occur in more
// than one file, which a merge by id would fold into one event.
//
// Audit does not rewrite anything: the stream is committed, so a secret
// found here is in git history too and must be removed there (and the
// credential rotated), not only from the working copy.
func Audit(l memdir.Layout) ([]Problem, error) {
	files, _, err := listFiles(l)
	if err != nil {
		return nil, err
	}
	var probs []Problem
	type place struct {
		file string
		line int
	}
	where := map[string][]place{}
	for _, mf := range files {
		name := relName(l, mf.Path)
		f, err := os.Open(mf.Path)
		if err != nil {
			return probs, err
		}
		_, err = scanLines(f, func(n int, line []byte) error {
			ev, err := Decode(line)
			if err != nil {
				return nil // Validate's business
			}
			if ps := where[ev.ID]; len(ps) == 0 || ps[len(ps)-1].file != name {
				where[ev.ID] = append(ps, place{name, n})
			}
			fields := []struct{ name, v string }{{"summary", ev.Summary}, {"content", ev.Content}}
			for _, k := range sortedKeys(ev.Metadata) {
				fields = append(fields, struct{ name, v string }{"metadata." + k, ev.Metadata[k]})
			}
			for _, fl := range fields {
				if fl.v == "" {
					continue
				}
				if kinds := newMarks(fl.v, redact.String(fl.v)); kinds != nil {
					probs = append(probs, Problem{File: name, Line: n,
						Msg: fmt.Sprintf("event %s: %s holds a secret redaction would remove (%s)", ev.ID, fl.name, strings.Join(kinds, ", "))})
				}
			}
			return nil
		})
		f.Close()
		if err != nil {
			return probs, fmt.Errorf("read %s: %w", name, err)
		}
	}
	var dups []string
	for id, ps := range where {
		if len(ps) > 1 {
			dups = append(dups, id)
		}
	}
	slices.Sort(dups)
	for _, id := range dups {
		ps := where[id]
		var others []string
		for _, p := range ps[1:] {
			others = append(others, fmt.Sprintf("%s:%d", p.file, p.line))
		}
		probs = append(probs, Problem{File: ps[0].file, Line: ps[0].line,
			Msg: fmt.Sprintf("id %s also occurs in %s", id, strings.Join(others, ", "))})
	}
	return probs, nil
}

// newMarks compares a text with its redacted form and returns the kinds
// of the redaction markers that redaction added, or nil when it changed
// nothing. A change without a new marker (text dropped, such as a
// <private> block) is reported as "private text".
func newMarks(before, after string) []string {
	if before == after {
		return nil
	}
	count := map[string]int{}
	for _, m := range redactionMark().FindAllString(before, -1) {
		count[m]--
	}
	var kinds []string
	for _, m := range redactionMark().FindAllString(after, -1) {
		if count[m]++; count[m] > 0 && !slices.Contains(kinds, m) {
			kinds = append(kinds, m)
		}
	}
	if kinds == nil {
		kinds = []string{"private text"}
	}
	return kinds
}

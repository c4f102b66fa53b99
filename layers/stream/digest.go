package stream

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memkeep/memkeep/layers/memdir"
)

// Bounds of the tail HotDigest reads. SessionStart has a budget of a few
// milliseconds; a window that holds more than this (a day of heavy tool
// use) is summarised from its newest part, which is what a new session
// needs first anyway.
const (
	digestChunk     = 64 << 10
	digestMaxBytes  = 4 << 20
	digestMaxEvents = 4000
	// digestSkew is how far out of time order lines may be (processes take
	// the time before they take the append lock); lines older than the
	// window by more than this count as "before the window".
	digestSkew = time.Minute
	// digestOldRun is how many lines before the window in a row end the
	// reading. Files are in time order (Append writes at the current time,
	// the merge driver sorts), so one would do; a run tolerates a few
	// events appended with an explicit past time, which Validate reports.
	digestOldRun = 256
)

// recent returns the live events in [since, ∞), newest first, reading each
// month's file from its end and stopping after a run of lines well before
// since, or at the digest bounds.
func recent(l memdir.Layout, now, since time.Time) []Event {
	var evs []Event
	read := int64(0)
	stopAt := since.Add(-digestSkew)
	for m := monthStart(now); !m.Before(monthStart(stopAt)); m = m.AddDate(0, -1, 0) {
		f, err := os.Open(filepath.Join(l.StreamDir(), MonthFile(m)))
		if err != nil {
			continue // no events that month, or unreadable: a digest is best effort
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			continue
		}
		done, old := false, 0
		readBackward(f, fi.Size(), digestChunk, func(line []byte) bool {
			read += int64(len(line)) + 1
			ev, err := Decode(line)
			if err != nil {
				return true // a torn or damaged line; keep going
			}
			if ev.Time.Before(stopAt) {
				if old++; old >= digestOldRun {
					done = true
					return false
				}
				return true
			}
			old = 0
			if !ev.Time.Before(since) {
				evs = append(evs, ev)
			}
			if len(evs) >= digestMaxEvents || read >= digestMaxBytes {
				done = true
				return false
			}
			return true
		})
		f.Close()
		if done {
			break
		}
	}
	slices.SortStableFunc(evs, newestFirst)
	return evs
}

func monthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// HotDigest summarises the events of the last window before now as compact
// Markdown of at most maxChars characters, for the SessionStart context:
// the latest prompts, the files edited, the commands run and the outcomes
// the agent reported, newest first, then other events (notes written with
// `memkeep stream write`). Sections shrink, the longest first, until the
// text fits. It reads only the end of the current month's file (and of the
// month before, when the window reaches back into it), backwards, so its
// cost follows the size of the window, not of the stream. It returns ""
// when nothing happened in the window or nothing fits; it never fails,
// because a missing digest must not keep a session from starting.
func HotDigest(l memdir.Layout, now time.Time, window time.Duration, maxChars int) string {
	return HotDigestExcept(l, now, window, maxChars, "")
}

// HotDigestExcept is HotDigest without the events of the session skip
// (the one starting, which is not to be told about itself) and without
// memkeep's own commands, which are bookkeeping, not the project's work.
func HotDigestExcept(l memdir.Layout, now time.Time, window time.Duration, maxChars int, skip string) string {
	if maxChars <= 0 || window <= 0 {
		return ""
	}
	now = now.UTC()
	evs := slices.DeleteFunc(recent(l, now, now.Add(-window)), func(ev Event) bool {
		return skip != "" && ev.SessionID == skip || ev.Type == "tool_use" && strings.HasPrefix(strings.TrimSpace(ev.Content), "memkeep ")
	})
	if len(evs) == 0 {
		return ""
	}
	d := buildDigest(evs, now, window)
	return d.fit(maxChars)
}

// Event types the hooks write (issue 4) that the digest sorts into
// sections; any other type is listed under "Other".
var bookkeepingTypes = []string{"session_start", "session_end", "pre_compact", "subagent_stop"}

type digestSection struct {
	title string
	items []string
	cap   int // most items shown when there is room
}

// add appends an item, formatting it only when it can be shown: a busy
// window holds thousands of events, of which a few dozen are listed.
func (s *digestSection) add(item func() string) {
	if len(s.items) < s.cap {
		s.items = append(s.items, item())
	} else {
		s.items = append(s.items, "")
	}
}

type digest struct {
	header   string
	sections []*digestSection
}

const digestItemChars = 160

func buildDigest(evs []Event, now time.Time, window time.Duration) digest {
	stamp := func(t time.Time) string {
		if window > 20*time.Hour {
			return t.Format("Jan 02 15:04")
		}
		return t.Format("15:04")
	}
	sid := func(ev Event) string {
		if ev.SessionID == "" {
			return ""
		}
		s := ev.SessionID
		if len(s) > 8 {
			s = s[:8]
		}
		return " [" + s + "]"
	}
	prompts := &digestSection{title: "Prompts", cap: 10}
	edits := &digestSection{title: "Files edited", cap: 15}
	cmds := &digestSection{title: "Commands", cap: 10}
	outcomes := &digestSection{title: "Outcomes", cap: 6}
	other := &digestSection{title: "Other", cap: 6}

	sessions := map[string]bool{}
	type agg struct {
		n    int
		last time.Time
	}
	var fileOrder, cmdOrder []string
	files, commands := map[string]*agg{}, map[string]*agg{}
	add := func(order *[]string, m map[string]*agg, key string, t time.Time) {
		if a := m[key]; a != nil {
			a.n++
			return
		}
		m[key] = &agg{n: 1, last: t}
		*order = append(*order, key)
	}
	nEdits, nCmds := 0, 0
	for _, ev := range evs { // newest first
		if ev.SessionID != "" {
			sessions[ev.SessionID] = true
		}
		switch {
		case ev.Type == "prompt":
			prompts.add(func() string { return stamp(ev.Time) + sid(ev) + " " + clip(ev.Summary) })
		case ev.Type == "edit":
			nEdits++
			file := ev.Metadata["file"]
			if file == "" {
				file = ev.Summary
			}
			add(&fileOrder, files, clip(file), ev.Time)
		case ev.Type == "tool_use" && (ev.Content != "" || ev.Metadata["tool"] == "Bash"):
			nCmds++
			cmd := firstLine(ev.Content)
			if cmd == "" {
				cmd = ev.Summary
			}
			add(&cmdOrder, commands, clip(cmd), ev.Time)
		case ev.Type == "stop":
			if ev.Summary != "" {
				outcomes.add(func() string { return stamp(ev.Time) + sid(ev) + " " + clip(ev.Summary) })
			}
		case ev.Type == "tool_use" || slices.Contains(bookkeepingTypes, ev.Type):
			// counted in the header through sessions, not listed
		default:
			other.add(func() string { return stamp(ev.Time) + " " + ev.Type + ": " + clip(ev.Summary) })
		}
	}
	for _, f := range fileOrder {
		a := files[f]
		item := f
		if a.n > 1 {
			item += fmt.Sprintf(" (%d edits)", a.n)
		}
		edits.add(func() string { return item + ", last " + stamp(a.last) })
	}
	for _, c := range cmdOrder {
		a := commands[c]
		item := stamp(a.last) + " `" + strings.ReplaceAll(c, "`", "'") + "`"
		if a.n > 1 {
			item += fmt.Sprintf(" (%d×)", a.n)
		}
		cmds.add(func() string { return item })
	}

	var counts []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(sessions), "session"}, {len(prompts.items), "prompt"}, {nEdits, "edit"}, {nCmds, "command"}} {
		if c.n > 0 {
			s := fmt.Sprintf("%d %s", c.n, c.what)
			if c.n > 1 {
				s += "s"
			}
			counts = append(counts, s)
		}
	}
	header := "## Recent activity (last " + humanWindow(window) + ", times UTC, newest first)"
	if len(counts) > 0 {
		header += "\n" + strings.Join(counts, ", ")
	}
	return digest{header: header, sections: []*digestSection{prompts, edits, cmds, outcomes, other}}
}

// fit renders the digest within maxChars characters: every section starts
// at its cap, then the section showing the most items gives one up (the
// later section on a tie, as sections are in order of importance) until
// the text fits.
func (d digest) fit(maxChars int) string {
	shown := make([]int, len(d.sections))
	for i, s := range d.sections {
		shown[i] = min(len(s.items), s.cap)
	}
	for {
		out := d.render(shown)
		if utf8.RuneCountInString(out) <= maxChars {
			return out
		}
		big := -1
		for i := range shown {
			if shown[i] > 0 && (big < 0 || shown[i] >= shown[big]) {
				big = i
			}
		}
		if big < 0 {
			return "" // not even the header fits
		}
		shown[big]--
	}
}

func (d digest) render(shown []int) string {
	var b strings.Builder
	b.WriteString(d.header)
	b.WriteByte('\n')
	for i, s := range d.sections {
		if shown[i] == 0 {
			continue
		}
		b.WriteString("\n")
		b.WriteString(s.title)
		if more := len(s.items) - shown[i]; more > 0 {
			fmt.Fprintf(&b, " (%d more not shown)", more)
		}
		b.WriteString(":\n")
		for _, it := range s.items[:shown[i]] {
			b.WriteString("- ")
			b.WriteString(it)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func clip(s string) string { return oneLine(s, digestItemChars) }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// humanWindow writes a window the way ParseAge reads it back.
func humanWindow(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

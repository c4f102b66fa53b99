package stream

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
)

// Filter selects events for Query. Zero fields select everything.
type Filter struct {
	Since   time.Time // events at or after Since
	Until   time.Time // events before Until
	Types   []string  // any of these types
	Session string    // session id, or a prefix of it (the 8 characters query shows)
	Text    string    // case-insensitive substring of summary, content, type or a metadata value
	Limit   int       // at most this many, the newest
}

func (f Filter) match(ev Event) bool {
	if !f.Since.IsZero() && ev.Time.Before(f.Since) {
		return false
	}
	if !f.Until.IsZero() && !ev.Time.Before(f.Until) {
		return false
	}
	if len(f.Types) > 0 && !slices.Contains(f.Types, ev.Type) {
		return false
	}
	if f.Session != "" && !strings.HasPrefix(ev.SessionID, f.Session) {
		return false
	}
	if f.Text != "" {
		return containsFold(ev.Summary, f.Text) || containsFold(ev.Content, f.Text) ||
			containsFold(ev.Type, f.Text) || metaContainsFold(ev.Metadata, f.Text)
	}
	return true
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func metaContainsFold(m map[string]string, sub string) bool {
	for _, v := range m {
		if containsFold(v, sub) {
			return true
		}
	}
	return false
}

// newestFirst orders events by time, newest first, then by id so that
// equal times still give one order.
func newestFirst(a, b Event) int {
	if c := b.Time.Compare(a.Time); c != 0 {
		return c
	}
	return strings.Compare(b.ID, a.ID)
}

// Query returns the events that match f, newest first, from the live and
// the archived months. It opens only the months f's time range reaches and,
// with a Limit, stops at the first month boundary past which nothing newer
// can come. An event is looked for in the file of its month: one that sits
// in another month's file (Validate reports it) is found only when that
// file is read too. malformed counts the lines skipped in the files read.
func Query(l memdir.Layout, f Filter) (events []Event, malformed int, err error) {
	files, _, err := listFiles(l)
	if err != nil {
		return nil, 0, err
	}
	for i := len(files) - 1; i >= 0; i-- {
		mf := files[i]
		if !f.Until.IsZero() && !mf.Month.Before(f.Until) {
			continue
		}
		if !f.Since.IsZero() && !mf.end().After(f.Since) {
			break // older months are older still
		}
		// With enough matches from newer months, an older month can only
		// add older events. Months are whole files, so finish the month
		// in hand (both its live and archived file) first.
		if f.Limit > 0 && len(events) >= f.Limit && (i == len(files)-1 || !files[i+1].Month.Equal(mf.Month)) {
			break
		}
		bad, err := readFile(mf.Path, func(ev Event) error {
			if f.match(ev) {
				events = append(events, ev)
			}
			return nil
		})
		malformed += bad
		if err != nil {
			return nil, malformed, err
		}
	}
	slices.SortStableFunc(events, newestFirst)
	if f.Limit > 0 && len(events) > f.Limit {
		events = events[:f.Limit]
	}
	return events, malformed, nil
}

// Stats describes the whole stream, live and archived.
type Stats struct {
	Files         int            `json:"files"`
	ArchivedFiles int            `json:"archived_files"`
	Bytes         int64          `json:"bytes"`
	Events        int            `json:"events"`
	Malformed     int            `json:"malformed"`
	First         time.Time      `json:"first,omitzero"`
	Last          time.Time      `json:"last,omitzero"`
	Types         map[string]int `json:"types"`
	Surfaces      map[string]int `json:"surfaces"`
	Sessions      map[string]int `json:"sessions"` // events per session id; events without one are not counted here
}

// ReadStats reads every stream file once and counts.
func ReadStats(l memdir.Layout) (Stats, error) {
	st := Stats{Types: map[string]int{}, Surfaces: map[string]int{}, Sessions: map[string]int{}}
	files, _, err := listFiles(l)
	if err != nil {
		return st, err
	}
	for _, mf := range files {
		st.Files++
		if mf.Archived {
			st.ArchivedFiles++
		}
		st.Bytes += mf.Size
		bad, err := readFile(mf.Path, func(ev Event) error {
			st.Events++
			st.Types[ev.Type]++
			st.Surfaces[ev.Surface]++
			if ev.SessionID != "" {
				st.Sessions[ev.SessionID]++
			}
			if st.First.IsZero() || ev.Time.Before(st.First) {
				st.First = ev.Time
			}
			if ev.Time.After(st.Last) {
				st.Last = ev.Time
			}
			return nil
		})
		st.Malformed += bad
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// ParseAge reads a length of time as people write it on a command line:
// Go durations ("90m", "2h30m") plus whole days and weeks ("90d", "2w").
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration (want something like 2h, 30m, 7d or 2w)")
	}
	for _, u := range []struct {
		suffix string
		unit   time.Duration
	}{{"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 || n > 100*366 {
				return 0, fmt.Errorf("duration %q: want a whole number of days or weeks, like 7d or 2w", s)
			}
			return time.Duration(n) * u.unit, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("duration %q: want something like 2h, 30m, 7d or 2w", s)
	}
	return d, nil
}

// ParseSince reads a point in time given either as an age before now
// ("2h", "7d", see ParseAge) or as a date or time: "2026-03-14",
// "2026-03-14T15:04" (UTC) or full RFC 3339.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if d, err := ParseAge(s); err == nil {
		return now.Add(-d).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q: want an age like 2h or 7d, or a date like 2026-03-14 or 2026-03-14T15:04", s)
}

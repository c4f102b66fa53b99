package stream

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func summaries(evs []Event) []string {
	var s []string
	for _, ev := range evs {
		s = append(s, ev.Summary)
	}
	return s
}

func TestQueryFilters(t *testing.T) {
	l := newLayout(t)
	feb := time.Date(2026, 2, 20, 10, 0, 0, 0, time.UTC)
	mustAppend(t, l, feb, "prompt", "february prompt")
	mustAppend(t, l, t0, "prompt", "march prompt", func(e *Event) { e.SessionID = "bbbb2222-x" })
	mustAppend(t, l, t0.Add(time.Minute), "edit", "Edit parser.go", func(e *Event) { e.Metadata = map[string]string{"file": "layers/Parser.go"} })
	mustAppend(t, l, t0.Add(2*time.Minute), "tool_use", "Bash", func(e *Event) { e.Content = "go test ./..." })
	mustAppend(t, l, t0.Add(3*time.Minute), "stop", "all green")

	cases := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all newest first", Filter{}, []string{"all green", "Bash", "Edit parser.go", "march prompt", "february prompt"}},
		{"since", Filter{Since: t0.Add(time.Minute)}, []string{"all green", "Bash", "Edit parser.go"}},
		{"until is exclusive", Filter{Until: t0.Add(time.Minute)}, []string{"march prompt", "february prompt"}},
		{"types", Filter{Types: []string{"prompt", "stop"}}, []string{"all green", "march prompt", "february prompt"}},
		{"session prefix", Filter{Session: "bbbb2222"}, []string{"march prompt"}},
		{"text in content", Filter{Text: "GO TEST"}, []string{"Bash"}},
		{"text in metadata", Filter{Text: "parser.go"}, []string{"Edit parser.go"}},
		{"limit", Filter{Limit: 2}, []string{"all green", "Bash"}},
		{"limit across months", Filter{Limit: 5, Types: []string{"prompt"}}, []string{"march prompt", "february prompt"}},
		{"nothing", Filter{Since: t0.Add(time.Hour)}, nil},
	}
	for _, c := range cases {
		evs, bad, err := Query(l, c.f)
		if err != nil || bad != 0 {
			t.Fatalf("%s: err %v, malformed %d", c.name, err, bad)
		}
		if got := summaries(evs); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestQueryLimitStopsAtMonthBoundary(t *testing.T) {
	l := newLayout(t)
	mustAppend(t, l, t0, "note", "march")
	// Filed under March although it is from April: the newest event all
	// the same, and found because March is read whole.
	writeStream(t, l, "2026-02.jsonl", string(Encode(Event{SchemaVersion: 1, ID: "e-00000001", Time: t0.AddDate(0, -1, 0), Surface: "cli", Type: "note", Direction: "in", Summary: "february"}))+"\n")
	evs, _, err := Query(l, Filter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := summaries(evs); !slices.Equal(got, []string{"march"}) {
		t.Fatalf("got %q", got)
	}
	// Damage in a month that is never opened does not count.
	writeStream(t, l, "2026-01.jsonl", "garbage\n")
	_, bad, _ := Query(l, Filter{Limit: 1})
	if bad != 0 {
		t.Fatalf("read a month it did not need: %d malformed", bad)
	}
	_, bad, _ = Query(l, Filter{})
	if bad != 1 {
		t.Fatalf("malformed = %d, want 1", bad)
	}
}

func TestStats(t *testing.T) {
	l := newLayout(t)
	mustAppend(t, l, t0, "prompt", "a")
	mustAppend(t, l, t0.Add(time.Hour), "prompt", "b", func(e *Event) { e.Surface = "cli"; e.SessionID = "" })
	mustAppend(t, l, t0.AddDate(0, 1, 0), "stop", "c")
	writeStream(t, l, "archive/2025-12.jsonl", string(Encode(Event{SchemaVersion: 1, ID: "e-00000001", Time: t0.AddDate(0, -3, 0), Surface: "cli", Type: "note", Direction: "in"}))+"\n", "torn")
	st, err := ReadStats(l)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 || st.ArchivedFiles != 1 || st.Events != 4 || st.Malformed != 1 || st.Bytes == 0 {
		t.Fatalf("counts: %+v", st)
	}
	if st.Types["prompt"] != 2 || st.Types["stop"] != 1 || st.Surfaces["cli"] != 2 || st.Sessions["sess-aaaa-1111"] != 2 || len(st.Sessions) != 1 {
		t.Fatalf("groups: %+v", st)
	}
	if !st.First.Equal(t0.AddDate(0, -3, 0)) || !st.Last.Equal(t0.AddDate(0, 1, 0)) {
		t.Fatalf("span %s – %s", st.First, st.Last)
	}
}

func TestStatsEmptyStream(t *testing.T) {
	st, err := ReadStats(newLayout(t))
	if err != nil || st.Events != 0 || st.Files != 0 {
		t.Fatalf("%+v %v", st, err)
	}
}

func TestParseAgeAndSince(t *testing.T) {
	for in, want := range map[string]time.Duration{"2h": 2 * time.Hour, "90m": 90 * time.Minute, "90d": 90 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "1h30m": 90 * time.Minute} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "-2h", "1.5d", "d"} {
		if _, err := ParseAge(in); err == nil {
			t.Errorf("ParseAge(%q) accepted", in)
		}
	}
	now := t0
	for in, want := range map[string]time.Time{
		"2h":                        now.Add(-2 * time.Hour),
		"2026-03-01":                time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		"2026-03-01T10:30":          time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC),
		"2026-03-01T10:30:00Z":      time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC),
		"2026-03-01T12:30:00+02:00": time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC),
	} {
		if got, err := ParseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSince("last tuesday", now); err == nil || !strings.Contains(err.Error(), "2026-03-14") {
		t.Errorf("ParseSince error should show the accepted forms: %v", err)
	}
}

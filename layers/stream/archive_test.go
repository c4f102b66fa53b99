package stream

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestArchiveMovesWholeOldMonths(t *testing.T) {
	l := newLayout(t)
	jan := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	mustAppend(t, l, jan, "note", "january")
	mustAppend(t, l, jan.AddDate(0, 1, 0), "note", "february 1")
	mustAppend(t, l, jan.AddDate(0, 1, 1), "note", "february 2")
	mustAppend(t, l, t0, "note", "march")
	janBytes, _ := os.ReadFile(filepath.Join(l.StreamDir(), "2026-01.jsonl"))

	// Mid-February: January is whole and old, February is not over.
	before := time.Date(2026, 2, 15, 0, 0, 0, 0, time.UTC)
	dry, err := Archive(l, ArchiveOptions{Before: before, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dry.Months, []string{"2026-01"}) || dry.Events != 1 {
		t.Fatalf("dry run: %+v", dry)
	}
	if _, err := os.Stat(filepath.Join(l.StreamDir(), "2026-01.jsonl")); err != nil {
		t.Fatal("dry run moved the file")
	}

	// March 1st exactly: February ends at the cutoff and goes too.
	res, err := Archive(l, ArchiveOptions{Before: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Months, []string{"2026-01", "2026-02"}) || res.Events != 3 {
		t.Fatalf("archive: %+v", res)
	}
	moved, err := os.ReadFile(filepath.Join(l.StreamDir(), "archive", "2026-01.jsonl"))
	if err != nil || string(moved) != string(janBytes) {
		t.Fatalf("archived January differs from the live file (%v)", err)
	}
	for _, m := range []string{"2026-01", "2026-02"} {
		if _, err := os.Stat(filepath.Join(l.StreamDir(), m+".jsonl")); !os.IsNotExist(err) {
			t.Errorf("%s still live", m)
		}
	}
	// Archived months stay queryable and valid.
	evs, _, err := Query(l, Filter{})
	if err != nil || len(evs) != 4 {
		t.Fatalf("query after archive: %d events, %v", len(evs), err)
	}
	if probs, _ := Validate(l); probs != nil {
		t.Fatalf("problems after archive: %v", probs)
	}
	// Nothing left to do: a second run moves nothing.
	if res, err := Archive(l, ArchiveOptions{Before: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}); err != nil || len(res.Months) != 0 {
		t.Fatalf("second run: %+v %v", res, err)
	}
}

func TestArchiveMergesIntoExistingArchive(t *testing.T) {
	l := newLayout(t)
	jan := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	a := mustAppend(t, l, jan, "note", "a")
	b := mustAppend(t, l, jan.Add(time.Hour), "note", "b")
	if _, err := Archive(l, ArchiveOptions{Before: t0}); err != nil {
		t.Fatal(err)
	}
	// A late event recreates the live January file; a merge also brought
	// back a copy of b.
	c := mustAppend(t, l, jan.Add(2*time.Hour), "note", "c")
	live := filepath.Join(l.StreamDir(), "2026-01.jsonl")
	f, _ := os.OpenFile(live, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(append(Encode(b), '\n'))
	f.Close()

	res, err := Archive(l, ArchiveOptions{Before: t0})
	if err != nil || res.Events != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	lines := readLines(t, filepath.Join(l.StreamDir(), "archive", "2026-01.jsonl"))
	want := []string{string(Encode(a)) + "\n", string(Encode(b)) + "\n", string(Encode(c)) + "\n", ""}
	if !slices.Equal(lines, want) {
		t.Fatalf("archive:\n%q\nwant\n%q", lines, want)
	}
	if _, err := os.Stat(live); !os.IsNotExist(err) {
		t.Fatal("live file not removed")
	}
}

func TestBeforeYieldsOldLiveEvents(t *testing.T) {
	l := newLayout(t)
	jan := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	mustAppend(t, l, jan, "note", "archived")
	if _, err := Archive(l, ArchiveOptions{Before: t0}); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, l, jan.AddDate(0, 1, 0), "note", "feb")
	writeStream(t, l, "2026-02.jsonl", string(Encode(Event{SchemaVersion: 1, ID: "e-00000001", Time: jan.AddDate(0, 1, 1), Surface: "cli", Type: "note", Direction: "in", Summary: "feb 2"}))+"\n", "garbage\n")
	mustAppend(t, l, t0, "note", "march early")
	mustAppend(t, l, t0.Add(time.Hour), "note", "march late")

	var got []string
	for ev, err := range Before(l, t0.Add(time.Minute)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Summary)
	}
	if want := []string{"feb 2", "march early"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Stopping early is honoured.
	n := 0
	for range Before(l, t0.Add(2*time.Hour)) {
		n++
		break
	}
	if n != 1 {
		t.Fatal("break not honoured")
	}
}

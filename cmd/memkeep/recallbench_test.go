package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/internal/proctime"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/recall"
)

// Recall at scale: a memory of 2,000 sessions of L1 (about 200 MB) and
// 20,000 L2 items, generated from the real transcripts. Run with:
//
//	go test ./cmd/memkeep -run '^$' -bench RecallScale -benchtime 1x
//
// It reports the full build, the update a Stop makes after one turn, and
// `memkeep recall` and the UserPromptSubmit hook as whole processes next
// to an empty Go program in the same run.

const (
	scaleSessions = 2000
	scaleL2Items  = 20000
)

// scaleProject imports the real sessions, consolidates them, then copies
// each big session's L1 and L2 files until there are scaleSessions, the
// copies' words varied (the project name numbered per copy) so that the
// vocabulary grows as a real project's does.
func scaleProject(b *testing.B) (dir string, l memdir.Layout) {
	b.Helper()
	var spotter []string
	for _, f := range fixtures.SharedOrSkip(b) {
		if strings.Contains(f, "spotter-2.1.39") && !strings.Contains(f, "/subagents/") {
			abs, _ := filepath.Abs(f)
			spotter = append(spotter, abs)
		}
	}
	bin := memkeepBinary(b)
	dir = b.TempDir()
	// MEMKEEP_SCALE_DIR keeps the generated project for the next run
	// (profiling); it is made once. The update benchmarks append turns
	// to its newest session, which then grows run after run and slows
	// the update it measures: copy the folder aside once made and put it
	// back before each run that is compared with another.
	if keep := os.Getenv("MEMKEEP_SCALE_DIR"); keep != "" {
		if l, err := memdir.Find(keep); err == nil {
			return keep, l
		}
		dir = keep
		os.MkdirAll(dir, 0o755)
	}
	run := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("memkeep %v: %v\n%s", args, err, out)
		}
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	run("init", "--local")
	run(append([]string{"import"}, spotter...)...)
	run("consolidate", "--deep")
	l, err := memdir.Find(dir)
	if err != nil {
		b.Fatal(err)
	}
	ss, err := l2.Sessions(l)
	if err != nil {
		b.Fatal(err)
	}
	type session struct {
		l1 []byte
		l2 *l2.File
	}
	var big []session
	items := 0
	for _, s := range ss {
		data, err := os.ReadFile(l.L1File(s.Base))
		if err != nil || len(data) < 50_000 {
			continue
		}
		f, err := l2.Load(l.L2File(s.Base))
		if err != nil {
			b.Fatal(err)
		}
		big = append(big, session{data, f})
		items += len(f.Exchanges) + len(f.Facts)
	}
	if len(big) == 0 {
		b.Skip("no big session to copy")
	}
	copies := scaleSessions - len(ss)
	// Each copy's L2 items are repeated so that the whole holds about
	// scaleL2Items.
	repeat := max(1, scaleL2Items*len(big)/(items*copies)+1)
	start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	for c := range copies {
		src := big[c%len(big)]
		at := start.Add(time.Duration(c) * 3 * time.Hour)
		sid := fmt.Sprintf("%08x-0000-4000-8000-%012x", c+0x100, c)
		base := memdir.SessionBase(at, sid)
		word := fmt.Sprintf("spotter%d", c%97)
		if err := os.WriteFile(l.L1File(base), bytes.ReplaceAll(src.l1, []byte("spotter"), []byte(word)), 0o644); err != nil {
			b.Fatal(err)
		}
		f := *src.l2
		f.SessionID, f.L1 = sid, base+".l1.jsonl"
		f.Exchanges = nil
		for r := range repeat {
			for _, x := range src.l2.Exchanges {
				x.ID = fmt.Sprintf("x-%06x%02x", c, r) + x.ID[min(len(x.ID), 10):]
				x.Summary = strings.ReplaceAll(x.Summary, "spotter", word)
				f.Exchanges = append(f.Exchanges, x)
			}
		}
		if err := f.Save(l.L2File(base)); err != nil {
			b.Fatal(err)
		}
	}
	return dir, l
}

func BenchmarkRecallScale(b *testing.B) {
	dir, l := scaleProject(b)
	var l1Bytes int64
	ents, _ := os.ReadDir(l.SessionsDir())
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".l1.jsonl") {
			l1Bytes += fi.Size()
		}
	}
	for i := 0; i < b.N; i++ {
		os.RemoveAll(recall.Dir(l))
		t0 := time.Now()
		if err := recall.Build(l); err != nil {
			b.Fatal(err)
		}
		build := time.Since(t0)
		b.Logf("full build: %s for %d files, %.0f MB of L1", build.Round(time.Millisecond), len(ents), float64(l1Bytes)/1e6)

		// Turns: each adds ten L1 lines and rewrites the session's L2
		// file, then updates the index as a Stop does. The median of
		// several, because one is a fraction of a millisecond on a noisy
		// machine.
		var turns []time.Duration
		var sid string
		for j := range 9 {
			var before string
			sid, before = scaleTurn(b, l, j)
			t0 := time.Now()
			if err := recall.Update(l, recall.UpdateOptions{Session: sid, Before: before}); err != nil {
				b.Fatal(err)
			}
			turns = append(turns, time.Since(t0))
		}
		slices.Sort(turns)
		b.Logf("index update after one turn (in process): median %s, slowest %s of %d turns", turns[len(turns)/2].Round(time.Microsecond), turns[len(turns)-1].Round(time.Microsecond), len(turns))

		q := "why were long tool results cut to a few rows in the transcript view"
		reportVsFloor(b, "memkeep recall (2,000 sessions)", proctime.Run{Path: memkeepBinary(b), Args: []string{"recall", q}, Dir: dir, Env: benchEnv()}, 20)
		in := hookPayload(b, map[string]any{"session_id": sid, "cwd": dir, "hook_event_name": "UserPromptSubmit", "prompt": q})
		reportVsFloor(b, "UserPromptSubmit (2,000 sessions)", proctime.Run{Path: memkeepBinary(b), Args: []string{"hook", "UserPromptSubmit"}, Dir: dir, Stdin: in, Env: benchEnv()}, 20)
	}
}

// scaleTurn writes what a turn of the newest session writes, its j-th:
// ten L1 lines and the session's L2 file with one more exchange. It
// gives the session's id, as a Stop names it, and the memory's state
// before the turn (recall.DirState).
func scaleTurn(b *testing.B, l memdir.Layout, j int) (sid, before string) {
	b.Helper()
	ss, err := l2.Sessions(l)
	if err != nil {
		b.Fatal(err)
	}
	last := ss[len(ss)-1]
	before = recall.DirState(l)
	f, err := os.OpenFile(l.L1File(last.Base), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	for k := range 10 {
		fmt.Fprintf(f, `{"ts":"2026-11-20T10:%02d:%02dZ","k":"text","off":%d,"text":"Turn %d: the websocket reconnect now backs off exponentially."}`+"\n", j%60, k, k, j)
	}
	f.Close()
	l2f, err := l2.Load(l.L2File(last.Base))
	if err != nil {
		b.Fatal(err)
	}
	l2f.Exchanges = append(l2f.Exchanges, l2.Exchange{ID: fmt.Sprintf("x-turn%d", j), Summary: "Websocket reconnect backoff", L1Range: [2]int{1, 2}})
	if err := l2f.Save(l.L2File(last.Base)); err != nil {
		b.Fatal(err)
	}
	// A Stop names its session by id; a base ends with the id's first
	// eight characters, which is what the index matches.
	return last.Base[strings.LastIndexByte(last.Base, '_')+1:], before
}

// BenchmarkRecallScaleUpdate is the index update a Stop makes after one
// turn, at scale, in process, for profiling (-cpuprofile). It starts
// from a full build; keep -benchtime below the segments that make an
// update build again (20x).
func BenchmarkRecallScaleUpdate(b *testing.B) {
	_, l := scaleProject(b)
	if err := recall.Build(l); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sid, before := scaleTurn(b, l, i)
		b.StartTimer()
		if err := recall.Update(l, recall.UpdateOptions{Session: sid, Before: before}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecallScaleSearch is the in-process search at scale, for
// profiling (-cpuprofile).
func BenchmarkRecallScaleSearch(b *testing.B) {
	_, l := scaleProject(b)
	if ix, err := recall.Open(l, ""); err != nil || ix.NeedsRebuild() {
		if err := recall.Build(l); err != nil {
			b.Fatal(err)
		}
	}
	q := "why were long tool results cut to a few rows in the transcript view"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix, err := recall.Open(l, "")
		if err != nil {
			b.Fatal(err)
		}
		ix.Search(q, recall.Options{Max: 10})
		ix.Close()
	}
}

// BenchmarkRecallScaleBuild is the full build at scale, in process, for
// profiling (-cpuprofile).
func BenchmarkRecallScaleBuild(b *testing.B) {
	_, l := scaleProject(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := recall.Build(l); err != nil {
			b.Fatal(err)
		}
	}
}

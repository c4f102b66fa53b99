package consolidate

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
)

// twins are two projects given the same inputs: inc uses the incremental
// extraction and Pending, full extracts the whole L1 and loads everything.
type twins struct {
	t         testing.TB
	inc, full memdir.Layout
	sid       string
	now       time.Time
}

func newTwins(t testing.TB, sid string, now time.Time) *twins {
	extractCounts.full, extractCounts.resumed = 0, 0
	mk := func() memdir.Layout {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		l, err := memdir.Find(dir)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(l.SessionsDir(), 0o755)
		return l
	}
	return &twins{t: t, inc: mk(), full: mk(), sid: sid, now: now}
}

// do runs fn on both projects, the incremental one first.
func (w *twins) do(fn func(l memdir.Layout) (any, error)) {
	w.t.Helper()
	defer func() { incremental = true }()
	incremental = true
	a, errA := fn(w.inc)
	incremental = false
	b, errB := fn(w.full)
	if fmt.Sprint(errA) != fmt.Sprint(errB) {
		w.t.Fatalf("errors differ: incremental %v, full %v", errA, errB)
	}
	if !reflect.DeepEqual(a, b) {
		w.t.Fatalf("results differ:\nincremental %+v\nfull        %+v", a, b)
	}
}

// micro is the Stop hook's Micro then Pending.
func (w *twins) micro() {
	w.t.Helper()
	w.do(func(l memdir.Layout) (any, error) {
		sum, err := Micro(l, w.sid, Options{})
		if err != nil {
			return nil, err
		}
		for i, p := range sum.Written {
			sum.Written[i], _ = filepath.Rel(l.Root, p)
		}
		st, err := Pending(l, w.sid)
		return []any{sum, st}, err
	})
	w.same()
}

// same compares every committed file of the two projects byte for byte.
func (w *twins) same() {
	w.t.Helper()
	files := func(l memdir.Layout) map[string][]byte {
		out := map[string][]byte{}
		root := filepath.Join(l.Root, memdir.MemoryRel)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.Contains(p, string(filepath.Separator)+"stream"+string(filepath.Separator)) {
				return err
			}
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[rel] = b
			return nil
		})
		return out
	}
	a, b := files(w.inc), files(w.full)
	for name, data := range b {
		if !bytes.Equal(a[name], data) {
			w.t.Fatalf("%s differs:\nincremental:\n%s\nfull:\n%s", name, a[name], data)
		}
	}
	if len(a) != len(b) {
		w.t.Fatalf("files differ: %d incremental, %d full", len(a), len(b))
	}
}

// setL1 writes the same L1 bytes into both projects.
func (w *twins) setL1(base string, data []byte) {
	for _, l := range []memdir.Layout{w.inc, w.full} {
		if err := os.WriteFile(l.L1File(base), data, 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
}

// TestIncrementalMatchesFullLarge feeds fixtures.Large through the L1
// refiner a few transcript lines at a time (cutting turns anywhere) and
// runs Micro and Pending after each step.
func TestIncrementalMatchesFullLarge(t *testing.T) {
	sid := "77777777-aaaa-4bbb-8ccc-000000000077"
	w := newTwins(t, sid, time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC))
	data := fixtures.Large(2 << 20).Data
	transcript := filepath.Join(t.TempDir(), "session.jsonl")
	f, err := os.Create(transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := bytes.SplitAfter(data, []byte{'\n'})
	steps := 0
	for i := 0; i < len(lines); {
		n := 7 + (i*13)%41 // uneven steps
		for j := 0; j < n && i < len(lines); j, i = j+1, i+1 {
			f.Write(lines[i])
		}
		if _, err := l1.Sync(w.inc, transcript, l1.SyncOptions{}); err != nil {
			t.Fatal(err)
		}
		base, err := l2.BaseFor(w.inc, sid)
		if err != nil {
			continue // nothing refined yet
		}
		b, _ := os.ReadFile(w.inc.L1File(base))
		w.setL1(base, b)
		w.micro()
		steps++
	}
	if steps < 20 || extractCounts.resumed < steps-2 {
		t.Fatalf("%d steps, %+v extractions", steps, extractCounts)
	}
	// All at once, in a third project: the same L2 file.
	all := newTwins(t, sid, w.now)
	base, _ := l2.BaseFor(w.inc, sid)
	b, _ := os.ReadFile(w.inc.L1File(base))
	all.setL1(base, b)
	all.micro()
	a1, _ := os.ReadFile(w.inc.L2File(base))
	a2, _ := os.ReadFile(all.inc.L2File(base))
	if !bytes.Equal(a1, a2) {
		t.Errorf("turn by turn and all at once differ:\n%s\n%s", a1, a2)
	}
}

// syntheticL1 is a session whose exchanges score in every way: failures
// fixed and not, corrections, rules, decisions, commits that split a
// request, routine reading, subagent work.
func syntheticL1(turns int, start time.Time) []l1.Record {
	var recs []l1.Record
	ts := start
	add := func(r l1.Record) {
		ts = ts.Add(time.Minute)
		r.TS = ts.Format("2006-01-02T15:04:05.000Z")
		recs = append(recs, r)
	}
	for i := 0; i < turns; i++ {
		f := fmt.Sprintf("pkg%d/file%d.go", i%4, i%7)
		switch i % 6 {
		case 0:
			add(l1.Record{Kind: l1.KindPrompt, Text: fmt.Sprintf("the upload test %d fails with a timeout", i)})
			add(l1.Record{Kind: l1.KindTool, Tool: "Read", File: f, Lines: "1-40"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./pkg", Exit: intp(1), Res: "timeout after 5s"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: f, Lines: "10-12", Diff: "+2 -1 ctx, cancel :="})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./pkg", Exit: intp(0)})
			add(l1.Record{Kind: l1.KindText, Text: "The root cause was a missing deadline on the client."})
		case 1:
			add(l1.Record{Kind: l1.KindPrompt, Text: "no, don't change the retry count, always keep it at 3"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: f, Diff: "+1 -1 retries = 3"})
		case 2:
			add(l1.Record{Kind: l1.KindPrompt, Text: "continue until all items are done"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: "a/one.go", Diff: "+5 -0 func one"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: fmt.Sprintf("git commit -m \"Add one %d\"", i), Exit: intp(0)})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: "git status", Exit: intp(0)})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: "a/two.go", Diff: "+3 -0 func two"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: "a/three.go", Diff: "+3 -0 func three"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: fmt.Sprintf("git commit -m \"Add two and three %d\"", i), Exit: intp(0)})
		case 3:
			add(l1.Record{Kind: l1.KindPrompt, Text: "what does the handler do?"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Read", File: f})
			add(l1.Record{Kind: l1.KindText, Text: "It validates the input."})
		case 4:
			add(l1.Record{Kind: l1.KindPrompt, Text: "pick a cache for the sessions"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Task", Arg: "survey caches"})
			add(l1.Record{Kind: l1.KindPrompt, Agent: "a881341", Text: "survey caches"})
			add(l1.Record{Kind: l1.KindText, Agent: "a881341", Text: "ristretto and bigcache"})
			add(l1.Record{Kind: l1.KindText, Text: "I'll use an LRU map instead of ristretto because the set is small."})
			add(l1.Record{Kind: l1.KindTool, Tool: "Write", File: "cache/lru.go", Diff: "+40 -0 package cache"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: "cache/use.go", Diff: "+2 -2 cache.New"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Edit", File: f, Diff: "+1 -1 cache"})
		case 5:
			add(l1.Record{Kind: l1.KindPrompt, Text: "run the linter"})
			add(l1.Record{Kind: l1.KindTool, Tool: "Bash", Cmd: "golangci-lint run", Exit: intp(2), Res: "unused variable"})
		}
	}
	return recs
}

// TestIncrementalMatchesFullWithEdits feeds a session a record or a few
// at a time while the memory is changed around it as the agent and the
// user change it: conscious records (which converge), concepts,
// reflection removing expired records (which extraction brings back),
// a forgotten record, and an L1 rewritten under the saved offset.
func TestIncrementalMatchesFullWithEdits(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	const b = "2026-03-01_0901_abcd1234"
	w := newTwins(t, "abcd1234-0000-4000-8000-000000000000", start.Add(20*24*time.Hour))
	recs := syntheticL1(60, start)
	step := 0
	for n := 1; n <= len(recs); n += 1 + step%3 {
		step++
		w.setL1(b, l1.Encode(recs[:n]))
		recTime := start.Add(time.Duration(n) * time.Minute)
		switch step {
		case 15:
			w.do(func(l memdir.Layout) (any, error) {
				r, err := Remember(l, "abcd1234", KindLearn, "The upload timeout came from the missing client deadline", "", []string{"pkg0/file0.go"}, recTime)
				return r, err
			})
		case 25:
			w.do(func(l memdir.Layout) (any, error) {
				return AddL2(l, "abcd1234", l2.Input{Summary: "Cache choice: an LRU map, the set is small", Files: []string{"cache/lru.go"}, L1Range: [2]int{n - 3, n}}, recTime)
			})
		case 30:
			w.do(func(l memdir.Layout) (any, error) {
				m, err := Load(l)
				if err != nil {
					return nil, err
				}
				s := m.Session(b)
				var out []any
				for _, e := range s.Exchanges[:min(3, len(s.Exchanges))] {
					r, err := Assign(l, e.ID, "", "uploads")
					out = append(out, r, err)
				}
				return out, nil
			})
		case 35:
			// Reflection a month later drops what expired; extraction
			// brings it back.
			w.do(func(l memdir.Layout) (any, error) {
				sum, err := Reflect(l)
				return sum.String(), err
			})
		case 40:
			w.do(func(l memdir.Layout) (any, error) {
				m, err := Load(l)
				if err != nil {
					return nil, err
				}
				for _, e := range m.Session(b).Exchanges {
					if e.Source == l2.Subconscious {
						return Forget(l, e.ID, "not worth keeping", recTime)
					}
				}
				return nil, nil
			})
		case 45:
			// The L1 file is rewritten under the offset (a merge, say):
			// the state must not be trusted.
			alt := append([]l1.Record(nil), recs[:n]...)
			alt[1].Text, alt[1].File = "changed", "other/file.go"
			w.setL1(b, l1.Encode(alt))
			w.micro()
			w.setL1(b, l1.Encode(recs[:n]))
		}
		w.micro()
	}
	m, _ := Load(w.inc)
	s := m.Session(b)
	links, expired := 0, 0
	for _, e := range s.Exchanges {
		links += len(e.Links)
		if e.Expired(w.now) {
			expired++
		}
	}
	t.Logf("%d steps, %+v extractions; %d exchanges, %d facts, %d links, %d expired", step, extractCounts, len(s.Exchanges), len(s.Facts), links, expired)
	if extractCounts.full > 3 || links == 0 || len(s.Exchanges) < 20 {
		t.Errorf("the test did not exercise what it should")
	}
	// Deep consolidation after it all agrees too.
	w.do(func(l memdir.Layout) (any, error) {
		sum, err := Consolidate(l, Options{Deep: true})
		return sum.String(), err
	})
	w.same()
	w.micro()
}

// TestIncrementalMatchesFullRealSession does the same over a real session,
// when the transcripts are there.
func TestIncrementalMatchesFullRealSession(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if _, err := os.Stat(realSession); err != nil {
		t.Skip("real transcripts not available:", err)
	}
	recs, _, err := l1.RefineFile(realSession, l1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const b = "2026-02-12_1536_fa812bfe"
	w := newTwins(t, "fa812bfe-b295-4cca-9c2f-fdf01028cb46", time.Date(2026, 2, 12, 18, 0, 0, 0, time.UTC))
	for n := 1; ; n += 40 {
		n = min(n, len(recs))
		w.setL1(b, l1.Encode(recs[:n]))
		w.micro()
		if n == len(recs) {
			break
		}
	}
	m, _ := Load(w.inc)
	t.Logf("%d records, %+v extractions, %d exchanges", len(recs), extractCounts, len(m.Session(b).Exchanges))
}

// TestDecodeFromMatchesRead checks the offset reader against Read on a
// file with empty, damaged and CRLF lines.
func TestDecodeFromMatchesRead(t *testing.T) {
	data := append(l1.Encode(syntheticL1(6, clock)), "\n{bad\r\n{\"ts\":\"x\",\"k\":\"text\",\"off\":1}\r\n\n{\"ts\":\"y\",\"k\":\"prompt\",\"off\":2}"...)
	want, wantBad, _ := l1.Read(bytes.NewReader(data))
	got, offs, bad, err := l1.DecodeFrom(data, 0)
	if err != nil || bad != wantBad || !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeFrom = %d records, %d bad, %v; Read %d, %d", len(got), bad, err, len(want), wantBad)
	}
	for i := range got {
		rest, _, _, _ := l1.DecodeFrom(data, offs[i])
		if !reflect.DeepEqual(rest, want[i:]) {
			t.Fatalf("from record %d: %d records, want %d", i, len(rest), len(want)-i)
		}
	}
}

// BenchmarkStopConsolidation is the Stop hook's share of consolidation
// (Micro, then Pending) after one new turn at the end of the L1 of a
// 20 MB transcript, with the incremental paths and with full
// recomputation, in the same run. "routine" is the L1 as
// BenchmarkHookStopTail refines it (the transcript's project is not the
// work tree, so no turn is worth storing: the L2 file stays empty);
// "stored" is the same session refined in its own project, where every
// turn edits a project file and is stored (about 560 L2 records).
func BenchmarkStopConsolidation(b *testing.B) {
	sid := "77777777-aaaa-4bbb-8ccc-000000000077"
	for _, fx := range []struct {
		name string
		root string
	}{{"routine", "/elsewhere"}, {"stored", fixtures.Root}} {
		big, err := refineBytes(b, fixtures.Large(20<<20).Data, fx.root)
		if err != nil {
			b.Fatal(err)
		}
		turn, err := refineBytes(b, fixtures.Large(1).Data, fx.root)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			inc  bool
		}{{"incremental", true}, {"full", false}} {
			b.Run(fx.name+"/"+mode.name, func(b *testing.B) {
				defer func() { incremental = true }()
				incremental = mode.inc
				w := newTwins(b, sid, time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC))
				const base = "2026-02-10_2257_77777777"
				l := w.inc
				if err := os.WriteFile(l.L1File(base), big, 0o644); err != nil {
					b.Fatal(err)
				}
				opts := Options{}
				if _, err := Micro(l, sid, opts); err != nil {
					b.Fatal(err)
				}
				f, _ := os.OpenFile(l.L1File(base), os.O_APPEND|os.O_WRONLY, 0)
				defer f.Close()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f.Write(turn)
					if _, err := Micro(l, sid, opts); err != nil {
						b.Fatal(err)
					}
					if _, err := Pending(l, sid); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				if mode.inc && extractCounts.resumed < b.N {
					b.Fatalf("%+v extractions", extractCounts)
				}
			})
		}
	}
}

// refineBytes refines a transcript into L1 bytes.
func refineBytes(tb testing.TB, transcript []byte, root string) ([]byte, error) {
	p := filepath.Join(tb.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, transcript, 0o644); err != nil {
		return nil, err
	}
	recs, _, err := l1.RefineFile(p, l1.Options{Root: root})
	return l1.Encode(recs), err
}

// TestPendingManySessions checks Pending's lazy view against the full
// load with more sessions than memory.md lists, sessions with only L1,
// memory.md rendered and reflection run, and an older session changed.
func TestPendingManySessions(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	w := newTwins(t, "", start.Add(24*time.Hour))
	var bases []string
	for i := 0; i < 8; i++ {
		sid := fmt.Sprintf("%08x", 0xabc00000+i)
		at := start.Add(time.Duration(i) * time.Hour)
		b := at.Format("2006-01-02_1504") + "_" + sid
		bases = append(bases, b)
		recs := syntheticL1(3+i%4, at)
		if i == 6 {
			recs = recs[:1] // one routine prompt: no exchange stored
		}
		w.setL1(b, l1.Encode(recs))
		if i == 7 {
			break // L1 only, never extracted
		}
		w.sid = sid
		w.micro()
	}
	pending := func(sid string) {
		t.Helper()
		w.do(func(l memdir.Layout) (any, error) { return Pending(l, sid) })
	}
	for _, b := range bases {
		pending(b[len(b)-8:])
	}
	w.do(func(l memdir.Layout) (any, error) {
		sum, err := Reflect(l)
		return sum.String(), err
	})
	for _, b := range bases {
		pending(b[len(b)-8:])
	}
	// An older session changes behind the index's back.
	w.do(func(l memdir.Layout) (any, error) {
		return Remember(l, bases[1], KindDecide, "Keep the retry count at 3", "the upstream limits retries", nil, start.Add(time.Hour+3*time.Minute))
	})
	for _, b := range bases {
		pending(b[len(b)-8:])
	}
	w.do(func(l memdir.Layout) (any, error) { w, _, err := Render(l); return w, err })
	pending(bases[5][len(bases[5])-8:])
	w.same()
	if st, err := Pending(w.inc, bases[5][len(bases[5])-8:]); err != nil || !layer(t, st, "memory.md").OK {
		t.Errorf("after render, memory.md is not current: %+v, %v", st.Layers, err)
	}
	if b, _ := os.ReadFile(indexPath(w.inc)); !bytes.Contains(b, []byte(bases[0])) {
		t.Errorf("the index kept nothing: %s", b)
	}
}

// TestPendingSeesL1ChangedAfterExtraction: Pending reuses the checksum
// extraction took of the L1 file only while the file is as it was read.
// Here the file is rewritten after Micro with the same size (two lines
// joined into one that no longer decodes), so only its identity tells:
// Pending must count it as a full reading does.
func TestPendingSeesL1ChangedAfterExtraction(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	const b = "2026-03-01_0901_abcd1234"
	w := newTwins(t, "abcd1234-0000-4000-8000-000000000000", start.Add(24*time.Hour))
	data := l1.Encode(syntheticL1(12, start))
	w.setL1(b, data)
	w.micro()
	joined := bytes.Clone(data)
	joined[bytes.LastIndexByte(joined[:len(joined)-1], '\n')] = ' '
	w.setL1(b, joined)
	w.do(func(l memdir.Layout) (any, error) { return Pending(l, w.sid) })
}

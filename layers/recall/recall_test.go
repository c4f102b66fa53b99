package recall

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/memdir"
)

func TestTokensForCode(t *testing.T) {
	tok := newTokenizer()
	terms := func(s string) []string {
		var out []string
		tok.each(s, func(t string) { out = append(out, t) })
		return out
	}
	for in, want := range map[string][]string{
		"ActiveSessionRegistry":             {"activ", "session", "registri", "activesessionregistry"},
		"hooks/notify-session-end.sh":       {"hook", "notifi", "session", "end", "sh", "hooks/notify-session-end.sh"},
		"active_session_registry.ex":        {"activ", "session", "registri", "ex", "active_session_registry.ex"},
		"HTTPServer started":                {"http", "server", "httpserver", "start"},
		"<command-name>/mcp</command-name>": {"mcp"},
		"Why were the rows truncated?":      {"row", "truncat"},
		// A CSS colour is a colour; an issue's number is not.
		"--thinking-bg: #eef2f7;": {"think", "bg", "thinking-bg", "color", "eef2f7"},
		"background: #FFF":        {"background", "color", "fff"},
		"fixed in #123 and #1234": {"fix", "123", "1234"},
		"#cafe.png #abcdef12":     {"cafe", "png", "cafe.png", "color", "abcdef12"},
	} {
		if got := terms(in); !slices.Equal(got, want) {
			t.Errorf("%q gives %q, want %q", in, got, want)
		}
	}
}

// memory is a layout with memory files written by the test.
type memory struct {
	t testing.TB
	l memdir.Layout
}

func newMemory(t testing.TB) *memory {
	root := t.TempDir()
	l := memdir.Layout{Root: root, GitDir: filepath.Join(root, ".git"), CommonDir: filepath.Join(root, ".git")}
	if err := os.MkdirAll(l.SessionsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(l.StateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	return &memory{t, l}
}

// l1 writes (or appends, when add) L1 records to a session's file.
func (m *memory) l1(base string, add bool, recs ...map[string]any) {
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if add {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(m.l.L1File(base), flag, 0o644)
	if err != nil {
		m.t.Fatal(err)
	}
	defer f.Close()
	for _, r := range recs {
		b, _ := json.Marshal(r)
		f.Write(append(b, '\n'))
	}
}

func (m *memory) write(path string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// open opens the memory's index, closed when the test ends.
func (m *memory) open() *Index {
	m.t.Helper()
	ix := m.openNow()
	m.t.Cleanup(func() { ix.Close() })
	return ix
}

// openNow opens the memory's index for the caller to close.
func (m *memory) openNow() *Index {
	m.t.Helper()
	ix, err := Open(m.l, "")
	if err != nil {
		m.t.Fatal(err)
	}
	return ix
}

// search asks the index as it is now, and closes it.
func (m *memory) search(q string, opts Options) []Hit {
	m.t.Helper()
	ix := m.openNow()
	defer ix.Close()
	return ix.Search(q, opts)
}

func prompt(text string) map[string]any {
	return map[string]any{"ts": "2026-02-11T10:00:00Z", "k": "prompt", "text": text}
}
func say(text string) map[string]any {
	return map[string]any{"ts": "2026-02-11T10:00:01Z", "k": "text", "text": text}
}
func edit(file, diff string) map[string]any {
	return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Edit", "file": file, "diff": diff}
}
func bash(cmd string, exit int, res string) map[string]any {
	return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Bash", "cmd": cmd, "exit": exit, "res": res}
}

func filler(n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, say("Reading the module to see how it fits together, step "+itoa(i)+"."))
	}
	return out
}

// TestFindsL1LinesWithProvenance: an answer in the assistant's words, asked
// in other words, is found at its L1 line, shown in its snippet or the
// lines given with it.
func TestFindsL1LinesWithProvenance(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20), prompt("the ui hangs on long logs"),
		say("The renderer now truncates tool results to 10 lines and adds a show more control."),
		edit("lib/spotter/services/transcript_renderer.ex", "+3 -1 @max_lines 10"))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why are long outputs cut down on screen", Options{Max: 3})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	h := hits[0]
	if h.Layer != "L1" || h.File != "sessions/2026-02-11_1000_aaaa1111.l1.jsonl" || h.Lines[0] > 22 || h.Lines[1] < 22 || h.Lines[1]-h.Lines[0] > 15 {
		t.Errorf("first answer at %s %s lines %v, want a few L1 lines around 22 (at most 15, not the whole session)", h.Layer, h.File, h.Lines)
	}
	if shown := h.Snippet + "\n" + strings.Join(h.Excerpt, "\n"); !strings.Contains(shown, "truncates tool results") {
		t.Errorf("the answer shows %q, not the line that answers", shown)
	}
}

// TestNothingForWhatNeverHappened: a question whose rare words appear
// nowhere gets no answer at the default threshold.
func TestNothingForWhatNeverHappened(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10), say("We cache the session list in memory for the sidebar."))...)
	if hits := m.search("did we set up a redis cache for sessions", Options{Threshold: 0.6}); len(hits) > 0 {
		t.Errorf("answered a question about what never happened: %+v", hits[0])
	}
	if hits := m.search("where do we cache the session list", Options{Threshold: 0.6}); len(hits) == 0 {
		t.Error("the question about what happened got no answer")
	}
}

// TestUpdateAddsOnlyNewLines: a Stop's update writes a segment of the
// new lines alone; a file rewritten under the index (a pull) is read
// afresh and asks for a rebuild; a damaged segment is rebuilt.
func TestUpdateAddsOnlyNewLines(t *testing.T) {
	m := newMemory(t)
	base := "2026-02-11_1000_aaaa1111"
	m.l1(base, false, append(filler(30), say("The heartbeat registry reaps stale tmux panes."))...)
	if err := Build(m.l); err != nil {
		t.Fatal(err)
	}
	m.l1(base, true, say("Added a websocket reconnect with exponential backoff."))
	if hits := m.search("websocket reconnect backoff", Options{}); len(hits) == 0 || !strings.HasSuffix(hits[0].ID, ":32") {
		t.Fatalf("the new line is not found before an update: %+v", hits)
	}
	if err := Update(m.l, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	segs, _ := segmentFiles(Dir(m.l))
	if len(segs) != 2 {
		t.Fatalf("segments after an update: %v, want the base and one", segs)
	}
	data, _ := os.ReadFile(filepath.Join(Dir(m.l), segs[1]))
	s, err := decodeSegment(data)
	if err != nil || s.nDocs != 1 {
		t.Fatalf("the update's segment holds %d documents (%v), want the one new line", s.nDocs, err)
	}
	ix, _ := Open(m.l, "")
	if ix.NeedsRebuild() || len(ix.pending) != 0 {
		t.Errorf("after an update the index is not current: rebuild %v, pending %d", ix.NeedsRebuild(), len(ix.pending))
	}
	ix.Close()

	// A pull rewrites the file: other lines, same size or not.
	m.l1(base, false, append(filler(5), say("Switched the poller to inotify watches."))...)
	ix, _ = Open(m.l, "")
	if !ix.NeedsRebuild() {
		t.Error("a rewritten L1 file does not ask for a rebuild")
	}
	hits := ix.Search("inotify watches", Options{})
	ix.Close()
	if len(hits) == 0 || !strings.HasSuffix(hits[0].ID, ":6") {
		t.Errorf("the rewritten file is not searched as it is now: %+v", hits)
	}
	if hits := m.search("heartbeat registry reaps", Options{Threshold: 0.5}); len(hits) > 0 {
		t.Errorf("lines gone from the file are still answered: %+v", hits[0])
	}

	// A damaged segment is refused, and the next update builds again.
	segs, _ = segmentFiles(Dir(m.l))
	os.WriteFile(filepath.Join(Dir(m.l), segs[0]), []byte("memkeep-recall5\ngarbage"), 0o644)
	if err := Update(m.l, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if hits := m.search("inotify watches", Options{}); len(hits) == 0 {
		t.Error("nothing found after a damaged segment was rebuilt")
	}
}

// idlePanes writes a session of fill lines of filler, then a prompt, an
// answer and an edit about idle panes, which exchange x-1 (of concept
// c-panes, expiring on expires) covers; more are its other exchanges.
func (m *memory) idlePanes(base string, fill int, expires string, more ...l2.Exchange) {
	m.l1(base, false, append(filler(fill),
		prompt("make the sidebar show which panes are idle"),
		say("Idle panes are marked by the heartbeat registry after 30 seconds."),
		edit("lib/spotter/heartbeat.ex", "+12 -0 def idle?(pane)"))...)
	x1 := l2.Exchange{ID: "x-1", Summary: "Idle pane detection in the sidebar", L1Range: [2]int{fill + 1, fill + 3}, Concept: "c-panes", Significance: 0.6,
		Created: "2026-02-11T10:00:00Z", Expires: expires}
	m.write(m.l.L2File(base), l2.File{SchemaVersion: 1, L1: base + ".l1.jsonl", Exchanges: append([]l2.Exchange{x1}, more...)})
}

// TestHierarchyAndExpiry: an L1 hit names its exchange and concept; an
// exchange expired long ago (counted from the project's own latest
// activity) is still found, marked, below a current one.
func TestHierarchyAndExpiry(t *testing.T) {
	m := newMemory(t)
	m.idlePanes("2026-02-11_1000_aaaa1111", 10, "2026-02-18", l2.Exchange{ID: "x-2", Summary: "Idle pane colours", L1Range: [2]int{1, 2}, Significance: 0.6,
		Created: "2026-05-01T10:00:00Z", Expires: "2026-06-01"})
	m.write(m.l.ConceptsFile(), l3.File{SchemaVersion: 1, Concepts: []l3.Concept{{ID: "c-panes", Name: "panes", Exchanges: []string{"x-1"}}}})
	hits := m.search("how are idle panes detected", Options{Max: 5})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	var found bool
	for _, h := range hits {
		if h.Exchange != nil && h.Exchange.ID == "x-1" {
			found = true
			if h.Concept == nil || h.Concept.Text != "panes" {
				t.Errorf("the answer lacks its concept: %+v", h)
			}
			if !h.Expired {
				t.Errorf("x-1 expired in February, three months before the latest activity, and is not marked: %+v", h)
			}
		}
	}
	if !found {
		t.Errorf("no answer in exchange x-1: %+v", hits)
	}
}

// TestSegmentFindsSourcesByName: a segment finds any of its sources by
// name whatever the order they were added in (a build adds facts.json
// before concepts.json, an update its files as they come), and finds no
// other.
func TestSegmentFindsSourcesByName(t *testing.T) {
	names := []string{dirsSource, "facts.json", "concepts.json", "sessions/b.l2.json", "sessions/a.l1.jsonl", "sessions/c.l1.jsonl", "sessions/a.l2.json"}
	for i := range 40 {
		names = append(names, "sessions/2026-02-"+itoa(40-i)+"_x.l1.jsonl")
	}
	b := newSegmentBuilder(true)
	for _, n := range names {
		b.startSource(source{Name: n})
		b.field("heartbeat "+n, 1)
		b.endDoc(doc{Layer: layerL1})
	}
	s, err := decodeSegment(b.encode())
	if err != nil {
		t.Fatal(err)
	}
	for want, n := range names {
		if got, ok := s.find(n); !ok || got != want {
			t.Errorf("find(%q) = %d, %v, want %d", n, got, ok, want)
		}
	}
	for _, n := range []string{"sessions/b.l1.jsonl", "zzz", "a", "sessions/"} {
		if got, ok := s.find(n); ok {
			t.Errorf("find(%q) = %d: no source is named so", n, got)
		}
	}
}

// TestHitsOutliveTheIndex: a mapped segment's strings are views of the
// mapping (segment.bstr), and the hits a search gives are read after the
// index is closed and the mapping gone: every string in them is a copy.
// A view left in a hit makes this test crash reading it.
func TestHitsOutliveTheIndex(t *testing.T) {
	m := newMemory(t)
	m.idlePanes("2026-02-11_1000_aaaa1111", 1500, "")
	m.write(m.l.ConceptsFile(), l3.File{SchemaVersion: 1, Concepts: []l3.Concept{{ID: "c-panes", Name: "idle panes", Summary: "How idle panes are found", Exchanges: []string{"x-1"}}}})
	if err := Build(m.l); err != nil {
		t.Fatal(err)
	}
	segs, _ := segmentFiles(Dir(m.l))
	if fi, err := os.Stat(filepath.Join(Dir(m.l), segs[0])); err != nil || fi.Size() < 64<<10 {
		t.Fatalf("the segment is too small to be mapped: %v %v", fi, err)
	}
	ix := m.openNow()
	var hits []Hit
	for _, q := range []string{"how are idle panes detected", "heartbeat registry", "idle panes sidebar exchange"} {
		hits = append(hits, ix.Search(q, Options{Max: 10, Threshold: 0.01})...)
	}
	unknown := ix.Unknown("what did we change in lib/spotter/zeppelin_registry.ex")
	ix.Close()
	var layers []string
	sum := 0
	for _, h := range hits {
		layers = append(layers, h.Layer)
		for _, s := range append([]string{h.Layer, h.Kind, h.ID, h.Snippet, h.Text, h.Session, h.File, h.Time}, append(h.Excerpt, h.Further...)...) {
			for i := range len(s) {
				sum += int(s[i])
			}
		}
		for _, r := range []*Ref{h.Exchange, h.Concept} {
			if r != nil {
				sum += len(r.ID + r.Text)
			}
		}
	}
	for _, w := range unknown {
		for i := range len(w) {
			sum += int(w[i])
		}
	}
	exchanges := 0
	for _, h := range hits {
		if h.Exchange != nil {
			exchanges++
		}
	}
	if !slices.Contains(layers, "L1") || !slices.Contains(layers, "L3") || exchanges == 0 || len(unknown) == 0 {
		t.Errorf("hits in %v, %d with their exchange, unknown words %q: the test reads too little", layers, exchanges, unknown)
	}
	t.Logf("%d hits read after Close (%d)", len(hits), sum)
}

// TestJoinedBuildIsTheSame: a build split between cores (each share in a
// builder of its own, joined in order) writes the bytes one builder does.
func TestJoinedBuildIsTheSame(t *testing.T) {
	m := newMemory(t)
	for i := range 6 {
		base := "2026-02-1" + itoa(i) + "_1000_aaaa111" + itoa(i)
		m.l1(base, false, append(filler(5+i), say("Session "+itoa(i)+" changed the heartbeat registry."), edit("lib/x"+itoa(i)+".ex", "+1 -1"))...)
	}
	files, err := listFiles(m.l)
	if err != nil || len(files) != 6 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	whole := newSegmentBuilder(true)
	for _, f := range files {
		whole.addFile(m.l, pendingRead{file: f, line: 1})
	}
	parts := []*segmentBuilder{newSegmentBuilder(true), newSegmentBuilder(true), newSegmentBuilder(true)}
	for i, f := range files {
		parts[i/2].addFile(m.l, pendingRead{file: f, line: 1})
	}
	parts[0].join(parts[1])
	parts[0].join(parts[2])
	if a, b := whole.encode(), parts[0].encode(); string(a) != string(b) {
		t.Errorf("the joined build differs: %d bytes against %d", len(b), len(a))
	}
}

// TestUpdateStartsFromTheLastStems: the stems an update's segment keeps
// are the stemmer's; a builder started from them (damaged lines and all)
// indexes a file exactly as one that stems every word itself.
func TestUpdateStartsFromTheLastStems(t *testing.T) {
	m := newMemory(t)
	base := "2026-02-11_1000_aaaa1111"
	m.write(m.l.L2File(base), map[string]any{"session_id": "aaaa1111-0000", "l1": base + ".l1.jsonl", "exchanges": []map[string]any{
		{"id": "x-1", "summary": "Reconnecting websockets back off exponentially", "details": "The TruncatedOutput component hides long results; go to lib/spotter_web/live.", "l1_range": []int{1, 3}},
		{"id": "x-2", "summary": "Sessions were listed by keyset pagination", "l1_range": []int{4, 9}},
	}})
	files, err := listFiles(m.l)
	if err != nil || len(files) != 1 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	first := newSegmentBuilder(false)
	first.addFile(m.l, pendingRead{file: files[0], line: 1})
	stems := first.tok.appendStems(nil)
	for _, w := range []string{"reconnecting reconnect", "exponentially exponenti", "sessions session", "truncated truncat"} {
		if !strings.Contains("\n"+string(stems), "\n"+w+"\n") {
			t.Errorf("the stems kept lack %q: %q", w, stems)
		}
	}
	if strings.Contains("\n"+string(stems), "\ngo ") || strings.Contains(string(stems), "lib ") {
		t.Errorf("the stems kept hold words the stemmer never sees: %q", stems)
	}
	damaged := append(append([]byte("BAD Stem\nhalf\n\nkeys\n"), stems...), "listed lie\n"...)
	seeded, fresh := newSegmentBuilder(false), newSegmentBuilder(false)
	seeded.tok.addStems(damaged)
	if got := seeded.tok.stems["listed"]; got != "lie" {
		t.Fatalf("a well-formed line was not read: listed → %q", got)
	}
	delete(seeded.tok.stems, "listed") // a wrong stem would change the index, as it should
	for w := range seeded.tok.stems {
		if !stemmed(w) {
			t.Errorf("a damaged line was read: %q", w)
		}
	}
	seeded.addFile(m.l, pendingRead{file: files[0], line: 1})
	fresh.addFile(m.l, pendingRead{file: files[0], line: 1})
	a, b := seeded.encode(), fresh.encode()
	sa, err1 := decodeSegment(a)
	sb, err2 := decodeSegment(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if string(a[:segHeader-4]) != string(b[:segHeader-4]) || string(a[segHeader:len(a)-len(sa.words)]) != string(b[segHeader:len(b)-len(sb.words)]) {
		t.Error("a builder started from the kept stems indexes the file otherwise than one that stems it")
	}
}

// TestFailureQuestionsFindTheFailure: between two runs of the same
// command, a question about a failure is answered by the one that failed.
func TestFailureQuestionsFindTheFailure(t *testing.T) {
	m := newMemory(t)
	const run = "mix test test/tail_worker_test.exs"
	m.l1("2026-02-11_1000_aaaa1111", false, apart(12, group(bash(run, 0, "12 tests, 0 failures")), group(bash(run, 2, "12 tests, 1 failure")))...)
	hits := m.search("why did the tail worker tests fail", Options{Max: 2})
	if len(hits) == 0 || hits[0].Lines[0] > 26 || hits[0].Lines[1] < 26 {
		t.Errorf("the failed run (line 26) is not the first answer: %+v", hits)
	}
}

// TestCommonWordOfAMemoryRewrittenOften: each update hides the records it
// replaces, and the hidden ones still count in a word's document
// frequency. In a small memory rewritten turn after turn, a word in every
// record ("cart" in a cart project) counted more documents than there
// were, weighed less than nothing, and the question "cart total" found
// nothing at all.
func TestCommonWordOfAMemoryRewrittenOften(t *testing.T) {
	m := newMemory(t)
	base := "2026-02-11_1000_aaaa1111"
	m.l1(base, false, prompt("The cart total is wrong for two items."), say("The cart loop skipped the first price."))
	exchanges := []l2.Exchange{{ID: "x-1", Summary: "Fixed the cart total", L1Range: [2]int{1, 2}, Significance: 0.6, Created: "2026-02-11T10:00:00Z"}}
	m.write(m.l.L2File(base), l2.File{SchemaVersion: 1, L1: base + ".l1.jsonl", Exchanges: exchanges})
	if err := Build(m.l); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		// Each turn's Stop rewrites the session's L2 file: its records
		// are hidden and indexed again.
		exchanges = append(exchanges, l2.Exchange{ID: "x-" + itoa(i+2), Summary: "Checked the cart total again, pass " + itoa(i), L1Range: [2]int{1, 2}, Significance: 0.5, Created: "2026-02-11T10:00:00Z"})
		m.write(m.l.L2File(base), l2.File{SchemaVersion: 1, L1: base + ".l1.jsonl", Exchanges: exchanges})
		if err := Update(m.l, UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ix := m.open()
	if df, n := ix.df("cart"), ix.numDocs(); float64(df) <= n {
		t.Fatalf("the rewrites hid no document (df %d, %v documents): the case is not made", df, n)
	}
	if hits := ix.Search("cart total", Options{Threshold: 0.3}); len(hits) == 0 {
		t.Errorf("a word in every record found nothing once rewrites had hidden copies of them")
	}
}

// TestGallop: gallop finds what a linear search finds, from any start.
func TestGallop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := rng.IntN(300)
		list := make([]int, n)
		for i := range list {
			list[i] = rng.IntN(1000)
		}
		slices.Sort(list)
		target := rng.IntN(1100)
		from := 0
		if n > 0 {
			from = rng.IntN(n + 1)
		}
		want := from
		for want < n && list[want] < target {
			want++
		}
		if got := gallop(n, from, func(k int) bool { return list[k] >= target }); got != want {
			t.Fatalf("gallop(%v from %d, ≥%d) = %d, want %d", list, from, target, got, want)
		}
	}
}

// TestMergePostings: the postings of several terms come out in document
// order, a document's in the order of the terms (the order its scores are
// added), without hidden documents, documents past the segment's end or,
// from a damaged list, postings out of order.
func TestMergePostings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type hit struct {
		doc, term uint32
		tf        float32
	}
	for _, span := range []int{1, 100, 5000, 3 << 20} {
		const nDocs = 4000
		var data []byte
		var lists []postingList
		var want []hit
		for term := range uint32(12) {
			docs := make([]uint32, rng.IntN(400))
			for i := range docs {
				docs[i] = uint32(rng.IntN(span))
			}
			slices.Sort(docs)
			docs = slices.Compact(docs)
			at := len(data) / postingSize
			for _, d := range docs {
				tf := float32(rng.IntN(100)) / 10
				data = binary.LittleEndian.AppendUint32(data, d)
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(tf))
				if d < nDocs && d%7 != 3 {
					want = append(want, hit{d, term, tf})
				}
			}
			lists = append(lists, postingList{term: term, at: at, end: len(data) / postingSize})
		}
		hidden := make(docSet, nDocs/64+1)
		for d := 3; d < nDocs; d += 7 {
			hidden.addRange(d, d+1)
		}
		slices.SortStableFunc(want, func(a, b hit) int { return cmp.Compare(a.doc, b.doc) })
		s := &segment{data: data, nDocs: nDocs, nPost: len(data) / postingSize}
		var got []hit
		s.mergePostings(lists, hidden, func(d, term uint32, tf float32) { got = append(got, hit{d, term, tf}) })
		if !slices.Equal(got, want) {
			t.Fatalf("span %d: %d postings merged, want %d in document and term order", span, len(got), len(want))
		}
	}
	// A damaged list: its postings out of order are left out, the rest
	// still come in document order.
	var data []byte
	for _, d := range []uint32{5, 9, 2, 11} {
		data = binary.LittleEndian.AppendUint32(data, d)
		data = binary.LittleEndian.AppendUint32(data, 0)
	}
	s := &segment{data: data, nDocs: 20, nPost: 4}
	var got []uint32
	s.mergePostings([]postingList{{at: 0, end: 4}}, nil, func(d, _ uint32, _ float32) { got = append(got, d) })
	if !slices.Equal(got, []uint32{5, 9, 11}) {
		t.Fatalf("damaged list merged as %v, want [5 9 11]", got)
	}
}

// TestUpdateAfterATurn: a Stop's update (its session and the folders'
// state before the turn) indexes the turn's new lines and its rewritten
// L2 file, and leaves every other session searchable; when the turn also
// created a file (a new session), the update compares every file.
func TestUpdateAfterATurn(t *testing.T) {
	m := newMemory(t)
	one, two := "2026-02-11_1000_aaaa1111", "2026-02-12_1000_bbbb2222"
	m.l1(one, false, append(filler(10), say("The heartbeat registry reaps stale tmux panes."))...)
	m.l1(two, false, append(filler(10), say("Pagination of the session list uses keyset cursors."))...)
	m.write(m.l.L2File(two), map[string]any{"session_id": "bbbb2222-0000", "l1": two + ".l1.jsonl", "exchanges": []map[string]any{
		{"id": "x-1", "summary": "Keyset pagination for the session list", "l1_range": []int{1, 11}},
	}})
	if err := Build(m.l); err != nil {
		t.Fatal(err)
	}
	before := DirState(m.l)
	m.l1(two, true, say("Added a websocket reconnect with exponential backoff."))
	m.write(m.l.L2File(two), map[string]any{"session_id": "bbbb2222-0000", "l1": two + ".l1.jsonl", "exchanges": []map[string]any{
		{"id": "x-1", "summary": "Keyset pagination for the session list", "l1_range": []int{1, 11}},
		{"id": "x-2", "summary": "Websocket reconnect backoff tuned for flaky networks", "l1_range": []int{12, 12}},
	}})
	if err := Update(m.l, UpdateOptions{Session: "bbbb2222-0000-4000", Before: before}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(m.l, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.pending) != 0 || ix.NeedsRebuild() {
		t.Errorf("after the turn's update %d files are pending (rebuild %v), want none", len(ix.pending), ix.NeedsRebuild())
	}
	ix.Close()
	// The update's segment holds the new line and the L2 file's two
	// exchanges, not the session's whole L1 file again.
	segs, _ := segmentFiles(Dir(m.l))
	data, _ := os.ReadFile(filepath.Join(Dir(m.l), segs[len(segs)-1]))
	if s, err := decodeSegment(data); err != nil || s.nDocs > 3 {
		t.Errorf("the turn's segment holds %d documents (%v), want the new line and the two exchanges", s.nDocs, err)
	} else if !strings.Contains(string(s.words), "\nnetworks network\n") {
		t.Errorf("the turn's segment does not keep the stems it made for the next update: %q", s.words)
	}
	for q, want := range map[string]string{
		"websocket reconnect backoff": two,
		"flaky networks":              two,
		"heartbeat registry tmux":     one,
		"keyset pagination cursors":   two,
	} {
		hits := m.search(q, Options{Threshold: 0.5})
		if len(hits) == 0 || !strings.Contains(hits[0].File, want) && hits[0].Session != want {
			t.Errorf("%q: %+v, want an answer in %s", q, hits, want)
		}
	}
	if hits := m.search("flaky networks", Options{Threshold: 0.5}); len(hits) > 1 && hits[1].ID == "x-2" {
		t.Errorf("the rewritten L2 file is indexed twice: %+v", hits)
	}

	// A turn of a new session creates its files: the folder changed, and
	// the update finds the new files without being told.
	before = DirState(m.l)
	three := "2026-02-13_1000_cccc3333"
	m.l1(three, false, say("The exporter batches spans every five seconds."))
	if err := Update(m.l, UpdateOptions{Session: "cccc3333", Before: before}); err != nil {
		t.Fatal(err)
	}
	ix, _ = Open(m.l, "")
	pending := len(ix.pending)
	ix.Close()
	if pending != 0 {
		t.Errorf("the new session's file is still pending after its update")
	}
	if hits := m.search("exporter batches spans", Options{Threshold: 0.5}); len(hits) == 0 || hits[0].Session != three {
		t.Errorf("the new session is not found: %+v", hits)
	}
}

// TestForPromptFitsTheBudget: the prompt hook's text never exceeds its
// budget; every answer that fits is shown with its two best lines, and
// what is left goes to more lines of the best answer first.
func TestForPromptFitsTheBudget(t *testing.T) {
	hit := func(n int, tag string) Hit {
		h := Hit{Layer: "L1", Kind: "text", ID: tag, Snippet: "answer " + tag, File: "sessions/s.l1.jsonl", Lines: [2]int{1, 9}}
		for i := range n {
			h.Excerpt = append(h.Excerpt, fmt.Sprintf("%s line %d %s", tag, i, strings.Repeat("x", 60)))
			h.excerptRank = append(h.excerptRank, i)
		}
		return h
	}
	hits := []Hit{hit(8, "first"), hit(8, "second"), hit(8, "third")}
	for _, budget := range []int{300, 700, 1200, 2000, 5000} {
		out := ForPrompt(hits, "a question", budget)
		if len(out) > budget {
			t.Errorf("budget %d: %d characters", budget, len(out))
		}
		if budget >= 1200 {
			for _, tag := range []string{"first", "second", "third"} {
				if strings.Count(out, tag+" line") < promptLines {
					t.Errorf("budget %d: %s has fewer than %d lines:\n%s", budget, tag, promptLines, out)
				}
			}
			if strings.Count(out, "first line") < strings.Count(out, "third line") {
				t.Errorf("budget %d: the best answer has fewer lines than the third:\n%s", budget, out)
			}
		}
	}
	if out := ForPrompt(hits, "q", 5000); strings.Count(out, "first line") != 8 {
		t.Errorf("with room to spare the best answer shows all its lines:\n%s", out)
	}
}

// TestPromptShowsMoreOfALongAnswer: an answer found in a long report
// (an epic's summary, one line per piece built) shows, in the prompt
// hook's text, the report's other lines that hold the question's words,
// not only the two its snippet had room for.
func TestPromptShowsMoreOfALongAnswer(t *testing.T) {
	m := newMemory(t)
	report := "All done. Here is what the review epic built:\n" +
		"- `ReviewTokenStore` keeps one-time review tokens in ETS, each with a TTL, consumed on first use.\n" +
		"- `ReviewContextBuilder` formats the open review notes of a project as a compact context string with a header.\n" +
		"- `ReviewContextController` serves GET /api/review-context/:token, validates and consumes the review token.\n" +
		"- `review-start.sh` is the plugin hook that fetches the review context at SessionStart.\n" +
		"- `Tmux.launch_review/3` starts a detached Claude tmux session with the review env vars from the local server.\n" +
		"- 6 builder tests, 4 controller tests and 1 LiveView test cover the review flow."
	m.l1("2026-02-11_1000_aaaa1111", false, append(append(filler(20), say(report)), filler(20)...)...)
	hits := m.search("How does the plugin pull the open review notes from the local server into a freshly started Claude session?", Options{Max: 3})
	if len(hits) == 0 || !strings.HasPrefix(hits[0].Snippet, "assistant: ") {
		t.Fatalf("the report is not the answer: %+v", hits)
	}
	if strings.Contains(hits[0].Snippet, "review-start.sh") {
		t.Fatalf("the snippet already shows the line, so this tests nothing: %q", hits[0].Snippet)
	}
	if out := ForPrompt(hits, "q", 2000); !strings.Contains(out, "review-start.sh") {
		t.Errorf("the prompt hook does not show the report's line on the plugin script:\n%s", out)
	}
	if out := Answer(hits); !strings.Contains(out, "review-start.sh") {
		t.Errorf("memkeep recall does not show the report's line on the plugin script:\n%s", out)
	}
}

// TestAnswerHoldsTheLinesThatFollow: the lines after those that match a
// question (the explanation after the error) are part of the answer,
// shown with it.
func TestAnswerHoldsTheLinesThatFollow(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20), prompt("the deploy script fails on the staging box"),
		say("Looking into it."),
		say("Root cause: PATH lacks /usr/local/bin there, so node is missing; sourcing the profile first cures it."))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why does the deploy script fail on staging", Options{Max: 1})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	h := hits[0]
	if h.Lines[0] > 21 || h.Lines[1] < 23 || h.Lines[1]-h.Lines[0] > 15 {
		t.Errorf("answer at lines %v, want the matching line 21 and the explanation at 23, a few lines in all", h.Lines)
	}
	if shown := h.Snippet + "\n" + strings.Join(h.Excerpt, "\n"); !strings.Contains(shown, "Root cause") {
		t.Errorf("the answer shows %q, not the explanation that follows", shown)
	}
}

// TestDocSet: ranges across and within words, counted and tested
// against a plain list.
func TestDocSet(t *testing.T) {
	const n = 300
	for _, r := range [][2]int{{0, 0}, {0, 1}, {3, 64}, {0, 64}, {63, 65}, {64, 128}, {5, 200}, {0, n}, {250, 400}} {
		ds := make(docSet, (n+63)/64)
		ds.addRange(r[0], r[1])
		want := 0
		for d := range n + 64 {
			in := d >= r[0] && d < r[1] && d < len(ds)*64
			if in {
				want++
			}
			if ds.has(uint32(d)) != in {
				t.Errorf("range %v: has(%d) = %v", r, d, !in)
			}
		}
		if got := ds.count(); got != want {
			t.Errorf("range %v: count %d, want %d", r, got, want)
		}
	}
	if docSet(nil).has(5) || docSet(nil).count() != 0 {
		t.Error("a nil set holds something")
	}
}

// TestWorkOutranksItsCommitMessage: a commit message retells the work in
// the question's words; the answer is where the work was done.
func TestWorkOutranksItsCommitMessage(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(12,
		group(say("The tail worker keeps the byte offset of the transcript lines it has read: it polls every second and reads only what was appended."),
			edit("lib/tail_worker.ex", "+12 -0 def poll(offset)")),
		group(bash(`git add lib/tail_worker.ex && git commit -m "feat: the tail worker keeps track of the transcript lines it has read"`, 0, "")))...)
	hits := m.search("how does the tail worker keep track of the transcript lines it has read", Options{Max: 2})
	if len(hits) == 0 || hits[0].Lines[0] > 13 || hits[0].Lines[1] < 13 {
		t.Errorf("the explanation (line 13) is not the first answer: %+v", hits)
	}
}

func TestSplitProse(t *testing.T) {
	for _, c := range []struct{ cmd, code, prose string }{
		{`git commit -m "feat: tail worker polls the transcript file and keeps its offset"`,
			`git commit -m `, "feat: tail worker polls the transcript file and keeps its offset\n"},
		// A heredoc in a command substitution, cut off by L1's limit.
		{"git commit -m \"$(cat <<'EOF'\nfix: keep the offset when the file is rotated by the logger…",
			"git commit -m ", "$(cat <<'EOF'\nfix: keep the offset when the file is rotated by the logger…\n"},
		// Code in quotes stays code.
		{`python3 -c "import json; d = json.load(open('x')); print(d['a'][0])"`,
			`python3 -c "import json; d = json.load(open('x')); print(d['a'][0])"`, ""},
		{`grep -rn "def poll" lib/`, `grep -rn "def poll" lib/`, ""},
		// A program of several lines is neither: its words are its
		// language's.
		{"head -c 500 x.jsonl | python3 -c \"\nimport sys, json\nfor line in sys.stdin:\n    d = json.loads(line); print(d['type'], d['message']['id'], {k: v for k, v in d.items()})\"",
			"head -c 500 x.jsonl | python3 -c ", ""},
		{`bd close x-1 --reason='Done: the worker keeps its byte offset across restarts now'`,
			`bd close x-1 --reason=`, "Done: the worker keeps its byte offset across restarts now\n"},
	} {
		code, prose, script := splitProse(c.cmd)
		if wantScript := strings.Contains(c.cmd, "\n    "); (script != "") != wantScript {
			t.Errorf("splitProse(%q) gives script %q", c.cmd, script)
		}
		if code != c.code || prose != c.prose {
			t.Errorf("splitProse(%q) = %q, %q; want %q, %q", c.cmd, code, prose, c.code, c.prose)
		}
	}
}

// TestExcerptShowsAMatchingLineAfterTheWindow: a line after the lines
// that match, which holds the question's words too (the fix after the
// failure), is shown by its score, before lines that hold less of it.
func TestExcerptShowsAMatchingLineAfterTheWindow(t *testing.T) {
	m := newMemory(t)
	weak := func(n int) []map[string]any {
		var out []map[string]any
		for i := range n {
			out = append(out, say("Deploy step "+itoa(i)+" done."))
		}
		return out
	}
	recs := append(filler(16), weak(4)...)
	recs = append(recs, say("The deploy script fails on staging: PATH lacks node there."))
	recs = append(recs, weak(4)...)
	recs = append(recs, filler(2)...)
	recs = append(recs, say("Fixed: the staging deploy now sources the profile first, so node is found."))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why does the deploy script fail on staging", Options{Max: 1})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	shown := hits[0].Snippet + "\n" + strings.Join(hits[0].Excerpt, "\n")
	if !strings.Contains(shown, "PATH lacks node") || !strings.Contains(shown, "sources the profile") {
		t.Errorf("the answer shows %q, not both the failure and its fix", shown)
	}
}

// sub marks a record as a subagent's: Claude Code writes its conversation
// after the session's lines.
func sub(agent string, r map[string]any) map[string]any {
	r["agent"] = agent
	return r
}

// TestWindowStaysInItsConversation: the session's last lines and the
// subagent's written after them are two conversations; an answer's
// lines come from one.
func TestWindowStaysInItsConversation(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20), prompt("why does the upload page time out on large files"),
		say("The upload controller reads the whole file into memory before streaming it; large files time out."))
	recs = append(recs,
		sub("a1b2c3", prompt("List the database migrations of the billing tables.")),
		sub("a1b2c3", say("The billing tables have three migrations; none touches uploads of large files.")),
		sub("a1b2c3", bash("ls priv/repo/migrations", 0, "20260101_billing.exs")))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why did the upload page time out with large files", Options{Max: 3})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	if h := hits[0]; h.Lines[0] > 22 || h.Lines[1] < 22 || h.Lines[1] > 22 {
		t.Errorf("first answer at lines %v, want the session's lines ending at 22, before the subagent's from 23", h.Lines)
	}
}

// TestBriefIsAnsweredByTheReport: a question that matches the brief the
// assistant gave a subagent is shown the subagent's report, not its
// first steps.
func TestBriefIsAnsweredByTheReport(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20), say("Let me ask a subagent."))
	recs = append(recs, sub("a7be2f0", prompt("Find out what happens to list_panes when tmux is not running: does it crash or return an error?")))
	for i := range 12 {
		recs = append(recs, sub("a7be2f0", map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "lib/step" + itoa(i) + ".ex"}))
	}
	recs = append(recs, sub("a7be2f0", say("Findings: it never raises; the rescue clause turns the missing server into an {:error, reason} tuple.")))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("what happens to list_panes when tmux is not running", Options{Max: 3})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	h := hits[0]
	if h.Lines[1] < 35 {
		t.Errorf("first answer at lines %v, want the report at 35", h.Lines)
	}
	if !strings.Contains(h.Snippet+strings.Join(h.Excerpt, "\n"), "subagent: Findings") {
		t.Errorf("first answer shows %q %q, want the subagent's report, said by the subagent", h.Snippet, h.Excerpt)
	}
}

// TestAnswerOpensWithTheAssistantsIntent: the assistant's words a few
// lines before the lines that match (what it was about to do, and why)
// open the answer's window even when they share no word with the
// question.
func TestAnswerOpensWithTheAssistantsIntent(t *testing.T) {
	m := newMemory(t)
	read := func(i int) map[string]any {
		return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "lib/part" + itoa(i) + ".ex"}
	}
	var recs []map[string]any
	for i := range 20 {
		recs = append(recs, read(i))
	}
	recs = append(recs, say("This helper has to be a macro: a plain function cannot receive a do-block."), read(20), read(21), read(22), read(23))
	recs = append(recs, bash("mix compile", 1, "error: undefined function with_span/2"))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why did compiling with_span fail", Options{Max: 1})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	if h := hits[0]; h.Lines[0] != 21 || h.Lines[1] < 26 || h.Lines[1]-h.Lines[0] >= 15 {
		t.Errorf("answer at lines %v, want it to open at the assistant's words on 21 and hold the failure on 26, under 15 lines", h.Lines)
	}
}

// TestWhereQuestionsPreferTheFile: of two records that match a question
// alike, the one naming a file answers "where", the other "why".
func TestWhereQuestionsPreferTheFile(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(20,
		group(say("The review tokens stay in memory, with a TTL, in the token store: planned ahead, settled quickly.")),
		group(say("The review tokens stay in memory, with a TTL, in the token store: lib/app/ets_keeper.ex")))...)
	m.wantFirst(map[string]int{
		"where do the review tokens of the token store stay":         42,
		"which file keeps the review tokens of the token store":      42,
		"why do the review tokens of the token store stay in memory": 21,
	})
}

// apart places groups of records gap filler lines from each other and
// from the file's ends, so that none lifts another.
func apart(gap int, groups ...[]map[string]any) []map[string]any {
	recs := filler(gap)
	for _, g := range groups {
		recs = append(recs, g...)
		recs = append(recs, filler(gap)...)
	}
	return recs
}

// group is records written one after the other.
func group(recs ...map[string]any) []map[string]any { return recs }

// wantFirst asks each question and checks the line of its first answer.
func (m *memory) wantFirst(lines map[string]int) {
	m.t.Helper()
	for q, line := range lines {
		hits := m.search(q, Options{Max: 2})
		if len(hits) == 0 || !strings.HasSuffix(hits[0].ID, ":"+itoa(line)) {
			m.t.Errorf("%q: first answer %+v, want the record at line %d", q, hits, line)
		}
	}
}

// TestNamesPath: a path with a file's extension names a file; words
// joined by slashes, fractions, folders and addresses do not.
// TestURLQuestionsPreferTheRoute: a question asking for a URL, a route or
// an endpoint is answered first by the record that names the route, among
// records that match it alike.
func TestURLQuestionsPreferTheRoute(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(20,
		group(say("The project review page lists the open notes of a project, from the dashboard.")),
		group(say("The project review page lists the open notes of a project: live /projects/:id/review")),
		group(say("Each dashboard card links to its session by URL.")))...)
	m.wantFirst(map[string]int{
		"what URL is the project review page of open notes at": 42,
		"which route serves the project review page":           42,
		"how does the project review page list open notes":     21,
	})
}

// TestURLIsAnsweredByTheRouter: a question asking for a URL is answered
// first by the router's edit that defines it, though the commit telling
// of the page holds more of the question's words.
func TestURLIsAnsweredByTheRouter(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(60,
		group(edit("lib/app_web/router.ex", "+1 -0 live(\"/projects/:project_id/review\", ProjectReviewLive)")),
		group(say("The new project review page lists every open note of a project across its sessions; its URL is /projects/:project_id/review, linked from the dashboard.")))...)
	hits := m.search("what URL is the project review page at?", Options{Max: 1})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "router.ex") {
		t.Errorf("the first answer is not the router's edit: %+v", hits)
	}
}

func TestNamesRoute(t *testing.T) {
	for s, want := range map[string]bool{
		`live("/projects/:project_id/review", ProjectReviewLive)`: true,
		"Added `POST /api/hooks/session-end` route":               true,
		"GET /api/review-context/:token":                          true,
		"/:id":                                                    true,
		"cat /tmp/claude-1000/tasks/out.txt":                      false,
		"ls /usr/local/bin":                                       false,
		"lib/spotter_web/router.ex":                               false,
		"see /docs/setup.md":                                      false,
		"/api":                                                    false,
		"and/or":                                                  false,
		"it went 3/4.":                                            false,
		"https://example.com/docs/":                               false,
	} {
		if got := namesRoute(s); got != want {
			t.Errorf("namesRoute(%q) = %v, want %v", s, got, want)
		}
	}
	if !isRouter("lib/spotter_web/router.ex") || !isRouter("config/routes.rb") || isRouter("lib/spotter/route_cache.ex") {
		t.Error("isRouter: want router.ex and routes.rb, not route_cache.ex")
	}
}

func TestNamesPath(t *testing.T) {
	for s, want := range map[string]bool{
		"lib/spotter_web/router.ex":                      true,
		"moved it to `priv/scripts/tail_wrapper.sh`.":    true,
		"see .claude/memory/sessions/x.l1.jsonl, line 3": true,
		"mv scripts/a.sh priv/scripts/a.sh":              true,
		"and/or":                                         false,
		"mount/handle_params/handle_event":               false,
		"1/2 of the tests":                               false,
		"/tmp":                                           false,
		"it went 3/4.":                                   false,
		"a plain sentence. With dots. No slash":          false,
		"https://example.com/docs/":                      false,
	} {
		if got := namesPath(s); got != want {
			t.Errorf("namesPath(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestWhyQuestionsPreferTheAssistantsWords: of a change and the
// assistant's words that match a question alike, the words answer "why",
// the change "what changed".
func TestWhyQuestionsPreferTheAssistantsWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(20,
		group(bash("sed -i 's/cache: true/cache: false/' deploy/assets.yml", 0, "asset cache off on deploy; stale bundles broke the page")),
		group(say("The asset cache is off on deploy: stale bundles broke the page.")))...)
	m.wantFirst(map[string]int{
		"why is the asset cache off on deploy":      42,
		"what turned the asset cache off on deploy": 21,
	})
}

// TestAnswerEndsWithTheAction: an answer whose lines end on the assistant
// saying what it will do holds the call that does it.
func TestAnswerEndsWithTheAction(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20), say("The stylesheet is ignored by git: the assets folder is build output."))
	for i := range 5 {
		recs = append(recs, map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "config/part" + itoa(i) + ".exs"})
	}
	recs = append(recs, say("The other file there was force-added; I will do the same."), bash("git add -f priv/static/app.css", 0, ""))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why is the stylesheet ignored by git", Options{Max: 1})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	if h := hits[0]; h.Lines[0] > 21 || h.Lines[1] != 28 {
		t.Errorf("answer at lines %v, want 21 to 28: the matching line, what follows, and the call the assistant announced", h.Lines)
	}
}

// TestAnswerReachesANearbyRecordAsGood: a record nearly as good as the
// answer's own, ten lines from it in the same conversation, joins the
// answer's lines; one further away is an answer of its own.
func TestAnswerReachesANearbyRecordAsGood(t *testing.T) {
	read := func(i int) map[string]any {
		return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "lib/part" + itoa(i) + ".ex"}
	}
	why := say("with_span in OtelTraceHelpers has to take do blocks: let me rewrite it to be a macro.")
	what := say("The macro needs OpenTelemetry.Tracer required first; OtelTraceHelpers compiles now.")
	q := "why was with_span in OtelTraceHelpers turned into a macro"
	for _, c := range []struct {
		gap  int
		join bool
	}{{9, true}, {20, true}, {30, false}} {
		m := newMemory(t)
		recs := append(filler(20), why)
		for i := range c.gap {
			recs = append(recs, read(i))
		}
		recs = append(recs, what)
		recs = append(recs, filler(20)...)
		m.l1("2026-02-11_1000_aaaa1111", false, recs...)
		hits := m.search(q, Options{Max: 2})
		if len(hits) == 0 {
			t.Fatal("nothing found")
		}
		h, far := hits[0], 21+c.gap+1
		joined := h.Lines[0] <= 21 && h.Lines[1] >= far
		if joined != c.join || h.Lines[1]-h.Lines[0] >= siblingLines {
			t.Errorf("gap %d: first answer at lines %v; want the records on lines 21 and %d in it: %v, under %d lines", c.gap, h.Lines, far, c.join, siblingLines)
		}
		if !c.join && (len(hits) < 2 || hits[1].Lines == h.Lines) {
			t.Errorf("gap %d: answers %+v; want the other record an answer of its own", c.gap, hits)
		}
	}
}

// TestFrameWordsDoNotAnswer: a question about what recurred frames its
// subject with words of occasions ("in which pieces of work did that
// come up"); a record that happens to hold them is no answer, the
// record of the subject is.
func TestFrameWordsDoNotAnswer(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(12,
		group(say("Let me work through the pieces that come up next: the stylesheet grid, then the expand controls.")),
		group(bash("git add priv/static/assets/app.css && git commit -m 'feat: grid'", 1, "The following paths are ignored by one of your .gitignore files: priv/static/assets"),
			say("The stylesheet is ignored; forcing it in with add -f priv/static/assets/app.css.")),
	)...)
	m.wantFirst(map[string]int{
		"in which pieces of work did git ignore the stylesheet, and when did it come up?": 26,
	})
}

// TestFrameStems: the frame words' stems written in search.go are what
// the stemmer gives them.
func TestFrameStems(t *testing.T) {
	frameWords := []string{"piece", "pieces", "come", "comes", "came", "happen", "happens", "happened", "time", "times", "several", "occasion", "occasions"}
	tok := newTokenizer()
	var got []string
	for _, w := range frameWords {
		got = append(got, tok.stem(w))
	}
	slices.Sort(got)
	if got = slices.Compact(got); !slices.Equal(got, frameStems) {
		t.Errorf("frameStems = %v, the stemmer gives %v", frameStems, got)
	}
}

// TestFailureInOtherWords: a question that says something was refused,
// rejected or complained about asks what failed.
func TestFailureInOtherWords(t *testing.T) {
	for q, want := range map[string]bool{
		"git keeps refusing the stylesheet when we commit":         true,
		"why was the push rejected":                                true,
		"what did the linter complain about":                       true,
		"which file holds the stylesheet":                          false,
		"how did we refactor the review page after the complaints": false,
	} {
		if got := intentOf(q).failed; got != want {
			t.Errorf("intentOf(%q).failed = %v, want %v", q, got, want)
		}
	}
}

// TestPlaceInOtherWords: a question asks where by "where", or by a place
// noun a few words after "which" or "what".
func TestPlaceInOtherWords(t *testing.T) {
	for q, want := range map[string]bool{
		"where is the stylesheet":                                   true,
		"which file holds the stylesheet":                           true,
		"Which plugin shell script pulls the notes?":                true,
		"what test helper module builds the fixtures":               true,
		"which tests failed after the rename":                       false,
		"what did the script print when the server was not running": false,
	} {
		if got := intentOf(q).place; got != want {
			t.Errorf("intentOf(%q).place = %v, want %v", q, got, want)
		}
	}
}

// TestLongExchangeGivesSeveralAnswers: an exchange the agent worked
// through alone runs for a hundred lines and more; a place of it far
// from the answer it already gives is an answer of its own, not dropped
// as the same exchange, while a record near that answer still joins it.
func TestLongExchangeGivesSeveralAnswers(t *testing.T) {
	// The record apart is far from the answer (90 lines) or near it but
	// too far to join its window (25 lines): an answer of its own, not
	// lost to the exchange's first answer, either way.
	for _, gap := range []int{90, 25} {
		m := newMemory(t)
		base := "2026-02-11_1000_aaaa1111"
		first := say("Dialyzer complains about SubagentLive: the pattern match in load_subagent_data.")
		near := say("Dialyzer still complains about SubagentLive after the format run.")
		far := bash("mix dialyzer --format short | grep subagent_live", 0, "lib/spotter_web/live/subagent_live.ex:25:guard_fail The guard clause can never succeed.")
		recs := append(filler(10), first)
		recs = append(recs, filler(4)...)
		recs = append(recs, near)
		recs = append(recs, filler(gap)...)
		recs = append(recs, far)
		recs = append(recs, filler(10)...)
		m.l1(base, false, recs...)
		m.write(m.l.L2File(base), map[string]any{"session_id": "aaaa1111-0000", "l1": base + ".l1.jsonl", "exchanges": []map[string]any{
			{"id": "x-1", "summary": "Unified the transcript views", "l1_range": []int{1, len(recs)}},
		}})
		hits := m.search("what did dialyzer complain about in SubagentLive", Options{Max: 5})
		var lines [][2]int
		for _, h := range hits {
			lines = append(lines, h.Lines)
		}
		has := func(line int) int {
			n := 0
			for _, l := range lines {
				if l[0] <= line && line <= l[1] {
					n++
				}
			}
			return n
		}
		if apart := 17 + gap; has(11) != 1 || has(16) != 1 || has(apart) != 1 {
			t.Errorf("gap %d: answers at lines %v; want lines 11 and 16 in one answer and line %d in another", gap, lines, apart)
		}
		for _, h := range hits {
			if h.Lines[0] <= 11 && 11 <= h.Lines[1] && !(h.Lines[0] <= 16 && 16 <= h.Lines[1]) {
				t.Errorf("gap %d: the record 5 lines from the answer is an answer apart: %v", gap, lines)
			}
		}
	}
}

// TestL1Of: a session's L1 file is found by the session's id, its first
// eight characters or its base, and by nothing that merely ends alike.
func TestL1Of(t *testing.T) {
	for _, c := range []struct {
		name, session string
		want          bool
	}{
		{"sessions/2026-02-11_2036_258c7280.l1.jsonl", "258c7280-ae70-4798-800f-63464d01a85d", true},
		{"sessions/2026-02-11_2036_258c7280.l1.jsonl", "258c7280", true},
		{"sessions/2026-02-11_2036_258c7280.l1.jsonl", "2026-02-11_2036_258c7280", true},
		{"sessions/2026-02-11_2036_258c7280.l1.jsonl", "", true},
		{"sessions/2026-02-11_2036_258c7280.l2.json", "258c7280", false},
		{"sessions/2026-02-11_2036_x258c7280.l1.jsonl", "258c7280", false},
		{"sessions/2026-02-11_2036_258c7281.l1.jsonl", "258c7280", false},
		{"258c7280.l1.jsonl", "258c7280", false},
	} {
		if got := l1Of(c.session)(c.name); got != c.want {
			t.Errorf("l1Of(%q, %q) = %v, want %v", c.name, c.session, got, c.want)
		}
	}
}

// TestAnswerJustPastAnother: a record that answers lies a few lines past
// a better answer's lines, inside the lines its own answer would show
// before it: it is an answer of its own, showing the lines on its side,
// not lost to the better one.
func TestAnswerJustPastAnother(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(20),
		bash("grep -r set_text_map_propagators deps/opentelemetry_api/src", 1, "no match: set_text_map_propagators does not exist"),
		say("set_text_map_propagators does not exist in the opentelemetry API; set_text_map_propagator takes one."))
	recs = append(recs, filler(7)...)
	recs = append(recs, say("So the propagators are configured through the app environment instead, in config.exs."))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	answer := 21 + 2 + 7
	hits := m.search("set_text_map_propagators does not exist: how were the propagators configured instead?", Options{Max: 3})
	var lines [][2]int
	for _, h := range hits {
		lines = append(lines, h.Lines)
	}
	if len(hits) < 2 || hits[0].Lines[0] > 21 || hits[0].Lines[1] < 22 {
		t.Fatalf("answers at lines %v; want the first holding lines 21–22, and another", lines)
	}
	if !slices.ContainsFunc(hits[1:], func(h Hit) bool { return h.Lines[0] <= answer && answer <= h.Lines[1] && h.Lines[0] > hits[0].Lines[1] }) {
		t.Errorf("answers at lines %v; want one past the first's lines holding line %d", lines, answer)
	}
}

// TestFeedbackDocs: a caller on a budget (the prompt hook) expands its
// query from the first answers only in a memory of at most FeedbackDocs
// records; past it, the search is the first pass alone.
func TestFeedbackDocs(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(60),
		say("Long tool results are truncated to five rows in the transcript view."),
		edit("lib/spotter_web/live/transcript_components.ex", "+3 -0 @max_result_rows 5"),
		say("The transcript components fold a long result behind a toggle."))
	recs = append(recs, filler(20)...)
	recs = append(recs, say("The toggle in the transcript components shows every row again."))
	m.l1("2026-02-11_1000_aaaa1111", false, append(recs, filler(20)...)...)
	ix := m.open()
	q := "why are long results cut short on screen"
	scores := func(o Options) []float64 {
		var out []float64
		for _, h := range ix.Search(q, o) {
			out = append(out, h.Score)
		}
		return out
	}
	first, both := scores(Options{NoFeedback: true}), scores(Options{})
	if len(first) == 0 || slices.Equal(first, both) {
		t.Fatalf("the second pass changes nothing here (%v, %v): no case for the option", first, both)
	}
	if got := scores(Options{FeedbackDocs: 1}); !slices.Equal(got, first) {
		t.Errorf("memory over FeedbackDocs: scores %v, want the first pass's %v", got, first)
	}
	if got := scores(Options{FeedbackDocs: 1000}); !slices.Equal(got, both) {
		t.Errorf("memory under FeedbackDocs: scores %v, want both passes' %v", got, both)
	}
}

// TestOneCompactionPerSession: a session compacted twice retells its
// first summary in its second; one of them answers, and the other places
// of the session keep their rank.
func TestOneCompactionPerSession(t *testing.T) {
	m := newMemory(t)
	summary := "Summary: the tail worker follows the transcript file with tail -F and broadcasts each new line."
	compact := map[string]any{"ts": "2026-02-11T10:00:01Z", "k": "compact", "text": summary}
	recs := append(filler(30), say("The tail worker broadcasts a new line of the transcript file to the session page."))
	recs = append(recs, filler(30)...)
	recs = append(recs, compact)
	recs = append(recs, filler(30)...)
	recs = append(recs, map[string]any{"ts": "2026-02-11T10:00:01Z", "k": "compact", "text": summary + " Then the tests were fixed."})
	recs = append(recs, filler(30)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("how does the tail worker broadcast new transcript lines", Options{Max: 5})
	compacts, work := 0, false
	for _, h := range hits {
		if h.Kind == "compact" {
			compacts++
		}
		work = work || h.Lines[0] <= 31 && 31 <= h.Lines[1]
	}
	if compacts != 1 || !work {
		t.Errorf("answers %+v: want one compaction summary and the record of the work (line 31)", hits)
	}
}

// TestSessionsOwnWorkBeforeASubagents: an explorer subagent's report
// retells the code at length; where it and the session's own words match
// a question alike, the session's own lines, where the work was done,
// come first.
func TestSessionsOwnWorkBeforeASubagents(t *testing.T) {
	m := newMemory(t)
	report := say("The tail worker follows the transcript file with tail -F. The tail worker broadcasts each new transcript line.")
	report["agent"] = "a1b2c3"
	m.l1("2026-02-11_1000_aaaa1111", false, apart(20,
		group(say("The tail worker follows the transcript file with tail -F and broadcasts each line.")),
		group(report))...)
	m.wantFirst(map[string]int{"how does the tail worker follow the transcript file": 21})
}

// TestThresholdSaysWhetherNotWhich: an answer ranked above the first that
// covers the threshold of the question is kept; past it, one that covers
// less is dropped; and no answer is given when none covers it.
func TestThresholdSaysWhetherNotWhich(t *testing.T) {
	us := func(covs ...float64) []unit {
		var out []unit
		for i, c := range covs {
			out = append(out, unit{raw: float64(i), coverage: c})
		}
		return out
	}
	for _, c := range []struct {
		covs []float64
		want []float64
	}{
		{[]float64{0.29, 0.5, 0.2, 0.4}, []float64{0.29, 0.5, 0.4}},
		{[]float64{0.6, 0.1, 0.3}, []float64{0.6, 0.3}},
		{[]float64{0.29, 0.2}, nil},
	} {
		var got []float64
		for _, u := range answering(us(c.covs...), 0.3) {
			got = append(got, u.coverage)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("answering(%v, 0.3) = %v, want %v", c.covs, got, c.want)
		}
	}
}

// TestAmountQuestionsShowTheNumber: a question asking how often is shown
// the sentence telling it, though its other words are shown already; an
// edit's changed line that holds the question is shown beside its
// summary.
func TestAmountQuestionsShowTheNumber(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Done. The `lib/app/activity_registry.ex` module is a GenServer with an ETS table tracking each session's activity (active, ended, inactive), with a public API for the hooks. It sweeps stale sessions every 15s with a 90s TTL. It broadcasts on the activity topic.\n- `test/app/activity_registry_test.exs` covers the registry's sessions: start, touch, end and the status of each session.\n- The hooks controller touches the activity registry on every call, so that a session's activity stays fresh.\n- The dashboard shows the activity registry's sessions."),
		edit("lib/app/token_store.ex", "+40 -0 defmodule App.TokenStore do\nuse GenServer\n@table :tokens\n@default_ttl_seconds 120\ndef mint(project_id) do"))...)
	hits := m.search("how often does the activity registry go over its sessions?", Options{Max: 1})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "every 15s") {
		t.Errorf("how often: %+v", hits)
	}
	hits = m.search("what ttl seconds does the token store default to?", Options{Max: 1})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "@default_ttl_seconds 120") || !strings.Contains(hits[0].Snippet, "+40 -0") {
		t.Errorf("an edit's changed line: %+v", hits)
	}
}

// TestHowLongQuestionsPreferADuration: of two answers that match a
// question asking how long alike, the one telling a duration comes first.
func TestHowLongQuestionsPreferADuration(t *testing.T) {
	m := newMemory(t)
	recs := append(filler(10), say("The activity registry tracks each session's status."))
	recs = append(recs, filler(30)...)
	recs = append(recs, say("The activity registry drops a session's status after 90s."))
	recs = append(recs, filler(10)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("how long does the activity registry hold a session's status?", Options{Max: 2})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "90s") {
		t.Errorf("the first answer does not tell how long: %+v", hits)
	}
}

// TestHowLongIsAnsweredByTheCodeThatSetsIt: a question asking how long
// is answered first by the edit that sets the duration, though its words
// are the account's, and that edit is shown at the line setting it.
func TestHowLongIsAnsweredByTheCodeThatSetsIt(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(60,
		group(say("The session tracker keeps its sessions in an ETS table, and the hooks touch it.")),
		group(edit("lib/app/activity_registry.ex", "+60 -0 defmodule App.ActivityRegistry do\n@moduledoc \"Tracks the sessions the hooks report.\"\nuse GenServer\n@table :activity\n@ttl_seconds 90\ndef touch(session_id) do\n:ets.insert(@table, {session_id, now()})")),
		group(say("The dashboard lists each session with its status.")))...)
	hits := m.search("how long can a session go quiet before the tracker stops treating it as live?", Options{Max: 1})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "@ttl_seconds 90") {
		t.Errorf("the first answer is not the code setting how long: %+v", hits)
	}
	// An edit whose one changed line sets it: the line follows the
	// edit's counts.
	m = newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(60,
		group(say("The session page shows the new lines the worker reads.")),
		group(edit("lib/app/tail_worker.ex", "+1 -1 @debounce_ms 500")),
		group(say("The dashboard lists each session with its status.")))...)
	hits = m.search("how long does the tail worker wait before it ingests new lines?", Options{Max: 1})
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "@debounce_ms 500") {
		t.Errorf("the first answer is not the one-line edit setting how long: %+v", hits)
	}
}

// TestExcerptShowsARetriedCallOnce: a commit tried three times reads the
// same in an answer's lines; it is shown once, and the room goes to the
// next line that bears on the question.
func TestExcerptShowsARetriedCallOnce(t *testing.T) {
	m := newMemory(t)
	commit := `git add -A && git commit -m "feat: trace the hook controllers with spans and a trace id header"`
	recs := append(filler(16), say("The hook controllers now open a span for each call and put the trace id in a header."))
	for range 3 {
		recs = append(recs, bash(commit, 1, "Pre-commit validation failed: dialyzer found 2 warnings in the trace helpers"))
	}
	recs = append(recs, say("The dialyzer warnings about the trace helpers are the OTEL library's opaque record: they go in .dialyzerignore."))
	recs = append(recs, filler(20)...)
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	hits := m.search("why did committing the trace header work for the hook controllers fail on dialyzer", Options{Max: 1})
	if len(hits) == 0 {
		t.Fatal("nothing found")
	}
	commits := 0
	for _, e := range append([]string{hits[0].Snippet}, hits[0].Excerpt...) {
		if strings.Contains(e, "git commit") {
			commits++
		}
	}
	if commits != 1 {
		t.Errorf("the commit is shown %d times, want once: %q / %q", commits, hits[0].Snippet, hits[0].Excerpt)
	}
	if shown := hits[0].Snippet + strings.Join(hits[0].Excerpt, "\n"); !strings.Contains(shown, ".dialyzerignore") {
		t.Errorf("the answer does not show the reason: %q / %q", hits[0].Snippet, hits[0].Excerpt)
	}
}

// TestTheSameWordsAreOneAnswer: a compaction summary and the compacting
// subagent's report of it say the same words; they are one answer, and
// the next answer takes the other place.
func TestTheSameWordsAreOneAnswer(t *testing.T) {
	summary := "The tail worker follows the session log and ingests new lines after a debounce."
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(30,
		group(map[string]any{"ts": "2026-02-11T10:00:00Z", "k": "compact", "text": summary}),
		group(map[string]any{"ts": "2026-02-11T10:00:00Z", "k": "text", "agent": "acompact-1", "text": summary}),
		group(say("The tail worker was started by the supervisor for each live session.")))...)
	hits := m.search("how does the tail worker ingest new lines?", Options{Max: 2})
	if len(hits) != 2 || strings.TrimPrefix(strings.TrimPrefix(hits[0].Snippet, "summary: "), "subagent: ") == strings.TrimPrefix(strings.TrimPrefix(hits[1].Snippet, "summary: "), "subagent: ") || !strings.Contains(hits[1].Snippet+hits[0].Snippet, "supervisor") {
		t.Errorf("the same words twice, or the other answer left out: %+v", hits)
	}
}

// TestWorkBeforeTheCompactionSummary: a compaction summary retells the
// whole session in many of a question's words; the record of the work
// that answers it, in fewer of them, comes first.
func TestWorkBeforeTheCompactionSummary(t *testing.T) {
	m := newMemory(t)
	summary := "Summary: 1. The user asked for live transcripts. 2. The registry tracks active sessions and sweeps stale ones every 15s. " +
		"3. The tail worker follows each session's transcript file with tail -F, debounces the appended lines and re-imports them, " +
		"then broadcasts to the session page. 4. The supervisor starts one worker per session and stops it when the session ends. " +
		"5. Errors: credo flagged a nested module, the compiler an unused alias in a rescue. 6. The hooks controller touches the registry " +
		"on every tool call, the session page subscribes to the transcript topic, and the tests cover the worker, the page and the import."
	m.l1("2026-02-11_1000_aaaa1111", false, apart(12,
		group(edit("lib/tail_worker.ex", "+3 -0 @debounce_ms 500\n# appended lines are re-imported once the debounce fires, not after every line")),
		group(map[string]any{"ts": "2026-02-11T10:00:01Z", "k": "compact", "text": summary}))...)
	m.wantFirst(map[string]int{"how does the tail worker avoid re-importing the transcript after every appended line?": 13})
}

// TestBlockKeywordsAreNoWords: a question telling a block of code by its
// keywords ("do...end") asks about the block, not about every record that
// says something ended.
func TestBlockKeywordsAreNoWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, apart(10,
		group(edit("scripts/notify-session-end.sh", "+4 -0 # Sends POST to the session-end endpoint when a session has ended.\n# Source the trace helper; fails silently at the end if the endpoint is down.")),
		group(say("The helper broke: its do block is passed as an argument to with_span, which expects a function, so it became a macro.")))...)
	m.wantFirst(map[string]int{
		"why did the span helper for the endpoints break when used with a do...end block?": 22,
		"the span helper for the endpoints didn't accept a do/end block at first. why?":    22,
	})
}

// TestSortedLinesFind: a key is found on any line of the table, first and
// last, with its value or alone, and a key no line holds is not, whether
// it sorts before every line, after every line, between two, or is a
// prefix of one.
func TestSortedLinesFind(t *testing.T) {
	for _, text := range []string{"alpha\t1\nbeta\ngamma\t3 4\nzeta\tz", "alpha\t1\nbeta\ngamma\t3 4\nzeta\tz\n"} {
		s := newSortedLines(text)
		for key, want := range map[string]string{"alpha": "1", "beta": "", "gamma": "3 4", "zeta": "z"} {
			if got, ok := s.find(key); !ok || got != want {
				t.Errorf("find(%q) = %q, %v, want %q", key, got, ok, want)
			}
		}
		for _, key := range []string{"", "a", "alph", "alphas", "b", "delta", "zeta2", "zz"} {
			if got, ok := s.find(key); ok {
				t.Errorf("find(%q) = %q: no line holds it", key, got)
			}
		}
	}
	// Every line of the embedded tables is found by its key.
	for _, table := range []sortedLines{kindTable, thingTable} {
		for l := range strings.Lines(table.text) {
			key, value, _ := strings.Cut(strings.TrimSuffix(l, "\n"), "\t")
			if got, ok := table.find(key); !ok || got != value {
				t.Fatalf("find(%q) = %q, %v, want %q", key, got, ok, value)
			}
		}
	}
}

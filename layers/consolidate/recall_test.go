package consolidate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// realMemory consolidates up to n of the real transcripts into a project
// and returns it with the typed prompts of those sessions, to use as
// queries.
func realMemory(t *testing.T, n int) (memdir.Layout, []string) {
	t.Helper()
	files := fixtures.SharedOrSkip(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	l, _ := memdir.Find(dir)
	os.MkdirAll(l.SessionsDir(), 0o755)
	var prompts []string
	for i, path := range files {
		if i == n {
			break
		}
		recs, _, err := l1.RefineFile(path, l1.Options{})
		if err != nil || len(recs) == 0 {
			continue
		}
		start, err := time.Parse(time.RFC3339, recs[0].TS)
		if err != nil {
			continue
		}
		base := memdir.SessionBase(start, filepath.Base(path))
		if err := os.WriteFile(l.L1File(base), l1.Encode(recs), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Consolidate(l, Options{Deep: true}); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Kind == l1.KindPrompt && len(prompts) < 120 {
				prompts = append(prompts, r.Text)
			}
		}
	}
	return l, append(prompts, "credo alias", "tmux session registry", "lib/spotter/services/tmux.ex", "why do the tests fail", "")
}

// sameAsSearch checks Recall against l4.Search over the whole memory.
func sameAsSearch(t *testing.T, l memdir.Layout, queries []string) (found int) {
	t.Helper()
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	opts := l4.SearchOptions{Threshold: 0.2, Max: 10}
	for _, q := range queries {
		got, err := Recall(l, q, opts)
		if err != nil {
			t.Fatal(err)
		}
		if want := l4.Search(m.Facts, m.Concepts, m.Sessions, q, opts); !reflect.DeepEqual(got, want) {
			t.Fatalf("Recall(%.60q):\n got  %v\n want %v", q, got, want)
		}
		found += len(got)
	}
	return found
}

func indexStamp(t *testing.T, l memdir.Layout) time.Time {
	t.Helper()
	fi, err := os.Stat(recallIndexPath(l))
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// touch gives a file a modification time of its own, as a later write
// would (tests run faster than some file systems' clocks tick).
func touch(t *testing.T, path string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestRecallFollowsTheFiles holds Recall, which answers from the recall
// index, to a search of the memory as it is on disk, as files change
// after the index was built.
func TestRecallFollowsTheFiles(t *testing.T) {
	l, queries := realMemory(t, 8)
	found := sameAsSearch(t, l, queries)
	if found < len(queries) {
		t.Fatalf("%d queries found %d memories: the test proves little", len(queries), found)
	}
	t.Logf("%d queries found %d memories", len(queries), found)
	built := indexStamp(t, l)
	later := time.Now().Add(time.Hour)

	// A session's memory changes (as after a Stop), another goes, and
	// the rules change: read beside the index, which stays as it is.
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Sessions) < 3 {
		t.Fatalf("only %d sessions consolidated", len(m.Sessions))
	}
	first := m.Sessions[0]
	first.Exchanges = first.Exchanges[:len(first.Exchanges)/2]
	if err := first.Save(l.L2File(first.Base())); err != nil {
		t.Fatal(err)
	}
	touch(t, l.L2File(first.Base()), later)
	if err := os.Remove(l.L2File(m.Sessions[1].Base())); err != nil {
		t.Fatal(err)
	}
	m.Facts.Rules = append(m.Facts.Rules, l4.Rule{ID: "r-test", Text: "Always run mix credo before pushing to the tmux session registry", Confidence: 0.9})
	if err := m.Facts.Save(l.FactsFile()); err != nil {
		t.Fatal(err)
	}
	touch(t, l.FactsFile(), later)
	sameAsSearch(t, l, queries)
	if !indexStamp(t, l).Equal(built) {
		t.Error("the index was rebuilt for three changed files")
	}
	hits, _ := Recall(l, "credo tmux session registry", l4.SearchOptions{Threshold: 0.2, Max: 3})
	if len(hits) == 0 || hits[0].ID != "r-test" {
		t.Errorf("the new rule is not the first hit: %v", hits)
	}

	// Warming builds it from the files as they are.
	if err := WarmRecall(l); err != nil {
		t.Fatal(err)
	}
	sameAsSearch(t, l, queries)

	// A damaged index is rebuilt, and the answers stay right.
	if err := os.WriteFile(recallIndexPath(l), []byte("memkeep-recall1\ngarbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	sameAsSearch(t, l, queries)
	if b, _ := os.ReadFile(recallIndexPath(l)); len(b) < 100 {
		t.Error("the damaged index was not replaced")
	}
}

// TestRecallRebuildsAfterManyChanges: past rebuildAfter changed files (a
// pull), Recall builds the index again rather than reading them all on
// every prompt.
func TestRecallRebuildsAfterManyChanges(t *testing.T) {
	l, queries := realMemory(t, 20)
	sameAsSearch(t, l, queries[:5])
	ss, _ := filepath.Glob(filepath.Join(l.SessionsDir(), "*.l2.json"))
	if len(ss) <= rebuildAfter {
		t.Skipf("only %d sessions with L2", len(ss))
	}
	later := time.Now().Add(time.Hour)
	for _, p := range ss {
		touch(t, p, later)
	}
	before := indexStamp(t, l)
	time.Sleep(10 * time.Millisecond)
	sameAsSearch(t, l, queries)
	if indexStamp(t, l).Equal(before) {
		t.Errorf("%d files changed and the index was not rebuilt", len(ss))
	}
}

// TestContextReadsOnlyRecentSessions: the SessionStart context, which
// reads only the newest sessions' L2 files, is what rendering the whole
// memory gives.
func TestContextReadsOnlyRecentSessions(t *testing.T) {
	l, _ := realMemory(t, 12)
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	// The oldest session's L2 file is damaged: reading it would fail, and
	// the context must not need it.
	if len(m.Sessions) < 5 {
		t.Fatalf("only %d sessions", len(m.Sessions))
	}
	if err := os.WriteFile(l.L2File(m.Sessions[0].Base()), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []render.ContextOptions{{Budget: 6000}, {Budget: 2000, Branch: "feature/tmux-sessions"}, {Budget: 9000, Files: []string{"lib/spotter/services/tmux.ex"}}} {
		got, err := Context(l, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := render.Context(m.View(), opts)
		if opts.Budget == 6000 && strings.Count(want, "\n- ") < 8 || !strings.Contains(want, "## Recent") {
			t.Fatalf("the context shows too little to prove anything:\n%s", want)
		}
		if got != want {
			t.Errorf("%+v: context from the recent sessions differs from the whole memory's:\n got %s\nwant %s", opts, got, want)
		}
	}
}

// TestRecallSeesARewriteThatKeepsTheTimes: a file rewritten with the same
// size and its modification time set back (rsync -a, cp -p) is read again.
func TestRecallSeesARewriteThatKeepsTheTimes(t *testing.T) {
	l, _ := realMemory(t, 3)
	m, err := Load(l)
	if err != nil || len(m.Sessions) == 0 || len(m.Sessions[0].Exchanges) == 0 {
		t.Fatalf("no session with exchanges: %v", err)
	}
	s := m.Sessions[0]
	p := l.L2File(s.Base())
	before, _ := os.Stat(p)
	if err := WarmRecall(l); err != nil {
		t.Fatal(err)
	}
	old := s.Exchanges[0].Summary
	s.Exchanges[0].Summary = strings.Repeat("z", len(old)) // same size
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(p); after.Size() != before.Size() {
		t.Fatalf("size changed: %d -> %d", before.Size(), after.Size())
	}
	os.Chtimes(p, before.ModTime(), before.ModTime())
	m2, _ := Load(l)
	opts := l4.SearchOptions{Threshold: 0.1, Max: 5}
	got, err := Recall(l, old, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := l4.Search(m2.Facts, m2.Concepts, m2.Sessions, old, opts); !reflect.DeepEqual(got, want) {
		t.Errorf("recall after a rewrite with the times set back:\n got  %v\n want %v", got, want)
	}
}

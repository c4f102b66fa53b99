package consolidate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// realMemory consolidates up to n of the real transcripts into a project.
func realMemory(t *testing.T, n int) memdir.Layout {
	t.Helper()
	files := fixtures.SharedOrSkip(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	l, _ := memdir.Find(dir)
	os.MkdirAll(l.SessionsDir(), 0o755)
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
	}
	return l
}

// TestContextReadsOnlyRecentSessions: the SessionStart context, which
// reads only the newest sessions' L2 files, is what rendering the whole
// memory gives.
func TestContextReadsOnlyRecentSessions(t *testing.T) {
	l := realMemory(t, 12)
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
		got, _, err := ContextWithSources(l, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := render.Context(m.View(), opts)
		// The largest budgets reach the recent exchanges, after the
		// decisions, solutions and concepts.
		if opts.Budget >= 6000 && (strings.Count(want, "\n- ") < 8 || !strings.Contains(want, "## Recent")) {
			t.Fatalf("the context shows too little to prove anything:\n%s", want)
		}
		if got != want {
			t.Errorf("%+v: context from the recent sessions differs from the whole memory's:\n got %s\nwant %s", opts, got, want)
		}
	}
}

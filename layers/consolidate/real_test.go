package consolidate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

const realSession = "../../../shared/transcripts/spotter-2.1.39/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl"

// TestDeepConsolidationOfRealSession runs the whole pipeline over a real
// 3.5 MB session refined to L1, at the session's own date (so nothing has
// expired), twice: the second run must write nothing.
func TestDeepConsolidationOfRealSession(t *testing.T) {
	if _, err := os.Stat(realSession); err != nil {
		t.Skip("real transcripts not available:", err)
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	l, _ := memdir.Find(dir)
	recs, _, err := l1.RefineFile(realSession, l1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(l.SessionsDir(), 0o755)
	b := "2026-02-12_1536_fa812bfe"
	if err := os.WriteFile(l.L1File(b), l1.Encode(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func() time.Time { return time.Date(2026, 2, 12, 18, 0, 0, 0, time.UTC) }
	start := time.Now()
	sum, err := Consolidate(l, Options{Deep: true, Now: at})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("deep consolidation of %d L1 records: %v, %s", len(recs), took, sum)
	if sum.Added < 3 || sum.Assigned != sum.Added || !sum.Rendered {
		t.Errorf("summary %+v: want the exchanges added, all assigned, memory.md rendered", sum)
	}
	st, err := Pending(l, "fa812bfe-b295-4cca-9c2f-fdf01028cb46")
	if err != nil || !st.Done() {
		t.Errorf("after deep consolidation still pending: %+v (%v)", st.Layers, err)
	}
	again, err := Consolidate(l, Options{Deep: true, Now: at})
	if err != nil || again.Changed() {
		t.Errorf("second deep consolidation wrote %v (%v)", again.Written, err)
	}
}

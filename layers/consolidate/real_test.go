package consolidate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

const realSession = "../../../shared/transcripts/spotter-2.1.39/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl"

// TestDeepConsolidationOfRealSession runs the whole pipeline over a real
// 3.5 MB session refined to L1, recorded in February and consolidated on
// today's clock, twice: nothing is lost to the calendar (TTLs count from
// the project's latest activity), and the second run writes nothing.
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
	start := time.Now()
	sum, err := Consolidate(l, Options{Deep: true})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("deep consolidation of %d L1 records: %v, %s", len(recs), took, sum)
	if sum.Added < 3 || sum.Assigned != sum.Added || !sum.Rendered {
		t.Errorf("summary %+v: want the exchanges added, all assigned, memory.md rendered", sum)
	}
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.Session(b).Exchanges); n != sum.Added {
		t.Errorf("%d exchanges stored after consolidating, %d added: imported history was dropped", n, sum.Added)
	}
	if md, _ := os.ReadFile(l.DigestFile()); !strings.Contains(string(md), b) {
		t.Errorf("memory.md lists no exchange of the only (imported) session:\n%s", md)
	}
	st, err := Pending(l, "fa812bfe-b295-4cca-9c2f-fdf01028cb46")
	if err != nil || !st.Done() {
		t.Errorf("after deep consolidation still pending: %+v (%v)", st.Layers, err)
	}
	again, err := Consolidate(l, Options{Deep: true})
	if err != nil || again.Changed() {
		t.Errorf("second deep consolidation wrote %v (%v)", again.Written, err)
	}
}

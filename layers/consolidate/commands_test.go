package consolidate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

// TestL3CommandsRunInOrder: the L3 commands Stop prints, run in order as
// the agent runs them, all succeed, and leave the session's records with
// a concept. (Two proposals of close names used to make the second
// command fail: "too close to the existing concept".)
func TestL3CommandsRunInOrder(t *testing.T) {
	files := fixtures.SharedOrSkip(t)
	var ran int
	for _, path := range files {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".git"), 0o755)
		l, _ := memdir.Find(dir)
		os.MkdirAll(l.SessionsDir(), 0o755)
		recs, rst, err := l1.RefineFile(path, l1.Options{})
		if err != nil || len(recs) == 0 || rst.SessionID == "" {
			continue
		}
		start, err := time.Parse(time.RFC3339, recs[0].TS)
		if err != nil {
			continue
		}
		sid := rst.SessionID
		base := memdir.SessionBase(start, sid)
		os.WriteFile(l.L1File(base), l1.Encode(recs), 0o644)
		if _, err := Micro(l, sid, Options{}); err != nil {
			t.Fatal(err)
		}
		st, err := Pending(l, sid)
		if err != nil {
			t.Fatal(err)
		}
		for _, ls := range st.Layers {
			if ls.Layer != "L3" {
				continue
			}
			for _, c := range ls.Commands {
				c, _, _ = strings.Cut(c, "   # ")
				out, err := exec.Command("sh", "-c", `printf '%s\0' `+c).Output()
				if err != nil {
					t.Fatalf("%q: %v", c, err)
				}
				args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
				if len(args) != 6 || args[1] != "l3" || args[2] != "assign" {
					t.Fatalf("not an l3 assign command: %q", args)
				}
				var concept, name string
				if args[4] == "--new" {
					name = args[5]
				} else {
					concept = args[5]
				}
				if _, err := Assign(l, args[3], concept, name); err != nil {
					t.Errorf("%s: %q failed: %v", filepath.Base(path), c, err)
				}
				ran++
			}
		}
	}
	if ran == 0 {
		t.Fatal("no L3 command to run: the test proves nothing")
	}
	t.Logf("%d commands ran", ran)
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l4"
)

// TestImportedHistoryYieldsItsRecurringProblems imports the real spotter
// sessions: git refused the stylesheet (a gitignored path) in three of
// them, each time behind another failure of the same exchange and with
// other files on the command line. Deep consolidation makes it a
// solution whose shown fix is the forced add git's hint asks for (the
// latest fix left the file out), and memory.md shows it; the pre-commit
// format check that recurred is solved by running the formatter.
func TestImportedHistoryYieldsItsRecurringProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the real transcripts")
	}
	p := importedSpotter(t)
	f, err := l4.Load(filepath.Join(p.dir, ".claude", "memory", "facts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var found *l4.Solution
	for i, s := range f.Solutions {
		if strings.Contains(s.Problem, ".gitignore") {
			found = &f.Solutions[i]
		}
	}
	if found == nil {
		t.Fatalf("no solution for the ignored stylesheet among %d: %+v", len(f.Solutions), f.Solutions)
	}
	if len(found.Sessions) < 3 || !strings.Contains(found.Solution, "git add -f priv/static/assets/spotter.css") {
		t.Errorf("the ignored stylesheet: sessions %v, solved by %q; want three sessions and the forced add", found.Sessions, found.Solution)
	}
	md, _ := os.ReadFile(filepath.Join(p.dir, ".claude", "memory", "memory.md"))
	if !strings.Contains(string(md), "ignored by one of your .gitignore files") || !strings.Contains(string(md), "→ `git add -f priv/static/assets/spotter.css") {
		t.Errorf("memory.md does not show the solution:\n%s", md)
	}
	formatted := false
	for _, s := range f.Solutions {
		formatted = formatted || strings.Contains(s.Problem, "Run 'mix format'") && strings.Contains(s.Solution, "ran `mix format`")
	}
	if !formatted {
		t.Errorf("no solution to the pre-commit format check shows the formatter run: %+v", f.Solutions)
	}
}

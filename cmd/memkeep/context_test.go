package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/fixtures"
)

// TestContextAfterImportOnABranch: sessions recorded in another checkout
// are imported; on a branch that changes a file they touched, the session
// start holds each rule the user stated, as a rule; the decisions with
// their reasons; memory about the changed file; no line twice; no memkeep
// command; within 6,000 characters.
func TestContextAfterImportOnABranch(t *testing.T) {
	p := newFaultProject(t, t.TempDir())
	dir := t.TempDir()
	for _, fx := range fixtures.ShopSessions() {
		f := filepath.Join(dir, fx.Name+".jsonl")
		if err := os.WriteFile(f, fx.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.run("", nil, "import", f)
	}
	p.run("", nil, "consolidate", "--deep")
	p.git("checkout", "-q", "-b", "feature/notify-retry")
	os.MkdirAll(filepath.Join(p.dir, "inv"), 0o755)
	os.WriteFile(filepath.Join(p.dir, "inv", "notify.py"), []byte("def notify_low_stock(sku, count, retries=3):\n    pass\n"), 0o644)
	p.git("add", "inv/notify.py")
	p.git("commit", "-q", "-m", "notify: retries")

	cmd := exec.Command(p.bin, "context")
	cmd.Dir = p.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("memkeep context: %v\n%s", err, out)
	}
	ctx := string(out)
	t.Logf("context (%d characters):\n%s", len(ctx), ctx)
	rules := ctx[strings.Index(ctx, "## Rules"):]
	for _, want := range []string{"Always run make lint before committing.", "Never edit files under generated/."} {
		if !strings.Contains(rules, "- "+want) || strings.Contains(ctx, want+" (candidate)") {
			t.Errorf("the rule %q is not given as a rule", want)
		}
	}
	for _, want := range []string{"inv/notify.py", "because raising breaks the nightly importer", "because staging and production use different databases"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q", want)
		}
	}
	if len(ctx) > 6000 {
		t.Errorf("%d characters, over 6,000", len(ctx))
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(ctx, "\n") {
		if strings.HasPrefix(line, "- ") && seen[line] {
			t.Errorf("line twice: %q", line)
		}
		seen[line] = true
		if strings.Contains(line, "memkeep ") && !strings.Contains(line, "memkeep recall") {
			t.Errorf("a memkeep command in the context: %q", line)
		}
	}
}

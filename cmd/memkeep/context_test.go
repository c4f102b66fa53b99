package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l4"
)

// TestContextAfterImportOnABranch: sessions recorded in another checkout
// are imported; on a branch that changes a file they touched, the session
// start holds each rule the user stated, as a rule; the decisions with
// their reasons; memory about the changed file; no line twice; no memkeep
// command; within 6,000 characters.
func TestContextAfterImportOnABranch(t *testing.T) {
	p := importShop(t)
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

// TestImportKeepsWhatMatters: sessions recorded in another checkout
// (/home/dev/shop) and imported here: every edited file is in an L2
// exchange by its project path, each rule the user stated is an L4 rule,
// the user's "No, don't raise" is a correction linked to the exchange it
// corrects, and the decision keeps its reason.
func TestImportKeepsWhatMatters(t *testing.T) {
	p := importShop(t)
	files, _ := filepath.Glob(filepath.Join(p.dir, ".claude/memory/sessions/*.l2.json"))
	var exchanges []l2.Exchange
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := l2.Decode(f, b)
		if err != nil {
			t.Fatal(err)
		}
		exchanges = append(exchanges, s.Exchanges...)
	}
	byFile := map[string]bool{}
	var correction *l2.Exchange
	decision := false
	for i, e := range exchanges {
		for _, f := range e.Files {
			byFile[f] = true
		}
		if e.Type == l2.TypeCorrection && e.Source == l2.Subconscious {
			correction = &exchanges[i]
		}
		if strings.Contains(e.Summary+" "+e.Details, "because staging and production use different databases") {
			decision = true
		}
	}
	for _, f := range []string{"inv/stock.py", "inv/db.py", "inv/notify.py"} {
		if !byFile[f] {
			t.Errorf("%s is in no L2 exchange (files: %v)", f, byFile)
		}
	}
	if !decision {
		t.Error("the decision lost its reason")
	}
	if correction == nil || len(correction.Links) == 0 {
		t.Fatalf("no correction linked to what it corrects: %+v", correction)
	}
	var corrected *l2.Exchange
	for i := range exchanges {
		if exchanges[i].ID == correction.Links[0] {
			corrected = &exchanges[i]
		}
	}
	if corrected == nil || !slices.Contains(corrected.Files, "inv/stock.py") {
		t.Errorf("the correction links %v, not the stock exchange", correction.Links)
	}
	b, err := os.ReadFile(filepath.Join(p.dir, ".claude/memory/facts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var facts l4.Facts
	if err := l2.DecodeJSON(b, &facts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Always run make lint before committing.", "Never edit files under generated/."} {
		if !slices.ContainsFunc(facts.Rules, func(r l4.Rule) bool { return r.Text == want && r.Source == "user" }) {
			t.Errorf("the rule %q is not a user's L4 rule: %+v", want, facts.Rules)
		}
	}
}

// importShop is a project into which the shop sessions, recorded in
// another checkout (/home/dev/shop), were imported and consolidated.
func importShop(t *testing.T) *faultProject {
	t.Helper()
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
	return p
}

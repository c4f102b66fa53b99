package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func load(t *testing.T, text string) (Config, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(p)
}

// TestYAMLASettingsFileUses: comments, quotes, flow maps and lists,
// anchors, aliases and merge keys are read as YAML reads them.
func TestYAMLASettingsFileUses(t *testing.T) {
	c, err := load(t, `# memkeep settings
defaults: &base {budget: 4000, hot_hours: 12}
context:
  <<: *base
  hot_hours: 48          # overrides the anchor's
recall: {threshold: 0.4, max: 2}
stop:
  enforce: "remind"
  block_budget: 3
evaluator: 'python3 score.py --json'
`)
	if err != nil {
		t.Fatalf("a key that only defines an anchor used elsewhere is a definition, not a setting: %v", err)
	}
	if c.Context != (ContextConfig{Budget: 4000, HotHours: 48}) || c.Recall.Max != 2 || c.Stop.Enforce != "remind" {
		t.Errorf("got %+v", c)
	}
	if _, err := load(t, "defaults: &base {budget: 4000}\ncontext: {budget: 100}\n"); err == nil || !strings.Contains(err.Error(), `line 1: unknown setting "defaults"`) {
		t.Errorf("an anchor nothing uses is an unknown setting: %v", err)
	}
	c, err = load(t, `# the anchor lives on a setting memkeep knows
recall: &r {threshold: 0.4, max: 2, budget: 1500}
context:
  <<: {budget: 4000, hot_hours: 12}
  hot_hours: 48
stop:
  enforce: "remind"
  block_budget: 3
evaluator: 'python3 score.py --json'
`)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Recall = RecallConfig{Threshold: 0.4, Max: 2, Budget: 1500}
	want.Context = ContextConfig{Budget: 4000, HotHours: 48}
	want.Stop.Enforce, want.Stop.BlockBudget = "remind", 3
	want.Evaluator = "python3 score.py --json"
	if c != want {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

// TestAliasAndMergeAcrossSections: a section may reuse another's values.
func TestAliasAndMergeAcrossSections(t *testing.T) {
	c, err := load(t, "stop: &s\n  min_edits: 2\n  min_tool_uses: 5\ncontext: {budget: 3000}\n")
	if err != nil || c.Stop.MinEdits != 2 || c.Stop.MinToolUses != 5 || c.Context.Budget != 3000 || c.Context.HotHours != 24 {
		t.Fatalf("got %+v, %v", c, err)
	}
}

// TestStrictErrorsNameTheLine: an unknown setting and a wrong type are
// named with their line and what is wanted; the defaults are used.
func TestStrictErrorsNameTheLine(t *testing.T) {
	for text, want := range map[string]string{
		"recall:\n  treshold: 0.4\n":       `line 2: unknown setting "recall.treshold" (recall takes threshold, max, budget)`,
		"comit: auto\n":                    `line 1: unknown setting "comit" (settings are commit, stop, context, recall, evaluator, scan)`,
		"context:\n  budget: lots\n":       `line 2: "lots" is text where a whole number is wanted`,
		"recall: {threshold: [1, 2]}\n":    `line 1: a list where a number is wanted`,
		"stop: remind\n":                   `line 1: "remind" is text where a section of settings is wanted`,
		"commit: auto\n---\ncommit: off\n": `line 2: a second document`,
		"context:\n\tbudget: 10\n":         `found character that cannot start any token`,
	} {
		c, err := load(t, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
		if c != Default() {
			t.Errorf("%q: an invalid file must give the defaults, got %+v", text, c)
		}
	}
}

// TestEmptyAndNullKeepDefaults: an empty file, comments only, or a
// setting left empty keep the defaults.
func TestEmptyAndNullKeepDefaults(t *testing.T) {
	for _, text := range []string{"", "# nothing yet\n", "recall:\n", "context:\n  budget: ~\n", "---\n"} {
		c, err := load(t, text)
		if err != nil || c != Default() {
			t.Errorf("%q: got %+v, %v", text, c, err)
		}
	}
}

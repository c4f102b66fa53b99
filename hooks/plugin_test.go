package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestPluginHooksFileIsCurrent keeps hooks/hooks.json, the hooks of the
// Claude Code plugin form of memkeep, equal to what `memkeep init` installs
// (with memkeep taken from PATH).
func TestPluginHooksFileIsCurrent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	if _, err := Install(p, "memkeep"); err != nil {
		t.Fatal(err)
	}
	var want, got struct {
		Hooks map[string]any `json:"hooks"`
	}
	b, _ := os.ReadFile(p)
	json.Unmarshal(b, &want)
	b, err := os.ReadFile("hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("hooks.json: %v", err)
	}
	if !reflect.DeepEqual(want.Hooks, got.Hooks) {
		t.Fatalf("hooks/hooks.json differs from what Install writes; want hooks:\n%s", b)
	}
	if _, err := os.Stat("../.claude-plugin/plugin.json"); err != nil {
		t.Fatalf("plugin manifest missing: %v", err)
	}
}

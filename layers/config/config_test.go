package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMissingFileGivesDefaults(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "config.yaml"))
	if err != nil || c != Default() {
		t.Fatalf("got %+v, %v", c, err)
	}
}

func TestOverridesAndValidation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(p, []byte("commit: stage\nstop:\n  block_budget: 3\n"), 0o644)
	c, err := Load(p)
	if err != nil || c.Commit != "stage" || c.Stop.BlockBudget != 3 || c.Stop.MinEdits != 1 {
		t.Fatalf("got %+v, %v", c, err)
	}
	os.WriteFile(p, []byte("commit: sometimes\nstop:\n  block_budget: 9\n"), 0o644)
	c, err = Load(p)
	if err == nil || !strings.Contains(err.Error(), `commit: "sometimes"`) || !strings.Contains(err.Error(), "block_budget: 9") {
		t.Fatalf("want errors naming both keys, got %v", err)
	}
	if c.Commit != "auto" || c.Stop.BlockBudget != 2 {
		t.Fatalf("invalid values must fall back to defaults: %+v", c)
	}
	os.WriteFile(p, []byte("comit: auto\n"), 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "comit") {
		t.Fatalf("unknown key must be named, got %v", err)
	}
}

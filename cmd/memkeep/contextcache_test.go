package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

func TestContextCacheFollowsTheMemoryFiles(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	bigMemory(t, dir, 200)
	l, _ := memdir.Find(dir)
	want, err := consolidate.Context(l, render.ContextOptions{Budget: 3000, Branch: "main"})
	if err != nil || want == "" {
		t.Fatalf("uncached context: %q, %v", want, err)
	}
	got, err := memoryContext(l, 3000, render.ContextOptions{Branch: "main"})
	if err != nil || got != want {
		t.Fatalf("first (computing) call differs from the uncached context: %v", err)
	}
	if _, err := os.Stat(contextCachePath(l)); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	// A changed rule must show at once, not the cached text.
	b, _ := os.ReadFile(l.FactsFile())
	b = []byte(strings.Replace(string(b), "Always run the auth checks", "Always run the security checks", 1))
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(l.FactsFile(), b, 0o644)
	got, err = memoryContext(l, 3000, render.ContextOptions{Branch: "main"})
	if err != nil || !strings.Contains(got, "security checks") {
		t.Fatalf("stale context after facts.json changed:\n%s", got)
	}
	// Another budget is another entry.
	if small, _ := memoryContext(l, 500, render.ContextOptions{Branch: "main"}); len(small) > 500 {
		t.Fatalf("budget 500 gave %d characters", len(small))
	}
}

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l2"
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
	want, _, err := consolidate.ContextWithSources(l, render.ContextOptions{Budget: 3000, Branch: "main"})
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

// TestContextCacheLooksOnlyWhereTheContextDid: the cache is checked by the
// files the context was made from. A new session shows at once; a change
// to an older session the context never showed keeps the cache (no file
// but those few is read or stat'ed for it to matter); a change to a
// session it showed, or the newest session's removal, is seen.
func TestContextCacheLooksOnlyWhereTheContextDid(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	bigMemory(t, dir, 500) // ten sessions; the context shows the newest three
	l, _ := memdir.Find(dir)
	opts := render.ContextOptions{Branch: "main"}
	first, err := memoryContext(l, 6000, opts)
	if err != nil {
		t.Fatal(err)
	}
	cached := func() contextCache {
		var c contextCache
		b, _ := os.ReadFile(contextCachePath(l))
		json.Unmarshal(b, &c)
		return c
	}
	if c := cached(); len(c.Sources.Sessions) != render.ContextSessions || c.Sources.All {
		t.Fatalf("the context records %d sessions (all %v), want the newest %d", len(c.Sources.Sessions), c.Sources.All, render.ContextSessions)
	}
	ss, _ := l2.Sessions(l)
	edit := func(base, from, to string) {
		time.Sleep(10 * time.Millisecond)
		b, err := os.ReadFile(l.L2File(base))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(l.L2File(base)+".tmp", []byte(strings.Replace(string(b), from, to, 1)), 0o644)
		os.Rename(l.L2File(base)+".tmp", l.L2File(base))
	}

	// The oldest session changes: the context does not show it.
	edit(ss[0].Base, "Fix the auth handler edge case 0", "Fix the auth handler edge case zero")
	if !cached().Sources.Unchanged(l) {
		t.Error("a change to a session the context never showed invalidates the cache")
	}
	if got, _ := memoryContext(l, 6000, opts); got != first {
		t.Error("the context changed for a session it does not show")
	}

	// A session it shows changes: seen.
	newest := ss[len(ss)-1].Base
	edit(newest, "Fix the ", "Repair the ")
	if got, _ := memoryContext(l, 6000, opts); !strings.Contains(got, "Repair the ") {
		t.Errorf("a changed session the context shows is not seen:\n%s", got)
	}

	// A new session: seen at once, and its removal too.
	f := &l2.File{SchemaVersion: 1, SessionID: "ffffffff-0000-4000-8000-000000000000", L1: "2026-12-01_0900_ffffffff.l1.jsonl",
		Exchanges: []l2.Exchange{{ID: "x-new", Summary: "Moved the webhook retries to a queue", L1Range: [2]int{1, 2}, Source: "subconscious",
			Significance: 0.9, Type: "decision", Created: "2026-12-01T09:00:00Z", Updated: "2026-12-01T09:00:00Z"}}}
	if err := f.Save(l.L2File("2026-12-01_0900_ffffffff")); err != nil {
		t.Fatal(err)
	}
	if got, _ := memoryContext(l, 6000, opts); !strings.Contains(got, "webhook retries") {
		t.Errorf("a new session is not in the context:\n%s", got)
	}
	os.Remove(l.L2File("2026-12-01_0900_ffffffff"))
	if got, _ := memoryContext(l, 6000, opts); strings.Contains(got, "webhook retries") {
		t.Error("a removed session is still in the context")
	}
}

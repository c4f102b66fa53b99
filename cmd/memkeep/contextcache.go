package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/recall"
	"github.com/memkeep/memkeep/render"
)

// SessionStart's context reads facts.json, concepts.json and the newest
// sessions' L2 files (consolidate.Context). The text only changes when one
// of those does, so it is cached under the git dir with the options it
// was made for (budget, branch, source, files) and the stamps of the files
// it was made from (consolidate.ContextSources): checking those takes a
// few stats and one listing of the sessions folder, however many sessions
// there are. Consolidation warms the cache in the background; a
// SessionStart after a change computes it once.

type contextCache struct {
	Key     string                     `json:"key"`
	Sources consolidate.ContextSources `json:"sources"`
	Text    string                     `json:"text"`
}

func contextCachePath(l memdir.Layout) string {
	return filepath.Join(l.StateDir(), "context-cache.json")
}

// contextKey identifies the options a context is made for.
func contextKey(opts render.ContextOptions) string {
	h := sha256.New()
	fmt.Fprintf(h, "v5\x00%d\x00%s\x00%s\x00%s\x00", opts.Budget, opts.Branch, opts.Source, strings.Join(opts.Files, "\x01"))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// memoryContext is the memory part of the SessionStart context (rules,
// concepts of the branch, solutions, recent exchanges), from the cache
// when the files it was made from have not changed.
func memoryContext(l memdir.Layout, budget int, opts render.ContextOptions) (string, error) {
	opts.Budget = budget
	key := contextKey(opts)
	var c contextCache
	if b, err := os.ReadFile(contextCachePath(l)); err == nil && json.Unmarshal(b, &c) == nil && c.Key == key && c.Sources.Unchanged(l) {
		return c.Text, nil
	}
	text, src, err := consolidate.ContextWithSources(l, opts)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(contextCache{Key: key, Sources: src, Text: text})
	// A cache that cannot be written only costs the next SessionStart time.
	_ = atomicfile.WriteFile(contextCachePath(l), b, 0o644)
	return text, nil
}

// warmCaches computes the SessionStart context and the recall index once
// after a consolidation (which runs in the background after SessionEnd),
// so that the next session starts, and its prompts recall, from them.
func warmCaches(l memdir.Layout, budget int) {
	_, _ = memoryContext(l, budget-budget/hotShare, render.ContextOptions{Branch: currentBranch(l), Files: gitstore.BranchFiles(l), Source: "startup"})
	updateRecall(l, recall.UpdateOptions{})
}

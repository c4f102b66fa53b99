package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// SessionStart must answer in milliseconds even when memory holds
// thousands of exchanges, but ranking them means reading every L2 file.
// The ranked text only changes when a memory file does, so it is cached
// under the git dir, keyed by the metadata (fastfile.Stamp) of every file
// it is computed from (plus budget and branch). Consolidation warms the
// cache in the background; a SessionStart after a change computes it once.

type contextCache struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

func contextCachePath(l memdir.Layout) string {
	return filepath.Join(l.StateDir(), "context-cache.json")
}

// memoryFingerprint identifies the state of the files the context is
// computed from, without reading them.
func memoryFingerprint(l memdir.Layout, budget int, branch string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "v2\x00%d\x00%s\x00", budget, branch)
	stamp := func(p string) {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%s\x00%s\x00", filepath.Base(p), fastfile.Stamp(fi))
		} else {
			fmt.Fprintf(h, "%s\x00-\x00", filepath.Base(p))
		}
	}
	stamp(l.FactsFile())
	stamp(l.ConceptsFile())
	ents, err := os.ReadDir(l.SessionsDir())
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".l2.json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		stamp(filepath.Join(l.SessionsDir(), n))
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// memoryContext is the memory part of the SessionStart context (rules,
// concepts of the branch, solutions, recent exchanges), from the cache
// when the memory files have not changed.
func memoryContext(l memdir.Layout, budget int, branch string) (string, error) {
	key, err := memoryFingerprint(l, budget, branch)
	if err != nil {
		return "", err
	}
	var c contextCache
	if b, err := os.ReadFile(contextCachePath(l)); err == nil && json.Unmarshal(b, &c) == nil && c.Key == key {
		return c.Text, nil
	}
	text, err := consolidate.Context(l, render.ContextOptions{Budget: budget, Branch: branch})
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(contextCache{Key: key, Text: text})
	// A cache that cannot be written only costs the next SessionStart time.
	_ = atomicfile.WriteFile(contextCachePath(l), b, 0o644)
	return text, nil
}

// warmCaches computes the SessionStart context and the recall index once
// after a consolidation (which runs in the background after SessionEnd),
// so that the next session starts, and its prompts recall, from them.
func warmCaches(l memdir.Layout, budget int) {
	_, _ = memoryContext(l, budget-budget/hotShare, currentBranch(l))
	_ = consolidate.WarmRecall(l)
}

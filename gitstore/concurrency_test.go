package gitstore

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestCommitConcurrentProcesses runs 8 processes that each write a memory
// file and commit at once: every file lands, the branch never loses a
// commit, and no process fails.
func TestCommitConcurrentProcesses(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	userChanges(t, dir)
	writeMemory(t, dir)
	mustCommit(t, l, Options{})
	base := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	const n = 8
	var wg sync.WaitGroup
	outs := make([]string, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var out, stderr bytes.Buffer
			cmd := childCmd(t, dir, fmt.Sprintf("GITSTORE_TEST_FILE=stream/p%d.jsonl", i))
			cmd.Stdout, cmd.Stderr = &out, &stderr
			errs[i] = cmd.Run()
			outs[i] = out.String() + stderr.String()
		}(i)
	}
	wg.Wait()
	committed := 0
	for i := 0; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("process %d failed: %v\n%s", i, errs[i], outs[i])
		}
		if strings.HasPrefix(outs[i], "committed") {
			committed++
		}
	}
	// Anything deferred is committed by the next call.
	mustCommit(t, l, Options{})
	tree := git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", ".claude/memory/stream")
	for i := 0; i < n; i++ {
		if !strings.Contains(tree, fmt.Sprintf("p%d.jsonl", i)) {
			t.Fatalf("p%d.jsonl lost:\n%s\n%v", i, tree, outs)
		}
	}
	// A linear chain from base. Each memory commit replaces the previous
	// one while it is memkeep's own and unpushed, so the chain may be one
	// commit; what no commit may lose is a file (checked above).
	chain := strings.Fields(git(t, dir, "rev-list", "--first-parent", base+"..HEAD"))
	if len(chain) < 1 || len(chain) > n+1 || committed == 0 {
		t.Fatalf("%d commits on the branch, %d processes committed", len(chain), committed)
	}
	if rl := strings.Count(git(t, dir, "reflog", "show", "main"), "\n"); rl < len(chain)+2 {
		t.Fatalf("reflog has %d lines for %d commits", rl, len(chain))
	}
	if s := git(t, dir, "status", "--porcelain"); strings.Contains(s, ".claude/memory") {
		t.Fatalf("memory not clean: %s", s)
	}
	if git(t, dir, "diff", "--cached", "--name-only") != "README.md\nsrc/new.go\n" {
		t.Fatal("user's staged changes lost")
	}
	fsck(t, dir)
}

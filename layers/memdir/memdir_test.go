package memdir

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

func TestFindFromASubfolderAndALinkedWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	main := filepath.Join(root, "main")
	git(t, root, "init", "-q", "main")
	git(t, main, "commit", "-q", "--allow-empty", "-m", "first")
	os.MkdirAll(filepath.Join(main, "a", "b"), 0o755)

	l, err := Find(filepath.Join(main, "a", "b"))
	if err != nil || l.Root != main || l.GitDir != filepath.Join(main, ".git") || l.CommonDir != l.GitDir {
		t.Fatalf("main work tree: %+v, %v", l, err)
	}
	if l.WorkMemoryDir() != filepath.Join(main, ".claude", "memory") || l.StateDir() != filepath.Join(main, ".git", "memkeep") ||
		l.MemoryDir() != filepath.Join(main, ".git", "memkeep", "memory") {
		t.Fatalf("paths: %s %s %s", l.WorkMemoryDir(), l.StateDir(), l.MemoryDir())
	}
	if rel, ok := l.Rel(l.FactsFile()); !ok || rel != ".claude/memory/facts.json" {
		t.Fatalf("the copy's facts.json is named %q (%v), want the path git records", rel, ok)
	}

	wt := filepath.Join(root, "wt")
	git(t, main, "worktree", "add", "-q", wt)
	l, err = Find(wt)
	if err != nil || l.Root != wt || l.GitDir != filepath.Join(main, ".git", "worktrees", "wt") || l.CommonDir != filepath.Join(main, ".git") {
		t.Fatalf("linked worktree: %+v, %v", l, err)
	}
	if rel, ok := l.Rel(filepath.Join(wt, ".claude", "memory", "facts.json")); !ok || rel != ".claude/memory/facts.json" {
		t.Fatalf("Rel: %q %v", rel, ok)
	}
	if _, ok := l.Rel(filepath.Join(root, "elsewhere")); ok {
		t.Fatal("a path outside the work tree was called relative")
	}
}

func TestFindOutsideARepository(t *testing.T) {
	if _, err := Find(t.TempDir()); !errors.Is(err, ErrNoRepo) {
		t.Fatalf("got %v, want ErrNoRepo", err)
	}
}

func TestSessionBase(t *testing.T) {
	at := time.Date(2026, 2, 10, 22, 57, 54, 0, time.FixedZone("X", 3600))
	if got := SessionBase(at, "258c7280-ae70-4798"); got != "2026-02-10_2157_258c7280" {
		t.Fatalf("got %q (UTC time, first 8 characters of the id)", got)
	}
	if got := SessionBase(at, "../../x"); got != "2026-02-10_2157_x" {
		t.Fatalf("an id with path characters must not escape the folder: %q", got)
	}
	if got := SessionBase(at, ""); got != "2026-02-10_2157_unknown" {
		t.Fatalf("got %q", got)
	}
}

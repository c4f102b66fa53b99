package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommitLeavesUserWorkAlone(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	userChanges(t, dir)
	writeMemory(t, dir)
	statusBefore := git(t, dir, "status", "--porcelain")
	cachedBefore := git(t, dir, "diff", "--cached")
	unstagedBefore := git(t, dir, "diff")
	parent := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))

	res := mustCommit(t, l, Options{Trailers: []Trailer{{"Memkeep-Session", "258c7280"}}})
	if res.Status != Committed || res.Parent != parent || res.Branch != "main" {
		t.Fatalf("result %+v", res)
	}
	if got := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")); got != res.Commit {
		t.Fatalf("HEAD %s, commit %s", got, res.Commit)
	}
	statusAfter := git(t, dir, "status", "--porcelain")
	if withoutMemory(statusAfter) != withoutMemory(statusBefore) {
		t.Fatalf("status changed:\nbefore\n%s\nafter\n%s", statusBefore, statusAfter)
	}
	if strings.Contains(statusAfter, ".claude/memory") {
		t.Fatalf("memory not clean after commit:\n%s", statusAfter)
	}
	if got := git(t, dir, "diff", "--cached"); got != cachedBefore {
		t.Fatalf("staged change altered:\n%s\nwant\n%s", got, cachedBefore)
	}
	if got := git(t, dir, "diff"); got != unstagedBefore {
		t.Fatalf("unstaged change altered")
	}
	fsck(t, dir)
	names := strings.Fields(git(t, dir, "log", "-p", "-1", "--name-only", "--format="))
	for _, n := range names {
		if !strings.HasPrefix(n, ".claude/memory/") {
			t.Fatalf("memory commit touches %s: %v", n, names)
		}
	}
	if len(names) != 5 {
		t.Fatalf("want 5 memory files in the commit, got %v", names)
	}
	if got := git(t, dir, "show", "HEAD:.claude/settings.json"); got != "{}\n" {
		t.Fatalf("settings.json lost: %q", got)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	if !strings.HasPrefix(msg, "memory: rule \"always run go vet\", 2 exchanges on auth\n\n+2 exchanges, +1 session, concept \"auth\" added, +1 rule\n") ||
		!strings.Contains(msg, "\nMemkeep-Session: 258c7280\n") {
		t.Fatalf("message:\n%s", msg)
	}
	if got := git(t, dir, "log", "-1", "--format=%an <%ae>"); got != "Test User <test@example.com>\n" {
		t.Fatalf("author %q", got)
	}
	if rl := git(t, dir, "reflog", "-1", "--format=%H %gs"); !strings.HasPrefix(rl, res.Commit+" commit: memory:") {
		t.Fatalf("reflog: %q", rl)
	}
	if rl := git(t, dir, "reflog", "show", "main", "-1", "--format=%H"); strings.TrimSpace(rl) != res.Commit {
		t.Fatalf("branch reflog: %q", rl)
	}

	// The user's own next commit contains exactly their staged change on
	// top of the memory commit (the cache tree was invalidated correctly).
	git(t, dir, "commit", "-q", "-m", "user")
	if got := git(t, dir, "diff", "--name-only", "HEAD~1", "HEAD"); got != "README.md\nsrc/new.go\n" {
		t.Fatalf("user commit changed %q", got)
	}
	fsck(t, dir)

	// A change of one rule is one line of summary; nothing changed, no commit.
	write(t, dir, ".claude/memory/facts.json", strings.Replace(factsV1, `"updated": "2026-01-01T00:00:00Z"
    }`, `"updated": "2026-01-01T00:00:00Z"
    },
    {
      "id": "r-00000002",
      "text": "never push on friday",
      "updated": "2026-01-02T00:00:00Z"
    }`, 1))
	res = mustCommit(t, l, Options{})
	if res.Status != Committed || res.Subject != `memory: rule "never push on friday"` {
		t.Fatalf("second commit %+v", res)
	}
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	res = mustCommit(t, l, Options{})
	if res.Status != NoChange || strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")) != head {
		t.Fatalf("no-op commit %+v", res)
	}
	if s := git(t, dir, "status", "--porcelain"); s != "?? notes.txt\n" && !strings.Contains(s, " M src/b.go") {
		t.Fatalf("status %q", s)
	}
}

func TestCommitModes(t *testing.T) {
	l := newRepo(t)
	writeMemory(t, l.Root)
	head := git(t, l.Root, "rev-parse", "HEAD")
	if res := mustCommit(t, l, Options{Mode: ModeOff}); res.Status != Disabled {
		t.Fatalf("off: %+v", res)
	}
	if s := git(t, l.Root, "status", "--porcelain"); s != "?? .claude/memory/\n" {
		t.Fatalf("off touched the index: %q", s)
	}
	res := mustCommit(t, l, Options{Mode: ModeStage})
	if res.Status != Staged || git(t, l.Root, "rev-parse", "HEAD") != head {
		t.Fatalf("stage: %+v", res)
	}
	st := git(t, l.Root, "status", "--porcelain")
	if strings.Count(st, "A  .claude/memory/") != 5 || strings.Contains(st, "??") {
		t.Fatalf("stage: status %q", st)
	}
	fsck(t, l.Root)
	// auto after stage commits what was staged (and nothing else)
	res = mustCommit(t, l, Options{Mode: ModeAuto, Message: "remember things"})
	if res.Status != Committed || res.Subject != "remember things" {
		t.Fatalf("auto: %+v", res)
	}
	if body := git(t, l.Root, "log", "-1", "--format=%b"); !strings.HasPrefix(body, `memory: rule "always run go vet", 2 exchanges on auth`) {
		t.Fatalf("summary not in body: %q", body)
	}
	if s := git(t, l.Root, "status", "--porcelain"); s != "" {
		t.Fatalf("status %q", s)
	}
}

func TestCommitUnbornBranchKeepsStagedFile(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "trunk")
	write(t, dir, "staged.txt", "mine\n")
	git(t, dir, "add", "staged.txt")
	writeMemory(t, dir)
	l := layoutOf(t, dir)
	res := mustCommit(t, l, Options{})
	if res.Status != Committed || res.Parent != "" || res.Branch != "trunk" {
		t.Fatalf("%+v", res)
	}
	if s := git(t, dir, "status", "--porcelain"); s != "A  staged.txt\n" {
		t.Fatalf("status %q", s)
	}
	if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "1\n" {
		t.Fatalf("commits %s", n)
	}
	if rl := git(t, dir, "reflog", "-1", "--format=%gs"); !strings.HasPrefix(rl, "commit (initial): memory:") {
		t.Fatalf("reflog %q", rl)
	}
	if strings.Contains(git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"), "staged.txt") {
		t.Fatal("the user's staged file was swept into the memory commit")
	}
	fsck(t, dir)
}

func TestCommitIndexFormats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"v2", func(t *testing.T, dir string) { git(t, dir, "update-index", "--index-version", "2") }},
		{"v3-intent-to-add", func(t *testing.T, dir string) {
			write(t, dir, "later.txt", "x\n")
			git(t, dir, "add", "-N", "later.txt")
		}},
		{"v4", func(t *testing.T, dir string) { git(t, dir, "update-index", "--index-version", "4") }},
		{"manyFiles", func(t *testing.T, dir string) {
			git(t, dir, "config", "feature.manyFiles", "true")
			gitOK(dir, "update-index", "-q", "--really-refresh")
			git(t, dir, "status")
		}},
		{"assume-unchanged", func(t *testing.T, dir string) { git(t, dir, "update-index", "--assume-unchanged", "src/a.go") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newRepo(t)
			dir := l.Root
			userChanges(t, dir)
			tc.setup(t, dir)
			writeMemory(t, dir)
			before := git(t, dir, "status", "--porcelain")
			cached := git(t, dir, "diff", "--cached")
			lsv := git(t, dir, "ls-files", "-v")
			ver := indexVersion(t, dir)
			mustCommit(t, l, Options{})
			if got := indexVersion(t, dir); got != ver {
				t.Fatalf("index version %d became %d", ver, got)
			}
			if got := git(t, dir, "status", "--porcelain"); withoutMemory(got) != withoutMemory(before) || strings.Contains(got, ".claude/memory") {
				t.Fatalf("status\n%s\nwas\n%s", got, before)
			}
			if git(t, dir, "diff", "--cached") != cached {
				t.Fatal("staged diff changed")
			}
			if got := git(t, dir, "ls-files", "-v"); withoutMemory(got) != withoutMemory(lsv) {
				t.Fatalf("ls-files -v flags changed:\n%s\nwas\n%s", got, lsv)
			}
			fsck(t, dir)
		})
	}
}

func indexVersion(t *testing.T, dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return int(b[7])
}

// TestCommitSkipHashIndex feeds an index with the all-zero trailer that git
// 2.40+ writes under index.skipHash (built by hand here, so the test does
// not depend on the git version) and checks the rewrite keeps the
// convention and git still reads it.
func TestCommitSkipHashIndex(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	userChanges(t, dir)
	writeMemory(t, dir)
	before := git(t, dir, "status", "--porcelain")
	p := filepath.Join(l.GitDir, "index")
	b, _ := os.ReadFile(p)
	copy(b[len(b)-20:], make([]byte, 20))
	os.WriteFile(p, b, 0o644)
	mustCommit(t, l, Options{})
	b, _ = os.ReadFile(p)
	if !bytes.Equal(b[len(b)-20:], make([]byte, 20)) {
		t.Fatal("skipHash trailer not kept")
	}
	if got := git(t, dir, "status", "--porcelain"); withoutMemory(got) != withoutMemory(before) || strings.Contains(got, ".claude/memory") {
		t.Fatalf("status\n%s", got)
	}
	if got := git(t, dir, "diff", "--cached", "--name-only"); got != "README.md\nsrc/new.go\n" {
		t.Fatalf("staged: %q", got)
	}
}

func TestCommitDefers(t *testing.T) {
	t.Run("detached HEAD", func(t *testing.T) {
		l := newRepo(t)
		git(t, l.Root, "checkout", "-q", "--detach")
		writeMemory(t, l.Root)
		res := mustCommit(t, l, Options{Trailers: []Trailer{{"Memkeep-Session", "one"}}})
		if res.Status != Deferred || !strings.Contains(res.Reason, "detached") {
			t.Fatalf("%+v", res)
		}
		p, err := Pending(l)
		if err != nil || p == nil || len(p.Trailers) != 1 {
			t.Fatalf("pending %+v %v", p, err)
		}
		git(t, l.Root, "checkout", "-q", "main")
		res = mustCommit(t, l, Options{Trailers: []Trailer{{"Memkeep-Session", "two"}}})
		if res.Status != Committed {
			t.Fatalf("%+v", res)
		}
		msg := git(t, l.Root, "log", "-1", "--format=%B")
		if !strings.Contains(msg, "Memkeep-Session: one\nMemkeep-Session: two\n") {
			t.Fatalf("deferred trailer lost:\n%s", msg)
		}
		if p, _ := Pending(l); p != nil {
			t.Fatalf("pending marker left: %+v", p)
		}
	})
	t.Run("merge in progress", func(t *testing.T) {
		l := newRepo(t)
		dir := l.Root
		git(t, dir, "checkout", "-q", "-b", "other")
		write(t, dir, "README.md", "other\n")
		git(t, dir, "commit", "-qam", "other")
		git(t, dir, "checkout", "-q", "main")
		write(t, dir, "README.md", "main\n")
		git(t, dir, "commit", "-qam", "main")
		if _, ok := gitOK(dir, "merge", "other"); ok {
			t.Fatal("expected a conflict")
		}
		writeMemory(t, dir)
		head := git(t, dir, "rev-parse", "HEAD")
		res := mustCommit(t, l, Options{})
		if res.Status != Deferred || !strings.Contains(res.Reason, "merge") || git(t, dir, "rev-parse", "HEAD") != head {
			t.Fatalf("%+v", res)
		}
		if !strings.Contains(git(t, dir, "status", "--porcelain"), "UU README.md") {
			t.Fatal("conflict state disturbed")
		}
		write(t, dir, "README.md", "merged\n")
		git(t, dir, "add", "README.md")
		git(t, dir, "commit", "-q", "--no-edit")
		if res := mustCommit(t, l, Options{}); res.Status != Committed {
			t.Fatalf("after merge: %+v", res)
		}
		fsck(t, dir)
	})
	t.Run("index.lock held", func(t *testing.T) {
		l := newRepo(t)
		writeMemory(t, l.Root)
		os.WriteFile(filepath.Join(l.GitDir, "index.lock"), nil, 0o644)
		res := mustCommit(t, l, Options{})
		if res.Status != Deferred || !strings.Contains(res.Reason, "index.lock") {
			t.Fatalf("%+v", res)
		}
		os.Remove(filepath.Join(l.GitDir, "index.lock"))
		if res := mustCommit(t, l, Options{}); res.Status != Committed {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("branch ref locked", func(t *testing.T) {
		l := newRepo(t)
		writeMemory(t, l.Root)
		lock := filepath.Join(l.CommonDir, "refs", "heads", "main.lock")
		os.WriteFile(lock, nil, 0o644)
		res := mustCommit(t, l, Options{})
		if res.Status != Deferred || !strings.Contains(res.Reason, "main.lock") {
			t.Fatalf("%+v", res)
		}
		if _, err := os.Stat(lock); err != nil {
			t.Fatal("someone else's ref lock was removed")
		}
		fsck(t, l.Root)
		os.Remove(lock)
		if res := mustCommit(t, l, Options{}); res.Status != Committed {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("split index", func(t *testing.T) {
		l := newRepo(t)
		git(t, l.Root, "update-index", "--split-index")
		writeMemory(t, l.Root)
		res := mustCommit(t, l, Options{})
		if res.Status != Deferred || !strings.Contains(res.Reason, "split") {
			t.Fatalf("%+v", res)
		}
		fsck(t, l.Root)
	})
	t.Run("bare", func(t *testing.T) {
		l := newRepo(t)
		git(t, l.Root, "config", "core.bare", "true")
		writeMemory(t, l.Root)
		if res := mustCommit(t, l, Options{}); res.Status != Deferred || !strings.Contains(res.Reason, "bare") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("reftable", func(t *testing.T) {
		l := newRepo(t)
		git(t, l.Root, "config", "extensions.refStorage", "reftable")
		writeMemory(t, l.Root)
		if res := mustCommit(t, l, Options{}); res.Status != Deferred || !strings.Contains(res.Reason, "reftable") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("no repository", func(t *testing.T) {
		res, err := Commit(layoutNoRepo(t), Options{})
		if err != nil || res.Status != Deferred {
			t.Fatalf("%+v %v", res, err)
		}
	})
}

func TestCommitPackedRefsAndLinkedWorktree(t *testing.T) {
	l := newRepo(t)
	git(t, l.Root, "pack-refs", "--all")
	git(t, l.Root, "gc", "-q")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, l.Root, "worktree", "add", "-q", "-b", "feature", wt)
	lw := layoutOf(t, wt)
	if lw.GitDir == lw.CommonDir {
		t.Fatal("not a linked worktree layout")
	}
	userChanges(t, wt)
	writeMemory(t, wt)
	before := git(t, wt, "status", "--porcelain")
	mainHead := git(t, l.Root, "rev-parse", "main")
	res := mustCommit(t, lw, Options{})
	if res.Status != Committed || res.Branch != "feature" {
		t.Fatalf("%+v", res)
	}
	if git(t, l.Root, "rev-parse", "main") != mainHead {
		t.Fatal("main moved")
	}
	if got := strings.TrimSpace(git(t, wt, "rev-parse", "HEAD")); got != res.Commit {
		t.Fatalf("worktree HEAD %s", got)
	}
	if got := git(t, wt, "status", "--porcelain"); withoutMemory(got) != withoutMemory(before) || strings.Contains(got, ".claude/memory") {
		t.Fatalf("status %q", got)
	}
	if s := git(t, l.Root, "status", "--porcelain"); s != "" {
		t.Fatalf("main worktree disturbed: %q", s)
	}
	if rl := git(t, wt, "reflog", "-1", "--format=%gs"); !strings.HasPrefix(rl, "commit: memory:") {
		t.Fatalf("worktree HEAD reflog %q", rl)
	}
	fsck(t, l.Root)
}

// TestCommitCrashSafety aborts a commit after every step, in process (an
// error) and as a dying child process (exit without cleanup), and checks
// the repository is fsck-clean, the user's index intact, and the next run
// completes.
func TestCommitCrashSafety(t *testing.T) {
	steps := []string{"lock-index", "read-index", "write-blobs", "write-trees", "write-commit", "write-reflog", "update-ref", "write-index-lock"}
	for _, kill := range []bool{false, true} {
		for _, s := range steps {
			name := s
			if kill {
				name = "kill-" + s
			}
			t.Run(name, func(t *testing.T) {
				l := newRepo(t)
				dir := l.Root
				userChanges(t, dir)
				writeMemory(t, dir)
				idx, _ := os.ReadFile(filepath.Join(l.GitDir, "index"))
				status := git(t, dir, "status", "--porcelain")
				if kill {
					cmd := childCmd(t, dir, "GITSTORE_TEST_CRASH_AT="+s)
					if err := cmd.Run(); err == nil {
						t.Fatal("child did not crash")
					}
				} else {
					testHook = func(step string) error {
						if step == s {
							return errors.New("injected failure at " + step)
						}
						return nil
					}
					res, err := Commit(l, Options{})
					testHook = nil
					if err == nil || res.Status != Deferred {
						t.Fatalf("%+v %v", res, err)
					}
					if _, err := os.Stat(filepath.Join(l.GitDir, "index.lock")); err == nil {
						t.Fatal("index.lock left behind")
					}
				}
				fsck(t, dir)
				now, _ := os.ReadFile(filepath.Join(l.GitDir, "index"))
				if !bytes.Equal(now, idx) {
					t.Fatal("the index changed although the commit did not finish")
				}
				if got := git(t, dir, "diff", "--cached", "--name-only"); got != "README.md\nsrc/new.go\n" {
					// after update-ref, HEAD has memory but the index not yet:
					// git shows the memory files as staged deletions.
					if s != "update-ref" && s != "write-index-lock" {
						t.Fatalf("staged: %q (status was %q)", got, status)
					}
				}
				res := mustCommit(t, l, Options{})
				if res.Status != Committed && res.Status != NoChange {
					t.Fatalf("next run: %+v", res)
				}
				if got := git(t, dir, "status", "--porcelain"); withoutMemory(got) != withoutMemory(status) || strings.Contains(got, ".claude/memory") {
					t.Fatalf("after recovery: %q", got)
				}
				if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "2\n" {
					t.Fatalf("commits: %s", n)
				}
				if _, err := os.Stat(filepath.Join(l.CommonDir, "refs", "heads", "main.lock")); err == nil {
					t.Fatal("ref lock left")
				}
				fsck(t, dir)
			})
		}
	}
}

// TestCommitKeepsRacilyCleanEntriesRacy: a file changed in the same second
// as the index was written has stat data git cannot trust; after memkeep
// rewrites the index, git must still see the change (as it does after any
// git command that rewrites the index), so that `git commit -a` commits
// the file's content and not the staged one.
func TestCommitKeepsRacilyCleanEntriesRacy(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	// ctime would give the change away on its own; git users with
	// core.trustctime=false (common on network file systems) rely on size.
	git(t, dir, "config", "core.trustctime", "false")
	at := time.Now().Add(-10 * time.Second).Truncate(time.Second)
	write(t, dir, "a.txt", "aaaa\n")
	os.Chtimes(filepath.Join(dir, "a.txt"), at, at)
	git(t, dir, "add", "a.txt")
	index := filepath.Join(dir, ".git", "index")
	os.Chtimes(index, at, at) // the index was written in the same second
	write(t, dir, "a.txt", "bbbb\n")
	os.Chtimes(filepath.Join(dir, "a.txt"), at, at) // same size, same mtime
	if got := git(t, dir, "diff", "--name-only"); got != "a.txt\n" {
		t.Fatalf("git does not see the change before the commit: %q", got)
	}
	os.Chtimes(index, at, at)

	writeMemory(t, dir)
	mustCommit(t, l, Options{})
	if got := git(t, dir, "diff", "--name-only"); got != "a.txt\n" {
		t.Errorf("after the memory commit git no longer sees the unstaged change: git diff --name-only = %q", got)
	}
	git(t, dir, "commit", "-q", "-a", "-m", "user commit")
	if got := git(t, dir, "show", "HEAD:a.txt"); got != "bbbb\n" {
		t.Errorf("git commit -a committed %q, the file holds bbbb", got)
	}
}

// TestCommitInWorktreeOfBareRepository: a linked worktree of a bare
// repository is a work tree like any other (git commits there).
func TestCommitInWorktreeOfBareRepository(t *testing.T) {
	src := newRepo(t)
	bare := filepath.Join(t.TempDir(), "project.git")
	git(t, src.Root, "clone", "-q", "--bare", src.Root, bare)
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, bare, "worktree", "add", "-q", wt, "main")
	git(t, wt, "config", "user.name", "Test User")
	git(t, wt, "config", "user.email", "test@example.com")
	writeMemory(t, wt)
	res := mustCommit(t, layoutOf(t, wt), Options{})
	if res.Status != Committed || res.Branch != "main" {
		t.Fatalf("%+v", res)
	}
	if s := git(t, wt, "status", "--porcelain"); strings.Contains(s, ".claude/memory") {
		t.Fatalf("memory not committed: %q", s)
	}
	fsck(t, bare)
}

// TestCommitThroughSymbolicBranch: HEAD names a symbolic ref; the commit
// moves the branch it points to and leaves it symbolic, as git does.
func TestCommitThroughSymbolicBranch(t *testing.T) {
	l := newRepo(t)
	git(t, l.Root, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
	git(t, l.Root, "symbolic-ref", "HEAD", "refs/heads/alias")
	writeMemory(t, l.Root)
	res := mustCommit(t, l, Options{})
	if res.Status != Committed {
		t.Fatalf("%+v", res)
	}
	if got := strings.TrimSpace(git(t, l.Root, "symbolic-ref", "refs/heads/alias")); got != "refs/heads/main" {
		t.Errorf("alias is no longer symbolic: %q", got)
	}
	if got := strings.TrimSpace(git(t, l.Root, "rev-parse", "main")); got != res.Commit {
		t.Errorf("main is at %s, the memory commit is %s", got, res.Commit)
	}
	fsck(t, l.Root)
}

// TestCommitSignsLikeGit: with commit.gpgsign set, the memory commit is
// signed with the configured key, and git verifies the signature.
func TestCommitSignsLikeGit(t *testing.T) {
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		t.Skip("no gpg")
	}
	home, err := os.MkdirTemp("", "gpg") // short: gpg-agent's socket path is limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command("gpgconf", "--homedir", home, "--kill", "gpg-agent").Run()
		os.RemoveAll(home)
	})
	t.Setenv("GNUPGHOME", home)
	if out, err := exec.Command(gpg, "--batch", "--passphrase", "", "--quick-gen-key", "Test User <test@example.com>", "ed25519", "sign", "never").CombinedOutput(); err != nil {
		t.Skipf("gpg cannot make a key here: %v %s", err, out)
	}
	l := newRepo(t)
	git(t, l.Root, "config", "commit.gpgsign", "true")
	writeMemory(t, l.Root)
	if res := mustCommit(t, l, Options{}); res.Status != Committed {
		t.Fatalf("%+v", res)
	}
	if got := git(t, l.Root, "log", "-1", "--format=%G?"); got != "G\n" {
		t.Errorf("git log %%G? = %q, want G (a good signature)", got)
	}
	git(t, l.Root, "verify-commit", "HEAD")
	fsck(t, l.Root)

	// A key gpg does not have: the commit waits, with the reason.
	git(t, l.Root, "config", "user.signingkey", "nobody@example.com")
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":[]}`+"\n")
	res, err := Commit(l, Options{})
	if err != nil || res.Status != Deferred || !strings.Contains(res.Reason, "could not sign") {
		t.Errorf("with an unknown key: %+v %v, want deferred for the signature", res, err)
	}
}

// TestRecoverLocks: the git locks of a memkeep commit whose process died
// are removed without waiting for the next commit; a live process's are
// kept, and so is a lock git took itself.
func TestRecoverLocks(t *testing.T) {
	l := newRepo(t)
	lock := filepath.Join(l.GitDir, "index.lock")
	record := func(pid int) {
		if err := os.WriteFile(lock, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		id, ok := statLock(lock)
		if !ok {
			t.Skip("this file system keeps no inode generation nor birth time: memkeep never removes a lock here")
		}
		os.MkdirAll(l.StateDir(), 0o755)
		os.WriteFile(inflightPath(l), []byte(fmt.Sprintf("%d %s %s\n", pid, id, lock)), 0o644)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	record(dead.Process.Pid)
	if _, ok := gitOK(l.Root, "add", "README.md"); ok {
		t.Fatal("git ran with index.lock held")
	}
	RecoverLocks(l)
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("the dead commit's index.lock is still there: %v", err)
	}
	git(t, l.Root, "add", "README.md")

	record(os.Getppid()) // alive
	RecoverLocks(l)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("a live process's lock was removed: %v", err)
	}
	os.Remove(lock)
	os.Remove(inflightPath(l))

	// Nothing recorded: a lock git holds is never touched.
	os.WriteFile(lock, nil, 0o644)
	RecoverLocks(l)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("git's own lock was removed: %v", err)
	}
	os.Remove(lock)

	// The user removed a dead commit's lock as git advises, and git's next
	// lock file got the same inode: it is git's, and stays.
	record(dead.Process.Pid)
	old, _ := statLock(lock)
	reused := false
	for range 200 {
		os.Remove(lock)
		os.WriteFile(lock, nil, 0o644)
		if id, _ := statLock(lock); id.ino == old.ino {
			reused = true
			break
		}
	}
	if !reused {
		// The file system gave no inode twice: write the record as if it had.
		id, _ := statLock(lock)
		os.WriteFile(inflightPath(l), []byte(fmt.Sprintf("%d %s %s\n", dead.Process.Pid, lockID{id.ino, old.gen, old.bsec, old.bnsc}, lock)), 0o644)
	}
	if id, _ := statLock(lock); id == old {
		t.Skip("the new lock has the old one's inode, generation and birth time: nothing can tell them apart")
	}
	RecoverLocks(l)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("git's lock with a reused inode was removed (reused for real: %v): %v", reused, err)
	}
}

// TestCommitSignsWithSSH: gpg.format=ssh signs with a key file, or with a
// literal public key whose private half ssh-agent holds, as git does; git
// verifies both against an allowed-signers file.
func TestCommitSignsWithSSH(t *testing.T) {
	for _, tool := range []string{"ssh-keygen", "ssh-agent", "ssh-add"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	keys, err := os.MkdirTemp("", "ssh") // short: the agent's socket path is limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(keys)
	key := filepath.Join(keys, "id")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	pub, _ := os.ReadFile(key + ".pub")
	allowed := filepath.Join(keys, "allowed")
	os.WriteFile(allowed, []byte("test@example.com "+string(pub)), 0o644)

	l := newRepo(t)
	for k, v := range map[string]string{"commit.gpgsign": "true", "gpg.format": "ssh", "user.signingkey": key, "gpg.ssh.allowedSignersFile": allowed} {
		git(t, l.Root, "config", k, v)
	}
	verify := func(what string) {
		t.Helper()
		if got := git(t, l.Root, "log", "-1", "--format=%G?"); got != "G\n" {
			t.Errorf("%s: git log %%G? = %q, want G", what, got)
		}
		git(t, l.Root, "verify-commit", "HEAD")
	}
	writeMemory(t, l.Root)
	if res := mustCommit(t, l, Options{}); res.Status != Committed {
		t.Fatalf("key file: %+v", res)
	}
	verify("key file")

	// The literal key, through an agent holding the private key.
	sock := filepath.Join(keys, "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer agent.Process.Kill()
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Setenv("SSH_AUTH_SOCK", sock)
	if out, err := exec.Command("ssh-add", "-q", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v %s", err, out)
	}
	git(t, l.Root, "config", "user.signingkey", "key::"+strings.TrimSpace(string(pub)))
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":[]}`+"\n")
	if res := mustCommit(t, l, Options{}); res.Status != Committed {
		t.Fatalf("literal key: %+v", res)
	}
	verify("literal key through the agent")
}

// TestScanVetsAMemoryCommit: the user's secret scanner (scan: in
// config.yaml) runs over the memory folder before a memory commit; when it
// objects the commit waits, with the scanner's words, and nothing is
// committed; once it passes, the commit lands.
func TestScanVetsAMemoryCommit(t *testing.T) {
	l := newRepo(t)
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":["deploy with hunter2"]}`+"\n")
	scanner := `if grep -rq hunter2 "$MEMKEEP_MEMORY_DIR"; then echo "leak: hunter2 in facts.json"; exit 1; fi`
	res, err := Commit(l, Options{Scan: scanner})
	if err != nil || res.Status != Deferred || !strings.Contains(res.Reason, "leak: hunter2 in facts.json") || !strings.Contains(res.Reason, "secret scanner") {
		t.Fatalf("with a finding: %+v %v; want deferred with the scanner's output", res, err)
	}
	if out, _ := gitOK(l.Root, "log", "--all", "-p"); strings.Contains(out, "hunter2") {
		t.Fatalf("the finding was committed:\n%s", out)
	}
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":["deploy with the vault token"]}`+"\n")
	if res, err := Commit(l, Options{Scan: scanner}); err != nil || res.Status != Committed {
		t.Fatalf("clean memory: %+v %v; want committed", res, err)
	}
}

// TestSigningHoldsNoGitLock: the signature is made before any of git's
// locks is taken, so a signing program that waits (a pinentry, a
// smartcard) never blocks the user's git commands.
func TestSigningHoldsNoGitLock(t *testing.T) {
	l := newRepo(t)
	prog := filepath.Join(t.TempDir(), "fake-gpg")
	script := "#!/bin/sh\n" +
		"cat >/dev/null\n" +
		"for f in '" + l.GitDir + "'/index.lock '" + l.GitDir + "'/refs/heads/*.lock; do [ -e \"$f\" ] && echo \"$f\" >> '" + l.GitDir + "'/locks-seen; done\n" +
		"echo '[GNUPG:] SIG_CREATED D 1 8 00 1 FAKE' >&2\n" +
		"printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nZmFrZQ==\\n-----END PGP SIGNATURE-----\\n'\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, l.Root, "config", "commit.gpgsign", "true")
	git(t, l.Root, "config", "user.signingkey", "FAKE")
	git(t, l.Root, "config", "gpg.program", prog)
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":[]}`+"\n")
	res, err := Commit(l, Options{})
	if err != nil || res.Status != Committed {
		t.Fatalf("%+v %v", res, err)
	}
	if out := git(t, l.Root, "cat-file", "commit", "HEAD"); !strings.Contains(out, "gpgsig -----BEGIN PGP SIGNATURE-----") {
		t.Fatalf("the commit is not signed:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(l.GitDir, "locks-seen")); err == nil {
		t.Errorf("git locks held while signing: %s", b)
	}
}

// TestStaleTempFilesAreRemoved: the temporary file a killed write left in
// the memory folder is removed by the next commit (it would sit untracked
// in git status for good); one being written now is left alone.
func TestStaleTempFilesAreRemoved(t *testing.T) {
	l := newRepo(t)
	write(t, l.Root, ".claude/memory/facts.json", `{"rules":[]}`+"\n")
	stale := filepath.Join(l.MemoryDir(), ".concepts.json.tmp-1234")
	fresh := filepath.Join(l.MemoryDir(), ".facts.json.tmp-5678")
	os.WriteFile(stale, []byte("{"), 0o644)
	os.WriteFile(fresh, []byte("{"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if _, err := Commit(l, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a temporary file being written was removed")
	}
	if out := git(t, l.Root, "ls-files"); strings.Contains(out, "tmp-") {
		t.Errorf("a temporary file was committed:\n%s", out)
	}
}

package repo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// gitEnv isolates the git CLI, the referee, from the machine's config.
func gitEnv(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	for k, v := range map[string]string{
		"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "C", "GIT_COMMITTER_EMAIL": "c@x",
		"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
		"GIT_DIR": "", "GIT_WORK_TREE": "", "GIT_INDEX_FILE": "", "GIT_OBJECT_DIRECTORY": "",
	} {
		if v == "" {
			os.Unsetenv(k)
		} else {
			t.Setenv(k, v)
		}
	}
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// revParse asks git; ok is false when git cannot resolve rev.
func revParse(dir, rev string) (string, bool) {
	cmd := exec.Command("git", "rev-parse", "--verify", "-q", "--end-of-options", rev)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err == nil
}

func openRepo(t *testing.T, dir string) *Repo {
	t.Helper()
	r, err := Open(filepath.Join(dir, ".git"), filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// compareRevs checks Resolve against `git rev-parse --verify rev` and
// ResolveCommit against `git rev-parse --verify rev^{commit}`.
func compareRevs(t *testing.T, dir, phase string, revs []string) {
	t.Helper()
	r := openRepo(t, dir)
	for _, rev := range revs {
		for _, peel := range []bool{false, true} {
			ref := rev
			resolve := r.Resolve
			if peel {
				ref += "^{commit}"
				resolve = r.ResolveCommit
			}
			want, ok := revParse(dir, ref)
			got, err := resolve(rev)
			switch {
			case ok && err != nil:
				t.Errorf("%s: %s: git says %s, we fail: %v", phase, ref, want, err)
			case !ok && err == nil:
				t.Errorf("%s: %s: git fails, we say %s", phase, ref, got)
			case ok && got.String() != want:
				t.Errorf("%s: %s: git says %s, we say %s", phase, ref, want, got)
			case !ok && !strings.Contains(err.Error(), fmt.Sprintf("%q", rev)):
				t.Errorf("%s: %s: error does not name the revision: %v", phase, ref, err)
			}
		}
	}
}

func TestResolveMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnv(t)
	dir := t.TempDir()
	g := func(args ...string) string { t.Helper(); return runGit(t, dir, args...) }
	commit := func(file, msg string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, file), []byte(msg+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		g("add", file)
		g("commit", "-qm", msg)
		return g("rev-parse", "HEAD")
	}
	g("init", "-q", "-b", "main")
	c1 := commit("a", "one")
	c2 := commit("a", "two")
	g("tag", "-a", "-m", "version one", "v1")
	g("tag", "-a", "-m", "tag of a tag", "vv", "v1")
	g("checkout", "-qb", "feature")
	f1 := commit("b", "feature one")
	g("tag", "lt")
	commit("b", "feature two")
	g("checkout", "-q", "main")
	commit("c", "three")
	g("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	g("branch", "team/x", c1)
	g("branch", "dup", c1)
	g("tag", "dup", c2) // a tag wins over a branch of the same name
	g("update-ref", "refs/remotes/origin/main", c2)
	g("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	g("tag", "treetag", "HEAD^{tree}")
	g("branch", c2[:7], f1) // a hex-looking branch: refs before short ids
	g("update-ref", "refs/notes/x", f1)

	revs := []string{
		"HEAD", "@", "HEAD~", "HEAD~0", "HEAD^0", "HEAD~2", "HEAD^", "HEAD^2", "HEAD^2~1", "HEAD^^", "HEAD~1^",
		"@~1", "@^2", "main", "main~3", "main^2^", "HEAD~1^2", "feature", "feature~1", "v1", "v1^0", "v1~1",
		"v1^{}", "v1^{commit}", "vv", "vv^{}", "vv~1", "lt", "dup", "heads/dup", "tags/dup", "origin",
		"origin/main", "remotes/origin/main", "refs/remotes/origin/HEAD", "refs/heads/main", "refs/tags/v1",
		"notes/x", "team/x", "ORIG_HEAD", "treetag", "treetag^{}",
		c1, c2[:7], c1[:12], f1, strings.ToUpper(c1[:10]),
		// unknown, invalid or impossible
		"nosuch", "HEAD~10", "HEAD^3", c1 + "~1", c1 + "^", "main~1~1~1~1", "../config", "refs/../config",
		"main..", "feature/", "treetag~1", "treetag^0", "0000000", "HEAD^{tree}", "v1^{blob}", "HEAD^{",
		"v1^{tag}", "main^{tag}", "vv^{tree}", "treetag^{tree}", "HEAD^{object}", "HEAD^{tree}~1", "HEAD^{nope}",
		strings.Repeat("1", 40), strings.Repeat("1", 40) + "^{object}",
		strings.Repeat("1", 40)[:39] + "x", "config", "objects", "~1", "^",
	}
	compareRevs(t, dir, "loose", revs)

	g("pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "tags", "v1")); err == nil {
		t.Fatal("pack-refs left the tag loose")
	}
	compareRevs(t, dir, "packed refs", revs)

	g("gc", "-q", "--prune=now")
	if ents, _ := os.ReadDir(filepath.Join(dir, ".git", "objects", c1[:2])); len(ents) != 0 {
		t.Fatal("gc left objects loose")
	}
	compareRevs(t, dir, "packed objects", revs)

	// Loose objects and refs on top of packed ones.
	g("checkout", "-q", "feature")
	commit("d", "after gc")
	g("checkout", "-q", "main")
	g("branch", "-f", "dup", "feature")
	compareRevs(t, dir, "mixed", append(revs, "feature~2", "dup~1"))

	// A linked worktree has its own HEAD; objects and refs are shared.
	wt := filepath.Join(t.TempDir(), "wt")
	g("worktree", "add", "-q", wt, "feature~1")
	r, err := Open(filepath.Join(dir, ".git", "worktrees", "wt"), filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, rev := range []string{"HEAD", "@~1", "main"} {
		want, _ := revParse(wt, rev)
		if got, err := r.Resolve(rev); err != nil || got.String() != want {
			t.Errorf("worktree %s: git %s, we %s %v", rev, want, got, err)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	r := openRepo(t, dir)
	if _, err := r.Resolve("HEAD"); !errors.Is(err, ErrUnknownRevision) || !strings.Contains(err.Error(), "no commit yet") {
		t.Errorf("unborn HEAD: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a"), []byte("a\n"), 0o644)
	runGit(t, dir, "add", "a")
	runGit(t, dir, "commit", "-qm", "root")
	for rev, want := range map[string]error{
		"nosuch":   ErrUnknownRevision,
		"HEAD~1":   ErrUnknownRevision,
		"HEAD^2":   ErrUnknownRevision,
		"ffffffff": ErrUnknownRevision,
	} {
		if _, err := r.ResolveCommit(rev); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", rev, err, want)
		}
	}
	if _, err := r.Resolve("HEAD@{1}"); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("reflog syntax: %v", err)
	}
}

// TestResolveAmbiguousShortIDs builds objects whose ids share their first
// four hex digits, loose and then packed, and checks git's verdicts: two
// commits are ambiguous; a commit and a blob are ambiguous as an object but
// not where a commit is wanted.
func TestResolveAmbiguousShortIDs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "a"), []byte("a\n"), 0o644)
	runGit(t, dir, "add", "a")
	runGit(t, dir, "commit", "-qm", "root")
	r := openRepo(t, dir)
	head, _ := r.ReadHead()
	root, err := r.Commit(head.Hash)
	if err != nil {
		t.Fatal(err)
	}
	commitData := func(i int) []byte {
		c := &Commit{Author: root.Author, Committer: root.Committer, TreeHash: root.TreeHash,
			ParentHashes: []plumbing.Hash{head.Hash}, Message: fmt.Sprintf("n %d\n", i)}
		return EncodeCommit(c)
	}
	// Two commits sharing four hex digits (a birthday search, ~300 tries).
	byPrefix := map[string]int{}
	var ca, cb plumbing.Hash
	for i := 0; ; i++ {
		h := HashObject(plumbing.CommitObject, commitData(i))
		if j, ok := byPrefix[h.String()[:4]]; ok {
			ca, _ = r.WriteObject(plumbing.CommitObject, commitData(j))
			cb, _ = r.WriteObject(plumbing.CommitObject, commitData(i))
			break
		}
		byPrefix[h.String()[:4]] = i
	}
	// A third commit, and a blob sharing its four hex digits.
	cc, _ := r.WriteObject(plumbing.CommitObject, commitData(-1))
	var blob plumbing.Hash
	for i := 0; ; i++ {
		data := []byte(fmt.Sprintf("blob %d\n", i))
		if h := HashObject(plumbing.BlobObject, data); h.String()[:4] == cc.String()[:4] {
			blob, _ = r.WriteObject(plumbing.BlobObject, data)
			break
		}
	}
	runGit(t, dir, "update-ref", "refs/heads/ca", ca.String())
	runGit(t, dir, "update-ref", "refs/heads/cb", cb.String())
	runGit(t, dir, "update-ref", "refs/heads/cc", cc.String())
	runGit(t, dir, "update-ref", "refs/tags/blob", blob.String())

	check := func(phase string) {
		t.Helper()
		r := openRepo(t, dir)
		if _, err := r.Resolve(ca.String()[:4]); !errors.Is(err, ErrAmbiguous) ||
			!strings.Contains(err.Error(), ca.String()) || !strings.Contains(err.Error(), cb.String()) {
			t.Errorf("%s: two commits: %v", phase, err)
		}
		if _, err := r.ResolveCommit(ca.String()[:4] + "~1"); !errors.Is(err, ErrAmbiguous) {
			t.Errorf("%s: two commits, commit-ish: %v", phase, err)
		}
		if _, err := r.Resolve(cc.String()[:4]); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "blob") {
			t.Errorf("%s: commit and blob: %v", phase, err)
		}
		compareRevs(t, dir, phase, []string{
			ca.String()[:4], cb.String()[:4], cc.String()[:4], cc.String()[:4] + "~1", cc.String()[:4] + "^0",
			blob.String()[:4], ca.String()[:12], cb.String()[:12], blob.String()[:5],
		})
	}
	check("loose")
	runGit(t, dir, "gc", "-q", "--prune=now")
	if ents, _ := os.ReadDir(filepath.Join(dir, ".git", "objects", ca.String()[:2])); len(ents) != 0 {
		t.Fatal("gc left objects loose")
	}
	check("packed")
	hs, err := openRepo(t, dir).HashesWithPrefix(ca.String()[:4])
	lo := ca
	if cb.String() < ca.String() {
		lo = cb
	}
	if err != nil || len(hs) != 2 || hs[0] != lo {
		t.Errorf("HashesWithPrefix: %v %v", hs, err)
	}
}

// TestIdxBucketVersions reads the same pack's index in versions 1 and 2.
func TestIdxBucketVersions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), []byte(fmt.Sprint(i)), 0o644)
	}
	runGit(t, dir, "add", ".")
	runGit(t, dir, "commit", "-qm", "many")
	runGit(t, dir, "gc", "-q")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v", packs)
	}
	v1 := filepath.Join(t.TempDir(), "v1.idx")
	runGit(t, dir, "index-pack", "--index-version=1", "-o", v1, packs[0])
	v2 := strings.TrimSuffix(packs[0], ".pack") + ".idx"
	total := 0
	for b := 0; b < 256; b++ {
		var one, two []string
		if err := idxBucket(v1, byte(b), func(h plumbing.Hash) { one = append(one, h.String()) }); err != nil {
			t.Fatal(err)
		}
		if err := idxBucket(v2, byte(b), func(h plumbing.Hash) { two = append(two, h.String()) }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(one, ",") != strings.Join(two, ",") {
			t.Fatalf("bucket %02x: v1 %v v2 %v", b, one, two)
		}
		for _, h := range two {
			if h[:2] != fmt.Sprintf("%02x", b) {
				t.Fatalf("bucket %02x holds %s", b, h)
			}
		}
		total += len(two)
	}
	if want := strings.Count(runGit(t, dir, "rev-list", "--objects", "--all"), "\n") + 1; total != want {
		t.Fatalf("%d ids in the index, %d objects", total, want)
	}
}

package repo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func requireGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// catFile returns an object's raw content as git reads it.
func catFile(t *testing.T, dir, typ, rev string) []byte {
	t.Helper()
	cmd := exec.Command("git", "cat-file", typ, rev)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file %s %s: %v", typ, rev, err)
	}
	return out
}

// gitIn runs git with extra environment and stdin, failing the test on error.
func gitIn(t *testing.T, dir, stdin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// sshSigning configures the repository to sign commits and tags with a
// fresh SSH key; false when ssh-keygen is not available.
func sshSigning(t *testing.T, dir string) bool {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		return false
	}
	key := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Logf("ssh-keygen: %v %s", err, out)
		return false
	}
	runGit(t, dir, "config", "gpg.format", "ssh")
	runGit(t, dir, "config", "user.signingkey", key)
	return true
}

// TestDecodeCommitRoundTripsGit decodes commits git wrote (signed, merges
// with a mergetag, an encoding header, odd time zones, an empty message)
// and checks the fields and that encoding gives the same bytes back.
func TestDecodeCommitRoundTripsGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	signed := sshSigning(t, dir)
	write := func(name, data string) {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
		runGit(t, dir, "add", name)
	}
	write("a", "a\n")
	runGit(t, dir, "commit", "-qm", "root\n\nbody line\n\nKey: value")
	root := runGit(t, dir, "rev-parse", "HEAD")

	runGit(t, dir, "checkout", "-qb", "side")
	write("b", "b\n")
	gitIn(t, dir, "", []string{"GIT_COMMITTER_DATE=1700000000 +0530", "GIT_AUTHOR_DATE=1600000000 -0930"},
		"commit", "-qm", "side tz")
	if signed {
		write("c", "c\n")
		runGit(t, dir, "commit", "-qS", "-m", "signed")
		runGit(t, dir, "tag", "-s", "-m", "signed tag", "v1")
	} else {
		t.Log("ssh-keygen not found: no signed commit or mergetag")
		runGit(t, dir, "tag", "-a", "-m", "tag", "v1")
	}
	runGit(t, dir, "checkout", "-q", "main")
	write("d", "d\n")
	gitIn(t, dir, "", nil, "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-qm", "latin")
	runGit(t, dir, "merge", "-q", "--no-ff", "-m", "merge v1", "v1")
	gitIn(t, dir, "", nil, "commit", "-q", "--allow-empty", "--allow-empty-message", "-m", "")

	// Hand-made commits for zones git does not write itself.
	var crafted []string
	for _, tz := range []string{"-0000", "+1400", "-1200", "+0545"} {
		raw := fmt.Sprintf("tree %s\nparent %s\nauthor A U Thor <a@x> 1700000000 %s\ncommitter C <c@x> 0 %s\n\nzone %s\n",
			runGit(t, dir, "rev-parse", "HEAD^{tree}"), root, tz, tz, tz)
		crafted = append(crafted, gitIn(t, dir, raw, nil, "hash-object", "-t", "commit", "-w", "--stdin"))
	}
	runGit(t, dir, "fsck", "--strict", "--no-dangling")

	revs := strings.Fields(runGit(t, dir, "rev-list", "--all"))
	revs = append(revs, crafted...)
	r := openRepo(t, dir)
	sawSig, sawTag, sawEnc, sawMerge := false, false, false, false
	for _, rev := range revs {
		raw := catFile(t, dir, "commit", rev)
		c, err := r.Commit(plumbing.NewHash(rev))
		if err != nil {
			t.Fatalf("%s: %v", rev, err)
		}
		if got := EncodeCommit(c); !bytes.Equal(got, raw) {
			t.Errorf("%s does not round-trip:\n--- git\n%s\n--- ours\n%s", rev, raw, got)
		}
		if c.Hash.String() != rev {
			t.Errorf("Hash %s, want %s", c.Hash, rev)
		}
		// go-git's decoder is the second opinion on the fields.
		o := &plumbing.MemoryObject{}
		o.SetType(plumbing.CommitObject)
		o.Write(raw)
		var g object.Commit
		if err := g.Decode(o); err != nil {
			t.Fatal(err)
		}
		if c.TreeHash != g.TreeHash || fmt.Sprint(c.ParentHashes) != fmt.Sprint(g.ParentHashes) || c.Message != g.Message {
			t.Errorf("%s: tree/parents/message differ from go-git's: %+v", rev, c)
		}
		for _, p := range [][2]Signature{{c.Author, Signature(g.Author)}, {c.Committer, Signature(g.Committer)}} {
			_, o1 := p[0].When.Zone()
			_, o2 := p[1].When.Zone()
			if p[0].Name != p[1].Name || p[0].Email != p[1].Email || !p[0].When.Equal(p[1].When) || o1 != o2 {
				t.Errorf("%s: signature %+v, go-git %+v", rev, p[0], p[1])
			}
		}
		if v, ok := c.Header("gpgsig"); ok {
			sawSig = true
			if v != g.PGPSignature && v+"\n" != g.PGPSignature {
				t.Errorf("%s: gpgsig %q, go-git %q", rev, v, g.PGPSignature)
			}
		}
		if v, ok := c.Header("mergetag"); ok {
			sawTag = true
			if !strings.HasPrefix(v, "object ") || !strings.Contains(v, "\n-----BEGIN SSH SIGNATURE-----\n") {
				t.Errorf("%s: mergetag %q", rev, v)
			}
		}
		if v, ok := c.Header("encoding"); ok {
			sawEnc = v == "ISO-8859-1"
		}
		sawMerge = sawMerge || c.NumParents() == 2
	}
	if signed && (!sawSig || !sawTag) {
		t.Errorf("no gpgsig (%v) or mergetag (%v) header seen", sawSig, sawTag)
	}
	if !sawEnc || !sawMerge {
		t.Errorf("no encoding header (%v) or merge (%v) seen", sawEnc, sawMerge)
	}
	c, _ := r.Commit(plumbing.NewHash(crafted[0]))
	if name, off := c.Committer.When.Zone(); name != "-0000" || off != 0 || c.Committer.When.Unix() != 0 {
		t.Errorf("-0000 decoded as %s %d", name, off)
	}
	c, _ = r.Commit(plumbing.NewHash(runGit(t, dir, "rev-parse", "side~1")))
	if _, off := c.Committer.When.Zone(); off != 5*3600+30*60 || c.Committer.When.Unix() != 1700000000 {
		t.Errorf("+0530 decoded as %v", c.Committer.When)
	}
	if _, off := c.Author.When.Zone(); off != -(9*3600 + 30*60) {
		t.Errorf("-0930 decoded as %v", c.Author.When)
	}
}

// TestWrittenObjectsMatchGit writes trees and commits through the codecs
// and has git check them: fsck --strict accepts them, git's own mktree and
// commit-tree produce the same ids, and cat-file shows what was meant.
func TestWrittenObjectsMatchGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	r := openRepo(t, dir)
	blob := func(s string) plumbing.Hash {
		h, err := r.WriteObject(plumbing.BlobObject, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	sub, err := r.WriteTree([]TreeEntry{{Name: "x.json", Mode: filemode.Regular, Hash: blob("{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	// Names chosen so that git's folder-as-"name/" ordering matters.
	ents := []TreeEntry{
		{Name: "a", Mode: filemode.Dir, Hash: sub},
		{Name: "a.b", Mode: filemode.Regular, Hash: blob("ab\n")},
		{Name: "a-c", Mode: filemode.Executable, Hash: blob("#!/bin/sh\n")},
		{Name: "link", Mode: filemode.Symlink, Hash: blob("a.b")},
		{Name: "ab", Mode: filemode.Regular, Hash: blob("")},
		{Name: "é", Mode: filemode.Regular, Hash: blob("utf8\n")},
	}
	root, err := r.WriteTree(ents)
	if err != nil {
		t.Fatal(err)
	}
	var ls strings.Builder
	for _, e := range ents {
		typ := "blob"
		if e.Mode == filemode.Dir {
			typ = "tree"
		}
		fmt.Fprintf(&ls, "%06o %s %s\t%s\n", uint32(e.Mode), typ, e.Hash, e.Name)
	}
	if want := gitIn(t, dir, ls.String(), nil, "mktree"); root.String() != want {
		t.Errorf("tree %s, git mktree says %s", root, want)
	}
	if got, want := runGit(t, dir, "-c", "core.quotePath=false", "cat-file", "-p", root.String())+"\n", ls.String(); got != want {
		t.Errorf("cat-file -p tree:\n%s\nwant\n%s", got, want)
	}
	raw := catFile(t, dir, "tree", root.String())
	dec, err := DecodeTree(raw)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(dec) != fmt.Sprint(ents) || !bytes.Equal(EncodeTree(dec), raw) {
		t.Errorf("tree does not round-trip: %v", dec)
	}

	// A root commit and a child, with several zones, against commit-tree.
	var parent plumbing.Hash
	var last time.Time
	for i, z := range []string{"+0000", "+0530", "-0800", "+1245"} {
		off, _ := parseTZ(z)
		when := time.Unix(1700000000+int64(i), 0).In(time.FixedZone("", off))
		c := &Commit{
			TreeHash:  root,
			Author:    Signature{Name: "Ann Author", Email: "ann@example.com", When: when},
			Committer: Signature{Name: "Cy Committer", Email: "cy@example.com", When: when.Add(time.Hour)},
			Message:   fmt.Sprintf("memory: commit %d\n\nbody\n\nMemkeep-Session: s%d\n", i, i),
		}
		args := []string{"commit-tree", root.String()}
		if !parent.IsZero() {
			c.ParentHashes = []plumbing.Hash{parent}
			args = append(args, "-p", parent.String())
		}
		h, err := r.WriteObject(plumbing.CommitObject, EncodeCommit(c))
		if err != nil {
			t.Fatal(err)
		}
		env := []string{
			"GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com",
			fmt.Sprintf("GIT_AUTHOR_DATE=%d %s", when.Unix(), z),
			"GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com",
			fmt.Sprintf("GIT_COMMITTER_DATE=%d %s", when.Unix()+3600, z),
		}
		if want := gitIn(t, dir, c.Message, env, append(args, "-F", "-")...); h.String() != want {
			t.Errorf("commit %d: %s, git commit-tree says %s:\n%s\n%s", i, h, want, EncodeCommit(c), catFile(t, dir, "commit", want))
		}
		if got := catFile(t, dir, "commit", h.String()); !bytes.Equal(got, EncodeCommit(c)) {
			t.Errorf("cat-file commit %s:\n%s", h, got)
		}
		parent, last = h, when
	}
	runGit(t, dir, "update-ref", "refs/heads/main", parent.String())
	runGit(t, dir, "fsck", "--strict", "--no-dangling")
	const iso = "2006-01-02 15:04:05 -0700"
	if got, want := runGit(t, dir, "log", "--format=%an|%ae|%ai|%cn|%ci|%s", "-1"),
		"Ann Author|ann@example.com|"+last.Format(iso)+"|Cy Committer|"+last.Add(time.Hour).Format(iso)+"|memory: commit 3"; got != want {
		t.Errorf("git log: %s\nwant %s", got, want)
	}

	// File reads through the trees.
	for path, want := range map[string]string{"a/x.json": "{}\n", "a.b": "ab\n", "link": "a.b", "ab": ""} {
		if got, err := r.File(root, path); err != nil || string(got) != want {
			t.Errorf("File(%s) = %q, %v", path, got, err)
		}
	}
	for _, path := range []string{"a", "a/y", "nope/x", "a.b/x", ""} {
		if _, err := r.File(root, path); err == nil {
			t.Errorf("File(%s) found something", path)
		}
	}
}

func TestIdentityLikeGit(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ann", "Ann"},
		{"  <Ann> Lee.\n", "Ann Lee."},
		{"a<b>c", "abc"},
		{"\"'Quoted'\",;:", "Quoted"},
		{"Jr. O'Neil", "Jr. O'Neil"},
	} {
		if got := withoutCrud(tc.in); got != tc.want {
			t.Errorf("withoutCrud(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	t.Setenv("GIT_AUTHOR_NAME", "<>")
	t.Setenv("GIT_AUTHOR_EMAIL", "<x@y>")
	if n, e := (&Config{}).Identity("author"); n != "memkeep" || e != "x@y" {
		t.Errorf("Identity = %q %q", n, e)
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, b := range []string{"100644 a", "100644 a\x00short", "10064x a\x00" + strings.Repeat("x", 20), " a\x00" + strings.Repeat("x", 20)} {
		if _, err := DecodeTree([]byte(b)); err == nil {
			t.Errorf("tree %q decoded", b)
		}
	}
	for _, b := range []string{"tree zz\n\nm", " cont\n\nm", "tree " + strings.Repeat("a", 40) + "\n cont\n\nm"} {
		if _, err := DecodeCommit([]byte(b)); err == nil {
			t.Errorf("commit %q decoded", b)
		}
	}
	if _, err := tagTarget([]byte("type commit\n\nobject " + strings.Repeat("a", 40) + "\n")); err == nil {
		t.Error("tag object header found in the message")
	}
}

// TestMergeBaseMatchesGit compares MergeBase with `git merge-base --all`
// on a history with criss-cross merges, fast-forwards and unrelated roots.
func TestMergeBaseMatchesGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	n := 0
	commit := func(env ...string) string {
		n++
		os.WriteFile(filepath.Join(dir, "f"), []byte(fmt.Sprint(n)), 0o644)
		runGit(t, dir, "add", "f")
		date := fmt.Sprintf("%d +0000", 1700000000+n*60)
		gitIn(t, dir, "", append([]string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date}, env...), "commit", "-qm", fmt.Sprint(n))
		return runGit(t, dir, "rev-parse", "HEAD")
	}
	merge := func(other string) string {
		n++
		date := fmt.Sprintf("%d +0000", 1700000000+n*60)
		gitIn(t, dir, "", []string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date},
			"merge", "-q", "--no-ff", "-s", "ours", "-m", "merge "+fmt.Sprint(n), other)
		return runGit(t, dir, "rev-parse", "HEAD")
	}
	var all []string
	all = append(all, commit(), commit())
	runGit(t, dir, "branch", "b")
	all = append(all, commit(), commit())
	runGit(t, dir, "checkout", "-q", "b")
	all = append(all, commit())
	bTip := all[len(all)-1]
	runGit(t, dir, "checkout", "-q", "main")
	mainTip := all[len(all)-2]
	// criss-cross: main merges b's tip, b merges main's old tip
	all = append(all, merge(bTip))
	runGit(t, dir, "checkout", "-q", "b")
	all = append(all, merge(mainTip))
	all = append(all, commit())
	runGit(t, dir, "checkout", "-q", "main")
	all = append(all, commit())
	// Clock skew: a commit dated before its parent.
	all = append(all, commit("GIT_COMMITTER_DATE=1600000000 +0000"))
	all = append(all, commit())
	runGit(t, dir, "checkout", "-q", "--orphan", "other")
	all = append(all, commit(), commit())

	r := openRepo(t, dir)
	for i, a := range all {
		for _, b := range all[i:] {
			cmd := exec.Command("git", "merge-base", "--all", a, b)
			cmd.Dir = dir
			out, _ := cmd.Output()
			want := strings.Fields(string(out))
			hs, err := r.MergeBase(plumbing.NewHash(a), plumbing.NewHash(b))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hs {
				got = append(got, h.String())
			}
			sort.Strings(want)
			gotSorted := append([]string(nil), got...)
			sort.Strings(gotSorted)
			if fmt.Sprint(gotSorted) != fmt.Sprint(want) {
				t.Errorf("merge-base %s %s: %v, git %v", a[:7], b[:7], got, want)
			}
			if len(want) > 0 {
				one := runGit(t, dir, "merge-base", a, b)
				if got[0] != one {
					t.Errorf("merge-base %s %s: first %s, git picks %s", a[:7], b[:7], got[0][:7], one[:7])
				}
			}
		}
	}
}

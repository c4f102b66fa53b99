package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// catFileBatch reads every object of the repository (loose, packed and
// from alternates) through `git cat-file --batch-all-objects --batch`.
func catFileBatch(t *testing.T, dir string) map[plumbing.Hash]struct {
	typ  string
	data []byte
} {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch-all-objects: %v", err)
	}
	objs := map[plumbing.Hash]struct {
		typ  string
		data []byte
	}{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := rd.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("cat-file header %q", line)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(rd, data); err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = struct {
			typ  string
			data []byte
		}{f[1], data[:n]}
	}
	return objs
}

// checkAllObjects reads every object git knows of with a fresh Repo and
// compares type and content; it returns how many were read.
func checkAllObjects(t *testing.T, dir, phase string) int {
	t.Helper()
	want := catFileBatch(t, dir)
	r := openRepo(t, dir)
	for h, o := range want {
		typ, data, err := r.objects.read(h)
		if err != nil {
			t.Fatalf("%s: %s: %v", phase, h, err)
		}
		if typ.String() != o.typ || !bytes.Equal(data, o.data) {
			t.Fatalf("%s: %s: got %s of %d bytes, git says %s of %d bytes", phase, h, typ, len(data), o.typ, len(o.data))
		}
		if ot, err := r.objects.objectType(h); err != nil || ot.String() != o.typ {
			t.Fatalf("%s: type of %s: %v %v", phase, h, ot, err)
		}
	}
	if _, _, err := r.objects.read(plumbing.NewHash("0123456789012345678901234567890123456789")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("%s: missing object: %v", phase, err)
	}
	return len(want)
}

// deltaHistory commits many revisions of a few files, so that a repack
// stores most of them as deltas (chains of them, with --aggressive).
func deltaHistory(t *testing.T, dir string, commits int) {
	t.Helper()
	runGit(t, dir, "init", "-q", "-b", "main")
	rng := rand.New(rand.NewSource(1))
	lines := make([]string, 400)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d %x", i, rng.Int63())
	}
	big := make([]byte, 40<<10) // above go-git's 16 KiB small-object limit
	rng.Read(big)
	for c := 0; c < commits; c++ {
		for k := 0; k < 5; k++ {
			lines[rng.Intn(len(lines))] = fmt.Sprintf("edit %d.%d %x", c, k, rng.Int63())
		}
		os.WriteFile(filepath.Join(dir, "notes.md"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		big[rng.Intn(len(big))] ^= 0xff
		os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644)
		os.MkdirAll(filepath.Join(dir, "sub", strconv.Itoa(c%3)), 0o755)
		os.WriteFile(filepath.Join(dir, "sub", strconv.Itoa(c%3), "f.txt"), []byte(strings.Join(lines[c%50:c%50+30], "\n")), 0o644)
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d\n\nbody %d", c, c))
		if c%10 == 0 {
			runGit(t, dir, "tag", "-a", "-m", "tag "+strconv.Itoa(c), "v"+strconv.Itoa(c))
		}
	}
}

// deltaKinds counts the objects of the repository's packs stored as
// offset deltas and as reference deltas.
func deltaKinds(t *testing.T, dir string) (ofs, ref int) {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	for _, p := range packs {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := packfile.NewScanner(f)
		_, n, err := s.Header()
		if err != nil {
			t.Fatal(err)
		}
		for i := uint32(0); i < n; i++ {
			h, err := s.NextObjectHeader()
			if err != nil {
				t.Fatal(err)
			}
			switch h.Type {
			case plumbing.OFSDeltaObject:
				ofs++
			case plumbing.REFDeltaObject:
				ref++
			}
			if _, _, err := s.NextObject(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ofs, ref
}

// TestReadPackedObjectsLikeGit reads every object after `git gc
// --aggressive`, with offset deltas (git's default) and with reference
// deltas, and compares it with git cat-file.
func TestReadPackedObjectsLikeGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	commits := 60
	if testing.Short() {
		commits = 15
	}
	for _, ofs := range []string{"true", "false"} {
		t.Run("deltaBaseOffset="+ofs, func(t *testing.T) {
			dir := t.TempDir()
			deltaHistory(t, dir, commits)
			n := checkAllObjects(t, dir, "loose")
			runGit(t, dir, "-c", "repack.useDeltaBaseOffset="+ofs, "-c", "pack.threads=1", "gc", "-q", "--aggressive")
			if loose, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "??", "*")); len(loose) != 0 {
				t.Fatalf("gc left %d loose objects", len(loose))
			}
			ofsN, refN := deltaKinds(t, dir)
			if d := max(ofsN, refN); d < n/3 || min(ofsN, refN) != 0 || (ofsN > 0) != (ofs == "true") {
				t.Fatalf("%d objects: %d offset deltas, %d reference deltas", n, ofsN, refN)
			}
			t.Logf("%d objects: %d offset deltas, %d reference deltas", n, ofsN, refN)
			if got := checkAllObjects(t, dir, "after gc"); got != n {
				t.Fatalf("git lists %d objects after gc, %d before", got, n)
			}
			// Objects resolve through the repository API too.
			r := openRepo(t, dir)
			h, err := r.ResolveCommit("v10")
			if err != nil {
				t.Fatal(err)
			}
			if b, err := r.File(mustCommitTree(t, r, h), "notes.md"); err != nil || !bytes.Equal(b, catFile(t, dir, "blob", "v10:notes.md")) {
				t.Fatalf("v10:notes.md: %v", err)
			}
		})
	}
}

func mustCommitTree(t *testing.T, r *Repo, h plumbing.Hash) plumbing.Hash {
	t.Helper()
	c, err := r.Commit(h)
	if err != nil {
		t.Fatal(err)
	}
	return c.TreeHash
}

// TestWriteObjectLikeGitHashObject writes objects of every type and size
// and checks them against `git hash-object -w` in a twin repository: same
// id, same content, a file git reads, read-only like git's.
func TestWriteObjectLikeGitHashObject(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir, twin := t.TempDir(), t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	runGit(t, twin, "init", "-q", "-b", "main")
	r := openRepo(t, dir)
	rng := rand.New(rand.NewSource(2))
	large := make([]byte, 3<<20)
	rng.Read(large)
	blobA := HashObject(plumbing.BlobObject, []byte("a\n"))
	tree := EncodeTree([]TreeEntry{{Name: "a", Mode: 0o100644, Hash: blobA}})
	treeID := HashObject(plumbing.TreeObject, tree)
	commit := []byte("tree " + treeID.String() + "\nauthor A <a@x> 1700000000 +0100\ncommitter C <c@x> 1700000000 -0000\n\nmsg\n")
	tag := []byte("object " + HashObject(plumbing.CommitObject, commit).String() + "\ntype commit\ntag t\ntagger T <t@x> 1700000000 +0000\n\nt\n")
	cases := []struct {
		typ  plumbing.ObjectType
		data []byte
	}{
		{plumbing.BlobObject, nil},
		{plumbing.BlobObject, []byte("a\n")},
		{plumbing.BlobObject, []byte("no newline\x00binary\xff")},
		{plumbing.BlobObject, bytes.Repeat([]byte("compressible "), 50000)},
		{plumbing.BlobObject, large},
		{plumbing.TreeObject, tree},
		{plumbing.CommitObject, commit},
		{plumbing.TagObject, tag},
	}
	for _, c := range cases {
		h, err := r.WriteObject(c.typ, c.data)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "hash-object", "-w", "--literally", "-t", c.typ.String(), "--stdin")
		cmd.Dir = twin
		cmd.Stdin = bytes.NewReader(c.data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git hash-object: %v", err)
		}
		if want := strings.TrimSpace(string(out)); h.String() != want {
			t.Fatalf("%s of %d bytes: %s, git says %s", c.typ, len(c.data), h, want)
		}
		if got := catFile(t, dir, c.typ.String(), h.String()); !bytes.Equal(got, c.data) {
			t.Fatalf("git reads %s back differently", h)
		}
		if got := catFile(t, twin, c.typ.String(), h.String()); !bytes.Equal(got, c.data) {
			t.Fatalf("twin: %s", h)
		}
		hex := h.String()
		path := filepath.Join(dir, ".git", "objects", hex[:2], hex[2:])
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o222 != 0 {
			t.Errorf("%s is writable: %v", path, fi.Mode())
		}
		// Both stores read the other's file.
		twinPath := filepath.Join(twin, ".git", "objects", hex[:2], hex[2:])
		typ, data, err := readLoose(filepath.Join(twin, ".git", "objects"), h, false)
		if err != nil || typ != c.typ || !bytes.Equal(data, c.data) {
			t.Fatalf("reading git's %s: %v", twinPath, err)
		}
		// Writing again leaves the file alone.
		if h2, err := r.WriteObject(c.typ, c.data); err != nil || h2 != h {
			t.Fatal(h2, err)
		}
		if fi2, _ := os.Stat(path); !os.SameFile(fi, fi2) {
			t.Errorf("%s rewritten", path)
		}
	}
	runGit(t, dir, "fsck", "--strict", "--no-dangling")
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "*", "tmp_obj_*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestAlternates reads objects that live only in alternate object folders,
// loose and packed, through a chain with a relative path and a loop.
func TestAlternates(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	base, mid, top := t.TempDir(), t.TempDir(), t.TempDir()
	deltaHistory(t, base, 5)
	runGit(t, base, "gc", "-q")
	os.WriteFile(filepath.Join(base, "loose.txt"), []byte("only loose in base\n"), 0o644)
	looseBlob := runGit(t, base, "hash-object", "-w", "loose.txt")
	runGit(t, mid, "init", "-q", "-b", "main")
	midBlob := gitIn(t, mid, "only in mid\n", nil, "hash-object", "-w", "--stdin")
	runGit(t, top, "init", "-q", "-b", "main")
	// top -> mid (absolute) -> base (relative) -> top (a loop).
	alt := func(from, to string, rel bool) {
		objs := filepath.Join(from, ".git", "objects")
		target := filepath.Join(to, ".git", "objects")
		if rel {
			var err error
			if target, err = filepath.Rel(objs, target); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(objs, "info", "alternates"), []byte("# comment\n"+target+"\n"), 0o644)
	}
	alt(top, mid, false)
	alt(mid, base, true)
	alt(base, top, false)
	if n := checkAllObjects(t, top, "alternates"); n < 20 {
		t.Fatalf("git sees only %d objects", n)
	}
	r := openRepo(t, top)
	for _, h := range []string{looseBlob, midBlob, runGit(t, base, "rev-parse", "HEAD:notes.md")} {
		if _, err := r.Blob(plumbing.NewHash(h)); err != nil {
			t.Errorf("blob %s: %v", h, err)
		}
		found, err := r.HashesWithPrefix(h[:6])
		if err != nil || len(found) != 1 || found[0].String() != h {
			t.Errorf("prefix %s: %v %v", h[:6], found, err)
		}
	}
	if got := len(r.objectDirs()); got != 3 {
		t.Errorf("object folders %v", r.objectDirs())
	}
	// Writes go to the repository's own folder.
	h, err := r.WriteObject(plumbing.BlobObject, []byte("only loose in base\n"))
	if err != nil || h.String() != looseBlob {
		t.Fatal(h, err)
	}
	if _, err := os.Stat(filepath.Join(top, ".git", "objects", looseBlob[:2], looseBlob[2:])); err != nil {
		t.Error(err)
	}
}

// TestPackedAfterOpen finds objects that a gc packed (and removed loose)
// after the store had listed the packs, as a concurrent `git gc` does.
func TestPackedAfterOpen(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	deltaHistory(t, dir, 3)
	runGit(t, dir, "gc", "-q")
	r := openRepo(t, dir)
	old := runGit(t, dir, "rev-parse", "HEAD~1:notes.md")
	if _, err := r.Blob(plumbing.NewHash(old)); err != nil { // lists and opens the pack
		t.Fatal(err)
	}
	blob := gitIn(t, dir, "new object\n", nil, "hash-object", "-w", "--stdin")
	if b, err := r.Blob(plumbing.NewHash(blob)); err != nil || string(b) != "new object\n" {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "x")
	os.WriteFile(filepath.Join(dir, "n.txt"), []byte("new object\n"), 0o644)
	runGit(t, dir, "add", "n.txt")
	runGit(t, dir, "commit", "-q", "-m", "n")
	runGit(t, dir, "gc", "-q")
	if _, err := os.Stat(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err == nil {
		t.Fatal("gc kept the loose object")
	}
	if b, err := r.Blob(plumbing.NewHash(blob)); err != nil || string(b) != "new object\n" {
		t.Fatalf("after gc: %v", err)
	}
	if _, err := r.Blob(plumbing.NewHash(old)); err != nil {
		t.Fatalf("old object after gc: %v", err)
	}
}

// TestReadWrongType reports an object of another type as not found.
func TestReadWrongType(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q")
	r := openRepo(t, dir)
	h, err := r.WriteObject(plumbing.BlobObject, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(h); !errors.Is(err, ErrNotFound) {
		t.Fatalf("commit from a blob: %v", err)
	}
	if _, err := r.Tree(plumbing.NewHash(strings.Repeat("ab", 20))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing tree: %v", err)
	}
}

// Package repo is the small repository interface gitstore commits through:
// read and write objects, read HEAD and refs, and move a branch with a
// compare-and-swap under git's own lock protocol. Objects go through a small
// object store of its own (objstore.go: loose objects, packs read with
// go-git's pack and index codecs, alternates); HEAD and refs are read from
// their files directly.
package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Repo is one work tree's view of a repository.
type Repo struct {
	// GitDir holds HEAD, the index and per-worktree state; CommonDir holds
	// objects, refs and config (they differ in linked worktrees).
	GitDir, CommonDir string
	objects           *objectStore
	Config            *Config
}

// Open opens the repository whose git directories are given.
func Open(gitDir, commonDir string) (*Repo, error) {
	if _, err := os.Stat(filepath.Join(commonDir, "objects")); err != nil {
		return nil, fmt.Errorf("%s is not a git directory: %w", commonDir, err)
	}
	r := &Repo{
		GitDir:    gitDir,
		CommonDir: commonDir,
		objects:   newObjectStore(filepath.Join(commonDir, "objects")),
		Config:    LoadConfig(gitDir, commonDir),
	}
	r.objects.shared = r.Config.SharedPerm()
	return r, nil
}

// Close releases open pack files.
func (r *Repo) Close() error { return r.objects.close() }

// ErrNotFound is returned for a missing object.
var ErrNotFound = plumbing.ErrObjectNotFound

// readObject returns the content of an object of type t. An object of
// another type is ErrNotFound, as for go-git's object storage.
func (r *Repo) readObject(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	got, b, err := r.objects.read(h)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", t, h, err)
	}
	if got != t {
		return nil, fmt.Errorf("%s %s: is a %s: %w", t, h, got, ErrNotFound)
	}
	return b, nil
}

// content reads an object's content.
func content(o plumbing.EncodedObject) ([]byte, error) {
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	buf := bytes.NewBuffer(make([]byte, 0, o.Size()))
	if _, err := buf.ReadFrom(rd); err != nil {
		return nil, fmt.Errorf("%s %s: %w", o.Type(), o.Hash(), err)
	}
	return buf.Bytes(), nil
}

// Blob returns a blob's content.
func (r *Repo) Blob(h plumbing.Hash) ([]byte, error) {
	return r.readObject(plumbing.BlobObject, h)
}

// Tree returns a tree's entries in git order. The zero hash is the empty
// tree (used for an unborn branch or a missing folder).
func (r *Repo) Tree(h plumbing.Hash) ([]TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, err := r.readObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	ents, err := DecodeTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	return ents, nil
}

// Commit decodes a commit.
func (r *Repo) Commit(h plumbing.Hash) (*Commit, error) {
	b, err := r.readObject(plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	c, err := DecodeCommit(b)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	c.Hash = h
	return c, nil
}

// File returns the content of the file at path (slash separated) in the
// tree root: a regular file, an executable or a symbolic link (its
// target). A missing path, a folder or a submodule is ErrNotFound.
func (r *Repo) File(root plumbing.Hash, path string) ([]byte, error) {
	dir, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, name = path[:i], path[i+1:]
	}
	t := root
	if dir != "" {
		var err error
		if t, err = r.SubtreeAt(root, dir); err != nil {
			return nil, err
		}
	}
	if !t.IsZero() {
		ents, err := r.Tree(t)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if e.Name == name && e.Mode != filemode.Dir && e.Mode != filemode.Submodule {
				return r.Blob(e.Hash)
			}
		}
	}
	return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
}

// SubtreeAt follows path (slash separated folder names) from the tree root
// and returns the folder's tree hash, zero when it does not exist. Only the
// trees along the path are read.
func (r *Repo) SubtreeAt(root plumbing.Hash, path string) (plumbing.Hash, error) {
	h := root
	for _, part := range strings.Split(path, "/") {
		ents, err := r.Tree(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		h = plumbing.ZeroHash
		for _, e := range ents {
			if e.Name == part && e.Mode == filemode.Dir {
				h = e.Hash
				break
			}
		}
		if h.IsZero() {
			return h, nil
		}
	}
	return h, nil
}

// WriteObject stores a loose object and returns its id. An object already
// stored loose is not written again; one that exists only in a pack gets a
// loose duplicate, which is harmless and pruned by gc.
func (r *Repo) WriteObject(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := HashObject(t, data)
	if err := r.objects.write(t, data, h); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// HashObject computes an object id without storing anything.
func HashObject(t plumbing.ObjectType, data []byte) plumbing.Hash {
	return plumbing.ComputeHash(t, data)
}

// SortTree orders entries as git requires: by name, where a folder sorts as
// if its name ended in "/".
func SortTree(ents []TreeEntry) {
	key := func(e TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(ents, func(i, j int) bool { return key(ents[i]) < key(ents[j]) })
}

// EncodeTree serialises entries (which must be sorted) as a tree object.
func EncodeTree(ents []TreeEntry) []byte {
	var b bytes.Buffer
	for _, e := range ents {
		fmt.Fprintf(&b, "%o %s", uint32(e.Mode), e.Name)
		b.WriteByte(0)
		b.Write(e.Hash[:])
	}
	return b.Bytes()
}

// WriteTree sorts entries and stores them as a tree.
func (r *Repo) WriteTree(ents []TreeEntry) (plumbing.Hash, error) {
	SortTree(ents)
	return r.WriteObject(plumbing.TreeObject, EncodeTree(ents))
}

// Head describes what HEAD points at.
type Head struct {
	// Branch is the full ref name ("refs/heads/main"); empty when detached.
	Branch string
	// Hash is the commit HEAD resolves to; zero on an unborn branch.
	Hash plumbing.Hash
}

// Detached reports a HEAD that names a commit rather than a branch.
func (h Head) Detached() bool { return h.Branch == "" }

// ReadHead reads HEAD of this work tree and resolves it.
func (r *Repo) ReadHead() (Head, error) {
	b, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return Head{}, err
	}
	s := strings.TrimSpace(string(b))
	if name, ok := strings.CutPrefix(s, "ref:"); ok {
		// The branch a commit moves is the end of the chain: HEAD may
		// name a symbolic ref (refs/heads/alias -> refs/heads/main), which
		// must stay symbolic, as git keeps it.
		name, h, _, err := r.resolveRef(strings.TrimSpace(name))
		return Head{Branch: name, Hash: h}, err
	}
	if !plumbing.IsHash(s) {
		return Head{}, fmt.Errorf("HEAD holds %q, neither a ref nor an object id", s)
	}
	return Head{Hash: plumbing.NewHash(s)}, nil
}

// ReadRef resolves a ref from its loose file or packed-refs, following
// symbolic refs. exists is false for an unborn branch.
func (r *Repo) ReadRef(name string) (h plumbing.Hash, exists bool, err error) {
	_, h, exists, err = r.resolveRef(name)
	return h, exists, err
}

// ResolveRefName is ReadRef that also returns the name of the ref the
// chain of symbolic refs from name ends at (origin/HEAD → origin/main).
func (r *Repo) ResolveRefName(name string) (final string, h plumbing.Hash, exists bool, err error) {
	return r.resolveRef(name)
}

// resolveRef is ReadRef that also returns the name of the ref the chain
// of symbolic refs from name ends at.
func (r *Repo) resolveRef(name string) (final string, h plumbing.Hash, exists bool, err error) {
	for depth := 0; depth < 5; depth++ {
		b, err := os.ReadFile(filepath.Join(r.CommonDir, filepath.FromSlash(name)))
		if err == nil {
			s := strings.TrimSpace(string(b))
			if target, ok := strings.CutPrefix(s, "ref:"); ok {
				name = strings.TrimSpace(target)
				continue
			}
			if !plumbing.IsHash(s) {
				return name, plumbing.ZeroHash, false, fmt.Errorf("ref %s holds %q", name, s)
			}
			return name, plumbing.NewHash(s), true, nil
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.EISDIR) && !errors.Is(err, syscall.ENOTDIR) {
			return name, plumbing.ZeroHash, false, err
		}
		h, exists, err := r.packedRef(name)
		return name, h, exists, err
	}
	return name, plumbing.ZeroHash, false, fmt.Errorf("ref %s: symbolic refs nest too deep", name)
}

func (r *Repo) packedRef(name string) (plumbing.Hash, bool, error) {
	b, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	needle := []byte(" " + name + "\n")
	for off := 0; ; {
		i := bytes.Index(b[off:], needle)
		if i < 0 {
			return plumbing.ZeroHash, false, nil
		}
		i += off
		start := bytes.LastIndexByte(b[:i], '\n') + 1
		if i-start == 40 && b[start] != '#' && b[start] != '^' {
			return plumbing.NewHash(string(b[start:i])), true, nil
		}
		off = i + len(needle)
	}
}

// Ident is a name, an email and a time, as in a commit or reflog line.
type Ident = Signature

// ErrRefMoved means the compare-and-swap found the branch somewhere other
// than the expected old value.
var ErrRefMoved = errors.New("the branch moved while memkeep was committing")

// ErrLocked means a git lock file is held by another process.
var ErrLocked = errors.New("locked by another git process")

// RefUpdate describes one compare-and-swap of a branch.
type RefUpdate struct {
	Name     string        // full ref name, "refs/heads/main"
	Old, New plumbing.Hash // Old zero: the ref must not exist yet
	Who      Ident         // committer, for the reflog line
	Msg      string        // reflog message ("commit: …")
	HeadLog  bool          // also append to this work tree's logs/HEAD
	Fsync    bool          // fsync the lock before the rename (core.fsync)
	// OnLocked, when set, learns the lock file just created (memkeep
	// records it to clean up after its own crash).
	OnLocked func(lockPath string)
	// BeforeRename, when set, runs after the reflog append and before the
	// rename (a test hook).
	BeforeRename func() error
}

// UpdateRef moves a ref the way git's files backend does: create
// <ref>.lock exclusively, check the current value (loose or packed) is
// u.Old, write and fsync the lock, append the reflog lines, then rename the
// lock over the ref (fsynced first when u.Fsync). A loose ref shadows packed-refs, so a packed branch
// needs no rewrite of packed-refs.
func (r *Repo) UpdateRef(u RefUpdate) error {
	path := filepath.Join(r.CommonDir, filepath.FromSlash(u.Name))
	shared := r.SharedPerm()
	if err := mkdirShared(filepath.Dir(path), shared); err != nil {
		return err
	}
	lock := path + ".lock"
	f, err := CreateLock(lock)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists: %w", lock, ErrLocked)
	}
	if err != nil {
		return err
	}
	if err := AdjustShared(lock, shared); err != nil {
		f.Close()
		RemoveLock(lock)
		return err
	}
	if u.OnLocked != nil {
		u.OnLocked(lock)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			RemoveLock(lock)
		}
	}()
	cur, _, err := r.ReadRef(u.Name)
	if err != nil {
		return err
	}
	if cur != u.Old {
		return fmt.Errorf("%s is at %s, expected %s: %w", u.Name, short(cur), short(u.Old), ErrRefMoved)
	}
	if _, err := f.WriteString(u.New.String() + "\n"); err != nil {
		return err
	}
	if u.Fsync {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	line := reflogLine(u.Old, u.New, u.Who, u.Msg)
	if r.logRefUpdates(u.Name) {
		if err := appendLog(filepath.Join(r.CommonDir, "logs", filepath.FromSlash(u.Name)), line, shared); err != nil {
			return err
		}
	}
	if u.HeadLog && r.logRefUpdates("HEAD") {
		if err := appendLog(filepath.Join(r.GitDir, "logs", "HEAD"), line, shared); err != nil {
			return err
		}
	}
	if u.BeforeRename != nil {
		if err := u.BeforeRename(); err != nil {
			return err
		}
	}
	if err := RenameLock(lock, path); err != nil {
		return err
	}
	done = true
	return nil
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:12]
}

// logRefUpdates follows core.logAllRefUpdates: branches and HEAD are logged
// unless it is false, in which case only refs that already have a log are.
func (r *Repo) logRefUpdates(name string) bool {
	if r.Config.Bool("core", "logallrefupdates", true) {
		return true // unset, true, or "always" (not a boolean: the default)
	}
	dir := r.CommonDir
	if name == "HEAD" {
		dir = r.GitDir
	}
	_, err := os.Stat(filepath.Join(dir, "logs", filepath.FromSlash(name)))
	return err == nil
}

func reflogLine(old, new plumbing.Hash, who Ident, msg string) string {
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", " ")
	return fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, who.Name, who.Email, who.When.Unix(), who.When.Format("-0700"), msg)
}

func appendLog(path, line string, shared int) error {
	if err := mkdirShared(filepath.Dir(path), shared); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := AdjustShared(path, shared); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Now is the clock used for commit and reflog times (a test seam).
var Now = time.Now

// TipsExcept lists the commits that the remote-tracking refs and the
// branches other than except (a full ref name) point at, loose and packed:
// history others already hold, which must not be rewritten.
func (r *Repo) TipsExcept(except string) ([]plumbing.Hash, error) {
	var out []plumbing.Hash
	for _, dir := range []string{"refs/remotes", "refs/heads"} {
		root := filepath.Join(r.CommonDir, filepath.FromSlash(dir))
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(r.CommonDir, p)
			if filepath.ToSlash(rel) == except || strings.HasSuffix(p, ".lock") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil // removed meanwhile
			}
			if s := strings.TrimSpace(string(b)); len(s) == 40 {
				out = append(out, plumbing.NewHash(s))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	b, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if h, name, ok := strings.Cut(line, " "); ok && len(h) == 40 && name != except && (strings.HasPrefix(name, "refs/remotes/") || strings.HasPrefix(name, "refs/heads/")) {
			out = append(out, plumbing.NewHash(h))
		}
	}
	return out, nil
}

package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/gitstore/merge"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/stream"
	"github.com/memkeep/memkeep/render"
)

// memkeep writes memory into a shadow of the memory folder under the git
// dir (memdir.Layout.MemoryDir) and copies it into the work tree only in
// its own commit. The shadow is to HEAD's memory what a work tree is to
// HEAD: it starts from it and holds what is not committed yet. When HEAD's
// memory changes by other means (a pull, a merge, a checkout of another
// branch, the user's own commit of a memory file), Sync carries that
// change into the shadow with the merge driver's rules, keeping what is
// not committed yet, as git carries local changes across a checkout.

// shadowBase is the commit and memory tree the shadow was last reconciled
// with, kept in memory-base under the state dir.
type shadowBase struct {
	Commit plumbing.Hash
	Tree   plumbing.Hash
}

// syncLockWait bounds Sync's wait for a consolidation in progress.
const syncLockWait = 5 * time.Second

func basePath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "memory-base") }

func readBase(l memdir.Layout) (shadowBase, bool) {
	b, err := os.ReadFile(basePath(l))
	if err != nil {
		return shadowBase{}, false
	}
	c, t, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !ok || len(c) != 40 || len(t) != 40 {
		return shadowBase{}, false
	}
	return shadowBase{plumbing.NewHash(c), plumbing.NewHash(t)}, true
}

func writeBase(l memdir.Layout, b shadowBase) error {
	return atomicfile.WriteFile(basePath(l), []byte(b.Commit.String()+" "+b.Tree.String()+"\n"), 0o644)
}

// Sync brings the shadow up to date with HEAD's memory: what a pull, a
// merge, a checkout or the user's own commit changed there is merged into
// it, and a user's edit of memory.md in the work tree is taken in (it is
// read back into the memory files by the next consolidation). It waits
// while HEAD is detached or a rebase, merge, cherry-pick or revert is in
// progress: HEAD is then not the branch the memory belongs to. Cheap when
// nothing changed (HEAD is the commit last reconciled).
func Sync(l memdir.Layout) error {
	if err := l.PrepareShadow(); err != nil {
		return err
	}
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil // no repository to follow: the shadow is the memory
	}
	defer r.Close()
	lk, err := filelock.Acquire(filepath.Join(l.StateDir(), "commit.lock"), 5*time.Second)
	if err != nil {
		return nil // a commit is running, and syncs first
	}
	defer lk.Unlock()
	err = syncShadow(l, r)
	if d := (deferral{}); errors.As(err, &d) {
		return nil // not now; the next hook or commit merges it
	}
	return err
}

// syncShadow is Sync under commit.lock. It runs at every Stop: when HEAD
// is the commit last reconciled and memory.md is as last seen, it reads
// no object and no index.
func syncShadow(l memdir.Layout, r *repo.Repo) error {
	head, err := r.ReadHead()
	if err != nil {
		return err
	}
	if inProgress(l.GitDir) != "" || head.Detached() {
		return nil
	}
	var mem plumbing.Hash
	memRead := false
	headMem := func() (plumbing.Hash, error) {
		if !memRead {
			var err error
			if mem, err = headMemory(r, head); err != nil {
				return plumbing.ZeroHash, err
			}
			memRead = true
		}
		return mem, nil
	}
	if err := adoptDigestEdit(l, r, headMem); err != nil {
		return err
	}
	base, ok := readBase(l)
	if ok && base.Commit == head.Hash {
		return nil
	}
	if mem, err = headMem(); err != nil {
		return err
	}
	if ok && base.Tree != mem {
		// The merge rewrites memory files: not under a consolidation's
		// feet (it would write back what it loaded before the merge).
		lk, err := filelock.Acquire(l.MemoryLock(), syncLockWait)
		if err != nil {
			return deferf("memory is being written by another memkeep process: HEAD's memory is merged in next time")
		}
		defer lk.Unlock()
		if err := mergeInbound(l, r, base.Tree, mem); err != nil {
			return err
		}
	}
	// Without a base (the shadow was just copied from the work tree, which
	// held HEAD's memory and memkeep's uncommitted changes) the shadow is
	// taken as based on HEAD.
	return writeBase(l, shadowBase{head.Hash, mem})
}

// treeFile is one file of a memory tree, by its path under the memory
// folder.
type treeFile struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// flatten lists the files of a tree by slash path.
func flatten(r *repo.Repo, tree plumbing.Hash, prefix string, out map[string]treeFile) error {
	ents, err := r.Tree(tree)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := path.Join(prefix, e.Name)
		switch e.Mode {
		case filemode.Dir:
			if err := flatten(r, e.Hash, p, out); err != nil {
				return err
			}
		case filemode.Submodule:
		default:
			out[p] = treeFile{e.Hash, e.Mode}
		}
	}
	return nil
}

// mergeInbound carries the change from HEAD's memory as last reconciled
// (from) to HEAD's memory now (to) into the shadow, file by file, keeping
// the shadow's own changes: the three-way merge of the merge driver, with
// from as the base, the shadow as ours and HEAD as theirs.
func mergeInbound(l memdir.Layout, r *repo.Repo, from, to plumbing.Hash) error {
	var changes []fileDiff
	if err := diffTrees(r, from, to, "", &changes); err != nil {
		return err
	}
	// memory.md last: mergeDigest renders the files merged before it.
	for i, c := range changes {
		if c.rel == "memory.md" {
			changes = append(append(changes[:i:i], changes[i+1:]...), c)
			break
		}
	}
	var errs []error
	for _, c := range changes {
		if err := mergeShadowFile(l, r, to, c.rel, treeFile{hash: c.old}, treeFile{hash: c.new}); err != nil {
			errs = append(errs, fmt.Errorf("%s/%s: %w", memRel, c.rel, err))
		}
	}
	return errors.Join(errs...)
}

func mergeShadowFile(l memdir.Layout, r *repo.Repo, headMem plumbing.Hash, rel string, from, to treeFile) error {
	p := filepath.Join(l.MemoryDir(), filepath.FromSlash(rel))
	var base, theirs []byte
	var err error
	if !from.hash.IsZero() {
		if base, err = r.Blob(from.hash); err != nil {
			return err
		}
	}
	if !to.hash.IsZero() {
		if theirs, err = r.Blob(to.hash); err != nil {
			return err
		}
	}
	if strings.HasPrefix(rel, "stream/") {
		// Stream appends run concurrently; a rewrite waits for them.
		if lk, err := filelock.Acquire(stream.LockPath(l), 5*time.Second); err == nil {
			defer lk.Unlock()
		}
	}
	ours, oerr := readNoFollow(l, p)
	if oerr != nil && !errors.Is(oerr, fs.ErrNotExist) {
		return oerr
	}
	oursExists := oerr == nil
	var out []byte
	keep := true
	switch {
	case !oursExists && from.hash.IsZero():
		out, keep = theirs, !to.hash.IsZero() // new in HEAD
	case !oursExists:
		out, keep = theirs, !to.hash.IsZero() // memkeep removed it (archived); HEAD changed it: nothing is lost
	case to.hash.IsZero():
		if bytes.Equal(ours, base) {
			keep = false // removed in HEAD, unchanged here
		} else {
			out = ours // changed here: kept
		}
	case bytes.Equal(ours, base):
		out = theirs
	case bytes.Equal(ours, theirs):
		return nil
	case rel == "memory.md":
		out = mergeDigest(l, r, headMem, ours, theirs)
	default:
		out = mergeBoth(rel, base, ours, theirs)
	}
	if !keep {
		if oursExists {
			return os.Remove(p)
		}
		return nil
	}
	if oursExists && bytes.Equal(out, ours) {
		return nil
	}
	if oursExists && len(out) > len(ours) && bytes.HasPrefix(out, ours) {
		// Only lines added at the end: appended, so that a hook appending
		// to the same file meanwhile loses nothing.
		f, err := l.OpenNoFollow(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, werr := f.Write(out[len(ours):])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
	perm := os.FileMode(0o644)
	if to.mode == filemode.Executable {
		perm = 0o755
	}
	return atomicfile.WriteFile(p, out, perm)
}

// mergeBoth merges a file both HEAD and the shadow changed: records by id
// for the JSON and JSONL files; HEAD's version of a person's file
// (config.yaml, project.md), which people change through git. (memory.md
// is mergeDigest's.)
func mergeBoth(rel string, base, ours, theirs []byte) []byte {
	if strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".jsonl") {
		if out, err := merge.MergeFile(memRel+"/"+rel, base, ours, theirs); err == nil {
			return out
		}
	}
	return theirs
}

// DigestRenderer renders memory.md from the memory files (the render
// package's job, set by the command wiring); nil keeps memkeep's own
// memory.md when HEAD's changed too.
var DigestRenderer merge.Renderer

// mergeDigest settles memory.md when HEAD's and memkeep's copy both
// changed it. memkeep renders its own again from the merged files; what
// must not be lost is a person's edit that came with HEAD (a reviewer's,
// in a pull request): HEAD's memory.md is then taken, and HEAD's own
// rendering is kept as the copy the edit is read against, so that the
// next consolidation carries exactly the person's edit into the memory
// files (and not the lines memkeep's pending memory would add) before it
// renders again. When memkeep's copy holds a person's edit too (one taken
// in from the work tree and not read back yet), both are kept as the
// merge driver keeps them (merge.MergeEditedDigests): made in memory.md
// rendered from the merged memory files, which becomes the copy.
func mergeDigest(l memdir.Layout, r *repo.Repo, headMem plumbing.Hash, ours, theirs []byte) []byte {
	if DigestRenderer == nil {
		return ours
	}
	facts, concepts, sessions, err := merge.TreeInputs(r, headMem, "")
	if err != nil {
		return ours
	}
	rendered, err := DigestRenderer(facts, concepts, sessions)
	if err != nil || bytes.Equal(rendered, theirs) {
		return ours // HEAD's memory.md is as rendered: no person's edit in it
	}
	out, against := theirs, rendered
	if written, merged, ok := pendingDigestEdit(l, ours); ok {
		out, _ = merge.MergeEditedDigests(merge.EditedDigest{Text: ours, Rendered: written}, merge.EditedDigest{Text: theirs, Rendered: rendered}, merged)
		against = merged
	}
	if err := atomicfile.WriteFile(l.RenderedDigest(), against, 0o644); err != nil {
		return ours
	}
	return out
}

// pendingDigestEdit reports whether ours, memkeep's memory.md, holds a
// person's edit that the next consolidation would read, and gives what
// it is read against: the copy memkeep last wrote (nil without one) and
// memory.md rendered from memkeep's memory files (merged already).
func pendingDigestEdit(l memdir.Layout, ours []byte) (written, merged []byte, ok bool) {
	written, err := os.ReadFile(l.RenderedDigest())
	if err != nil {
		written = nil
	}
	if written != nil && bytes.Equal(ours, written) {
		return nil, nil, false
	}
	facts, concepts, sessions := shadowInputs(l)
	if merged, err = DigestRenderer(facts, concepts, sessions); err != nil {
		return nil, nil, false
	}
	edits, _ := render.ReadPendingEdits(ours, written, merged)
	return written, merged, len(edits) > 0
}

// shadowInputs reads what memory.md is rendered from out of memkeep's copy
// of the memory folder, as merge.TreeInputs reads it out of a tree.
func shadowInputs(l memdir.Layout) (facts, concepts []byte, sessions map[string][]byte) {
	read := func(p string) []byte {
		b, err := readNoFollow(l, p)
		if err != nil {
			return nil
		}
		return b
	}
	sessions = map[string][]byte{}
	ss, _ := l2.Sessions(l)
	for _, s := range ss {
		sessions[s.Base] = read(l.L2File(s.Base)) // nil for an L1 file alone
	}
	return read(l.FactsFile()), read(l.ConceptsFile()), sessions
}

func readNoFollow(l memdir.Layout, p string) ([]byte, error) {
	f, err := l.OpenNoFollow(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil {
		buf.Grow(int(fi.Size()))
	}
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// adoptDigestEdit takes a person's edit of memory.md in the work tree into
// the shadow, where the next consolidation reads it back into the memory
// files (consolidate's digest edits) and renders memory.md again. Only
// memory.md: the other memory files a person edits by hand are left to
// them, and come in when they commit them.
func adoptDigestEdit(l memdir.Layout, r *repo.Repo, headMem func() (plumbing.Hash, error)) error {
	wt := filepath.Join(l.WorkMemoryDir(), "memory.md")
	fi, err := os.Lstat(wt)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	// The file as memkeep last looked at it (its stat data): nothing to
	// read, on the path every Stop takes.
	seen := filepath.Join(l.StateDir(), "digest-seen")
	stamp := fastfile.Stamp(fi)
	if b, err := os.ReadFile(seen); err == nil && string(b) == stamp {
		return nil
	}
	have, err := os.ReadFile(wt)
	if err != nil {
		return nil
	}
	mem, err := headMem()
	if err != nil {
		return err
	}
	committed, err := r.File(mem, "memory.md")
	asCommitted := err == nil && bytes.Equal(committed, have)
	if shadow, err := readNoFollow(l, l.DigestFile()); !asCommitted && (err != nil || !bytes.Equal(shadow, have)) {
		if err := atomicfile.WriteFile(l.DigestFile(), have, 0o644); err != nil {
			return err
		}
	}
	// A cache: failing to keep it costs the next Sync a read of the file.
	_ = atomicfile.WriteFile(seen, []byte(stamp), 0o644)
	return nil
}

// MemoryUncommitted lists the memory files (repository-relative) whose content
// in memkeep's copy differs from HEAD's: what the next memory commit
// records. It writes nothing; nil when there is no repository.
func MemoryUncommitted(l memdir.Layout) ([]string, error) {
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil, nil
	}
	defer r.Close()
	head, err := r.ReadHead()
	if err != nil {
		return nil, err
	}
	mem, err := headMemory(r, head)
	if err != nil {
		return nil, err
	}
	committed, err := headFiles(r, mem)
	if err != nil {
		return nil, err
	}
	ix, _, err := readIndex(l.GitDir)
	if err != nil {
		return nil, err
	}
	shadow, _, err := shadowFiles(l, r, ix, false)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, sub := range sortedKeys(shadow, committed) {
		if shadow[sub].hash != committed[sub].hash {
			out = append(out, memRel+"/"+sub)
		}
	}
	return out, nil
}

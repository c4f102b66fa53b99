package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/memkeep/memkeep/gitstore/internal/gitindex"
	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/memdir"
)

// A memory commit records the shadow (memdir.Layout.MemoryDir) and copies
// it into the work tree, under index.lock, together with the memory's
// index entries and the branch. A work tree file is memkeep's to write
// only while it holds what git has for it (HEAD's content, clean in the
// index) or already what the shadow holds; anything else is a person's
// edit, and that path is held: the commit keeps HEAD's version of it, the
// file and its index entry are left alone, and the shadow keeps memkeep's
// version until the person commits or reverts theirs (Sync then merges).

// shadowIndex caches the hash of each shadow file by its stat data, in
// git's index format, so that a commit hashes only the files that changed
// since the last one, as git does with its index.
func shadowIndexPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "shadow.index") }

// workFile is the commit's decision about one memory path.
type workFile struct {
	rel  string        // repository-relative path
	hash plumbing.Hash // what the commit records; zero when it has no such file
	mode uint32
	// held: a person's change is in the work tree or the index; the
	// commit records HEAD's version and leaves file and entry alone.
	held bool
	// write: the work tree file must get the content of hash; remove: the
	// work tree file must go (memkeep removed it from the shadow).
	write, remove bool
	// seen is the work tree file's stat when decided (nil: absent), so
	// that a change made since is noticed under the lock.
	seen os.FileInfo
	// wtHash is the work tree file's content hash when known.
	wtHash plumbing.Hash
}

// shadowFiles hashes the shadow's files, writes their blobs, and returns
// them by path under the memory folder, with the content read this time
// (for the review and for writing the work tree).
//
// With write false (a look, not a commit) nothing is written: the blobs
// are hashed only, and the cache is left as it is.
func shadowFiles(l memdir.Layout, r *repo.Repo, ix *gitindex.Index, write bool) (map[string]builtFile, map[plumbing.Hash][]byte, error) {
	tracked := func(rel string) bool {
		if strings.HasSuffix(rel, "/") {
			a, b := ix.Range(strings.TrimSuffix(rel, "/"))
			return b > a
		}
		_, ok := ix.Find(rel)
		return ok
	}
	files, err := walkMemory(l, l.MemoryDir(), memRel, loadIgnore(l.Root, r, memRel), tracked)
	if err != nil {
		return nil, nil, err
	}
	cache, cacheMtime := readShadowCache(l)
	fileMode := r.Config.Bool("core", "filemode", true)
	out := make(map[string]builtFile, len(files))
	fresh := map[plumbing.Hash][]byte{}
	entries := make([]gitindex.Entry, 0, len(files))
	for _, f := range files {
		st := statOf(f.info)
		mode := f.mode
		if !fileMode {
			mode = 0o100644
		}
		sub := strings.TrimPrefix(f.rel, memRel+"/")
		if old, ok := cache.Find(f.rel); ok && reusable(old, mode, st, cacheMtime) {
			out[sub] = builtFile{sub, mode, old.Hash()}
			entries = append(entries, *old)
			continue
		}
		data, err := os.ReadFile(f.abs)
		if err != nil {
			if os.IsNotExist(err) {
				continue // removed while we walked
			}
			return nil, nil, err
		}
		h := repo.HashObject(plumbing.BlobObject, data)
		if write {
			if h, err = r.WriteObject(plumbing.BlobObject, data); err != nil {
				return nil, nil, err
			}
		}
		fresh[h] = data
		st.Size = uint32(len(data))
		out[sub] = builtFile{sub, mode, h}
		entries = append(entries, gitindex.NewEntry(f.rel, mode, h, st))
	}
	if write {
		writeShadowCache(l, entries)
	}
	return out, fresh, nil
}

// readShadowCache loads shadow.index; an unreadable one is an empty cache.
func readShadowCache(l memdir.Layout) (*gitindex.Index, time.Time) {
	ix, mtime, err := readIndexFile(shadowIndexPath(l))
	if err != nil {
		return &gitindex.Index{Version: 2}, time.Time{}
	}
	return ix, mtime
}

// writeShadowCache keeps the hashes for the next commit. It is a cache:
// failing to write it costs the next commit a hash of every file.
func writeShadowCache(l memdir.Layout, entries []gitindex.Entry) {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	ix := &gitindex.Index{Version: 2, Entries: entries}
	_ = atomicfile.WriteFile(shadowIndexPath(l), ix.Bytes(), 0o644)
}

// planWork decides, for every path of the shadow and of HEAD's memory,
// what the commit records and what happens in the work tree.
func planWork(l memdir.Layout, o Options, ix *gitindex.Index, idxMtime time.Time, shadow map[string]builtFile, head map[string]treeFile) ([]workFile, error) {
	journal := readJournal(l)
	subs := sortedKeys(shadow, head)
	out := make([]workFile, 0, len(subs))
	for _, sub := range subs {
		rel := memRel + "/" + sub
		sh, inShadow := shadow[sub]
		hd, inHead := head[sub]
		w := workFile{rel: rel}
		abs := filepath.Join(l.Root, filepath.FromSlash(rel))
		fi, err := os.Lstat(abs)
		switch {
		case err == nil && fi.Mode()&os.ModeSymlink != 0:
			// Never written through, never replaced: named.
			return nil, l.LinkError(abs)
		case err == nil && !fi.Mode().IsRegular():
			// A folder, link or device where a memory file belongs: not
			// memkeep's to replace.
			w.held = true
		case err == nil:
			w.seen = fi
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return nil, err
		}
		e, inIndex := ix.Find(rel)
		if w.seen != nil {
			if inIndex && reusable(e, e.Mode(), statOf(fi), idxMtime) {
				w.wtHash = e.Hash()
			} else {
				data, err := os.ReadFile(abs)
				if err != nil {
					return nil, err
				}
				w.wtHash = repo.HashObject(plumbing.BlobObject, data)
			}
		}
		// The index as git has it for a path memkeep may write: as HEAD
		// (or, when memkeep only stages, as memkeep staged it).
		indexClean := (!inIndex && !inHead) || (inIndex && inHead && plumbing.Hash(e.Hash()) == hd.hash) ||
			(o.Mode == ModeStage && inIndex && w.seen != nil && plumbing.Hash(e.Hash()) == w.wtHash)
		mine := false
		switch {
		case w.held:
		case w.seen == nil:
			// Absent from the work tree: new (memkeep's to write), or a
			// person deleted it (held), or it was never there.
			mine = !inHead && !inIndex
		case inShadow && w.wtHash == sh.hash:
			mine = true // already what the shadow holds
		case inHead && w.wtHash == hd.hash && indexClean:
			mine = true // as committed
		case journal[rel] == w.wtHash:
			mine = true // written by a memkeep commit that died before its index
		case !inHead && !inIndex:
			mine = false // an untracked file of a person's: never overwritten
		}
		switch {
		case !mine:
			w.held = true
			if inHead {
				w.hash, w.mode = hd.hash, uint32(hd.mode)
			}
		case inShadow:
			w.hash, w.mode = sh.hash, sh.mode
			w.write = w.seen == nil || w.wtHash != sh.hash
		default:
			w.remove = w.seen != nil
		}
		out = append(out, w)
	}
	return out, nil
}

// built lists what the commit records, by path under the memory folder.
func built(work []workFile) []builtFile {
	var out []builtFile
	for _, w := range work {
		if !w.hash.IsZero() {
			out = append(out, builtFile{strings.TrimPrefix(w.rel, memRel+"/"), w.mode, w.hash})
		}
	}
	return out
}

// changesWorkTree reports whether the commit writes or removes any work
// tree file.
func changesWorkTree(work []workFile) bool {
	for _, w := range work {
		if w.write || w.remove {
			return true
		}
	}
	return false
}

// materialize writes the work tree files the plan names, under index.lock
// (git's operations that change the work tree hold it too), and returns
// the memory folder's index entries as they must be: new ones for what it
// wrote, the old ones for held paths and for what it left as it was. A
// file changed since the plan was made defers the commit.
func materialize(l memdir.Layout, r *repo.Repo, ix *gitindex.Index, idxMtime time.Time, lo, hi int, work []workFile, blob blobFunc) ([]gitindex.Entry, error) {
	old := map[string]gitindex.Entry{}
	for k := lo; k < hi; k++ {
		old[ix.Entries[k].Name] = ix.Entries[k]
	}
	for _, w := range work {
		if !w.write && !w.remove {
			continue
		}
		abs := filepath.Join(l.Root, filepath.FromSlash(w.rel))
		fi, err := os.Lstat(abs)
		if (err == nil) != (w.seen != nil) || (err == nil && statOf(fi) != statOf(w.seen)) {
			return nil, deferf("%s changed in the work tree while memkeep was committing: memkeep commits next time", w.rel)
		}
	}
	if err := writeJournal(l, work); err != nil {
		return nil, err
	}
	for i := range work {
		w := &work[i]
		abs := filepath.Join(l.Root, filepath.FromSlash(w.rel))
		switch {
		case w.remove:
			if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			removeEmptyDirs(filepath.Dir(abs), l.WorkMemoryDir())
			delete(old, w.rel)
		case w.write:
			data, err := blob(w.hash)
			if err != nil {
				return nil, err
			}
			p := os.FileMode(0o644)
			if w.mode == uint32(filemode.Executable) {
				p = 0o755
			}
			if err := writeWorkFile(l, abs, data, p); err != nil {
				return nil, err
			}
			fi, err := os.Lstat(abs)
			if err != nil {
				return nil, err
			}
			st := statOf(fi)
			st.Size = uint32(len(data))
			old[w.rel] = gitindex.NewEntry(w.rel, w.mode, w.hash, st)
		case w.held:
			// left as it is
		case w.seen == nil:
			delete(old, w.rel)
		default:
			if e, ok := old[w.rel]; ok && plumbing.Hash(e.Hash()) == w.hash && e.Mode() == w.mode && reusable(&e, w.mode, statOf(w.seen), idxMtime) {
				continue
			}
			st := statOf(w.seen)
			old[w.rel] = gitindex.NewEntry(w.rel, w.mode, w.hash, st)
		}
	}
	entries := make([]gitindex.Entry, 0, len(old))
	for _, e := range old {
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}

// indexCurrent reports whether the index already records every path the
// commit does not hold as the commit records it, for a work tree file
// whose stat data it matches: a commit that changes nothing then takes no
// lock.
func indexCurrent(ix *gitindex.Index, idxMtime time.Time, work []workFile) bool {
	for _, w := range work {
		if w.held {
			continue
		}
		e, ok := ix.Find(w.rel)
		if w.hash.IsZero() {
			if ok {
				return false
			}
			continue
		}
		if !ok || w.seen == nil || plumbing.Hash(e.Hash()) != w.hash || !reusable(e, w.mode, statOf(w.seen), idxMtime) {
			return false
		}
	}
	return true
}

// removeEmptyDirs removes dir and its parents up to stop while they are
// empty, as git does when it deletes a file.
func removeEmptyDirs(dir, stop string) {
	for dir != stop && strings.HasPrefix(dir, stop) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// headFiles lists HEAD's memory files by path under the memory folder.
func headFiles(r *repo.Repo, mem plumbing.Hash) (map[string]treeFile, error) {
	out := map[string]treeFile{}
	if mem.IsZero() {
		return out, nil
	}
	if err := flatten(r, mem, "", out); err != nil {
		return nil, fmt.Errorf("reading HEAD's %s: %w", memRel, err)
	}
	return out, nil
}

// mirror copies the shadow into the work tree for `commit: off`, where the
// person commits the memory folder themselves: every file whose content
// differs is written, nothing in git is touched.
func mirror(l memdir.Layout) error {
	if err := l.PrepareShadow(); err != nil {
		return err
	}
	src := l.MemoryDir()
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() || isTempFile(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(l.WorkMemoryDir(), rel)
		if have, err := os.ReadFile(dst); err == nil && string(have) == string(data) {
			return nil
		}
		return atomicfile.WriteFile(dst, data, 0o644)
	})
}

// writeWorkFile replaces a work tree file by renaming a file written under
// the state dir, so that a `git status` running meanwhile never sees a
// temporary file in the memory folder; across file systems (a git dir
// elsewhere) the temporary file is made beside the target instead.
func writeWorkFile(l memdir.Layout, abs string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(l.StateDir(), "work-*.tmp")
	if err != nil {
		return atomicfile.WriteFile(abs, data, perm)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return werr
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
		if errors.Is(err, syscall.EXDEV) {
			return atomicfile.WriteFile(abs, data, perm)
		}
		return err
	}
	return nil
}

// The journal names what a commit is writing to the work tree, from just
// before the first write until the index records it: a commit killed in
// between leaves files that are memkeep's own, not a person's edits.
func journalPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "work-inflight") }

func writeJournal(l memdir.Layout, work []workFile) error {
	var b strings.Builder
	for _, w := range work {
		if w.write {
			b.WriteString(w.hash.String() + " " + w.rel + "\n")
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return atomicfile.WriteFile(journalPath(l), []byte(b.String()), 0o644)
}

func readJournal(l memdir.Layout) map[string]plumbing.Hash {
	b, err := os.ReadFile(journalPath(l))
	if err != nil {
		return nil
	}
	out := map[string]plumbing.Hash{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if h, rel, ok := strings.Cut(line, " "); ok && len(h) == 40 {
			out[rel] = plumbing.NewHash(h)
		}
	}
	return out
}

func clearJournal(l memdir.Layout) { os.Remove(journalPath(l)) }

// unmaterialize puts back the work tree files a failed commit wrote or
// removed: HEAD's content (what they held), or nothing for a new file.
func unmaterialize(l memdir.Layout, r *repo.Repo, work []workFile) {
	for _, w := range work {
		if !w.write && !w.remove {
			continue
		}
		abs := filepath.Join(l.Root, filepath.FromSlash(w.rel))
		if w.seen == nil {
			os.Remove(abs)
			removeEmptyDirs(filepath.Dir(abs), l.WorkMemoryDir())
			continue
		}
		data, err := r.Blob(w.wtHash)
		if err != nil {
			return // the journal marks them memkeep's: the next commit finishes
		}
		_ = writeWorkFile(l, abs, data, w.seen.Mode().Perm())
	}
	clearJournal(l)
}

// headMemory is the memory folder's tree in HEAD (zero on an unborn branch
// or without one).
func headMemory(r *repo.Repo, head repo.Head) (plumbing.Hash, error) {
	if head.Hash.IsZero() {
		return plumbing.ZeroHash, nil
	}
	c, err := r.Commit(head.Hash)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return r.SubtreeAt(c.TreeHash, memRel)
}

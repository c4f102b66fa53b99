package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Uncommitted returns those of the repo-relative paths whose content in
// the work tree differs from HEAD's (changed, added, or deleted), in the
// order given: a session's edited files that were not committed, for its
// handoff. It reads only those files and HEAD's entries for them, never
// the whole work tree. Content is compared as it is stored (no clean
// filter or line-ending conversion is run), which can name a file a
// filter would have cleaned to HEAD's bytes: a handoff errs towards
// mentioning a file. On any error it returns nil.
func Uncommitted(l memdir.Layout, paths []string) []string {
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil
	}
	defer r.Close()
	head, err := r.ReadHead()
	if err != nil {
		return nil
	}
	var tree = head.Hash
	if !head.Hash.IsZero() {
		c, err := r.Commit(head.Hash)
		if err != nil {
			return nil
		}
		tree = c.TreeHash
	}
	var out []string
	for _, p := range paths {
		work, werr := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		var committed []byte
		var herr error = os.ErrNotExist
		if !tree.IsZero() {
			committed, herr = r.File(tree, p)
		}
		switch {
		case werr != nil && herr != nil: // in neither: nothing to commit
		case werr != nil || herr != nil || !bytes.Equal(work, committed):
			out = append(out, p)
		}
	}
	return out
}

// maxBranchFiles bounds the files BranchFiles lists: a branch that changes
// more than this is about everything, and the context can name no focus.
const maxBranchFiles = 200

// BranchFiles lists the files the checked-out branch changes against the
// default branch (origin's HEAD, else main, else master), from their merge
// base, outside .claude/: what the session starting on this branch is
// about. It is empty on the default branch itself, on a detached HEAD, and
// on any error. Only the trees that differ are read.
func BranchFiles(l memdir.Layout) []string {
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil
	}
	defer r.Close()
	head, err := r.ReadHead()
	if err != nil || head.Detached() || head.Hash.IsZero() {
		return nil
	}
	var base plumbing.Hash
	for _, ref := range []string{"refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master"} {
		final, h, ok, err := r.ResolveRefName(ref)
		if err != nil || !ok || final == head.Branch {
			if final == head.Branch && ok {
				return nil // on the default branch
			}
			continue
		}
		bases, err := r.MergeBase(head.Hash, h)
		if err != nil || len(bases) == 0 {
			return nil
		}
		base = bases[0]
		break
	}
	if base.IsZero() || base == head.Hash {
		return nil
	}
	tree := func(c plumbing.Hash) plumbing.Hash {
		cm, err := r.Commit(c)
		if err != nil {
			return plumbing.ZeroHash
		}
		return cm.TreeHash
	}
	var out []string
	if changedPaths(r, tree(base), tree(head.Hash), "", &out) != nil {
		return nil
	}
	return out
}

// changedPaths appends to out the files that differ between trees a and b
// under prefix, skipping .claude.
func changedPaths(r *repo.Repo, a, b plumbing.Hash, prefix string, out *[]string) error {
	if a == b || len(*out) >= maxBranchFiles {
		return nil
	}
	read := func(h plumbing.Hash) (map[string]repo.TreeEntry, error) {
		m := map[string]repo.TreeEntry{}
		if h.IsZero() {
			return m, nil
		}
		ents, err := r.Tree(h)
		for _, e := range ents {
			m[e.Name] = e
		}
		return m, err
	}
	ea, err := read(a)
	if err != nil {
		return err
	}
	eb, err := read(b)
	if err != nil {
		return err
	}
	for _, n := range sortedKeys(ea, eb) {
		p := prefix + n
		if p == ".claude" {
			continue
		}
		x, y := ea[n], eb[n]
		if x.Hash == y.Hash && x.Mode == y.Mode {
			continue
		}
		xd, yd := x.Mode == filemode.Dir, y.Mode == filemode.Dir
		switch {
		case xd || yd:
			var xa, yb plumbing.Hash
			if xd {
				xa = x.Hash
			}
			if yd {
				yb = y.Hash
			}
			if err := changedPaths(r, xa, yb, p+"/", out); err != nil {
				return err
			}
			if !xd && !x.Hash.IsZero() || !yd && !y.Hash.IsZero() {
				*out = append(*out, p) // a file became a folder or back
			}
		default:
			*out = append(*out, p)
		}
		if len(*out) >= maxBranchFiles {
			return nil
		}
	}
	return nil
}

// sortedKeys is the sorted union of two maps' keys.
func sortedKeys[A, B any](a map[string]A, b map[string]B) []string {
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

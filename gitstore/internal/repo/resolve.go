package repo

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// This file resolves revision names the way `git rev-parse` does, for the
// subset memkeep's commands and merge driver take: HEAD and @, pseudo refs
// (ORIG_HEAD, FETCH_HEAD, …), full ref names, branch, tag and remote names
// with git's precedence, full and unique short object ids, and the suffixes
// ~N, ^N and ^{}, ^{commit}, ^{tree}, ^{blob}, ^{tag}, ^{object}, chained.
// Reflog (@{…}) and path (rev:path, :/text) syntax is not supported. It
// replaces go-git's Repository.ResolveRevision so that memkeep does not link
// go-git's top-level package, whose transports (ssh, http…) cost every
// process start their package initialisation.

var (
	// ErrUnknownRevision means a name that is neither a ref nor an object.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrAmbiguous means a short object id shared by several objects.
	ErrAmbiguous = errors.New("ambiguous short object id")

	errUnborn = errors.New("has no commit yet")
)

// minShortHash is git's shortest accepted abbreviation.
const minShortHash = 4

// Resolve returns the object rev names, like `git rev-parse --verify rev`:
// an annotated tag's name yields the tag object itself.
func (r *Repo) Resolve(rev string) (plumbing.Hash, error) {
	return r.resolve(rev, false)
}

// ResolveCommit returns the commit rev names, peeling annotated tags, like
// `git rev-parse --verify rev^{commit}`; a short id shared by several
// objects of which only one is a commit (or a tag of one) picks that one.
func (r *Repo) ResolveCommit(rev string) (plumbing.Hash, error) {
	return r.resolve(rev, true)
}

func (r *Repo) resolve(rev string, wantCommit bool) (plumbing.Hash, error) {
	if strings.Contains(rev, "@{") {
		return plumbing.ZeroHash, fmt.Errorf("revision %q: reflog syntax is not supported", rev)
	}
	cut := strings.IndexAny(rev, "~^")
	if cut < 0 {
		cut = len(rev)
	}
	base, suffix := rev[:cut], rev[cut:]
	// Any suffix needs a commit-ish below it, as in git.
	h, err := r.resolveBase(rev, base, wantCommit || suffix != "")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for suffix != "" {
		op := suffix[0]
		suffix = suffix[1:]
		if op == '^' && strings.HasPrefix(suffix, "{") {
			end := strings.IndexByte(suffix, '}')
			if end < 0 {
				return plumbing.ZeroHash, fmt.Errorf("revision %q: unterminated ^{", rev)
			}
			if h, err = r.peelTo(h, suffix[1:end]); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, err)
			}
			suffix = suffix[end+1:]
			continue
		}
		digits := len(suffix) - len(strings.TrimLeft(suffix, "0123456789"))
		n := 1
		if digits > 0 {
			if n, err = strconv.Atoi(suffix[:digits]); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, err)
			}
			suffix = suffix[digits:]
		}
		if h, err = r.peelCommit(h); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, err)
		}
		if op == '^' {
			if n == 0 {
				continue
			}
			c, err := r.Commit(h)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if n > len(c.ParentHashes) {
				return plumbing.ZeroHash, fmt.Errorf("%w %q: commit %s has no parent %d", ErrUnknownRevision, rev, short(h), n)
			}
			h = c.ParentHashes[n-1]
			continue
		}
		for i := 0; i < n; i++ {
			c, err := r.Commit(h)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if len(c.ParentHashes) == 0 {
				return plumbing.ZeroHash, fmt.Errorf("%w %q: commit %s has no parent", ErrUnknownRevision, rev, short(h))
			}
			h = c.ParentHashes[0]
		}
	}
	if wantCommit {
		if h, err = r.peelCommit(h); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, err)
		}
	}
	return h, nil
}

// resolveBase resolves a revision without suffixes. commitish steers the
// choice among objects sharing a short id, as git's disambiguation does.
func (r *Repo) resolveBase(rev, name string, commitish bool) (plumbing.Hash, error) {
	switch {
	case name == "":
		return plumbing.ZeroHash, fmt.Errorf("%w %q: empty name", ErrUnknownRevision, rev)
	case len(name) == 2*len(plumbing.ZeroHash) && isHex(name):
		// A full id is taken as such, even when a ref has that name.
		return plumbing.NewHash(strings.ToLower(name)), nil
	}
	h, ok, err := r.dwimRef(name)
	if errors.Is(err, errUnborn) {
		return plumbing.ZeroHash, fmt.Errorf("%w %q: %v", ErrUnknownRevision, rev, err)
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, err)
	}
	if ok {
		return h, nil
	}
	if len(name) >= minShortHash && isHex(name) {
		return r.shortHash(rev, strings.ToLower(name), commitish)
	}
	return plumbing.ZeroHash, fmt.Errorf("%w %q", ErrUnknownRevision, rev)
}

// dwimRef applies git's ref rules in order: <name> itself (pseudo refs
// from the work tree's git directory, full names under refs/), then
// refs/<name>, refs/tags/<name>, refs/heads/<name>, refs/remotes/<name> and
// refs/remotes/<name>/HEAD. The first that exists wins; like git, a name
// that is both a tag and a branch is the tag.
func (r *Repo) dwimRef(name string) (plumbing.Hash, bool, error) {
	if name == "HEAD" || name == "@" {
		hd, err := r.ReadHead()
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if hd.Hash.IsZero() {
			return plumbing.ZeroHash, false, fmt.Errorf("branch %s %w", strings.TrimPrefix(hd.Branch, "refs/heads/"), errUnborn)
		}
		return hd.Hash, true, nil
	}
	if !validRefName(name) {
		return plumbing.ZeroHash, false, nil
	}
	if isPseudoRef(name) {
		if h, ok, err := r.readPseudoRef(name); ok || err != nil {
			return h, ok, err
		}
	}
	for _, full := range []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
		full = fmt.Sprintf(full, name)
		if !strings.HasPrefix(full, "refs/") {
			continue
		}
		h, ok, err := r.ReadRef(full)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if ok {
			return h, true, nil
		}
	}
	return plumbing.ZeroHash, false, nil
}

// isPseudoRef reports names like ORIG_HEAD or FETCH_HEAD, which live in the
// work tree's git directory.
func isPseudoRef(name string) bool {
	for _, c := range name {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return strings.HasSuffix(name, "HEAD")
}

// readPseudoRef reads $GIT_DIR/<name>: a symbolic ref, or an id first on
// its first line (FETCH_HEAD holds more after it).
func (r *Repo) readPseudoRef(name string) (plumbing.Hash, bool, error) {
	b, err := os.ReadFile(filepath.Join(r.GitDir, name))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	s := strings.TrimSpace(string(b))
	if target, ok := strings.CutPrefix(s, "ref:"); ok {
		return r.ReadRef(strings.TrimSpace(target))
	}
	if f := strings.Fields(s); len(f) > 0 && plumbing.IsHash(f[0]) {
		return plumbing.NewHash(f[0]), true, nil
	}
	return plumbing.ZeroHash, false, fmt.Errorf("%s holds %q, neither a ref nor an object id", name, s)
}

// validRefName rejects what git's check-ref-format does that matters here,
// above all anything that could leave the refs directory.
func validRefName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".") || strings.Contains(name, "..") || strings.Contains(name, "//") ||
		strings.Contains(name, "@{") || name == "@" {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// shortHash finds the one object whose id starts with prefix (lower-case
// hex). Several candidates are narrowed to commit-ish ones when commitish is
// set; if that still leaves more or fewer than one, the name is ambiguous.
func (r *Repo) shortHash(rev, prefix string, commitish bool) (plumbing.Hash, error) {
	found, err := r.HashesWithPrefix(prefix)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if len(found) == 0 {
		return plumbing.ZeroHash, fmt.Errorf("%w %q", ErrUnknownRevision, rev)
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if commitish {
		var ok []plumbing.Hash
		for _, h := range found {
			if _, err := r.peelCommit(h); err == nil {
				ok = append(ok, h)
			}
		}
		if len(ok) == 1 {
			return ok[0], nil
		}
	}
	var desc []string
	for _, h := range found {
		t := "object"
		if ot, err := r.objects.objectType(h); err == nil {
			t = ot.String()
		}
		desc = append(desc, h.String()+" "+t)
	}
	return plumbing.ZeroHash, fmt.Errorf("%w %q; candidates: %s", ErrAmbiguous, rev, strings.Join(desc, ", "))
}

// HashesWithPrefix lists the objects, loose or packed (alternates
// included), whose id starts with the hex prefix, in id order. Only the
// loose-object folder and the index fan-out buckets of the first byte are
// read.
func (r *Repo) HashesWithPrefix(prefix string) ([]plumbing.Hash, error) {
	prefix = strings.ToLower(prefix)
	if len(prefix) < 2 || len(prefix) > 40 || !isHex(prefix) {
		return nil, fmt.Errorf("object id prefix %q: need 2 to 40 hex digits", prefix)
	}
	first, _ := hex.DecodeString(prefix[:2])
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) {
		if !seen[h] && strings.HasPrefix(h.String(), prefix) {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, dir := range r.objectDirs() {
		ents, err := os.ReadDir(filepath.Join(dir, prefix[:2]))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range ents {
			if n := e.Name(); len(n) == 38 && isHex(n) {
				add(plumbing.NewHash(prefix[:2] + n))
			}
		}
		packs, err := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		if err != nil {
			return nil, err
		}
		for _, idx := range packs {
			if err := idxBucket(idx, first[0], add); err != nil {
				return nil, fmt.Errorf("%s: %w", idx, err)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i][:], out[j][:]) < 0 })
	return out, nil
}

// objectDirs is the object folder followed by its alternates (followed
// recursively, as the object store reads them).
func (r *Repo) objectDirs() []string { return r.objects.dirs() }

// idxBucket calls fn for every id in a pack index whose first byte is b,
// reading only the fan-out table and that bucket (index versions 1 and 2).
func idxBucket(path string, b byte, fn func(plumbing.Hash)) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // removed by a concurrent gc
		}
		return err
	}
	defer f.Close()
	var head [8]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return err
	}
	fanoutAt, entryAt, stride := int64(0), int64(4*256), int64(24) // version 1
	if bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) {
		if v := binary.BigEndian.Uint32(head[4:]); v != 2 {
			return fmt.Errorf("pack index version %d", v)
		}
		fanoutAt, entryAt, stride = 8, 8+4*256, 20
	}
	var fan [2]uint32
	if b == 0 {
		var x [4]byte
		if _, err := f.ReadAt(x[:], fanoutAt); err != nil {
			return err
		}
		fan[1] = binary.BigEndian.Uint32(x[:])
	} else {
		var x [8]byte
		if _, err := f.ReadAt(x[:], fanoutAt+4*int64(b-1)); err != nil {
			return err
		}
		fan[0], fan[1] = binary.BigEndian.Uint32(x[:4]), binary.BigEndian.Uint32(x[4:])
	}
	if fan[1] <= fan[0] {
		return nil
	}
	n := int64(fan[1] - fan[0])
	if n > 1<<28 {
		return fmt.Errorf("corrupt fan-out")
	}
	buf := make([]byte, n*stride)
	if _, err := f.ReadAt(buf, entryAt+int64(fan[0])*stride); err != nil {
		return err
	}
	for i := int64(0); i < n; i++ {
		var h plumbing.Hash
		copy(h[:], buf[i*stride+stride-20:(i+1)*stride])
		fn(h)
	}
	return nil
}

// peelTags follows annotated tags to the object they finally name.
func (r *Repo) peelTags(h plumbing.Hash) (plumbing.Hash, error) {
	for depth := 0; depth < 16; depth++ {
		t, err := r.objects.objectType(h)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("object %s: %w", h, err)
		}
		if t != plumbing.TagObject {
			return h, nil
		}
		b, err := r.readObject(plumbing.TagObject, h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tag := h
		if h, err = tagTarget(b); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("tag %s: %w", tag, err)
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("tag %s: tags nest too deep", h)
}

// peelTo applies ^{kind}: "" peels tags, "commit", "tree", "blob" peel to
// that type (a commit's tree for "tree"), "tag" and "object" only check.
func (r *Repo) peelTo(h plumbing.Hash, kind string) (plumbing.Hash, error) {
	switch kind {
	case "":
		return r.peelTags(h)
	case "commit":
		return r.peelCommit(h)
	case "tree", "blob", "tag", "object":
	default:
		return plumbing.ZeroHash, fmt.Errorf("^{%s} is not supported", kind)
	}
	p := h
	if kind == "tree" || kind == "blob" {
		var err error
		if p, err = r.peelTags(h); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	t, err := r.objects.objectType(p)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("object %s: %w", p, err)
	}
	switch {
	case kind == "object", t.String() == kind:
		return p, nil
	case kind == "tree" && t == plumbing.CommitObject:
		c, err := r.Commit(p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return c.TreeHash, nil
	}
	return plumbing.ZeroHash, fmt.Errorf("%s is a %s, not a %s", short(h), t, kind)
}

// peelCommit follows annotated tags to a commit; anything else is an error.
func (r *Repo) peelCommit(h plumbing.Hash) (plumbing.Hash, error) {
	p, err := r.peelTags(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	t, err := r.objects.objectType(p)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("object %s: %w", p, err)
	}
	if t != plumbing.CommitObject {
		return plumbing.ZeroHash, fmt.Errorf("%s is a %s, not a commit", short(h), t)
	}
	return p, nil
}

package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// This file is memkeep's object database: loose objects, packs and
// alternates, read and written the way git's object store lays them out. It
// replaces go-git's storage/filesystem, which drags git's whole config model
// (and gcfg, gob, URL parsing…) into every process start. It stays lazy: a
// hook that reads a loose object never lists the pack folder, and a pack's
// index is parsed only when a lookup reaches that pack.

// maxAlternateDepth bounds chains of objects/info/alternates, as git's
// own limit does.
const maxAlternateDepth = 5

// objectStore reads and writes the objects of one repository.
type objectStore struct {
	// shared is core.sharedRepository (Config.SharedPerm).
	shared int
	mu     sync.Mutex
	root   *objectDir   // <common dir>/objects
	alts   []*objectDir // alternates, depth first, read on first need
	altOK  bool
	cache  cache.Object // pack objects and delta bases, shared by all packs
}

// objectDir is one object folder: its loose objects and its packs.
type objectDir struct {
	path    string
	listed  bool    // packs listed
	packs   []*pack // newest first
	lastHit *pack
}

// pack is one pack file with its index, both opened on first use.
type pack struct {
	name   string // path without the .idx / .pack suffix
	loaded bool
	err    error // the index or pack could not be opened
	idx    *idxfile.MemoryIndex
	file   *os.File
	pf     *packfile.Packfile
}

func newObjectStore(objects string) *objectStore {
	return &objectStore{
		root:  &objectDir{path: objects},
		cache: cache.NewObjectLRU(4 * cache.MiByte),
	}
}

// close releases open pack files.
func (s *objectStore) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for _, d := range append([]*objectDir{s.root}, s.alts...) {
		for _, p := range d.packs {
			if err := p.close(); err != nil && first == nil {
				first = err
			}
		}
		d.packs, d.listed, d.lastHit = nil, false, nil
	}
	return first
}

// dirs returns the object folder followed by its alternates.
func (s *objectStore) dirs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []string{s.root.path}
	for _, d := range s.alternates() {
		out = append(out, d.path)
	}
	return out
}

// alternates reads objects/info/alternates recursively (once per process),
// skipping folders already seen. s.mu is held.
func (s *objectStore) alternates() []*objectDir {
	if s.altOK {
		return s.alts
	}
	s.altOK = true
	seen := map[string]bool{canonicalDir(s.root.path): true}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > maxAlternateDepth {
			return
		}
		for _, alt := range readAlternates(dir) {
			key := canonicalDir(alt)
			if seen[key] {
				continue
			}
			seen[key] = true
			if fi, err := os.Stat(alt); err != nil || !fi.IsDir() {
				continue // git warns and goes on
			}
			s.alts = append(s.alts, &objectDir{path: alt})
			walk(alt, depth+1)
		}
	}
	walk(s.root.path, 0)
	return s.alts
}

// readAlternates lists the object folders named in dir/info/alternates:
// one per line, '#' comments, relative paths taken from dir, C-style
// quoted paths unquoted.
func readAlternates(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			if u, err := strconv.Unquote(line); err == nil {
				line = u
			}
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		out = append(out, filepath.Clean(line))
	}
	return out
}

// canonicalDir names a folder for the alternates loop guard.
func canonicalDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return p
}

// read returns an object's type and content. A missing object is
// plumbing.ErrObjectNotFound.
func (s *objectStore) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, b, err := readLoose(s.root.path, h, false)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return t, b, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for rescan := false; ; rescan = true {
		if t, b, err := s.readPacked(s.root, h, rescan); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return t, b, err
		}
		for _, d := range s.alternates() {
			if t, b, err := readLoose(d.path, h, false); !errors.Is(err, plumbing.ErrObjectNotFound) {
				return t, b, err
			}
			if t, b, err := s.readPacked(d, h, rescan); !errors.Is(err, plumbing.ErrObjectNotFound) {
				return t, b, err
			}
		}
		if rescan {
			return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
		}
		// A concurrent gc may have packed the object and removed the
		// loose copy since we looked: look again, with a fresh pack list,
		// as git does.
		if t, b, err := readLoose(s.root.path, h, false); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return t, b, err
		}
	}
}

// objectType returns an object's type, reading only the header of a
// loose object.
func (s *objectStore) objectType(h plumbing.Hash) (plumbing.ObjectType, error) {
	t, _, err := readLoose(s.root.path, h, true)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return t, err
	}
	t, _, err = s.read(h)
	return t, err
}

// readLoose reads dir/xx/yyyy…; headerOnly stops after the header.
func readLoose(dir string, h plumbing.Hash, headerOnly bool) (plumbing.ObjectType, []byte, error) {
	hex := h.String()
	path := filepath.Join(dir, hex[:2], hex[2:])
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
		}
		return plumbing.InvalidObject, nil, err
	}
	defer f.Close()
	var src io.Reader = f
	if !headerOnly {
		// One read for the usual small object, and a byte reader so that
		// the inflater adds no buffer of its own.
		if fi, err := f.Stat(); err == nil && fi.Size() <= 1<<20 {
			b := make([]byte, fi.Size())
			if _, err := io.ReadFull(f, b); err != nil {
				return plumbing.InvalidObject, nil, fmt.Errorf("%s: %w", path, err)
			}
			src = bytes.NewReader(b)
		} else {
			src = bufio.NewReaderSize(f, 64<<10)
		}
	}
	zr, err := objfile.NewReader(src)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	t, size, err := zr.Header()
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("%s: %w", path, err)
	}
	if headerOnly {
		return t, nil, nil
	}
	if size < 0 || size > 1<<40 {
		return plumbing.InvalidObject, nil, fmt.Errorf("%s: object size %d", path, size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(zr, b); err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, b, nil
}

// readPacked looks h up in dir's packs, the pack that answered last
// first. rescan lists the pack folder again (new packs from a concurrent
// gc or fetch). s.mu is held.
func (s *objectStore) readPacked(d *objectDir, h plumbing.Hash, rescan bool) (plumbing.ObjectType, []byte, error) {
	if !d.listed || rescan {
		if err := d.listPacks(); err != nil {
			return plumbing.InvalidObject, nil, err
		}
	}
	try := func(p *pack) (plumbing.ObjectType, []byte, error) {
		if !p.has(h) {
			return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
		}
		if err := p.open(s.cache); err != nil {
			return plumbing.InvalidObject, nil, err
		}
		o, err := p.pf.Get(h)
		if err != nil {
			return plumbing.InvalidObject, nil, fmt.Errorf("%s.pack: object %s: %w", p.name, h, err)
		}
		b, err := content(o)
		if err != nil {
			return plumbing.InvalidObject, nil, fmt.Errorf("%s.pack: %w", p.name, err)
		}
		d.lastHit = p
		return o.Type(), b, nil
	}
	if p := d.lastHit; p != nil {
		if t, b, err := try(p); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return t, b, err
		}
	}
	for _, p := range d.packs {
		if p == d.lastHit {
			continue
		}
		if t, b, err := try(p); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return t, b, err
		}
	}
	return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
}

// listPacks (re)reads dir/pack, newest pack first as git orders them,
// keeping the packs already opened that are still there.
func (d *objectDir) listPacks() error {
	ents, err := os.ReadDir(filepath.Join(d.path, "pack"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	old := map[string]*pack{}
	for _, p := range d.packs {
		old[p.name] = p
	}
	type named struct {
		p     *pack
		mtime int64
	}
	var list []named
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, "pack-") || !strings.HasSuffix(n, ".idx") {
			continue
		}
		name := filepath.Join(d.path, "pack", strings.TrimSuffix(n, ".idx"))
		var mtime int64
		if fi, err := os.Stat(name + ".pack"); err == nil {
			mtime = fi.ModTime().UnixNano()
		} else {
			continue // an index without its pack (being written or removed)
		}
		p := old[name]
		if p == nil {
			p = &pack{name: name}
		}
		delete(old, name)
		list = append(list, named{p, mtime})
	}
	for _, p := range old {
		p.close()
		if d.lastHit == p {
			d.lastHit = nil
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].mtime > list[j].mtime })
	d.packs = d.packs[:0]
	for _, n := range list {
		d.packs = append(d.packs, n.p)
	}
	d.listed = true
	return nil
}

// has reports whether the pack holds h, parsing the index on first use. A
// pack whose index cannot be read answers nothing (git skips it too).
func (p *pack) has(h plumbing.Hash) bool {
	if !p.loaded {
		p.loaded = true
		p.idx, p.err = readIndex(p.name + ".idx")
	}
	if p.idx == nil {
		return false
	}
	ok, err := p.idx.Contains(h)
	return ok && err == nil
}

// statReader lets idxfile check the index size against its fan-out before
// allocating, while reading through a buffer.
type statReader struct {
	*bufio.Reader
	f *os.File
}

func (s statReader) Stat() (fs.FileInfo, error) { return s.f.Stat() }

func readIndex(path string) (*idxfile.MemoryIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(statReader{bufio.NewReaderSize(f, 64<<10), f}).Decode(idx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}

// packFile adapts *os.File to billy.File for the packfile reader, which
// only reads and seeks.
type packFile struct{ *os.File }

func (packFile) Lock() error   { return nil }
func (packFile) Unlock() error { return nil }

func (p *pack) open(c cache.Object) error {
	if p.pf != nil {
		return nil
	}
	f, err := os.Open(p.name + ".pack")
	if err != nil {
		return err
	}
	p.file = f
	// No file system: every object comes back whole, in memory, which is
	// what the callers want anyway.
	p.pf = packfile.NewPackfileWithCache(p.idx, nil, packFile{f}, c, 0)
	return nil
}

func (p *pack) close() error {
	if p.file == nil {
		return nil
	}
	err := p.file.Close()
	p.file, p.pf = nil, nil
	return err
}

var tmpSeq atomic.Uint64

// createTemp creates dir/tmp_obj_<unique> read-only (the descriptor is
// still writable), as git creates its temporary objects; git gc prunes
// the ones a crash leaves behind.
func createTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		n := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32 + tmpSeq.Add(1)
		f, err := os.OpenFile(filepath.Join(dir, "tmp_obj_"+strconv.FormatUint(n, 36)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o444)
		if err == nil || !errors.Is(err, os.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// write stores data as a loose object the way git does: deflated into a
// temporary file beside its final place, made read-only, then linked (or,
// where links are not supported, renamed) to objects/xx/yyyy…. An object
// already there is left alone.
func (s *objectStore) write(t plumbing.ObjectType, data []byte, h plumbing.Hash) error {
	hex := h.String()
	dir := filepath.Join(s.root.path, hex[:2])
	final := filepath.Join(dir, hex[2:])
	if _, err := os.Lstat(final); err == nil {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(data)/2 + 64)
	w := objfile.NewWriter(&buf)
	if err := w.WriteHeader(t, int64(len(data))); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	f, err := createTemp(dir)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		if err := AdjustShared(dir, s.shared); err != nil {
			return err
		}
		f, err = createTemp(dir)
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a link; a no-op after a rename
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	if err := AdjustShared(tmp, s.shared); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	switch err := os.Link(tmp, final); {
	case err == nil, errors.Is(err, os.ErrExist):
		return nil // written, or by someone else in the meantime
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("object %s: %w", h, err)
	}
	return nil
}

package recall

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	mathbits "math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
)

// The index lives in <git dir>/memkeep/recall/, never committed: a base
// segment written by a full build (Build), then one small segment per
// update (Update, which a Stop runs: only the L1 lines and memory files
// new since). A query (Open) maps them all and checks each indexed file
// against the work tree:
//
//   - an L1 file that grew is searched as indexed plus its new lines,
//     read afresh;
//   - a memory file (facts.json, concepts.json, an L2 file) that changed
//     is read afresh, its indexed version hidden;
//   - an L1 file that shrank or whose indexed end no longer holds the same
//     bytes (a pull, a merge, a checkout rewrote it) is stale: a small one
//     is read afresh, a large one is left out until the full build that
//     NeedsRebuild asks for, which runs in the background, never in a
//     prompt's path.

// Dir is where the index of the memory of l lives.
func Dir(l memdir.Layout) string { return filepath.Join(l.StateDir(), "recall") }

const (
	// freshBudget bounds the bytes a query reads afresh beside the index.
	freshBudget = 4 << 20
	// maxSegments is the number of segments past which an update builds
	// the whole index again.
	maxSegments = 24
	// inlineBuild is the memory size below which a rebuild is cheap enough
	// (tens of milliseconds) to run where it is needed.
	inlineBuild = 8 << 20
)

// diskFile is a memory file as it is in the work tree.
type diskFile struct {
	name  string // under .claude/memory, slash-separated
	path  string
	size  int64
	stamp string
	l1    bool
}

// listFiles lists the files the index covers.
func listFiles(l memdir.Layout) ([]diskFile, error) {
	var out []diskFile
	add := func(name, path string, l1 bool) {
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			return
		}
		out = append(out, diskFile{name: name, path: path, size: fi.Size(), stamp: fastfile.Stamp(fi), l1: l1})
	}
	add("facts.json", l.FactsFile(), false)
	add("concepts.json", l.ConceptsFile(), false)
	ents, err := os.ReadDir(l.SessionsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasSuffix(n, ".l1.jsonl"):
			add("sessions/"+n, filepath.Join(l.SessionsDir(), n), true)
		case strings.HasSuffix(n, ".l2.json"):
			add("sessions/"+n, filepath.Join(l.SessionsDir(), n), false)
		}
	}
	return out, nil
}

// dirState stamps the sessions folder, facts.json and concepts.json.
// Every memory file but an L1 file is replaced by rename, and git writes
// the files it checks out, pulls or merges as new files, so while these
// keep their stamps no file was added, removed or rewritten: only L1
// files may have grown, by appends of the sessions under way.
func dirState(l memdir.Layout) string {
	var parts []string
	for _, p := range []string{l.SessionsDir(), l.FactsFile(), l.ConceptsFile()} {
		fi, err := os.Lstat(p)
		if err != nil {
			parts = append(parts, "-")
			continue
		}
		parts = append(parts, fastfile.Stamp(fi))
	}
	return strings.Join(parts, "|")
}

// DirState is the state of the memory files that Update is told was
// current before a turn wrote its files (UpdateOptions.Before).
func DirState(l memdir.Layout) string { return dirState(l) }

// Index is the recall index opened for queries. One goroutine at a time
// may use it: the buffer lines are read into is shared (readLine).
type Index struct {
	l    memdir.Layout
	segs []*segment
	// hidden marks, per segment, the documents a later version or the
	// work tree overrides.
	hidden   []docSet
	releases []func()
	// current maps a source name to where its documents are: for memory
	// files the one visible version, for L1 files every part; nil for a
	// source that is gone. With allCurrent, a source it does not name is
	// where its chain says (refs): the folders are as indexed, and copying
	// thousands of chains into it cost a prompt milliseconds.
	current    map[string][]srcRef
	allCurrent bool
	// chains are the indexed parts of each file, in order. With
	// baseOnly, only the files later segments hold are chained; any other
	// is the base segment's alone, and chainOf makes its chain when asked.
	chains   map[string]*chain
	baseOnly bool
	// chainStore holds the chains, allocated at once (chain): a large
	// memory has thousands; sourceCount is how many sources there are.
	chainStore  []chain
	sourceCount int
	// dirs is the folders' state when the newest segment was written.
	dirs string
	// latest is the project's latest activity (unix seconds), which
	// expiry counts from.
	latest int64
	// rebuild says the index should be built again: a file it cannot
	// answer for, or too many segments.
	rebuild bool
	// pending lists what is new since the index was written, to be read
	// afresh (Open) or written as a segment (Update).
	pending []pendingRead
	// open holds the L1 files snippets were read from; dfs the document
	// frequencies looked up.
	open    map[string]*os.File
	lineBuf []byte // readLine's
	dfs     map[string]int
	// intent is what the query being answered asks for, exchanges the
	// sessions' exchanges read while answering it.
	intent    intent
	exchanges *exchanges
}

type srcRef struct{ seg, src int }

// chain is the indexed parts of one file.
type chain struct {
	refs  []srcRef
	first [1]srcRef // refs' storage while it holds one
	end   uint64
	line  uint32
	tail  uint64
	stamp string
}

// pendingRead is a file, or the new end of one, not yet in the index.
type pendingRead struct {
	file diskFile
	from uint64 // for L1: the first byte not indexed
	line uint32 // and its line number
}

// dirsSource names the source that records dirState in a segment.
const dirsSource = ""

// Open maps the index of l and checks it against the memory files; the
// L1 file of session (a session id or base; "" for the newest session)
// is checked even when the folders are unchanged, since it is the one a
// prompt's own session appends to. Without an index, it builds one when the
// memory is small, and otherwise searches what it can read within
// freshBudget and asks for a rebuild.
func Open(l memdir.Layout, session string) (*Index, error) {
	dirs := dirState(l)
	ix, err := openSegments(l)
	if err != nil {
		return nil, err
	}
	if err := ix.resolve(dirs, session); err != nil {
		ix.Close()
		return nil, err
	}
	if len(ix.segs) == 0 && ix.rebuild && totalSize(ix.pending) <= inlineBuild {
		ix.Close()
		if err := Build(l); err != nil {
			return nil, err
		}
		if ix, err = openSegments(l); err != nil {
			return nil, err
		}
		if err := ix.resolve(dirs, session); err != nil {
			ix.Close()
			return nil, err
		}
	}
	if err := ix.readPending(freshBudget); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// resolve finds the current version of each source and what is pending:
// everything, when the folders changed since the index was written; the
// growth of the given session's L1 file otherwise.
func (ix *Index) resolve(dirs, session string) error {
	if len(ix.segs) > 0 && dirs == ix.indexedDirs() {
		ix.chainUpdates()
		ix.keepAll()
		// The folder is as indexed, so a session none of whose files is
		// indexed has none yet (a prompt's first turn): listing thousands
		// of files to find that out cost a prompt milliseconds.
		if f, ok := ix.sessionL1(session, false); ok {
			ix.check([]diskFile{f}, false)
		}
		return nil
	}
	ix.chain()
	files, err := listFiles(ix.l)
	if err != nil {
		return err
	}
	ix.check(files, true)
	return nil
}

// indexedDirs gives the folders' state the newest segment recorded.
func (ix *Index) indexedDirs() string {
	for si := len(ix.segs) - 1; si >= 0; si-- {
		s := ix.segs[si]
		for i := s.nSources - 1; i >= 0; i-- {
			if s.sourceName(i) == dirsSource {
				return s.source(i).Stamp
			}
		}
	}
	return ""
}

// sessionL1 finds the L1 file of a session by id or base (without one,
// the newest session's) among the indexed files, or else, with look, in
// the folder.
func (ix *Index) sessionL1(session string, look bool) (diskFile, bool) {
	// The sources, not the chains: an array read in order, where a map
	// of thousands of names cost a prompt half a millisecond.
	isL1 := l1Of(session)
	best := ""
	for _, s := range ix.segs {
		for i := range s.nSources {
			if name := s.sourceName(i); name > best && isL1(name) {
				best = name
			}
		}
	}
	best = strings.Clone(best) // sourceName points into the mapping
	if best == "" {
		if !look {
			return diskFile{}, false
		}
		return sessionL1(ix.l, session)
	}
	path := filepath.Join(ix.l.MemoryDir(), filepath.FromSlash(best))
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return diskFile{}, false
	}
	return diskFile{name: best, path: path, size: fi.Size(), stamp: fastfile.Stamp(fi), l1: true}, true
}

// l1Of gives a test of whether a name (under .claude/memory) is the L1
// file of session, any session's when session is "".
func l1Of(session string) func(name string) bool {
	if session == "" {
		return func(name string) bool { return strings.HasSuffix(name, ".l1.jsonl") }
	}
	return ofSession(session, ".l1.jsonl")
}

// ofSession gives a test of whether a name is session's file of the kind
// ext (".l1.jsonl", ".l2.json"): session is an id, whose first eight
// characters end the file's base, or a base. It is asked of every indexed
// name, so the names it compares are made once.
func ofSession(session, ext string) func(name string) bool {
	suffix := "_" + session[:min(8, len(session))] + ext
	whole := "sessions/" + session + ext
	return func(name string) bool { return strings.HasSuffix(name, suffix) || name == whole }
}

// sessionL1 finds the L1 file of a session by id or base in the folder;
// without one, the newest session's.
func sessionL1(l memdir.Layout, session string) (diskFile, bool) {
	ents, err := os.ReadDir(l.SessionsDir())
	if err != nil {
		return diskFile{}, false
	}
	// Bases end with the session id's first 8 characters; the newest
	// file is the one being written.
	isL1 := l1Of(session)
	for i := len(ents) - 1; i >= 0; i-- {
		n := ents[i].Name()
		if isL1("sessions/" + n) {
			path := filepath.Join(l.SessionsDir(), n)
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() {
				return diskFile{}, false
			}
			return diskFile{name: "sessions/" + n, path: path, size: fi.Size(), stamp: fastfile.Stamp(fi), l1: true}, true
		}
	}
	return diskFile{}, false
}

func totalSize(ps []pendingRead) int64 {
	var n int64
	for _, p := range ps {
		n += p.file.size - int64(p.from)
	}
	return n
}

// NeedsRebuild reports whether the index should be built again (Build):
// part of the memory is searched only as far as the index reaches.
func (ix *Index) NeedsRebuild() bool { return ix.rebuild }

// Close releases the mapped segments and the files read for snippets.
func (ix *Index) Close() {
	for _, r := range ix.releases {
		r()
	}
	ix.releases = nil
	for _, f := range ix.open {
		if f != nil {
			f.Close()
		}
	}
	ix.open = nil
}

// segmentFiles lists the segment files in order.
func segmentFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".seg") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// openSegments maps the segments from the newest base on. A segment
// that is gone (a build removed it meanwhile) or unreadable is skipped;
// without a readable base there is no index, which asks for a rebuild.
func openSegments(l memdir.Layout) (*Index, error) {
	ix := &Index{l: l, current: map[string][]srcRef{}}
	dir := Dir(l)
	names, err := segmentFiles(dir)
	if err != nil {
		return nil, err
	}
	var segs []*segment
	var releases []func()
	for _, n := range names {
		data, _, release, err := fastfile.Map(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		s, err := decodeSegment(data)
		if err != nil {
			release()
			continue
		}
		s.name = n
		if s.base {
			for _, r := range releases {
				r()
			}
			segs, releases = nil, nil
		}
		segs = append(segs, s)
		releases = append(releases, release)
	}
	if len(segs) > 0 && !segs[0].base {
		for _, r := range releases {
			r()
		}
		segs, releases = nil, nil
	}
	ix.segs, ix.releases = segs, releases
	ix.hidden = make([]docSet, len(segs))
	n := 0
	for _, s := range segs {
		n += s.nSources
	}
	ix.chains = map[string]*chain{}
	ix.sourceCount = n
	if len(segs) == 0 {
		ix.rebuild = true
	}
	return ix, nil
}

// hide hides the documents of a source.
func (ix *Index) hide(r srcRef) {
	s := ix.segs[r.seg]
	src := s.source(r.src)
	if ix.hidden[r.seg] == nil {
		ix.hidden[r.seg] = make(docSet, (s.nDocs+63)/64)
	}
	ix.hidden[r.seg].addRange(int(src.firstDoc), int(src.firstDoc+src.docs))
}

// docSet is a set of a segment's documents, a bit each: a large memory's
// segments hold hundreds of thousands of documents, and a query counts
// the hidden ones (numDocs).
type docSet []uint64

// has reports whether d is in the set; a nil set holds nothing.
func (ds docSet) has(d uint32) bool {
	return int(d/64) < len(ds) && ds[d/64]&(1<<(d%64)) != 0
}

// addRange adds the documents [from, to).
func (ds docSet) addRange(from, to int) {
	for d := from; d < to && d/64 < len(ds); d++ {
		if d%64 == 0 && to-d >= 64 {
			ds[d/64] = ^uint64(0)
			d += 63
			continue
		}
		ds[d/64] |= 1 << (d % 64)
	}
}

// count gives the number of documents in the set.
func (ds docSet) count() int {
	n := 0
	for _, w := range ds {
		n += mathbits.OnesCount64(w)
	}
	return n
}

// chain collects the parts of each source across the segments: a newer
// version of a memory file (or an L1 file indexed from its start)
// replaces the older, and an L1 part continues its file.
func (ix *Index) chain() {
	if len(ix.chains) == 0 {
		ix.chains = make(map[string]*chain, ix.sourceCount)
		ix.chainStore = make([]chain, 0, ix.sourceCount)
	}
	ix.chainWhere(nil)
}

// chainWhere is chain for the sources whose names want accepts (all
// when want is nil): an update compares a turn's few files, and building
// thousands of chains for it cost more than the rest of its work.
func (ix *Index) chainWhere(want func(name string) bool) {
	for si, s := range ix.segs {
		for i := range s.nSources {
			if n := s.sourceName(i); want != nil && n != dirsSource && !want(n) {
				continue
			}
			ix.link(srcRef{si, i})
		}
	}
	if len(ix.segs) > maxSegments {
		ix.rebuild = true
	}
}

// link adds a source to the chain of its file; sources are linked in the
// order of the segments.
func (ix *Index) link(ref srcRef) {
	src := ix.segs[ref.seg].source(ref.src)
	if src.Name == dirsSource {
		ix.dirs = strings.Clone(src.Stamp) // Update compares it once the index is closed
		return
	}
	c := ix.chains[src.Name]
	l1 := strings.HasSuffix(src.Name, ".l1.jsonl")
	switch {
	case c == nil:
		if len(ix.chainStore) < cap(ix.chainStore) {
			ix.chainStore = append(ix.chainStore, chain{})
			c = &ix.chainStore[len(ix.chainStore)-1]
			c.refs = c.first[:0]
		} else {
			c = &chain{}
		}
		ix.chains[src.Name] = c
	case !l1 || src.From == 0:
		for _, r := range c.refs {
			ix.hide(r)
		}
		c.refs = nil
	case src.From != c.end:
		// A part that does not continue the file: never written so,
		// but a damaged chain is searched only as far as it holds.
		ix.hide(ref)
		ix.rebuild = true
		return
	}
	c.refs = append(c.refs, ref)
	c.end, c.line, c.tail, c.stamp = src.To, src.NextLine, src.Tail, src.Stamp
	if !l1 && strings.HasSuffix(src.Name, ".l2.json") {
		ix.latest = max(ix.latest, int64(src.Tail))
	}
}

// chainUpdates is chain for a query on folders as indexed: only the files
// the update segments hold are chained (with their parts in the base
// segment), which is all that hides documents or makes a chain damaged;
// the thousands the base segment alone holds are chained when asked
// (chainOf). The project's latest activity is still read from every L2
// file's source.
func (ix *Index) chainUpdates() {
	base := ix.segs[0]
	for i := range base.nSources {
		if strings.HasSuffix(base.sourceName(i), ".l2.json") {
			ix.latest = max(ix.latest, int64(base.source(i).Tail))
		}
	}
	// The base segment's part of each updated file first, then the
	// updates in order, as chainWhere links them.
	seen := map[string]bool{}
	link := func(name string) {
		if !seen[name] {
			seen[name] = true
			if i, ok := base.find(name); ok {
				ix.link(srcRef{0, i})
			}
		}
	}
	link(dirsSource)
	for _, s := range ix.segs[1:] {
		for i := range s.nSources {
			link(s.sourceName(i))
		}
	}
	for si, s := range ix.segs[1:] {
		for i := range s.nSources {
			ix.link(srcRef{si + 1, i})
		}
	}
	if len(ix.segs) > maxSegments {
		ix.rebuild = true
	}
	ix.baseOnly = true
}

// chainOf gives the chain of a file, nil when none is indexed.
func (ix *Index) chainOf(name string) *chain {
	c, ok := ix.chains[name]
	if ok || !ix.baseOnly {
		return c
	}
	if i, found := ix.segs[0].find(name); found {
		src := ix.segs[0].source(i)
		c = &chain{end: src.To, line: src.NextLine, tail: src.Tail, stamp: src.Stamp}
		c.first[0] = srcRef{0, i}
		c.refs = c.first[:]
	}
	ix.chains[name] = c
	return c
}

// keepAll takes every indexed source as current.
func (ix *Index) keepAll() { ix.allCurrent = true }

// refs gives where the current version of a source's documents are.
func (ix *Index) refs(name string) []srcRef {
	if r, ok := ix.current[name]; ok {
		return r
	}
	if c := ix.chainOf(name); ix.allCurrent && c != nil {
		return c.refs
	}
	return nil
}

// check compares files with their indexed versions; with all, files are
// every memory file there is, and an indexed one not among them is gone.
func (ix *Index) check(files []diskFile, all bool) {
	if all && ix.baseOnly {
		ix.reopenChains() // a file that is gone must be found among them all
	}
	if all {
		clear(ix.current)
		ix.allCurrent = false
		ix.latest = 0
	}
	onDisk := map[string]bool{}
	for _, f := range files {
		onDisk[f.name] = true
		c := ix.chainOf(f.name)
		switch {
		case c == nil:
			ix.pending = append(ix.pending, pendingRead{file: f, line: 1})
			if len(ix.segs) == 0 || f.l1 && f.size > freshBudget {
				ix.rebuild = true
			}
		case !f.l1:
			src := ix.segs[c.refs[0].seg].source(c.refs[0].src)
			if src.Stamp != f.stamp {
				ix.hide(c.refs[0])
				ix.current[f.name] = nil
				ix.pending = append(ix.pending, pendingRead{file: f, line: 1})
			} else {
				ix.latest = max(ix.latest, int64(src.Tail))
				ix.current[f.name] = c.refs
			}
		case c.stamp == f.stamp:
			ix.current[f.name] = c.refs
		case uint64(f.size) < c.end || !sameTail(f.path, c.end, c.tail):
			// Rewritten: a pull, a merge or a checkout.
			for _, r := range c.refs {
				ix.hide(r)
			}
			ix.current[f.name] = nil
			ix.pending = append(ix.pending, pendingRead{file: f, line: 1})
			ix.rebuild = true
		default:
			ix.current[f.name] = c.refs
			if uint64(f.size) > c.end {
				ix.pending = append(ix.pending, pendingRead{file: f, from: c.end, line: c.line})
			}
		}
	}
	if all {
		for name, c := range ix.chains {
			if !onDisk[name] {
				for _, r := range c.refs {
					ix.hide(r)
				}
			}
		}
	}
}

// sameTail reports whether the bytes of path before end hash to tail.
func sameTail(path string, end, tail uint64) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	start := end - min(end, tailSpan)
	buf := make([]byte, end-start)
	if _, err := f.ReadAt(buf, int64(start)); err != nil {
		return false
	}
	return tailHash(buf) == tail
}

// newestStems gives the stems the newest segment holds, when it is an
// update's (appendStems): most words of what is pending are the words the
// last update stemmed, a turn's L2 file above all.
func (ix *Index) newestStems() []byte {
	if n := len(ix.segs); n > 0 && !ix.segs[n-1].base {
		return ix.segs[n-1].words
	}
	return nil
}

// readPending builds an in-memory segment of what is pending, within
// budget bytes; what does not fit waits for a rebuild.
func (ix *Index) readPending(budget int64) error {
	if len(ix.pending) == 0 {
		return nil
	}
	b := newSegmentBuilder(false)
	b.tok.addStems(ix.newestStems())
	var spent int64
	for _, p := range ix.pending {
		n := p.file.size - int64(p.from)
		if budget > 0 && spent+n > budget {
			ix.rebuild = true
			continue
		}
		spent += n
		if err := b.addFile(ix.l, p); err != nil {
			return err
		}
	}
	s, err := decodeSegment(b.encode())
	if err != nil {
		return err
	}
	ix.segs = append(ix.segs, s)
	ix.hidden = append(ix.hidden, nil)
	for i := range s.nSources {
		src := s.source(i)
		ix.current[src.Name] = append(ix.refs(src.Name), srcRef{len(ix.segs) - 1, i})
		if strings.HasSuffix(src.Name, ".l2.json") {
			ix.latest = max(ix.latest, int64(src.Tail))
		}
	}
	return nil
}

// addFile indexes a pending file or file end. A file that cannot be read
// or decoded (a merge conflict in an L2 file) is left out: it is
// indexed once it is whole again.
func (b *segmentBuilder) addFile(l memdir.Layout, p pendingRead) error {
	f := p.file
	switch {
	case f.l1:
		fh, err := l.OpenNoFollow(f.path, os.O_RDONLY, 0)
		if err != nil {
			return nil
		}
		defer fh.Close()
		start := p.from - min(p.from, tailSpan)
		buf := make([]byte, uint64(f.size)-start)
		if n, err := fh.ReadAt(buf, int64(start)); err != nil && !errors.Is(err, io.EOF) {
			return nil
		} else {
			buf = buf[:n]
		}
		if uint64(len(buf)) < p.from-start {
			return nil
		}
		b.addL1(f.name, f.stamp, buf[p.from-start:], p.from, p.line, buf[:p.from-start])
	case f.name == "facts.json":
		facts, err := l4.Load(f.path)
		if err != nil {
			return nil
		}
		b.addFacts(f.name, f.stamp, facts)
	case f.name == "concepts.json":
		c, err := l3.Load(f.path)
		if err != nil {
			return nil
		}
		b.addConcepts(f.name, f.stamp, c)
	default:
		s, err := l2.Load(f.path)
		if err != nil {
			return nil
		}
		b.addSession(f.name, f.stamp, s)
	}
	return nil
}

// Build indexes the whole memory of l again, as one base segment, and
// removes the segments it replaces.
func Build(l memdir.Layout) error {
	if err := os.MkdirAll(Dir(l), 0o755); err != nil {
		return err
	}
	lock, err := filelock.Acquire(filepath.Join(Dir(l), "lock"), 30*time.Second)
	if err != nil {
		return fmt.Errorf("recall index: %w", err)
	}
	defer lock.Unlock()
	dirs := dirState(l) // before the files are listed: a change after is seen next time
	files, err := listFiles(l)
	if err != nil {
		return err
	}
	// The files are split between the cores, each indexing its share in
	// a builder of its own; the shares are joined in order.
	workers := max(1, min(runtime.GOMAXPROCS(0), len(files)/64))
	parts := make([]*segmentBuilder, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		share := files[w*len(files)/workers : (w+1)*len(files)/workers]
		parts[w] = newSegmentBuilder(true)
		if w == 0 {
			parts[w].startSource(source{Name: dirsSource, Stamp: dirs})
		}
		wg.Go(func() {
			for _, f := range share {
				if err := parts[w].addFile(l, pendingRead{file: f, line: 1}); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	b := parts[0]
	for _, p := range parts[1:] {
		b.join(p)
	}
	return writeSegment(l, b, true)
}

// UpdateOptions say what a turn changed.
type UpdateOptions struct {
	// Session is the session whose files the turn wrote ("" for none).
	Session string
	// Before is DirState taken before the turn wrote them; "" when
	// unknown. While it is the state the index last saw, only Session's
	// files, facts.json and concepts.json are compared, not every file.
	Before string
}

// Update appends a segment holding what changed since the index was
// written: the new lines of L1 files, the memory files rewritten. It is
// what a Stop runs; it does nothing when nothing changed. When the index
// must be built again it builds it at once if the memory is small, and
// otherwise reports ErrRebuild for the caller to build it in the
// background.
func Update(l memdir.Layout, opts UpdateOptions) error {
	if err := os.MkdirAll(Dir(l), 0o755); err != nil {
		return err
	}
	lock, err := filelock.Acquire(filepath.Join(Dir(l), "lock"), 500*time.Millisecond)
	if err != nil {
		return nil // another update or build is under way; the next one covers this
	}
	dirs := dirState(l)
	ix, err := openSegments(l)
	if err != nil {
		lock.Unlock()
		return err
	}
	fast := opts.Before != "" && opts.Session != ""
	if fast {
		ix.chainWhere(turnFiles(opts.Session))
	} else {
		ix.chain()
	}
	if len(ix.segs) > 0 && opts.Before != "" && opts.Before == ix.dirs {
		// Only this turn's writes since the index last looked.
		ix.keepAll()
		ix.check(ix.sessionFiles(opts.Session), false)
	} else {
		if fast {
			ix.reopenChains()
		}
		files, err := listFiles(l)
		if err != nil {
			ix.Close()
			lock.Unlock()
			return err
		}
		ix.check(files, true)
	}
	stems := bytes.Clone(ix.newestStems()) // read before the segments are unmapped
	ix.Close()
	if ix.rebuild {
		lock.Unlock()
		if totalSize(ix.pending) <= inlineBuild {
			return Build(l)
		}
		return ErrRebuild
	}
	defer lock.Unlock()
	if len(ix.pending) == 0 && dirs == ix.dirs {
		return nil
	}
	b := newSegmentBuilder(false)
	b.tok.addStems(stems)
	b.keepStems = true
	b.startSource(source{Name: dirsSource, Stamp: dirs})
	for _, p := range ix.pending {
		if err := b.addFile(l, p); err != nil {
			return err
		}
	}
	return writeSegment(l, b, false)
}

// turnFiles gives a test of whether a name is one of the files a turn of
// session writes (sessionFiles).
func turnFiles(session string) func(name string) bool {
	l1, l2 := ofSession(session, ".l1.jsonl"), ofSession(session, ".l2.json")
	return func(name string) bool {
		return name == "facts.json" || name == "concepts.json" || l1(name) || l2(name)
	}
}

// reopenChains builds every chain afresh, after chainWhere built some.
func (ix *Index) reopenChains() {
	for _, h := range ix.hidden {
		clear(h)
	}
	ix.chains, ix.chainStore, ix.baseOnly = nil, nil, false
	ix.dirs, ix.latest, ix.rebuild = "", 0, len(ix.segs) == 0
	ix.chain()
}

// sessionFiles are the files a session's turn writes: its L1 and L2
// files, facts.json and concepts.json, as they are now.
func (ix *Index) sessionFiles(session string) []diskFile {
	l := ix.l
	var out []diskFile
	stat := func(name, path string, l1 bool) {
		fi, err := os.Lstat(path)
		if err == nil && fi.Mode().IsRegular() {
			out = append(out, diskFile{name: name, path: path, size: fi.Size(), stamp: fastfile.Stamp(fi), l1: l1})
		}
	}
	stat("facts.json", l.FactsFile(), false)
	stat("concepts.json", l.ConceptsFile(), false)
	if f, ok := ix.sessionL1(session, true); ok {
		out = append(out, f)
		l2name := strings.TrimSuffix(f.name, ".l1.jsonl") + ".l2.json"
		stat(l2name, filepath.Join(l.MemoryDir(), filepath.FromSlash(l2name)), false)
	}
	return out
}

// writeSegment writes the next segment; a base removes the ones before.
func writeSegment(l memdir.Layout, b *segmentBuilder, base bool) error {
	dir := Dir(l)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names, err := segmentFiles(dir)
	if err != nil {
		return err
	}
	seq := 0
	if len(names) > 0 {
		seq, _ = strconv.Atoi(strings.TrimSuffix(names[len(names)-1], ".seg"))
	}
	name := fmt.Sprintf("%08d.seg", seq+1)
	if err := atomicfile.WriteFile(filepath.Join(dir, name), b.encode(), 0o644); err != nil {
		return err
	}
	if base {
		for _, n := range names {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
	return nil
}

// ErrRebuild says the index must be built again, which takes long enough
// to belong in the background.
var ErrRebuild = errors.New("the recall index must be built again")

// Package gitindex reads and rewrites git's index file (.git/index) at the
// byte level. memkeep only ever replaces the entries under one folder, so
// every other entry is carried over exactly as git wrote it: flags go-git's
// codec does not model (assume-valid, future extended bits), the cache-tree
// and resolve-undo extensions, and index versions 2, 3 and 4 all survive.
// go-git's plumbing/format/index would drop every extension on write, lose
// the assume-valid bit and reject the all-zero trailer that git writes with
// index.skipHash, which is why this small codec exists.
package gitindex

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Entry flag bits (see git's Documentation/gitformat-index.txt).
const (
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	flagStageMask   = 0x3000
	flagNameMask    = 0x0fff

	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
)

const (
	fixedLen = 62 // stat data (40) + object id (20) + flags (2)
	hashLen  = 20
)

// Stat is the file system data git keeps per entry to tell a clean file
// from a modified one without reading it.
type Stat struct {
	CtimeSec, CtimeNsec uint32
	MtimeSec, MtimeNsec uint32
	Dev, Ino            uint32
	UID, GID            uint32
	Size                uint32
}

// Entry is one index entry. Hdr holds the fixed-size part exactly as read
// (stat, object id, flags and, when present, the extended flags), so an
// entry that is not touched is written back byte for byte.
type Entry struct {
	Name string
	Hdr  []byte
}

// Mode is the entry's file mode (0100644, 0100755, 0120000, 0160000).
func (e *Entry) Mode() uint32 { return binary.BigEndian.Uint32(e.Hdr[24:]) }

// Hash is the entry's object id.
func (e *Entry) Hash() (h [20]byte) { copy(h[:], e.Hdr[40:60]); return }

func (e *Entry) flags() uint16 { return binary.BigEndian.Uint16(e.Hdr[60:]) }

func (e *Entry) extFlags() uint16 {
	if e.flags()&flagExtended == 0 || len(e.Hdr) < fixedLen+2 {
		return 0
	}
	return binary.BigEndian.Uint16(e.Hdr[62:])
}

// Stage is 0 for a normal entry and 1–3 for the sides of a conflict.
func (e *Entry) Stage() int { return int(e.flags()&flagStageMask) >> 12 }

// SkipWorktree reports the sparse-checkout bit.
func (e *Entry) SkipWorktree() bool { return e.extFlags()&extSkipWorktree != 0 }

// IntentToAdd reports an entry added with `git add -N`.
func (e *Entry) IntentToAdd() bool { return e.extFlags()&extIntentToAdd != 0 }

// AssumeValid reports `git update-index --assume-unchanged`.
func (e *Entry) AssumeValid() bool { return e.flags()&flagAssumeValid != 0 }

// Stat returns the entry's stat data.
func (e *Entry) Stat() Stat {
	u := func(i int) uint32 { return binary.BigEndian.Uint32(e.Hdr[i*4:]) }
	return Stat{u(0), u(1), u(2), u(3), u(4), u(5), u(7), u(8), u(9)}
}

// SmudgeRacy does what git does to the entries it writes: an entry whose
// file was modified in the same second as, or after, the index it was read
// from was last written (writtenSec) is "racily clean": git trusts its stat
// data only because the file is not older than the index, and would
// trust it for good once a newer index holds it. Such an entry's size is
// set to 0, which makes git compare the file's content before it believes
// the file unchanged (git's ce_smudge_racily_clean_entry, without its
// content check: at worst git hashes the file again). Entries in [lo, hi),
// the ones the caller wrote itself, and gitlinks are left alone.
func (ix *Index) SmudgeRacy(writtenSec int64, lo, hi int) {
	if writtenSec <= 0 {
		return
	}
	for i := range ix.Entries {
		if i >= lo && i < hi {
			continue
		}
		e := &ix.Entries[i]
		if e.Mode() == 0o160000 || int64(e.Stat().MtimeSec) < writtenSec {
			continue
		}
		h := append([]byte(nil), e.Hdr...) // Hdr may share the bytes read
		binary.BigEndian.PutUint32(h[36:], 0)
		e.Hdr = h
	}
}

// NewEntry builds a stage-0 entry with no extended flags.
func NewEntry(name string, mode uint32, hash [20]byte, st Stat) Entry {
	h := make([]byte, fixedLen)
	for i, v := range []uint32{st.CtimeSec, st.CtimeNsec, st.MtimeSec, st.MtimeNsec, st.Dev, st.Ino, mode, st.UID, st.GID, st.Size} {
		binary.BigEndian.PutUint32(h[i*4:], v)
	}
	copy(h[40:], hash[:])
	n := len(name)
	if n > flagNameMask {
		n = flagNameMask
	}
	binary.BigEndian.PutUint16(h[60:], uint16(n))
	return Entry{Name: name, Hdr: h}
}

// Extension is one index extension, kept as raw bytes.
type Extension struct {
	Sig  string
	Data []byte
}

// Optional reports whether git allows a reader to ignore the extension (its
// signature starts with an upper-case letter).
func (x Extension) Optional() bool { return x.Sig[0] >= 'A' && x.Sig[0] <= 'Z' }

// Index is a parsed index file.
type Index struct {
	Version uint32
	Entries []Entry
	Exts    []Extension
	// SkipHash is true when the trailer was all zeros (index.skipHash, set
	// by feature.manyFiles in git 2.40+); the rewrite keeps that choice.
	SkipHash bool
}

// ErrFormat wraps every parse failure.
var ErrFormat = errors.New("malformed git index")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
}

// Parse decodes an index file. Like git's own readers it does not verify
// the trailing checksum (git only does so in fsck); it checks structure.
func Parse(b []byte) (*Index, error) {
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return nil, bad("missing DIRC header")
	}
	ix := &Index{Version: binary.BigEndian.Uint32(b[4:])}
	if ix.Version < 2 || ix.Version > 4 {
		return nil, bad("unsupported index version %d", ix.Version)
	}
	n := int(binary.BigEndian.Uint32(b[8:]))
	end := len(b) - hashLen
	ix.SkipHash = bytes.Equal(b[end:], make([]byte, hashLen))
	ix.Entries = make([]Entry, 0, n)
	p := 12
	prev := ""
	for i := 0; i < n; i++ {
		if p+fixedLen > end {
			return nil, bad("entry %d truncated", i)
		}
		hl := fixedLen
		fl := binary.BigEndian.Uint16(b[p+60:])
		if fl&flagExtended != 0 {
			if ix.Version < 3 {
				return nil, bad("extended flags in a version 2 index")
			}
			hl += 2
		}
		hdr := b[p : p+hl]
		q := p + hl
		var name string
		if ix.Version == 4 {
			strip, m, err := varint(b[q:end])
			if err != nil {
				return nil, err
			}
			q += m
			if strip > len(prev) {
				return nil, bad("entry %d strips %d bytes of a %d-byte name", i, strip, len(prev))
			}
			z := bytes.IndexByte(b[q:end], 0)
			if z < 0 {
				return nil, bad("entry %d name not terminated", i)
			}
			name = prev[:len(prev)-strip] + string(b[q:q+z])
			p = q + z + 1
		} else {
			z := bytes.IndexByte(b[q:end], 0)
			if z < 0 {
				return nil, bad("entry %d name not terminated", i)
			}
			name = string(b[q : q+z])
			p += (hl + len(name) + 8) &^ 7
		}
		if p > end {
			return nil, bad("entry %d overruns the file", i)
		}
		ix.Entries = append(ix.Entries, Entry{Name: name, Hdr: hdr})
		prev = name
	}
	for p+8 <= end {
		sig := string(b[p : p+4])
		sz := int(binary.BigEndian.Uint32(b[p+4:]))
		if p+8+sz > end {
			return nil, bad("extension %q overruns the file", sig)
		}
		ix.Exts = append(ix.Exts, Extension{Sig: sig, Data: b[p+8 : p+8+sz]})
		p += 8 + sz
	}
	if p != end {
		return nil, bad("%d stray bytes before the trailer", end-p)
	}
	return ix, nil
}

// varint decodes git's offset varint used by index v4 for strip lengths.
func varint(b []byte) (int, int, error) {
	if len(b) == 0 {
		return 0, 0, bad("truncated varint")
	}
	i := 0
	c := b[i]
	v := int(c & 127)
	for c&128 != 0 {
		i++
		if i >= len(b) || i > 8 {
			return 0, 0, bad("bad varint")
		}
		c = b[i]
		v = ((v + 1) << 7) | int(c&127)
	}
	return v, i + 1, nil
}

func putVarint(buf *bytes.Buffer, v int) {
	var tmp [16]byte
	pos := len(tmp) - 1
	tmp[pos] = byte(v & 127)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		tmp[pos] = 128 | byte(v&127)
	}
	buf.Write(tmp[pos:])
}

// Bytes encodes the index. Entries must already be sorted (ReplaceDir keeps
// them so).
func (ix *Index) Bytes() []byte {
	var buf bytes.Buffer
	buf.Grow(64 + len(ix.Entries)*96)
	var h [12]byte
	copy(h[:], "DIRC")
	binary.BigEndian.PutUint32(h[4:], ix.Version)
	binary.BigEndian.PutUint32(h[8:], uint32(len(ix.Entries)))
	buf.Write(h[:])
	prev := ""
	var pad [8]byte
	for i := range ix.Entries {
		e := &ix.Entries[i]
		buf.Write(e.Hdr)
		if ix.Version == 4 {
			common := 0
			for common < len(prev) && common < len(e.Name) && prev[common] == e.Name[common] {
				common++
			}
			putVarint(&buf, len(prev)-common)
			buf.WriteString(e.Name[common:])
			buf.WriteByte(0)
			prev = e.Name
			continue
		}
		buf.WriteString(e.Name)
		n := len(e.Hdr) + len(e.Name)
		buf.Write(pad[:((n+8)&^7)-n])
	}
	for _, x := range ix.Exts {
		buf.WriteString(x.Sig)
		var l [4]byte
		binary.BigEndian.PutUint32(l[:], uint32(len(x.Data)))
		buf.Write(l[:])
		buf.Write(x.Data)
	}
	if ix.SkipHash {
		buf.Write(make([]byte, hashLen))
	} else {
		sum := sha1.Sum(buf.Bytes())
		buf.Write(sum[:])
	}
	return buf.Bytes()
}

// Range returns the half-open range [i, j) of entries whose names lie under
// dir ("a/b" matches "a/b/..."), relying on the sort order git keeps.
func (ix *Index) Range(dir string) (int, int) {
	prefix := dir + "/"
	i := sort.Search(len(ix.Entries), func(k int) bool { return ix.Entries[k].Name >= prefix })
	j := i
	for j < len(ix.Entries) && strings.HasPrefix(ix.Entries[j].Name, prefix) {
		j++
	}
	return i, j
}

// ReplaceRange swaps entries [i, j) for repl (sorted, all under the same
// folder as the range).
func (ix *Index) ReplaceRange(i, j int, repl []Entry) {
	out := make([]Entry, 0, len(ix.Entries)-(j-i)+len(repl))
	out = append(out, ix.Entries[:i]...)
	out = append(out, repl...)
	out = append(out, ix.Entries[j:]...)
	ix.Entries = out
}

// Find returns the entry named name at stage 0.
func (ix *Index) Find(name string) (*Entry, bool) {
	k := sort.Search(len(ix.Entries), func(k int) bool { return ix.Entries[k].Name >= name })
	for ; k < len(ix.Entries) && ix.Entries[k].Name == name; k++ {
		if ix.Entries[k].Stage() == 0 {
			return &ix.Entries[k], true
		}
	}
	return nil, false
}

// PrepareRewrite makes the extensions consistent with a change of the
// entries under dir: the cache tree is invalidated along dir (as git's
// cache_tree_invalidate_path does) and optional extensions whose content
// depends on entry positions or on the work tree (EOIE, IEOT, UNTR, FSMN
// and any unknown optional one) are dropped. REUC is kept. It returns an
// error naming a required extension (split index `link`, sparse index
// `sdir`, or an unknown lower-case one) that cannot be kept safely.
func (ix *Index) PrepareRewrite(dir string) error {
	if err := ix.Unsupported(); err != nil {
		return err
	}
	var keep []Extension
	for _, x := range ix.Exts {
		switch x.Sig {
		case "TREE":
			d, err := invalidateTree(x.Data, dir)
			if err != nil {
				continue // an unreadable cache tree is dropped, git rebuilds it
			}
			keep = append(keep, Extension{Sig: "TREE", Data: d})
		case "REUC":
			keep = append(keep, x)
		}
	}
	ix.Exts = keep
	return nil
}

// Unsupported names the first extension that forbids a rewrite by this
// package.
func (ix *Index) Unsupported() error {
	for _, x := range ix.Exts {
		switch {
		case x.Sig == "link":
			return fmt.Errorf("the index is split (core.splitIndex); memkeep does not rewrite split indexes")
		case x.Sig == "sdir":
			return fmt.Errorf("the index is sparse (index.sparse); memkeep does not rewrite sparse indexes")
		case !x.Optional():
			return fmt.Errorf("the index has a required extension %q that memkeep does not know", x.Sig)
		}
	}
	return nil
}

// treeNode is one node of the cache-tree extension.
type treeNode struct {
	name     string
	count    int // -1: invalid
	hash     []byte
	children []*treeNode
}

func invalidateTree(data []byte, dir string) ([]byte, error) {
	root, rest, err := readTree(data)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, bad("cache tree has trailing bytes")
	}
	n := root
	n.count, n.hash = -1, nil
	found := true
	for _, part := range strings.Split(dir, "/") {
		var next *treeNode
		for _, c := range n.children {
			if c.name == part {
				next = c
			}
		}
		if next == nil {
			found = false
			break
		}
		next.count, next.hash = -1, nil
		n = next
	}
	if found {
		invalidateAll(n)
	}
	var buf bytes.Buffer
	writeTree(&buf, root)
	return buf.Bytes(), nil
}

func invalidateAll(n *treeNode) {
	n.count, n.hash = -1, nil
	for _, c := range n.children {
		invalidateAll(c)
	}
}

func readTree(b []byte) (*treeNode, []byte, error) {
	z := bytes.IndexByte(b, 0)
	if z < 0 {
		return nil, nil, bad("cache tree name")
	}
	n := &treeNode{name: string(b[:z])}
	b = b[z+1:]
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return nil, nil, bad("cache tree counts")
	}
	f := strings.Fields(string(b[:nl]))
	if len(f) != 2 {
		return nil, nil, bad("cache tree counts")
	}
	cnt, err1 := strconv.Atoi(f[0])
	sub, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || sub < 0 {
		return nil, nil, bad("cache tree counts")
	}
	n.count = cnt
	b = b[nl+1:]
	if cnt >= 0 {
		if len(b) < hashLen {
			return nil, nil, bad("cache tree hash")
		}
		n.hash = b[:hashLen]
		b = b[hashLen:]
	}
	for i := 0; i < sub; i++ {
		c, rest, err := readTree(b)
		if err != nil {
			return nil, nil, err
		}
		n.children = append(n.children, c)
		b = rest
	}
	return n, b, nil
}

func writeTree(buf *bytes.Buffer, n *treeNode) {
	buf.WriteString(n.name)
	buf.WriteByte(0)
	fmt.Fprintf(buf, "%d %d\n", n.count, len(n.children))
	if n.count >= 0 {
		buf.Write(n.hash)
	}
	for _, c := range n.children {
		writeTree(buf, c)
	}
}

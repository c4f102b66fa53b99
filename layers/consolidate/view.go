package consolidate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// The reflection fingerprint is a SHA-256 over, per session in start
// order, its stem and the SHA-256 of its L2 encoding, then concepts.json's
// encoding. Hashing each session apart lets Pending answer "is reflection
// current" from a per-file digest kept in local state (sessionIndex)
// instead of loading every session's L2 on every Stop.

// sessionDigest is the digest of one session's L2 encoding.
func sessionDigest(enc []byte) string {
	h := sha256.Sum256(enc)
	return hex.EncodeToString(h[:])
}

func writeSession(h hash.Hash, base, digest string) {
	h.Write([]byte(base))
	h.Write([]byte{0})
	h.Write([]byte(digest))
	h.Write([]byte{'\n'})
}

func fingerprintSum(h hash.Hash, concepts []byte) string {
	h.Write(concepts)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// sessionEntry is what Pending needs of one L2 file, valid while the
// file's metadata (fastfile.Stamp) is that recorded.
type sessionEntry struct {
	Stamp     string `json:"stamp"`
	Base      string `json:"base"`      // the file's Base(), as the fingerprint writes it
	Digest    string `json:"digest"`    // sessionDigest of its encoding
	Exchanges bool   `json:"exchanges"` // it holds exchanges (memory.md lists it)
}

// sessionIndex is the local cache of sessionEntry per L2 file name.
type sessionIndex struct {
	Build string                  `json:"build"`
	Files map[string]sessionEntry `json:"files"`
}

func indexPath(l memdir.Layout) string {
	return filepath.Join(l.StateDir(), "consolidate", "l2index.json")
}

// view is the memory loaded lazily, for Pending: facts.json and
// concepts.json, and a session's L2 only when it is asked for.
type view struct {
	l        memdir.Layout
	facts    *l4.Facts
	concepts *l3.File
	bases    []string // every session, in start order
	loaded   map[string]*loadedSession
	idx      sessionIndex
	dirty    bool
	// own is the session Pending is about: it is loaded every time, so
	// its entry (which changes with every Stop) is not kept in the index.
	own string
}

type loadedSession struct {
	f       *l2.File
	stamp   string // fastfile.Stamp of the file as read; "" when not kept
	present bool   // the L2 file exists
}

func openView(l memdir.Layout) (*view, error) {
	v := &view{l: l, loaded: map[string]*loadedSession{}}
	var err error
	if v.facts, err = l4.Load(l.FactsFile()); err != nil {
		return nil, err
	}
	if v.concepts, err = l3.Load(l.ConceptsFile()); err != nil {
		return nil, err
	}
	ss, err := l2.Sessions(l)
	if err != nil {
		return nil, err
	}
	for _, s := range ss {
		v.bases = append(v.bases, s.Base)
	}
	if b, err := os.ReadFile(indexPath(l)); err == nil && buildID() != "" {
		if json.Unmarshal(b, &v.idx) != nil || v.idx.Build != buildID() {
			v.idx = sessionIndex{}
		}
	}
	v.idx.Build = buildID()
	if v.idx.Files == nil {
		v.idx.Files = map[string]sessionEntry{}
	}
	return v, nil
}

// session loads a session's L2 file (an empty one when it has none yet),
// as Load does.
func (v *view) session(base string) (*l2.File, error) {
	if ls := v.loaded[base]; ls != nil {
		return ls.f, nil
	}
	p := v.l.L2File(base)
	ls := &loadedSession{}
	fh, err := os.Open(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		ls.f = &l2.File{SchemaVersion: l2.SchemaVersion}
	case err != nil:
		return nil, err
	default:
		defer fh.Close()
		fi, err := fh.Stat()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(fh)
		if err != nil {
			return nil, err
		}
		// A file replaced between the stat and the read is not cached.
		if int64(len(b)) == fi.Size() {
			ls.present, ls.stamp = true, fastfile.Stamp(fi)
		}
		if ls.f, err = l2.Decode(p, b); err != nil {
			return nil, err
		}
	}
	CompleteSession(ls.f, base)
	v.loaded[base] = ls
	return ls.f, nil
}

// entry gives a session's digest and whether it holds exchanges: from the
// index when its L2 file is unchanged, else by loading it.
func (v *view) entry(base string) (sessionEntry, error) {
	name := filepath.Base(v.l.L2File(base))
	if v.loaded[base] == nil {
		fi, err := os.Stat(v.l.L2File(base))
		if err == nil {
			if e, ok := v.idx.Files[name]; ok && e.Stamp == fastfile.Stamp(fi) {
				return e, nil
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return sessionEntry{}, err
		}
	}
	f, err := v.session(base)
	if err != nil {
		return sessionEntry{}, err
	}
	ls := v.loaded[base]
	e := sessionEntry{Stamp: ls.stamp, Base: f.Base(), Digest: sessionDigest(f.Encode()), Exchanges: len(f.Exchanges) > 0}
	if ls.present && buildID() != "" && base != v.own {
		if old, ok := v.idx.Files[name]; !ok || old != e {
			v.idx.Files[name] = e
			v.dirty = true
		}
	}
	return e, nil
}

// fingerprint is Memory.fingerprint of the memory on disk. It encodes
// concepts.json, as Memory.fingerprint does, before memory.md is rendered.
func (v *view) fingerprint() (string, error) {
	h := sha256.New()
	for _, b := range v.bases {
		e, err := v.entry(b)
		if err != nil {
			return "", err
		}
		writeSession(h, e.Base, e.Digest)
	}
	return fingerprintSum(h, v.concepts.Encode()), nil
}

func (v *view) l4Status() (LayerStatus, error) {
	fp, err := v.fingerprint()
	if err != nil {
		return LayerStatus{}, err
	}
	b, err := os.ReadFile(reflectStatePath(v.l))
	return l4Status(err == nil && string(bytes.TrimSpace(b)) == fp), nil
}

// digestStatus renders memory.md from what it shows of the sessions —
// the latest ones with exchanges — and compares.
func (v *view) digestStatus() (LayerStatus, error) {
	recent, _, err := v.recent(render.DigestSessions)
	if err != nil {
		return LayerStatus{}, err
	}
	for _, f := range recent {
		f.Normalize() // the normal form, as after Memory.fingerprint
	}
	return digestStatus(v.l, render.Memory{Facts: v.facts, Concepts: v.concepts, Sessions: recent}), nil
}

// recent is the newest n sessions that hold exchanges, in start order: all
// of L2 that memory.md and the SessionStart context show. Sessions without
// exchanges are passed over by their index entry, without being read.
// scanned are the sessions it looked at, newest first.
func (v *view) recent(n int) (recent []*l2.File, scanned []SessionStamp, err error) {
	for i := len(v.bases) - 1; i >= 0 && len(recent) < n; i-- {
		e, err := v.entry(v.bases[i])
		if err != nil {
			return nil, nil, err
		}
		scanned = append(scanned, SessionStamp{Base: v.bases[i], Stamp: e.Stamp})
		if !e.Exchanges {
			continue
		}
		f, err := v.session(v.bases[i])
		if err != nil {
			return nil, nil, err
		}
		if len(f.Exchanges) > 0 {
			recent = append(recent, f)
		}
	}
	slices.Reverse(recent)
	return recent, scanned, nil
}

// saveIndex keeps the digests learnt for the next Pending.
func (v *view) saveIndex() {
	if !v.dirty || buildID() == "" {
		return
	}
	if b, err := json.Marshal(v.idx); err == nil {
		_ = atomicfile.WriteFile(indexPath(v.l), append(b, '\n'), 0o644)
	}
}

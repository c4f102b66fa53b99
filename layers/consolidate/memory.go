// Package consolidate runs memkeep's memory pipeline over a project's
// files: L1 → subconscious L2 and convergence → L3 proposals and
// assignments → L4 reflection → memory.md. It is the one place that knows
// the order of the layers, holds the lock around their read-modify-write,
// and answers the Stop hook's question "what is still missing, and which
// commands fix it" from the files on disk. The hooks and the commands
// call it; the layers themselves know nothing of files on disk beyond
// their own.
package consolidate

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// LockWait is how long a command waits for another memkeep process that
// is changing the memory.
const LockWait = 10 * time.Second

// Lock serialises every read-modify-write of L2, L3, L4 and memory.md
// between processes (two sessions, a hook and a command).
func Lock(l memdir.Layout, wait time.Duration) (*filelock.Lock, error) {
	return filelock.Acquire(l.MemoryLock(), wait)
}

// Memory is every consolidated layer of a project, loaded.
type Memory struct {
	Layout   memdir.Layout
	Facts    *l4.Facts
	Concepts *l3.File
	Sessions []*l2.File // in start order, one per session with L1 or L2
	// onDisk holds each file's bytes as loaded, so Save writes only what
	// changed.
	onDisk map[string][]byte
	// digest holds a reviewer's edits of memory.md, carried into the
	// memory as it was loaded (locked).
	digest DigestEdits
}

// Load reads facts.json, concepts.json and every session's L2 file (an
// empty L2 for sessions that only have L1 so far).
func Load(l memdir.Layout) (*Memory, error) {
	m := &Memory{Layout: l, onDisk: map[string][]byte{}}
	var err error
	if m.Facts, err = l4.Load(l.FactsFile()); err != nil {
		return nil, err
	}
	if m.Concepts, err = l3.Load(l.ConceptsFile()); err != nil {
		return nil, err
	}
	ss, err := l2.Sessions(l)
	if err != nil {
		return nil, err
	}
	files := loadSessions(l, ss)
	for i, s := range ss {
		lf := files[i]
		if lf.err != nil {
			return nil, lf.err
		}
		m.Sessions = append(m.Sessions, CompleteSession(lf.file, s.Base))
		m.onDisk[l.L2File(s.Base)] = lf.raw
	}
	m.onDisk[l.FactsFile()] = readOrNil(l.FactsFile())
	m.onDisk[l.ConceptsFile()] = readOrNil(l.ConceptsFile())
	return m, nil
}

// readSession is one L2 file as read: decoded, and its bytes (nil when
// the file does not exist) for Save to compare with.
type readSession struct {
	file *l2.File
	raw  []byte
	err  error
}

// parallelLoad is the number of L2 files from which Load decodes on
// every core: below it, starting threads costs more than it saves (Stop
// loads a session or two), above it decoding dominates (consolidation,
// or the recall index built again, reads every session).
const parallelLoad = 8

// loadSessions reads and decodes the sessions' L2 files, in parallel when
// there are many; results are in the order of ss.
func loadSessions(l memdir.Layout, ss []l2.Session) []readSession {
	out := make([]readSession, len(ss))
	load := func(i int) {
		p := l.L2File(ss[i].Base)
		b, err := os.ReadFile(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			out[i] = readSession{file: &l2.File{SchemaVersion: l2.SchemaVersion}}
		case err != nil:
			out[i] = readSession{err: err}
		default:
			f, err := l2.Decode(p, b)
			out[i] = readSession{file: f, raw: b, err: err}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if len(ss) < parallelLoad || workers < 2 {
		for i := range ss {
			load(i)
		}
		return out
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				load(i)
			}
		}()
	}
	for i := range ss {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// RenderFiles renders memory.md from the encoded facts.json, concepts.json
// and sessions' L2 files (by base; nil for a session without one), as
// consolidation renders it from the files on disk: the merge driver and
// the pull's reconciliation render a merged tree with it.
func RenderFiles(factsJSON, conceptsJSON []byte, sessionFiles map[string][]byte) ([]byte, error) {
	facts := l4.Facts{SchemaVersion: l4.SchemaVersion}
	if err := l2.DecodeJSON(factsJSON, &facts); err != nil {
		return nil, fmt.Errorf("merged facts.json: %w", err)
	}
	concepts := l3.File{SchemaVersion: l3.SchemaVersion}
	if err := l2.DecodeJSON(conceptsJSON, &concepts); err != nil {
		return nil, fmt.Errorf("merged concepts.json: %w", err)
	}
	bases := make([]string, 0, len(sessionFiles))
	for b := range sessionFiles {
		bases = append(bases, b)
	}
	slices.Sort(bases)
	sessions := make([]*l2.File, 0, len(bases))
	for _, b := range bases {
		f := &l2.File{SchemaVersion: l2.SchemaVersion}
		if data := sessionFiles[b]; data != nil {
			var err error
			if f, err = l2.Decode(b+".l2.json", data); err != nil {
				return nil, err
			}
		}
		sessions = append(sessions, CompleteSession(f, b))
	}
	return render.Markdown(render.Memory{Facts: &facts, Concepts: &concepts, Sessions: sessions}), nil
}

// CompleteSession fills in what an L2 file may lack and its name tells:
// the L1 file and the session id.
func CompleteSession(f *l2.File, base string) *l2.File {
	if f.L1 == "" {
		f.L1 = l2.L1Name(base)
	}
	if f.SessionID == "" {
		f.SessionID = sid8(base)
	}
	return f
}

func sid8(base string) string {
	if i := len(base) - 8; i >= 0 {
		return base[i:]
	}
	return base
}

func readOrNil(p string) []byte {
	b, _ := os.ReadFile(p)
	return b
}

// Session returns the L2 file of the session with the given stem.
func (m *Memory) Session(base string) *l2.File {
	for _, s := range m.Sessions {
		if s.Base() == base {
			return s
		}
	}
	return nil
}

// Exchanges maps every L2 record id to the record, across sessions, with
// the session it belongs to.
func (m *Memory) Exchanges() (map[string]*l2.Exchange, map[string]*l2.File) {
	byID := map[string]*l2.Exchange{}
	owner := map[string]*l2.File{}
	for _, s := range m.Sessions {
		for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
			for i := range l {
				byID[l[i].ID] = &l[i]
				owner[l[i].ID] = s
			}
		}
	}
	return byID, owner
}

// Save writes every file whose bytes changed (L2 files that are still
// empty and were never written stay unwritten) and returns the paths
// written.
func (m *Memory) Save() ([]string, error) {
	var wrote []string
	put := func(p string, data []byte) error {
		if bytes.Equal(m.onDisk[p], data) {
			return nil
		}
		if err := atomicfile.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		m.onDisk[p] = data
		wrote = append(wrote, p)
		return nil
	}
	for _, s := range m.Sessions {
		p := m.Layout.L2File(s.Base())
		if m.onDisk[p] == nil && s.Consolidated == 0 && len(s.Exchanges) == 0 && len(s.Facts) == 0 {
			continue
		}
		if err := put(p, s.Encode()); err != nil {
			return wrote, err
		}
		if len(wrote) > 0 && wrote[len(wrote)-1] == p {
			noteConscious(m.Layout, s.Base(), p, s)
		}
	}
	if m.onDisk[m.Layout.ConceptsFile()] != nil || len(m.Concepts.Concepts) > 0 {
		if err := put(m.Layout.ConceptsFile(), m.Concepts.Encode()); err != nil {
			return wrote, err
		}
	}
	if err := put(m.Layout.FactsFile(), m.Facts.Encode()); err != nil {
		return wrote, err
	}
	return wrote, nil
}

// View is the memory as render reads it.
func (m *Memory) View() render.Memory {
	return render.Memory{Facts: m.Facts, Concepts: m.Concepts, Sessions: m.Sessions}
}

// readL1 reads a session's L1 records.
func readL1(l memdir.Layout, base string) ([]l1.Record, error) {
	recs, _, err := l1.ReadFile(l.L1File(base))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return recs, err
}

// fingerprint identifies the content reflection last saw: every L2 file
// and concepts.json, as encoded now.
// (See view.go for its form.)
// fingerprint digests L2 and L3 as they are in memory; saved says that
// Save has just run, so that its encodings can be reused.
func (m *Memory) fingerprint(saved bool) string {
	h := sha256.New()
	for _, s := range m.Sessions {
		// After Save, each session's encoding is in onDisk: no second
		// encoding of every session.
		var data []byte
		if saved {
			data = m.onDisk[m.Layout.L2File(s.Base())]
		}
		if data == nil {
			data = s.Encode()
		}
		writeSession(h, s.Base(), sessionDigest(data))
	}
	return fingerprintSum(h, m.Concepts.Encode())
}

func reflectStatePath(l memdir.Layout) string {
	return filepath.Join(l.StateDir(), "consolidate", "reflected")
}

// markReflected records, in local state, that reflection ran over the
// memory as saved: it is called right after Save. It is local because it is a fact about this
// work tree's files, not about the memory: committing it would make every
// clone's commit differ.
func (m *Memory) markReflected() error {
	p := reflectStatePath(m.Layout)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(p, []byte(m.fingerprint(true)+"\n"), 0o644)
}

// reflectedCurrent reports whether reflection ran after the last change
// of L2 or L3.
func (m *Memory) reflectedCurrent() bool {
	b, err := os.ReadFile(reflectStatePath(m.Layout))
	return err == nil && string(bytes.TrimSpace(b)) == m.fingerprint(false)
}

// lineCount counts the lines of a file without decoding it: the cheap
// way to see whether L1 grew past what L2 consolidated.
func lineCount(p string) (int, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	return bytes.Count(b, []byte{'\n'}), err
}

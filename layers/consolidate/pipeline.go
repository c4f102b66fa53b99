package consolidate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/handoff"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Options tune a consolidation.
type Options struct {
	// SessionID limits extraction to one session (full id, 8-character
	// prefix or file stem). Empty means every session whose L1 has lines
	// L2 has not consolidated.
	SessionID string
	// Deep extracts every session again, and gives every exchange still
	// without a concept one — the proposed existing concept or a new one —
	// because no agent is there to answer (SessionEnd, PreCompact).
	Deep bool
	// Evaluator replaces the heuristic significance (nil: heuristic).
	Evaluator l2.Evaluator
	// LockWait bounds the wait for another memkeep process.
	LockWait time.Duration
	// Handoff makes the extracted sessions' handoffs (layers/handoff):
	// the session ended or is being compacted.
	Handoff bool
	// Branch is the branch checked out, recorded in handoffs.
	Branch string
	// Uncommitted, when set, says which of the given work-tree files git
	// sees as changed from HEAD (for a handoff's unfinished work).
	Uncommitted func(paths []string) []string
}

// Summary counts what a consolidation changed, per layer.
type Summary struct {
	Sessions        int // sessions extracted
	Added           int // L2 exchanges added
	Updated         int // L2 exchanges changed
	Removed         int // L2 exchanges no longer extracted
	Linked          int // new convergent pairs
	Assigned        int // exchanges given a concept
	ConceptsCreated int
	Reflection      l4.Report
	Rendered        bool // memory.md was rewritten
	// DigestEdits are a reviewer's edits of memory.md carried into the
	// memory, and those left in place.
	DigestEdits DigestEdits
	Written     []string // files written
	// EvalErr is set when the external evaluator failed and the heuristic
	// scores were used.
	EvalErr error
}

// Changed reports whether any committed file changed.
func (s Summary) Changed() bool { return len(s.Written) > 0 }

// Add accumulates o into s (a run over several sessions reports once).
func (s *Summary) Add(o Summary) {
	s.Sessions += o.Sessions
	s.Added += o.Added
	s.Updated += o.Updated
	s.Removed += o.Removed
	s.Linked += o.Linked
	s.Assigned += o.Assigned
	s.ConceptsCreated += o.ConceptsCreated
	s.Rendered = s.Rendered || o.Rendered
	s.DigestEdits.Applied = append(s.DigestEdits.Applied, o.DigestEdits.Applied...)
	s.DigestEdits.Unmapped = append(s.DigestEdits.Unmapped, o.DigestEdits.Unmapped...)
	s.Written = append(s.Written, o.Written...)
	s.EvalErr = errors.Join(s.EvalErr, o.EvalErr)
	r, x := &s.Reflection, o.Reflection
	r.RulesAdded += x.RulesAdded
	r.RulesPromoted += x.RulesPromoted
	r.RulesFlagged += x.RulesFlagged
	r.SolutionsAdded += x.SolutionsAdded
	r.SolutionsUpdated += x.SolutionsUpdated
	r.CoreAdded += x.CoreAdded
	r.CoreUpdated += x.CoreUpdated
}

// String is a one-line account for a commit message: "+3 exchanges,
// 2 assigned, 1 rule promoted, memory.md". A consolidation that wrote
// nothing says "no change", whatever it computed on the way.
func (s Summary) String() string {
	if !s.Changed() {
		return "no change"
	}
	var p []string
	// n adds "3 rules promoted", or "1 rule promoted": what is "rule",
	// the plural adds an s to its first word.
	n := func(v int, what string) {
		if v == 1 {
			p = append(p, "1 "+what)
		} else if v > 1 {
			first, rest, _ := strings.Cut(what, " ")
			p = append(p, strings.TrimSpace(fmt.Sprintf("%d %ss %s", v, first, rest)))
		}
	}
	if s.Added > 0 {
		p = append(p, "+"+Plural(s.Added, "exchange"))
	}
	n(s.Updated, "exchange updated")
	n(s.Removed, "exchange dropped")
	if s.Linked > 0 {
		p = append(p, fmt.Sprintf("%d convergent", s.Linked))
	}
	n(s.ConceptsCreated, "concept created")
	if s.Assigned > 0 {
		p = append(p, fmt.Sprintf("%d assigned", s.Assigned))
	}
	r := s.Reflection
	n(r.RulesAdded, "rule")
	n(r.RulesPromoted, "rule promoted")
	n(r.RulesFlagged, "rule flagged for review")
	n(r.SolutionsAdded, "solution")
	if r.CoreAdded > 0 {
		p = append(p, fmt.Sprintf("%d core logic", r.CoreAdded))
	}
	if n := len(s.DigestEdits.Applied); n > 0 {
		p = append(p, Plural(n, "edit")+" of memory.md carried in")
	}
	if s.Rendered {
		p = append(p, "memory.md")
	}
	if len(p) == 0 {
		// Files changed that no count names (a rule's wording, a
		// concept's summary): never "no change" for a write.
		var names []string
		for _, w := range s.Written {
			if n := filepath.Base(w); !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		return strings.Join(names, ", ") + " updated"
	}
	return strings.Join(p, ", ")
}

// Consolidate runs the deterministic pipeline under the memory lock:
// subconscious extraction and convergence for the sessions that need it,
// concept assignment where the proposal is confident (every exchange with
// Deep), reflection, memory.md. Files are written only when their bytes
// change, so a consolidation with nothing new writes nothing.
func Consolidate(l memdir.Layout, opts Options) (Summary, error) {
	return locked(l, opts.LockWait, func(m *Memory) (Summary, error) { return m.consolidate(opts) })
}

func (m *Memory) consolidate(opts Options) (Summary, error) {
	var sum Summary
	targets, err := m.targets(opts)
	if err != nil {
		return sum, err
	}
	for _, s := range targets {
		if err := m.extract(s, opts, &sum); err != nil {
			return sum, err
		}
	}
	scope := targets
	if opts.Deep {
		scope = m.Sessions
	}
	m.assign(scope, opts.Deep, &sum)
	sum.Reflection = l4.Reflect(m.Facts, m.Sessions, m.Concepts)
	if err := m.finish(&sum); err != nil {
		return sum, err
	}
	return sum, nil
}

// Micro is the Stop hook's share: extraction and convergence of one
// session only, no reflection or rendering (the agent is asked for those,
// and for the concepts, by Pending).
//
// It reads only what the session needs: facts.json (what was forgotten),
// the session's L2 file, and of its L1 only the exchange still open (see
// extractSession). The files it writes are byte for byte those of
// extracting the whole L1 again.
func Micro(l memdir.Layout, sessionID string, opts Options) (Summary, error) {
	if opts.Evaluator != nil || !incremental {
		// An evaluator scores all candidates at once: extract them all.
		return microFull(l, sessionID, opts)
	}
	lk, err := Lock(l, cmpOr(opts.LockWait, LockWait))
	if err != nil {
		return Summary{}, err
	}
	defer lk.Unlock()
	var sum Summary
	factsPath := l.FactsFile()
	factsDisk := readOrNil(factsPath)
	facts, err := l4.Load(factsPath)
	if err != nil {
		return sum, err
	}
	base, err := l2.BaseFor(l, sessionID)
	if err != nil {
		return sum, err
	}
	p := l.L2File(base)
	l2Disk, err := os.ReadFile(p)
	s := &l2.File{SchemaVersion: l2.SchemaVersion}
	switch {
	case errors.Is(err, os.ErrNotExist):
		l2Disk = nil
	case err != nil:
		return sum, err
	default:
		if s, err = l2.Decode(p, l2Disk); err != nil {
			return sum, err
		}
	}
	CompleteSession(s, base)
	withFullID(s, sessionID)
	x, err := extractSession(l, base, s)
	if err != nil {
		return sum, err
	}
	if x.lines > 0 {
		r := s.UpdateExtracted(x.fresh, x.lines, base, l2.UpdateOptions{Skip: facts.IsForgotten})
		sum.add(r)
	}
	// As Memory.Save: an L2 file still empty and never written stays
	// unwritten; facts.json is written when its encoding differs.
	if !(l2Disk == nil && s.Consolidated == 0 && len(s.Exchanges) == 0 && len(s.Facts) == 0) {
		if data := s.Encode(); !bytes.Equal(l2Disk, data) {
			if err := atomicfile.WriteFile(p, data, 0o644); err != nil {
				return sum, err
			}
			sum.Written = append(sum.Written, p)
			noteConscious(l, base, p, s)
		}
	}
	if data := facts.Encode(); !bytes.Equal(factsDisk, data) {
		if err := atomicfile.WriteFile(factsPath, data, 0o644); err != nil {
			return sum, err
		}
		sum.Written = append(sum.Written, factsPath)
	}
	return sum, nil
}

// microFull is Micro extracting the session's whole L1.
func microFull(l memdir.Layout, sessionID string, opts Options) (Summary, error) {
	return locked(l, opts.LockWait, func(m *Memory) (Summary, error) { return m.microFull(sessionID, opts) })
}

func (m *Memory) microFull(sessionID string, opts Options) (Summary, error) {
	var sum Summary
	opts.SessionID = sessionID
	targets, err := m.targets(opts)
	if err != nil {
		return sum, err
	}
	for _, s := range targets {
		if err := m.extract(s, opts, &sum); err != nil {
			return sum, err
		}
	}
	sum.Written, err = m.Save()
	return sum, err
}

// targets picks the sessions to extract.
func (m *Memory) targets(opts Options) ([]*l2.File, error) {
	if opts.SessionID != "" {
		base, err := l2.BaseFor(m.Layout, opts.SessionID)
		if err != nil {
			return nil, err
		}
		s := m.Session(base)
		if len(opts.SessionID) > len(s.SessionID) && !strings.Contains(opts.SessionID, "_") {
			s.SessionID = opts.SessionID // the full id, when the hook gives it
		}
		return []*l2.File{s}, nil
	}
	if opts.Deep {
		return m.Sessions, nil
	}
	var out []*l2.File
	for _, s := range m.Sessions {
		n, err := lineCount(m.Layout.L1File(s.Base()))
		if err != nil {
			return nil, err
		}
		if n > s.Consolidated {
			out = append(out, s)
		}
	}
	return out, nil
}

func (m *Memory) extract(s *l2.File, opts Options, sum *Summary) error {
	recs, err := readL1(m.Layout, s.Base())
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return nil
	}
	r := s.Update(recs, s.Base(), l2.UpdateOptions{Evaluator: opts.Evaluator, Skip: m.Facts.IsForgotten})
	sum.add(r)
	// The handoff is made when the session ends or compacts (opts.Handoff:
	// SessionEnd's deferred consolidation, PreCompact). Made by every
	// run, old sessions' handoffs would follow the work tree of today.
	if opts.Handoff {
		if h := handoff.From(recs); h != nil {
			h.Branch = opts.Branch
			if opts.Uncommitted != nil && len(h.Edited) > 0 {
				h.Uncommitted = opts.Uncommitted(h.Edited)
			}
			s.Handoff = h
		}
	}
	return nil
}

// add counts one session's extraction.
func (sum *Summary) add(r l2.UpdateResult) {
	sum.Sessions++
	sum.Added += r.Added
	sum.Updated += r.Changed
	sum.Removed += r.Removed
	sum.Linked += r.Linked
	if r.EvalErr != nil {
		sum.EvalErr = errors.Join(sum.EvalErr, r.EvalErr)
	}
}

// assign gives concepts to the scope's exchanges that have none: the
// proposed existing concept when it is confident, and with create a new
// concept named by the proposal (or the existing one its name is close to).
func (m *Memory) assign(scope []*l2.File, create bool, sum *Summary) {
	var byID map[string]*l2.Exchange
	var members *l3.Members
	for _, s := range scope {
		for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
			for i := range l {
				e := &l[i]
				if e.Concept != "" && m.Concepts.Get(e.Concept) != nil {
					continue
				}
				m.commonWords()
				if members == nil {
					byID, _ = m.Exchanges()
					members = l3.NewMembers(byID)
				}
				p := m.Concepts.ProposeAmong(e, members)
				id := ""
				switch {
				case !p.New() && p.Score >= l3.AutoAssignThreshold:
					id = p.ConceptID
				case !create:
					continue
				case !p.New():
					id = p.ConceptID
				default:
					c, err := m.Concepts.Create(p.Name)
					var dup *l3.DuplicateError
					switch {
					case errors.As(err, &dup):
						id = dup.Existing.ID
					case err != nil:
						continue
					default:
						id = c.ID
						sum.ConceptsCreated++
					}
				}
				if m.Concepts.Assign(e, id) == nil {
					sum.Assigned++
				}
			}
		}
	}
	if byID == nil {
		// Assign changes the exchanges byID points at, not which there are.
		byID, _ = m.Exchanges()
	}
	m.Concepts.Refresh(byID)
}

// commonWords gives the concepts the words too common in the project's
// exchanges to name a new concept by (l3.CommonWords), once: it reads
// every exchange, so it waits until a record needs a concept.
func (m *Memory) commonWords() {
	if m.Concepts.Common != nil {
		return
	}
	var all []*l2.Exchange
	for _, s := range m.Sessions {
		for i := range s.Exchanges {
			all = append(all, &s.Exchanges[i])
		}
	}
	m.Concepts.Common = l3.CommonWords(all)
	if m.Concepts.Common == nil {
		m.Concepts.Common = map[string]bool{} // too few to tell: none
	}
}

// finish saves the layers, renders memory.md and records that reflection
// is current.
func (m *Memory) finish(sum *Summary) error {
	var err error
	sum.DigestEdits = m.digest
	if sum.Written, err = m.Save(); err != nil {
		return err
	}
	wrote, err := m.renderDigest(m.digest)
	if err != nil {
		return err
	}
	if wrote {
		sum.Rendered = true
		sum.Written = append(sum.Written, m.Layout.DigestFile())
	}
	slices.Sort(sum.Written)
	return m.markReflected()
}

// Reflect is `memkeep l4 reflect`: reflection and memory.md, without
// extraction.
func Reflect(l memdir.Layout) (Summary, error) {
	return locked(l, 0, func(m *Memory) (Summary, error) {
		sum := Summary{Reflection: l4.Reflect(m.Facts, m.Sessions, m.Concepts)}
		return sum, m.finish(&sum)
	})
}

// Settle is the Stop hook's deterministic completion of the memory after
// extraction, everything the agent is never asked for: the session's
// records without a concept get the proposed one (a new concept when none
// is close), reflection runs, memory.md is rendered.
func Settle(l memdir.Layout, sessionID string, opts Options) (Summary, error) {
	return locked(l, opts.LockWait, func(m *Memory) (Summary, error) {
		var sum Summary
		scope := []*l2.File{}
		if base, err := l2.BaseFor(l, sessionID); err == nil {
			scope = append(scope, m.Session(base))
		}
		m.assign(scope, true, &sum)
		sum.Reflection = l4.Reflect(m.Facts, m.Sessions, m.Concepts)
		return sum, m.finish(&sum)
	})
}

// Render is `memkeep render`: memory.md from the files as they are,
// after a reviewer's edits of it are carried into them.
func Render(l memdir.Layout) (bool, DigestEdits, error) {
	var wrote bool
	var d DigestEdits
	_, err := update(l, func(m *Memory) error {
		var err error
		wrote, d, err = m.writeDigest()
		return err
	})
	return wrote, d, err
}

func cmpOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Plural is "1 exchange" or "3 exchanges".
func Plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

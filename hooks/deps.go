package hooks

import (
	"errors"
	"time"

	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Deps are the layers a hook drives. The command wiring fills them with the
// real packages; tests substitute fakes to exercise a handler alone.
type Deps struct {
	Now    func() time.Time
	Memory Memory
	Stream Stream
	Git    Git
}

// Memory is the consolidation layer (L2–L4, memory.md, recall).
type Memory interface {
	// Micro folds a session's new L1 lines into L2 deterministically
	// (subconscious extraction, convergence) and returns what changed.
	Micro(l memdir.Layout, sessionID string) (Change, error)
	// Pending says which layers are not complete for the session.
	Pending(l memdir.Layout, sessionID string) (Pending, error)
	// Track notes the memory's state before a Stop writes it; the function
	// it returns brings the recall index up to date with what was written
	// since.
	Track(l memdir.Layout, sessionID string) (done func())
	// Settle runs the deterministic steps the agent is never asked for:
	// concepts for the session's records, L4 reflection and memory.md.
	Settle(l memdir.Layout, sessionID string) (Change, error)
	// Background reports whether work can go to a background process
	// (SettleLater): false keeps it all in the hook.
	Background() bool
	// AskFromTail is Ask from the L1 tail alone, before the extraction is
	// written; ErrNoTail when it cannot tell (Micro, then Ask, instead).
	AskFromTail(l memdir.Layout, sessionID string, minEdits int) (*RecordAsk, error)
	// SettleLater starts the extraction, Settle, the recall index's
	// update and the commit in a background process, off the turn's path
	// (only when Background).
	SettleLater(l memdir.Layout, sessionID string) error
	// Ask finds the exchange of the session worth the agent's own record
	// and still without one (nil: none); minEdits is stop.min_edits.
	Ask(l memdir.Layout, sessionID string, minEdits int) (*RecordAsk, error)
	// Consolidate runs the whole deterministic pipeline (SessionEnd,
	// PreCompact, `memkeep consolidate`).
	Consolidate(l memdir.Layout, sessionID string) (Change, error)
	// RecordPrompt keeps explicit memory requests ("remember", "always",
	// "never", "from now on") as L4 rules at once; it reports whether
	// the prompt was one.
	RecordPrompt(l memdir.Layout, sessionID, prompt string) ([]string, error)
	// Context is the SessionStart context under budget characters.
	// Context is the SessionStart context for the session sid starting
	// from source (startup, resume, clear, compact).
	Context(l memdir.Layout, budget int, sid, source string) (string, error)
	// Recall returns the memories relevant to a prompt, ready to inject,
	// or "" when none passes the threshold.
	Recall(l memdir.Layout, sessionID, prompt string, cfg config.RecallConfig) (string, error)
}

// ErrNoTail is AskFromTail's "cannot tell from the L1 tail alone".
var ErrNoTail = errors.New("no extraction state to ask from the L1 tail")

// RecordAsk is what Stop asks the agent for: its own record of one
// exchange, prefilled with what memkeep knows.
type RecordAsk struct {
	SessionID string
	Exchange  string // memkeep's own record of the exchange
	Key       string // the exchange, for never asking twice
	L1Range   [2]int
	Files     []string
	Commands  []string
	Concept   string // the concept memkeep proposes
	Why       string // what made the exchange worth a record
}

// Change summarises what a consolidation changed, for commit messages.
type Change struct {
	Summary string // "+3 exchanges, concept \"auth\" updated" or ""
	Changed bool
}

// Pending is the Stop hook's check of the layers, decided from the files
// on disk: what Settle still has to do.
type Pending struct {
	Layers []LayerStatus
}

// LayerStatus is one ✓/✗ line of the Stop hook's answer.
type LayerStatus struct {
	Layer    string   // "L2", "L3", "L4", "memory.md"
	OK       bool     // nothing to do for this layer
	Detail   string   // what is missing, or what is there
	Commands []string // copy-pasteable commands that satisfy it
}

// Done reports whether every layer is complete.
func (p Pending) Done() bool {
	for _, l := range p.Layers {
		if !l.OK {
			return false
		}
	}
	return true
}

// Stream appends events to the event stream.
type Stream interface {
	Append(l memdir.Layout, ev Event) error
}

// Event is one stream event as a hook sees it.
type Event struct {
	Type      string
	Direction string // in, out, internal
	Summary   string
	SessionID string
	Content   string
	Metadata  map[string]string
}

// Git commits the memory folder.
type Git interface {
	// Commit commits .claude/memory as it is on disk, in the configured
	// mode; it returns a one-line outcome ("committed 1a2b3c4", "deferred:
	// merge in progress", "nothing to commit").
	Commit(l memdir.Layout, mode, sessionID, summary string) (string, error)
	// Recover removes the git lock files a memkeep commit left when its
	// process died half way (a hook killed on timeout): until then git
	// itself refuses to run ("index.lock exists").
	Recover(l memdir.Layout)
	// Sync brings memkeep's copy of the memory up to date with HEAD's
	// when a pull, a merge, a checkout or the user's own commit changed
	// it, before a hook reads or writes memory.
	Sync(l memdir.Layout) error
}

func (d Deps) withDefaults() Deps {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Memory == nil {
		d.Memory = noMemory{}
	}
	if d.Stream == nil {
		d.Stream = noStream{}
	}
	if d.Git == nil {
		d.Git = noGit{}
	}
	return d
}

// The no* types stand in for a layer that is not wired (tests of one
// handler); they do nothing and report nothing pending.
type noMemory struct{}

func (noMemory) Micro(memdir.Layout, string) (Change, error)       { return Change{}, nil }
func (noMemory) Pending(memdir.Layout, string) (Pending, error)    { return Pending{}, nil }
func (noMemory) Consolidate(memdir.Layout, string) (Change, error) { return Change{}, nil }
func (noMemory) Settle(memdir.Layout, string) (Change, error)      { return Change{}, nil }
func (noMemory) Track(memdir.Layout, string) func()                { return func() {} }
func (noMemory) SettleLater(memdir.Layout, string) error           { return nil }
func (noMemory) Background() bool                                  { return false }
func (noMemory) AskFromTail(memdir.Layout, string, int) (*RecordAsk, error) {
	return nil, ErrNoTail
}
func (noMemory) Ask(memdir.Layout, string, int) (*RecordAsk, error) { return nil, nil }
func (noMemory) RecordPrompt(memdir.Layout, string, string) ([]string, error) {
	return nil, nil
}
func (noMemory) Context(memdir.Layout, int, string, string) (string, error) { return "", nil }
func (noMemory) Recall(memdir.Layout, string, string, config.RecallConfig) (string, error) {
	return "", nil
}

type noStream struct{}

func (noStream) Append(memdir.Layout, Event) error { return nil }

type noGit struct{}

func (noGit) Commit(memdir.Layout, string, string, string) (string, error) { return "", nil }
func (noGit) Recover(memdir.Layout)                                        {}
func (noGit) Sync(memdir.Layout) error                                     { return nil }

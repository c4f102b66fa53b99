package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/recall"
	"github.com/memkeep/memkeep/layers/stream"
	"github.com/memkeep/memkeep/render"
)

// hookDeps connects the hooks to the layers that do the work.
func hookDeps() hooks.Deps {
	return hooks.Deps{Now: time.Now, Memory: memoryAdapter{}, Stream: streamAdapter{}, Git: gitAdapter{}}
}

// streamAdapter appends hook events to the event stream.
type streamAdapter struct{}

func (streamAdapter) Append(l memdir.Layout, e hooks.Event) error {
	_, err := stream.Append(l, stream.Event{
		Surface: stream.SurfaceClaudeCode, Type: e.Type, Direction: e.Direction,
		Summary: e.Summary, SessionID: e.SessionID, Content: e.Content, Metadata: e.Metadata,
	})
	return err
}

// hookLockWait bounds how long a hook waits for another memkeep process
// holding the memory lock; past it the work is left for the next hook.
const hookLockWait = 500 * time.Millisecond

// memoryAdapter is the consolidation layer as the hooks see it.
type memoryAdapter struct{}

func (memoryAdapter) Micro(l memdir.Layout, sid string) (hooks.Change, error) {
	sum, err := consolidate.Micro(l, sid, consolidate.Options{LockWait: hookLockWait})
	return change(sum), err
}

func (memoryAdapter) Track(l memdir.Layout, sid string) func() {
	before := recall.DirState(l)
	return func() { updateRecall(l, recall.UpdateOptions{Session: sid, Before: before}) }
}

func (memoryAdapter) Consolidate(l memdir.Layout, sid string) (hooks.Change, error) {
	sum, err := consolidate.Consolidate(l, withGit(l, consolidate.Options{SessionID: sid, Deep: true, Handoff: true, LockWait: hookLockWait}))
	return change(sum), err
}

func (memoryAdapter) Settle(l memdir.Layout, sid string) (hooks.Change, error) {
	sum, err := consolidate.Settle(l, sid, consolidate.Options{LockWait: hookLockWait})
	return change(sum), err
}

// Background: a background run can start unless MEMKEEP_NO_SPAWN says
// to keep all work in the hook.
func (memoryAdapter) Background() bool { return os.Getenv("MEMKEEP_NO_SPAWN") == "" }

func (memoryAdapter) AskFromTail(l memdir.Layout, sid string, minEdits int) (*hooks.RecordAsk, error) {
	a, err := consolidate.AskFromTail(l, sid, minEdits)
	if errors.Is(err, consolidate.ErrNoTail) {
		return nil, hooks.ErrNoTail
	}
	if a == nil || err != nil {
		return nil, err
	}
	r := hooks.RecordAsk(*a)
	return &r, nil
}

// SettleLater starts `memkeep consolidate --settle` in the background, as
// SessionEnd starts its consolidation.
func (memoryAdapter) SettleLater(l memdir.Layout, sid string) error {
	return hooks.Spawn(l, "consolidate", "--settle", "--session", sid)
}

func (memoryAdapter) Ask(l memdir.Layout, sid string, minEdits int) (*hooks.RecordAsk, error) {
	a, err := consolidate.AskFor(l, sid, minEdits)
	if a == nil || err != nil {
		return nil, err
	}
	r := hooks.RecordAsk(*a)
	return &r, nil
}

// withGit gives a consolidation what it needs to know of git for the
// handoffs it makes: the branch, and which edited files are uncommitted.
func withGit(l memdir.Layout, o consolidate.Options) consolidate.Options {
	o.Branch = currentBranch(l)
	o.Uncommitted = func(paths []string) []string { return gitstore.Uncommitted(l, paths) }
	return o
}

func change(s consolidate.Summary) hooks.Change {
	if !s.Changed() {
		return hooks.Change{}
	}
	return hooks.Change{Summary: s.String(), Changed: true}
}

func (memoryAdapter) Pending(l memdir.Layout, sid string) (hooks.Pending, error) {
	st, err := consolidate.Pending(l, sid)
	if err != nil {
		return hooks.Pending{}, err
	}
	var p hooks.Pending
	for _, ls := range st.Layers {
		p.Layers = append(p.Layers, hooks.LayerStatus(ls))
	}
	return p, nil
}

func (memoryAdapter) RecordPrompt(l memdir.Layout, sid, prompt string) ([]string, error) {
	return consolidate.RecordPrompt(l, sid, prompt, time.Now())
}

func (memoryAdapter) Context(l memdir.Layout, budget int, sid, source string) (string, error) {
	return sessionContext(l, budget, time.Now(), sid, source)
}

// promptFeedbackDocs is the largest memory (in indexed records) in which
// the prompt hook expands its query from its first answers, as `memkeep
// recall` does: the first answer then holds the question's evidence more
// often (the eval's prompt hook share 246 to 249 of 386). The second pass
// cost the hook 3–4 ms at 2,000 sessions (688,000 records), which its
// 15 ms there cannot spare, and 0.2–0.5 ms with 10,000 L2 items; it grows
// with the records its terms match, so 100,000 (some 300 such sessions)
// keeps it near the smaller figure.
const promptFeedbackDocs = 100_000

func (memoryAdapter) Recall(l memdir.Layout, sid, prompt string, cfg config.RecallConfig) (string, error) {
	ix, err := recall.Open(l, sid)
	if err != nil {
		return "", err
	}
	defer ix.Close()
	hits := ix.Search(prompt, recall.Options{Threshold: cfg.Threshold, Max: cfg.Max, Candidates: 100, FeedbackDocs: promptFeedbackDocs, Task: recall.IsTask(prompt)})
	if ix.NeedsRebuild() {
		rebuildInBackground(l)
	}
	return recall.ForPrompt(hits, prompt, cfg.Budget), nil
}

// hotShare is the part of the SessionStart budget kept for the digest of
// recent events when there is memory to fill the rest.
const hotShare = 4

// sessionContext is what SessionStart injects and `memkeep context`
// prints: permanent memory and the concepts of the current branch first,
// then the hot digest of the last hours, all within budget characters.
//
// The session starting (sid) is not described to itself; after a
// compaction (source "compact") only the rules and the handoff are given
// again, the conversation still holds the rest.
func sessionContext(l memdir.Layout, budget int, now time.Time, sid, source string) (string, error) {
	opts := render.ContextOptions{Branch: currentBranch(l), Source: source}
	if source != "compact" {
		opts.Files = gitstore.BranchFiles(l)
	}
	mem, err := memoryContext(l, budget-budget/hotShare, opts)
	if err != nil {
		return "", err
	}
	rest := budget - len(mem)
	if len(mem) > 0 {
		rest -= 2
	}
	hot := ""
	if rest > 200 && source != "compact" {
		hot = stream.HotDigestExcept(l, now, 24*time.Hour, rest, sid)
	}
	parts := make([]string, 0, 2)
	for _, p := range []string{mem, hot} {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, strings.TrimRight(p, "\n"))
		}
	}
	return strings.Join(parts, "\n\n"), nil
}

// currentBranch reads HEAD without opening the repository: a branch name
// is a hint for which concepts matter.
func currentBranch(l memdir.Layout) string {
	b, err := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}

// hookCommitInterval is the least time between two memory commits made
// from hooks (Stop, PreCompact): in between, memory waits in memkeep's
// copy, where recall and the session context already see it, and git's
// index lock is left to the user. SessionEnd's consolidation and the
// commands commit at once.
const hookCommitInterval = 30 * time.Second

// gitQuiet is how long git must have been left alone in the work tree
// before memkeep commits on its own initiative (gitstore.Options.Quiet).
const gitQuiet = 2 * time.Second

// paced is o for a commit memkeep makes on its own initiative (the hooks,
// the agent's commands): at most every hookCommitInterval, when git has
// been quiet for gitQuiet, never for stream events alone.
func paced(o gitstore.Options) gitstore.Options {
	o.MinInterval, o.Quiet, o.Auto = hookCommitInterval, gitQuiet, true
	return o
}

// gitAdapter commits the memory folder.
type gitAdapter struct{}

func (gitAdapter) Commit(l memdir.Layout, mode, sid, summary string) (string, error) {
	cfg, _ := config.Load(l.ConfigFile())
	o := paced(gitstore.Options{Mode: gitstore.Mode(mode), LockWait: hookLockWait, Scan: cfg.Scan})
	if sid != "" {
		o.Trailers = []gitstore.Trailer{{Key: "Memkeep-Session", Value: sid}}
	}
	res, err := gitstore.Commit(l, o)
	switch res.Status {
	case gitstore.Committed:
		return "committed " + short(res.Commit), err
	case gitstore.Deferred:
		return "deferred: " + res.Reason, err
	}
	return string(res.Status), err
}

func (gitAdapter) Recover(l memdir.Layout) { gitstore.RecoverLocks(l) }

func (gitAdapter) Sync(l memdir.Layout) error { return gitstore.Sync(l) }

func short(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// updateRecall adds what a turn wrote to the recall index; a rebuild it
// asks for runs in the background. The index is a cache: failing to
// update it costs the next prompt a fresh read, never the turn.
func updateRecall(l memdir.Layout, opts recall.UpdateOptions) {
	if errors.Is(recall.Update(l, opts), recall.ErrRebuild) {
		rebuildInBackground(l)
	}
}

// A deletion carried back from memory.md is forgotten with the commit it
// came in (an assignment: no work at start-up).
func init() {
	consolidate.EditSource = memoryEditSource
	// A reviewer's memory.md edit that comes with a pull survives
	// memkeep's own rendering of its pending memory (gitstore.Sync).
	gitstore.DigestRenderer = consolidate.RenderFiles
}

// memoryEditSource names the commit a reviewer's edit of memory.md came
// in: the newest commit that changed the memory, when memory.md is as
// committed; nothing when the edit is not committed yet.
func memoryEditSource(l memdir.Layout) string {
	if len(gitstore.Uncommitted(l, []string{memdir.MemoryRel + "/memory.md"})) > 0 {
		return ""
	}
	entries, err := gitstore.Log(l, 1)
	if err != nil || len(entries) == 0 {
		return ""
	}
	return entries[0].Hash[:min(12, len(entries[0].Hash))]
}

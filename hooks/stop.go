package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/shellquote"
	"github.com/memkeep/memkeep/layers/l1"
)

// stop makes sure memory is brought up to date before a turn ends, without
// ever trapping the user:
//
//  1. micro-consolidation: the transcript's new lines into L1 (only the
//     tail is read), a stream event, subconscious L2 (Memory.Micro);
//  2. what needs no judgement memkeep does itself (Memory.Settle):
//     concepts for the session's records, reflection, memory.md;
//  3. when the turn's exchange is worth remembering (edits, a failure
//     then a fix, a rule, a correction, a decision) and has no record
//     from the agent, memkeep asks once, and only once per exchange, for
//     the agent's own record: one `memkeep l2 add` command, prefilled
//     with what memkeep knows, whose <…> only the agent can write;
//  4. otherwise approve: commit when complete, or say in a systemMessage
//     what is still pending.
func stop(e *Env) (Output, error) {
	sid := e.In.SessionID
	// What a pull, a merge or a checkout brought into HEAD's memory is
	// taken in before this turn's memory is written.
	errs := []error{e.Deps.Git.Sync(e.Layout)}
	var client string
	if e.In.TranscriptPath != "" {
		if !waitForTranscript(e.In.TranscriptPath, e.In.LastAssistantMessage, transcriptWait) {
			// Claude Code has not written this session's transcript yet:
			// there is nothing to refine or ask for this time.
			return Output{}, nil
		}
		res, err := l1.Sync(e.Layout, e.In.TranscriptPath, l1.SyncOptions{LockWait: syncWait, LastMessage: e.In.LastAssistantMessage})
		errs = append(errs, err)
		client = res.Version
		if err == nil && res.Base == "" {
			return Output{}, errors.Join(errs...) // no prompt, text or tool call yet
		}
	}
	if !e.In.StopHookActive {
		// The answer the user sees; a continuation memkeep itself asked
		// for is memory bookkeeping, not a new outcome.
		errs = append(errs, e.Deps.Stream.Append(e.Layout, Event{
			Type: "stop", Direction: "out", SessionID: sid,
			Summary: firstLine(e.In.LastAssistantMessage), Content: e.In.LastAssistantMessage,
		}))
	}
	st := loadState(e.Layout, sid)
	if st.BlockTurn != st.Turn {
		st.BlockTurn, st.Blocks = st.Turn, 0
	}
	tools, edits := readCounters(e.Layout, sid)
	cfg := e.Config.Stop
	remindText := "memkeep: this turn is worth a record of its own; `" + selfProgram() + " status` shows the command"

	// The turn's path, when a background run can take the rest: the
	// request is made from the L1 tail alone, and the extraction,
	// concepts, reflection, memory.md, the recall index and the commit
	// are all left to `memkeep consolidate --settle`, so that a long
	// session's Stop costs what its last turn does.
	if e.Deps.Memory.Background() {
		var ask *RecordAsk
		var err error
		if cfg.Enforce != "off" {
			ask, err = e.Deps.Memory.AskFromTail(e.Layout, sid, cfg.MinEdits)
		}
		if !errors.Is(err, ErrNoTail) {
			errs = append(errs, err)
			return e.finishLater(sid, client, st, tools, edits, ask, remindText, errs)
		}
	}

	// One recall index update for all this Stop writes (extraction, then
	// concepts, reflection and memory.md), whichever way it returns.
	track := e.Deps.Memory.Track(e.Layout, sid)
	tracked := false
	defer func() {
		if !tracked {
			track()
		}
	}()
	ch, err := e.Deps.Memory.Micro(e.Layout, sid)
	errs = append(errs, err)
	var ask *RecordAsk
	if cfg.Enforce != "off" {
		ask, err = e.Deps.Memory.Ask(e.Layout, sid, cfg.MinEdits)
		errs = append(errs, err)
	}
	if e.Deps.Memory.Background() {
		// The tail could not tell (the session's first extraction): the
		// rest goes to the background run all the same, which also
		// brings the recall index up to date.
		tracked = true
		return e.finishLater(sid, client, st, tools, edits, ask, remindText, errs)
	}
	asking, remind := e.askOnce(client, &st, ask)
	if asking != nil {
		errs = append(errs, saveState(e.Layout, sid, st))
		return *asking, errors.Join(errs...)
	}

	p, err := e.Deps.Memory.Pending(e.Layout, sid)
	if err == nil && !p.Done() {
		// Concepts, reflection and memory.md need no judgement: memkeep
		// does them itself, never asks for them.
		var sc Change
		sc, err = e.Deps.Memory.Settle(e.Layout, sid)
		if err == nil {
			// Settle completed every layer it does (concepts, reflection,
			// memory.md): no second check of the files for them.
			ch = mergeChange(ch, sc)
			p = settled(p)
		}
	}
	if err != nil {
		// Without the check memkeep cannot tell what to commit: let the turn end.
		return Output{}, errors.Join(append(errs, err)...)
	}

	out := Output{}
	if p.Done() {
		res, err := e.Deps.Git.Commit(e.Layout, e.Config.Commit, sid, ch.Summary)
		errs = append(errs, err)
		st.Tools, st.Edits = tools, edits
		if res != "" && strings.HasPrefix(res, "deferred") {
			out.SystemMessage = "memkeep: memory is up to date; commit " + res
		}
	} else if edits-st.Edits >= cfg.MinEdits || tools-st.Tools >= cfg.MinToolUses {
		out.SystemMessage = pendingMessage(p)
	}
	if remind {
		out.SystemMessage = strings.TrimSpace(out.SystemMessage + "\n" + remindText)
	}
	errs = append(errs, saveState(e.Layout, sid, st))
	return out, errors.Join(errs...)
}

// finishLater ends a Stop whose work the background run does: it starts
// that run (which also extracts what the request was made from) and asks
// for the agent's record when there is one to ask for.
func (e *Env) finishLater(sid, client string, st sessionState, tools, edits int, ask *RecordAsk, remindText string, errs []error) (Output, error) {
	if err := e.Deps.Memory.SettleLater(e.Layout, sid); err != nil {
		errs = append(errs, err)
	}
	out := Output{}
	asking, remind := e.askOnce(client, &st, ask)
	if asking != nil {
		errs = append(errs, saveState(e.Layout, sid, st))
		return *asking, errors.Join(errs...)
	}
	if remind {
		out.SystemMessage = remindText
	}
	st.Tools, st.Edits = tools, edits
	errs = append(errs, saveState(e.Layout, sid, st))
	return out, errors.Join(errs...)
}

// askOnce asks for the agent's record of ask's exchange once per exchange
// and within the block budget: it returns the answer that asks (nil when
// not asking) and whether the user is to be reminded instead. Asked once,
// the exchange is committed at the next Stop with the agent's record or
// without it.
func (e *Env) askOnce(client string, st *sessionState, ask *RecordAsk) (*Output, bool) {
	cfg := e.Config.Stop
	if ask == nil || slices.Contains(st.Asked, ask.Key) {
		return nil, false
	}
	st.Asked = append(st.Asked, ask.Key)
	if cfg.Enforce == "block" && st.Blocks < cfg.BlockBudget {
		st.Blocks++
		out := askAgent(client, RecordRequest(*ask))
		return &out, false
	}
	return nil, cfg.Enforce == "remind"
}

// transcriptWait bounds how long Stop waits for Claude Code to finish
// writing the turn it reports: the transcript file lags the hook (measured
// 3–93 ms with 2.1.330), and refining it too early would judge the turn
// without its last tool calls.
const transcriptWait = 500 * time.Millisecond

// waitForTranscript waits until the transcript exists and its tail holds
// the start of the last assistant message the hook was given (when it was
// given one). It reports whether the transcript exists; a transcript that
// never catches up is refined as it is.
func waitForTranscript(path, lastMessage string, wait time.Duration) bool {
	needle := transcriptNeedle(lastMessage)
	deadline := time.Now().Add(wait)
	for {
		found, err := tailHas(path, needle)
		if err == nil && found || errors.Is(err, l1.ErrNotTranscript) {
			// Found, or never a transcript (a FIFO, a device): waiting
			// cannot help, and Sync says what is wrong with it.
			return true
		}
		if time.Now().After(deadline) {
			return err == nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// tailHas reports whether the last 256 KiB of the transcript hold needle
// (nil: whether the file can be read). The last 16 KiB are looked at
// first: the message ends the file, and is short, in all but rare turns.
func tailHas(path string, needle []byte) (bool, error) {
	for _, n := range []int64{16 << 10, 256 << 10} {
		tail, size, err := readTail(path, n)
		if err != nil {
			return false, err
		}
		if needle == nil || bytes.Contains(tail, needle) {
			return true, nil
		}
		if size <= n {
			break // the first read had the whole file
		}
	}
	return false, nil
}

// transcriptNeedle is how the first line of the message appears inside the
// transcript's JSON (escaped), or nil when there is nothing to look for.
func transcriptNeedle(msg string) []byte {
	line := strings.TrimSpace(msg)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60])
	}
	// Claude Code writes JSON with JavaScript's JSON.stringify, which
	// leaves <, > and & and the line separators U+2028/U+2029 as they are;
	// Go escapes them unless told not to, and the separators always.
	if i := strings.IndexAny(line, "\u2028\u2029"); i >= 0 {
		line = line[:i]
	}
	if line == "" {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(line)
	b := bytes.TrimSpace(buf.Bytes())
	return b[1 : len(b)-1]
}

// readTail returns the last n bytes of the file and its size.
func readTail(path string, n int64) ([]byte, int64, error) {
	f, fi, err := l1.OpenTranscript(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	off := fi.Size() - n
	if off < 0 {
		off = 0
	}
	buf := make([]byte, fi.Size()-off)
	_, err = f.ReadAt(buf, off)
	if err == io.EOF {
		err = nil
	}
	return buf, fi.Size(), err
}

// contextSince is the first Claude Code version whose Stop hook may continue
// the turn with hookSpecificOutput.additionalContext.
const contextSince = "2.1.163"

// askAgent continues the turn with a request to the model. Claude Code
// 2.1.163 and later take it as additionalContext, which the model reads as
// a plain system reminder; older clients (and unknown versions) get
// decision "block", which they show as "Stop hook blocking error from
// command: …" but which every version honours.
func askAgent(client, text string) Output {
	if versionAtLeast(client, contextSince) {
		return Output{HookSpecificOutput: &Specific{HookEventName: "Stop", AdditionalContext: text}}
	}
	return Output{Decision: "block", Reason: text}
}

// versionAtLeast compares dotted numeric versions ("2.1.39" < "2.1.163").
// An empty or unparsable version is never at least anything.
func versionAtLeast(v, min string) bool {
	if v == "" {
		return false
	}
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := range b {
		if i >= len(a) {
			return false
		}
		x, errx := strconv.Atoi(strings.TrimFunc(a[i], func(r rune) bool { return r < '0' || r > '9' }))
		y, _ := strconv.Atoi(b[i])
		if errx != nil {
			return false
		}
		if x != y {
			return x > y
		}
	}
	return true
}

// settled is p once Settle has run: the layers it completes are done
// (L2 and a reviewer's memory.md edits it leaves as they were).
func settled(p Pending) Pending {
	out := Pending{Layers: make([]LayerStatus, len(p.Layers))}
	for i, l := range p.Layers {
		if l.Layer == "L3" || l.Layer == "L4" || l.Layer == "memory.md" {
			l.OK = true
		}
		out.Layers[i] = l
	}
	return out
}

func mergeChange(a, b Change) Change {
	if !b.Changed {
		return a
	}
	if !a.Changed {
		return b
	}
	return Change{Summary: a.Summary + ", " + b.Summary, Changed: true}
}

// selfProgram is how the agent's shell can run this memkeep: `memkeep`
// when that is this binary on PATH, else its absolute path, quoted (init
// installs the hooks with that path when memkeep is not on PATH, and a
// command the agent cannot run wastes the request).
func selfProgram() string {
	exe, onPath, err := Executable()
	if err != nil || onPath {
		return "memkeep"
	}
	return shellquote.Quote(exe)
}

func pendingMessage(p Pending) string {
	var missing []string
	for _, l := range p.Layers {
		if !l.OK {
			missing = append(missing, l.Layer+" ("+l.Detail+")")
		}
	}
	return "memkeep: memory still pending: " + strings.Join(missing, ", ") + "; the next Stop or the session's end completes it. Run `" + selfProgram() + " status` to see the commands."
}

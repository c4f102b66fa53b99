package l1

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fault"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/memdir"
)

// syncState is what Sync keeps per transcript under the git dir.
type syncState struct {
	Refine State `json:"refine"`
	// Base names the session's L1 file once its first record is known.
	Base string `json:"base,omitempty"`
	// L1Lines is the number of lines of the L1 file this transcript wrote
	// to; for a subagent it is the parent's file.
	L1Lines int `json:"l1_lines"`
	// L1Size is that file's size after this transcript's last append.
	// While the file still has that size nobody else appended to it, and
	// L1Lines is its line count without reading it again.
	L1Size int64 `json:"l1_size,omitempty"`
	// Intent is written before an append and cleared after it: a process
	// killed in between leaves it, and the next Sync learns from the L1
	// file's size whether the append happened (see recover).
	Intent *syncIntent `json:"intent,omitempty"`
}

// syncIntent is an append under way: the L1 file grows from From to To
// bytes, and Prev is the state to return to if it did not.
type syncIntent struct {
	From, To int64
	Prev     syncState
}

// SyncOptions tune Sync.
type SyncOptions struct {
	// Final flushes pending records: the transcript has ended.
	Final bool
	// Base forces the L1 file (a subagent transcript goes into its parent
	// session's file). Empty derives it from the session's first record.
	Base string
	// LockWait bounds the wait for another process refining the same
	// transcript.
	LockWait time.Duration
	// LastMessage is the turn's last assistant message, as the Stop hook
	// gets it. Assistant text waits for the rest of its API message (the
	// next line may continue it); when the text waiting ends the way this
	// message ends, the message is whole and its text is written now, not
	// at the next prompt.
	LastMessage string
}

// SyncResult says what one Sync appended.
type SyncResult struct {
	Base      string   // L1 file stem, empty until the session has a record
	SessionID string   // from the transcript
	Version   string   // Claude Code version that wrote the transcript
	New       []Record // records appended by this call
	FirstLine int      // 1-based L1 line number of New[0]
	Lines     int      // L1 lines of the file after this call
	Stats     Stats    // counts for the whole transcript so far
}

// Sync brings a session's L1 file up to date with its transcript: it reads
// only what was appended since the last call, appends the new records to
// .claude/memory/sessions/<base>.l1.jsonl, and saves where it stopped under
// the git dir. Hooks, `memkeep import` and consolidation all go through it,
// so the L1 file is the same whoever refined it and however often.
func Sync(l memdir.Layout, transcript string, opts SyncOptions) (SyncResult, error) {
	abs, err := filepath.Abs(transcript)
	if err != nil {
		return SyncResult{}, err
	}
	key := stateKey(abs)
	dir := filepath.Join(l.StateDir(), "l1")
	lk, err := filelock.Acquire(filepath.Join(dir, key+".lock"), opts.LockWait)
	if err != nil {
		return SyncResult{}, err
	}
	defer lk.Unlock()

	statePath := filepath.Join(dir, key+".json")
	var ss syncState
	if b, err := os.ReadFile(statePath); err == nil {
		if json.Unmarshal(b, &ss) != nil {
			ss = syncState{} // a damaged state file means refining from the start
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return SyncResult{}, err
	}
	if ss.Base == "" && opts.Base != "" {
		ss.Base = opts.Base
	}
	if err := ss.recover(l); err != nil {
		return SyncResult{}, err
	}
	var have map[string]int // records already in a reverted L1 file
	if ss.Base != "" && ss.L1Lines > 0 && ss.reverted(l.L1File(ss.Base)) {
		// The file no longer holds what the state says (git stash, reset
		// --hard, checkout -- .claude/memory): refine again from the
		// start and append what the file lacks.
		if have, err = recordSet(l.L1File(ss.Base)); err != nil {
			return SyncResult{}, err
		}
		ss.Refine, ss.L1Size = State{}, 0
	}
	recs, st, err := RefineFrom(abs, ss.Refine, Options{Root: l.Root}, opts.Final)
	if err != nil {
		return SyncResult{}, err
	}
	if have != nil {
		recs = slices.DeleteFunc(recs, func(r Record) bool {
			k := string(Encode([]Record{r}))
			if have[k] > 0 {
				have[k]--
				return true
			}
			return false
		})
	}
	if opts.LastMessage != "" && !opts.Final {
		recs = append(recs, flushEndedText(&st, Options{Root: l.Root}, opts.LastMessage)...)
	}
	if ss.Base == "" && st.Start != "" {
		ts, perr := time.Parse(time.RFC3339Nano, st.Start)
		if perr != nil {
			ts = time.Unix(0, 0)
		}
		sid := st.SessionID
		if sid == "" {
			sid = stateKey(abs)
		}
		ss.Base = memdir.SessionBase(ts, sid)
	}
	res := SyncResult{Base: ss.Base, SessionID: st.SessionID, Version: st.Version, Stats: st.Stats}
	if len(recs) > 0 {
		if ss.Base == "" {
			return res, fmt.Errorf("%s: records without a session start", transcript)
		}
		l1path := l.L1File(ss.Base)
		before, sizeBefore, err := linesBefore(l1path, ss)
		if err != nil {
			return res, err
		}
		data := Encode(recs)
		// The intent goes first: a kill after the append and before the
		// state is saved must not refine the same lines again (they would
		// be appended twice), nor one before the append lose them.
		intent := ss
		intent.Intent = &syncIntent{From: sizeBefore, To: sizeBefore + int64(len(data)), Prev: ss}
		intent.Refine = st
		if err := writeSyncState(statePath, intent); err != nil {
			return res, err
		}
		fault.Point("l1-append")
		size, err := appendRecords(l, l1path, data)
		if err != nil {
			return res, errors.Join(err, writeSyncState(statePath, ss))
		}
		fault.Point("l1-state")
		res.New = recs
		res.FirstLine = before + 1
		ss.L1Lines = before + len(recs)
		// Remember the size only when nobody appended in between; else
		// the next Sync counts.
		ss.L1Size = 0
		if size == sizeBefore+int64(len(data)) {
			ss.L1Size = size
		}
	}
	res.Lines = ss.L1Lines
	ss.Refine = st
	ss.Intent = nil
	if err := writeSyncState(statePath, ss); err != nil {
		return res, err
	}
	return res, nil
}

func writeSyncState(p string, ss syncState) error {
	b, _ := json.Marshal(ss)
	return atomicfile.WriteFile(p, b, 0o644)
}

// recover settles an append a killed Sync left under way: the L1 file's
// size says whether it happened (the state after it stands), did not (the
// state before it stands) or was cut short (the partial lines are cut and
// the state before it stands). Nothing is lost and nothing is appended
// twice.
func (ss *syncState) recover(l memdir.Layout) error {
	in := ss.Intent
	if in == nil {
		return nil
	}
	p := l.L1File(ss.Base)
	var size int64
	if fi, err := os.Stat(p); err == nil {
		size = fi.Size()
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	switch {
	case size >= in.To:
		ss.Intent = nil
	case size > in.From:
		if err := os.Truncate(p, in.From); err != nil {
			return err
		}
		*ss = in.Prev
	default:
		*ss = in.Prev
	}
	return nil
}

// reverted reports whether the L1 file at p holds less than this
// transcript's state says it appended: it was put back to an older version
// or removed.
func (ss *syncState) reverted(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	if ss.L1Size > 0 {
		return fi.Size() < ss.L1Size
	}
	n, err := countFileLines(p)
	return err == nil && n < ss.L1Lines
}

// recordSet counts the records of the L1 file at p by their encoding, its
// torn last line, if any, cut first.
func recordSet(p string) (map[string]int, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		if err := os.Truncate(p, int64(i+1)); err != nil {
			return nil, err
		}
		b = b[:i+1]
	}
	have := map[string]int{}
	for line := range bytes.Lines(b) {
		have[string(line)]++
	}
	return have, nil
}

// Reset forgets where Sync stopped for a transcript, so that the next Sync
// refines it from the start (used by import, which rewrites L1 files whole).
func Reset(l memdir.Layout, transcript string) error {
	abs, err := filepath.Abs(transcript)
	if err != nil {
		return err
	}
	err = os.Remove(filepath.Join(l.StateDir(), "l1", stateKey(abs)+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

func stateKey(absPath string) string {
	h := sha256.Sum256([]byte(absPath))
	return hex.EncodeToString(h[:8])
}

// linesBefore is the number of lines of the L1 file at p before an
// append: from the state when the file still has the size this transcript
// left it at, else counted (another transcript, a subagent's, appended in
// between, or the file was merged or rewritten).
func linesBefore(p string, ss syncState) (lines int, size int64, err error) {
	fi, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	if ss.L1Size > 0 && fi.Size() == ss.L1Size {
		return ss.L1Lines, fi.Size(), nil
	}
	lines, err = countFileLines(p)
	return lines, fi.Size(), err
}

// countFileLines counts the lines of the file at p, reading it through a
// small buffer.
func countFileLines(p string) (int, error) {
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// appendRecords appends whole lines with one write, so a reader never sees
// half a record, and returns the file's size after the write.
func appendRecords(l memdir.Layout, p string, data []byte) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	f, err := l.OpenNoFollow(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	before, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return 0, err
	}
	if _, err := f.Write(data); err != nil {
		// A full disk takes part of the lines: cut them, so that no torn
		// line is left for the next append to glue onto, or to commit.
		f.Truncate(before)
		f.Close()
		return 0, err
	}
	fi, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// ImportResult says what Import wrote for one session.
type ImportResult struct {
	Base      string
	SessionID string
	Files     int
	BytesOut  int64
	Stats     Stats
}

// Import refines a whole session at once — its main transcript and its
// subagent transcripts — and writes the session's L1 file whole, replacing
// any earlier one, so importing twice gives the same bytes. It records
// where each transcript ended, so hooks that see the session later append
// only what is new.
//
// A session the hooks already record keeps its L1 file: rewriting it would
// move the lines its L2 ranges point at (the hooks append a subagent's
// records where it finished, a whole refine puts them last), and the
// session may still be under way. It is brought up to date as the hooks
// would: only what is new is appended.
func Import(l memdir.Layout, main string, subagents []string) (ImportResult, error) {
	if base := syncedBase(l, main); base != "" {
		if _, err := os.Stat(l.L1File(base)); err == nil {
			return catchUp(l, base, main, subagents)
		}
	}
	var res ImportResult
	type done struct {
		path string
		st   State
	}
	var all []Record
	var states []done
	for i, p := range append([]string{main}, subagents...) {
		recs, st, err := RefineFile(p, Options{Root: l.Root})
		if err != nil {
			return res, err
		}
		if i == 0 {
			res.SessionID = st.SessionID
			if st.Start == "" {
				// No prompt, text or tool call at all: nothing to keep.
				res.Stats.Add(st.Stats)
				res.Files++
				return res, nil
			}
			ts, perr := time.Parse(time.RFC3339Nano, st.Start)
			if perr != nil {
				ts = time.Unix(0, 0)
			}
			sid := st.SessionID
			if sid == "" {
				sid = stateKey(p)
			}
			res.Base = memdir.SessionBase(ts, sid)
		}
		for j := range recs {
			if i > 0 && recs[j].Agent == "" {
				recs[j].Agent = agentName(p)
			}
		}
		all = append(all, recs...)
		res.Stats.Add(st.Stats)
		res.Files++
		states = append(states, done{p, st})
	}
	data := Encode(all)
	if err := atomicfile.WriteFile(l.L1File(res.Base), data, 0o644); err != nil {
		return res, err
	}
	res.BytesOut = int64(len(data))
	for _, d := range states {
		abs, err := filepath.Abs(d.path)
		if err != nil {
			return res, err
		}
		ss := syncState{Refine: d.st, Base: res.Base, L1Lines: len(all)}
		b, _ := json.Marshal(ss)
		if err := atomicfile.WriteFile(filepath.Join(l.StateDir(), "l1", stateKey(abs)+".json"), b, 0o644); err != nil {
			return res, err
		}
	}
	return res, nil
}

// flushEndedText writes the text waiting in st when it ends as last, the
// turn's last message, ends: nothing more of its message can follow. It
// writes nothing while tool calls wait for their results.
func flushEndedText(st *State, opts Options, last string) []Record {
	if st.Text == nil || len(st.Tools) > 0 {
		return nil
	}
	r := ResumeRefiner(*st, opts)
	end := tailWords(r.clean(last), 12)
	if end == "" || !strings.HasSuffix(tailWords(st.Text.Text, 12), end) {
		return nil
	}
	recs := r.flushText(nil)
	*st = r.State()
	return recs
}

// tailWords is the last n words of s, single-spaced.
func tailWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		w = w[len(w)-n:]
	}
	return strings.Join(w, " ")
}

// syncedBase is the L1 file stem Sync recorded for a transcript, or "".
func syncedBase(l memdir.Layout, transcript string) string {
	abs, err := filepath.Abs(transcript)
	if err != nil {
		return ""
	}
	var ss syncState
	b, err := os.ReadFile(filepath.Join(l.StateDir(), "l1", stateKey(abs)+".json"))
	if err != nil || json.Unmarshal(b, &ss) != nil {
		return ""
	}
	return ss.Base
}

// catchUp is Import for a session Sync already records: the main
// transcript is synced as a live one (its last turn may be unfinished),
// each subagent transcript, finished, into the session's file.
func catchUp(l memdir.Layout, base, main string, subagents []string) (ImportResult, error) {
	res := ImportResult{Base: base}
	r, err := Sync(l, main, SyncOptions{})
	if err != nil {
		return res, err
	}
	res.SessionID, res.Files = r.SessionID, 1
	res.Stats.Add(r.Stats)
	for _, p := range subagents {
		r, err := Sync(l, p, SyncOptions{Base: base, Final: true})
		if err != nil {
			return res, err
		}
		res.Files++
		res.Stats.Add(r.Stats)
	}
	if fi, err := os.Stat(l.L1File(base)); err == nil {
		res.BytesOut = fi.Size()
	}
	return res, nil
}

// agentName derives a subagent's id from its file name (agent-<id>.jsonl)
// for lines that do not carry one.
func agentName(p string) string {
	b := filepath.Base(p)
	b = b[:len(b)-len(filepath.Ext(b))]
	if len(b) > 6 && b[:6] == "agent-" {
		return b[6:]
	}
	return b
}

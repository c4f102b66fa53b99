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
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
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
	recs, st, err := RefineFrom(abs, ss.Refine, Options{Root: l.Root}, opts.Final)
	if err != nil {
		return SyncResult{}, err
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
		size, err := appendRecords(l, l1path, data)
		if err != nil {
			return res, err
		}
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
	b, _ := json.Marshal(ss)
	if err := atomicfile.WriteFile(statePath, b, 0o644); err != nil {
		return res, err
	}
	return res, nil
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
	if _, err := f.Write(data); err != nil {
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

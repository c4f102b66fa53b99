package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memkeep/memkeep/internal/fault"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/scrub"
)

// cleanText is the single point through which free text enters the
// stream: secrets redacted, the machine's paths made relative to root
// (the project's work tree) or to the home folder.
func cleanText(s, root string) string {
	if s == "" {
		return s
	}
	return scrub.Text(s, root)
}

// MonthFile is the name of the stream file that holds events of t's month
// (UTC): "2026-03.jsonl".
func MonthFile(t time.Time) string { return t.UTC().Format("2006-01") + ".jsonl" }

// lockWait bounds how long Append waits for another writer. Writers hold
// the lock for one write of one line, so a wait this long means a process
// stopped while holding it; Append then writes without it (see Append).
const lockWait = 500 * time.Millisecond

// LockPath is the lock stream writers take for an append, and whoever
// rewrites a stream file (the archive, a merge into memkeep's state).
func LockPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "stream.lock") }

// Append writes ev as one line at the end of the file of its month and
// returns the event as stored: with its id, its time (now when zero, cut to
// milliseconds, in UTC), its text redacted and capped.
//
// How lines stay whole, cheaply. The line goes out in a single write(2) on
// a descriptor opened with O_APPEND. POSIX makes positioning at the end and
// writing one step, and Linux's local file systems hold the inode lock for
// the whole write, so concurrent appenders (parallel PostToolUse hooks,
// several sessions) never interleave bytes or overwrite each other. That
// alone would suffice for a healthy file. What it cannot do is repair a
// file whose last line was cut short (a crash or a full disk mid-write):
// the next line would be glued to the stub and both lost to readers. So
// Append looks at the file's last byte (one pread, never a read of the
// content) and, when it is not a newline, cuts the torn line before
// writing (a write that fails half way is cut the same way). That check
// must not race with another writer's half-copied line, so the check and
// the write are done under a flock on <git dir>/memkeep/stream.lock. The lock costs a few
// microseconds, dies with its process, and is optional for correctness: when
// it cannot be had within lockWait, Append writes without it, relying on
// O_APPEND as above, and leaves the repair of a torn tail to the next
// append that has the lock. That append cuts a torn tail only once it
// stays unchanged for a moment (settledTorn): the unlocked writer may be
// copying its line while the lock holder looks.
//
// Nothing is fsynced: the hook budget is milliseconds, and the events are
// a log of activity, not the only copy of anything.
func Append(l memdir.Layout, ev Event) (Event, error) {
	ev, err := normalize(ev, time.Now(), l.Root)
	if err != nil {
		return ev, err
	}
	line := appendEvent(make([]byte, 0, 192+len(ev.Summary)+len(ev.Content)), ev)
	line = append(line, '\n')

	lk, lerr := filelock.Acquire(LockPath(l), lockWait)
	if lerr == nil {
		defer lk.Unlock()
	}
	path := filepath.Join(l.StreamDir(), MonthFile(ev.Time))
	f, err := l.OpenNoFollow(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(l.StreamDir(), 0o755); err != nil {
			return ev, fmt.Errorf("append to the event stream: %w", err)
		}
		f, err = l.OpenNoFollow(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	}
	if err != nil {
		return ev, fmt.Errorf("append to the event stream: %w", err)
	}
	// Under the lock a torn last line (a crash or a full disk mid-write)
	// is cut before the new line goes out, so it is never glued to it nor
	// committed. Without the lock another writer's line may be half
	// copied and look torn: the repair waits for a locked append then.
	var size int64 = -1
	if fi, err := f.Stat(); lerr == nil && err == nil {
		size = fi.Size()
		var last [1]byte
		if size > 0 {
			if _, err := f.ReadAt(last[:], size-1); err == nil && last[0] != '\n' && settledTorn(f, &size) {
				if size, err = cutTorn(f, size); err != nil {
					f.Close()
					return ev, fmt.Errorf("cut the torn last line of %s: %w", path, err)
				}
			}
		}
	}
	fault.Point("stream-append")
	_, err = f.Write(line)
	if err != nil && size >= 0 {
		f.Truncate(size) // a full disk took part of the line: leave none of it
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ev, fmt.Errorf("append to %s: %w", path, err)
	}
	return ev, nil
}

// settledTorn reports whether f's torn last line stays torn: a writer
// that could not have the lock may be copying its line right now (the
// file grows page by page while it does), and its line must not be cut.
// It waits while the file grows, up to tornWait, and updates *size.
func settledTorn(f *os.File, size *int64) bool {
	deadline := time.Now().Add(tornWait)
	for {
		settle(tornSettle)
		fi, err := f.Stat()
		if err != nil {
			return false
		}
		if fi.Size() == *size {
			return true // nobody is writing: a crash or a full disk left it
		}
		*size = fi.Size()
		var last [1]byte
		if _, err := f.ReadAt(last[:], *size-1); err != nil || last[0] == '\n' {
			return false // the other writer finished its line
		}
		if time.Now().After(deadline) {
			return true
		}
	}
}

// settle waits for a torn line to change; a test stands in for the other
// writer through it.
var settle = time.Sleep

// tornSettle is how long a torn last line must stay unchanged to be
// taken for a crash's, and tornWait the longest Append waits for one
// that keeps growing.
const (
	tornSettle = 5 * time.Millisecond
	tornWait   = 200 * time.Millisecond
)

// cutTorn truncates f, of size bytes, after its last newline and returns
// the new size. The file is read backwards in blocks, so a long torn
// line costs only its own bytes.
func cutTorn(f *os.File, size int64) (int64, error) {
	buf := make([]byte, 4096)
	end := size
	for end > 0 {
		n := min(int64(len(buf)), end)
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return size, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	return end, f.Truncate(end)
}

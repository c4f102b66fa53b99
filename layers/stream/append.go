package stream

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

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
const lockWait = 100 * time.Millisecond

func lockPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "stream.lock") }

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
// content) and starts its line with a newline when the last byte is not
// one. That check must not race with another writer's half-copied line,
// or it would add a stray blank line, so the check and the write are done
// under a flock on <git dir>/memkeep/stream.lock. The lock costs a few
// microseconds, dies with its process, and is optional for correctness: when
// it cannot be had within lockWait, Append writes without it, relying on
// O_APPEND as above, and leaves the repair of a torn tail to the next
// append that has the lock.
//
// Nothing is fsynced: the hook budget is milliseconds, and the events are
// a log of activity, not the only copy of anything.
func Append(l memdir.Layout, ev Event) (Event, error) {
	ev, err := normalize(ev, time.Now(), l.Root)
	if err != nil {
		return ev, err
	}
	// One spare byte in front for the torn-tail newline, so the line is
	// never copied.
	buf := make([]byte, 1, 192+len(ev.Summary)+len(ev.Content))
	buf[0] = '\n'
	buf = appendEvent(buf, ev)
	buf = append(buf, '\n')

	lk, lerr := filelock.Acquire(lockPath(l), lockWait)
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
	line := buf[1:]
	// Without the lock another writer's line may be half copied: its last
	// byte would look torn. The repair waits for a locked append then.
	if fi, err := f.Stat(); lerr == nil && err == nil && fi.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			line = buf
		}
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ev, fmt.Errorf("append to %s: %w", path, err)
	}
	return ev, nil
}

// Package filelock serialises read-modify-write of memkeep's files between
// processes (two Claude Code sessions in one project, a hook and a command)
// with flock(2) on a lock file under the git dir. Locks die with their
// process, so a crash never leaves a stale lock behind.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// ErrTimeout is returned when the lock stayed held for the whole wait.
var ErrTimeout = errors.New("lock is held by another memkeep process")

// Lock is a held lock; Unlock releases it.
type Lock struct{ f *os.File }

// Acquire takes an exclusive lock on path (created when missing), waiting at
// most wait. A zero wait tries once.
func Acquire(path string, wait time.Duration) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := fastfile.Open(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	delay := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, ErrTimeout)
		}
		time.Sleep(delay)
		if delay < 20*time.Millisecond {
			delay *= 2
		}
	}
}

// Unlock releases the lock. It is safe to call on a nil Lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor drops the flock
	l.f = nil
	return err
}

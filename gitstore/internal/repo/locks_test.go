package repo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReleaseLocksRemovesOnlyHeldLocks: what ReleaseLocks removes is every
// lock created and not yet renamed or removed, never a renamed-over target
// or another process's lock of the same name.
func TestReleaseLocksRemovesOnlyHeldLocks(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "index.lock")
	published := filepath.Join(dir, "HEAD.lock")
	given := filepath.Join(dir, "refs.lock")
	for _, p := range []string{kept, published, given} {
		f, err := CreateLock(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if _, err := CreateLock(kept); !errors.Is(err, os.ErrExist) {
		t.Fatalf("a second CreateLock of a held lock: %v, want ErrExist", err)
	}
	if err := RenameLock(published, filepath.Join(dir, "HEAD")); err != nil {
		t.Fatal(err)
	}
	RemoveLock(given)
	// Another process takes the lock we gave up: it is not ours to remove.
	if err := os.WriteFile(given, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ReleaseLocks()
	defer func() { held.Lock(); held.exiting = false; held.Unlock() }()
	if _, err := os.Stat(kept); err == nil {
		t.Error("a held lock survived ReleaseLocks")
	}
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		t.Error("the renamed lock's target was removed")
	}
	if _, err := os.Stat(given); err != nil {
		t.Error("another process's lock, taken after ours was given up, was removed")
	}
}

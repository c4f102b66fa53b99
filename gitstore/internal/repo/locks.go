package repo

import (
	"os"
	"sync"
)

// Git lock files this process holds. A lock is created, renamed into place
// and removed under one mutex, and ReleaseLocks takes the same mutex, so a
// signal handler that runs ReleaseLocks sees every lock the process has
// created and not yet let go of: there is no moment between git's
// O_CREAT|O_EXCL and the lock being known, nor between a rename and the
// lock being forgotten, when a signal could leave a lock behind or remove
// a file that is no longer ours.
var held struct {
	sync.Mutex
	paths   map[string]bool
	exiting bool
}

// CreateLock creates lockPath exclusively, as git creates its lock files,
// and remembers it as this process's until RenameLock or RemoveLock. After
// ReleaseLocks has begun it blocks: the process is about to exit.
func CreateLock(lockPath string) (*os.File, error) {
	held.Lock()
	defer held.Unlock()
	if held.exiting {
		select {} // the signal handler is exiting the process
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if held.paths == nil {
		held.paths = map[string]bool{}
	}
	held.paths[lockPath] = true
	return f, nil
}

// RenameLock renames a lock this process holds over its target, the moment
// git's lock protocol publishes the new content.
func RenameLock(lockPath, target string) error {
	held.Lock()
	defer held.Unlock()
	if err := os.Rename(lockPath, target); err != nil {
		return err
	}
	delete(held.paths, lockPath)
	return nil
}

// RemoveLock removes a lock this process holds, giving it up unchanged.
func RemoveLock(lockPath string) {
	held.Lock()
	defer held.Unlock()
	if held.paths[lockPath] {
		os.Remove(lockPath)
		delete(held.paths, lockPath)
	}
}

// ReleaseLocks removes every lock this process holds and keeps it from
// taking another; a signal handler calls it just before the process exits.
func ReleaseLocks() {
	held.Lock()
	defer held.Unlock()
	held.exiting = true
	for p := range held.paths {
		os.Remove(p)
		delete(held.paths, p)
	}
}

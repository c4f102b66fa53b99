// Package atomicfile writes files so that a reader or a killed process
// never sees a partial file: data goes to a temporary file in the same
// directory and is renamed over the target.
//
// Nothing is fsynced. The files memkeep writes this way are work-tree
// files (the memory under .claude/memory/, settings.json) and local state
// under the git dir, and the hooks rewrite them on every turn: an fsync
// made writing and renaming a 60 KB file 1.6–1.8× slower here, 0.2 ms
// more (BenchmarkWriteFile), against Stop's 10 ms budget. Git
// makes the same choice for the files it checks out and, by default
// (core.fsync), for its index and refs. What is given up is durability
// across a power loss, not atomicity: the rename replaces the old file
// whole (and ext4, with its default auto_da_alloc, flushes a file renamed
// over another before the rename). The memory is derived from transcripts
// that Claude Code keeps, so a lost last update is redone by the next
// consolidation. Git objects and refs are written by gitstore, which
// follows core.fsync.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// WriteFile atomically replaces path with data. The parent directory is
// created when missing. On any error the target is left as it was and the
// temporary file is removed.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, tmp, err := createTemp(dir, "."+filepath.Base(path)+".tmp-", perm)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// createTemp is os.CreateTemp through fastfile: hooks write state files on
// every turn.
func createTemp(dir, prefix string, perm os.FileMode) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := fastfile.Open(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, name, err
	}
}

// WriteOutput writes data to a file the user named as output (`refine
// -o`): a regular file, or one still missing, is replaced atomically as by
// WriteFile; anything else (/dev/null, /dev/stdout, a FIFO, a terminal) is
// written in place. Renaming over a device would replace it with a regular
// file — for /dev/null, as root, for every program on the machine. A FIFO
// without a reader is an error rather than a wait.
func WriteOutput(path string, data []byte, perm os.FileMode) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return WriteFile(path, data, perm)
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory: name a file to write", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

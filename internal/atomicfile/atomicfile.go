// Package atomicfile writes files so that a reader or a crash never sees a
// partial file: data goes to a temporary file in the same directory, is
// synced, and is renamed over the target.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// WriteFile atomically replaces path with data. The parent directory is
// created when missing. On any error the target is left as it was and the
// temporary file is removed.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, true)
}

// WriteState is WriteFile without the fsync, for local state under the git
// dir that hooks rewrite on every turn (offsets, counters, caches). A
// reader or a killed process still never sees a partial file; what is
// given up is durability across a power loss, as git gives it up for its
// index and refs by default (core.fsync), for a disk flush less on every
// hook call.
func WriteState(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false)
}

func write(path string, data []byte, perm os.FileMode, sync bool) error {
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
	if sync {
		if err := f.Sync(); err != nil {
			return err
		}
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

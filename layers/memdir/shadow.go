package memdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// PrepareShadow makes sure the shadow (MemoryDir) exists. The first time
// memkeep runs in a clone, or after an upgrade from a version that wrote
// the work tree directly, the shadow starts as a copy of the work tree's
// memory folder, pending changes included: they are memkeep's own, and
// its next commit records them. The copy is made in a temporary folder and
// renamed into place, so two hooks starting at once agree on one shadow.
// A symbolic link in the work tree's memory folder is refused (CheckLinks).
func (l Layout) PrepareShadow() error {
	if fi, err := os.Lstat(l.MemoryDir()); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a folder: remove it and memkeep makes it again from %s", l.MemoryDir(), MemoryRel)
		}
		return nil
	}
	if err := os.MkdirAll(l.StateDir(), 0o755); err != nil {
		return err
	}
	// A copy a killed process left half made.
	if old, _ := filepath.Glob(filepath.Join(l.StateDir(), "memory.tmp-*")); len(old) > 0 {
		for _, p := range old {
			if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) > time.Minute {
				os.RemoveAll(p)
			}
		}
	}
	tmp, err := os.MkdirTemp(l.StateDir(), "memory.tmp-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src := l.WorkMemoryDir()
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == src && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // no memory in the work tree yet: start empty
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(tmp, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return l.LinkError(p)
		case d.IsDir():
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return os.MkdirAll(dst, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		return copyFile(p, dst)
	})
	if err != nil {
		return fmt.Errorf("copying %s to memkeep's state: %w", MemoryRel, err)
	}
	if err := os.Rename(tmp, l.MemoryDir()); err != nil {
		if fi, serr := os.Stat(l.MemoryDir()); serr == nil && fi.IsDir() {
			return nil // another process made it first
		}
		return err
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

package fastfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenBehavesLikeOS(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	if _, err := Open(p, os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: got %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := Open(p, os.O_RDONLY, 0); !errors.As(err, &pe) || pe.Path != p {
		t.Fatalf("missing file: got %v, want a *fs.PathError naming %s", err, p)
	}
	f, err := Open(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	f, _ = Open(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
	f.WriteString("two\n")
	// The descriptor stays blocking: it was never given to the poller.
	flags, err := fcntlGetfl(f)
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK != 0 {
		t.Error("descriptor is non-blocking: it went through the runtime poller")
	}
	f.Close()
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n" {
		t.Fatalf("appends: got %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm()&^0o640 != 0 {
		t.Errorf("mode %v exceeds 0640", fi.Mode().Perm())
	}
	if _, err := Open(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("O_EXCL on an existing file: got %v, want fs.ErrExist", err)
	}
}

func fcntlGetfl(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var flags int
	var ferr error
	rc.Control(func(fd uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags = int(r)
		if e != 0 {
			ferr = e
		}
	})
	return flags, ferr
}

func TestReadFileMatchesOS(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 64 << 10, 1<<20 + 3} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		os.WriteFile(p, want, 0o644)
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: got %d bytes, err %v", size, len(got), err)
		}
	}
	// Files whose size says 0 but that have content (procfs).
	want, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skip("no procfs")
	}
	got, err := ReadFile("/proc/self/mountinfo")
	if err != nil || len(got) == 0 || !bytes.Equal(got[:min(len(got), 20)], want[:min(len(want), 20)]) {
		t.Fatalf("procfs file: got %d bytes, err %v", len(got), err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: got %v", err)
	}
}

func TestMapGivesTheFileBytes(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, mapMin - 1, mapMin, 3*mapMin + 17} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("0123456789abcdef\n"), size/17+1)[:size]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, fi, release, err := Map(p)
		if err != nil || !bytes.Equal(got, want) || fi.Size() != int64(size) {
			t.Fatalf("size %d: got %d bytes, %v", size, len(got), err)
		}
		// A file replaced by rename leaves the mapping as it was.
		os.WriteFile(p+".new", []byte("other"), 0o644)
		os.Rename(p+".new", p)
		if !bytes.Equal(got, want) {
			t.Fatalf("size %d: the bytes changed when the file was replaced", size)
		}
		release()
	}
	if _, _, _, err := Map(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: got %v, want fs.ErrNotExist", err)
	}
}

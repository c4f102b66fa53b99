// Package fastfile opens files for the hook path without the runtime's
// network poller.
//
// On Linux os.OpenFile offers every descriptor to the poller: it switches
// the file to non-blocking mode, tries epoll_ctl (which regular files
// refuse), and switches it back — five system calls per open, plus the
// poller's own set-up (epoll_create1, eventfd2) the first time. Hooks run on
// every tool call and open three or four small files each, so those calls
// are a visible part of their budget. A descriptor from syscall.Open handed
// to os.NewFile is never offered to the poller (it is not in non-blocking
// mode), costs one fcntl, and is an ordinary *os.File from then on.
package fastfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open is os.OpenFile for regular files on the hook path. Errors are
// *fs.PathError, so errors.Is(err, fs.ErrNotExist) works as with os.
func Open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// ReadFile is os.ReadFile through Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, _ := f.Stat()
	return readAll(f, fi)
}

// readAll reads f from where it stands to its end; fi, when not nil, is
// f's FileInfo, whose size sizes the buffer.
func readAll(f *os.File, fi fs.FileInfo) ([]byte, error) {
	size := 512
	if fi != nil && fi.Size() > 0 && fi.Size() < 1<<30 {
		size = int(fi.Size()) + 1 // one more byte to see EOF without growing
	}
	b := make([]byte, 0, size)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Map returns the contents of the file at path, mapped read-only when the
// file is large (on Unix), the file's FileInfo as it was opened, and a
// function that releases the contents. The bytes must not be modified, nor
// used after release.
//
// Why: Stop reads a session's L1 file and its extraction state (hundreds
// of kilobytes) once per process. Read into the heap, every 4 KiB page of
// them costs a fresh zeroed page and a copy; mapped, the page cache is
// used as it is (BenchmarkMapOrRead: 0.2× the time of a read at 1 MiB). A file truncated
// by another process while mapped makes a read past its new end fault
// (SIGBUS): memkeep replaces its files by rename and appends to them,
// never truncates them in place, and hooks run with debug.SetPanicOnFault
// so that even then the fault is an error, not a crash.
func Map(path string) ([]byte, fs.FileInfo, func(), error) {
	// Map reads memory files and local state, neither of which is ever a
	// symbolic link: one would read outside the repository (ELOOP).
	f, err := Open(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, func() {}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, func() {}, err
	}
	if data, release, ok := mapFile(f, fi); ok {
		return data, fi, release, nil
	}
	b, err := readAll(f, fi)
	return b, fi, func() {}, err
}

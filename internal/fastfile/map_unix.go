//go:build unix

package fastfile

import (
	"io/fs"
	"os"
	"syscall"
)

// mapMin is the size from which Map maps a file instead of reading it:
// below it, a read costs no more than setting up a mapping.
const mapMin = 64 << 10

// Map returns the contents of the file at path, mapped read-only when the
// file is large, and a function that releases them. The bytes must not be
// modified, nor used after release.
//
// Why: a hook reads a session's L1 file and its extraction state (hundreds
// of kilobytes) once per process. Read into the heap, every 4 KiB page of
// them costs a fresh zeroed page fault and a copy, ~0.4 ms in all on this
// class of machine; mapped, the page cache is used as it is and the kernel
// maps 16 pages per fault. A file truncated by another process while
// mapped makes a read past its new end fault (SIGBUS): memkeep replaces
// its files by rename and appends to them, never truncates them in place,
// and hooks run with debug.SetPanicOnFault so that even then the fault is
// an error, not a crash.
func Map(path string) ([]byte, func(), error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, func() {}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, func() {}, err
	}
	if fi.Size() < mapMin || fi.Size() > 1<<31 || !fi.Mode().IsRegular() {
		b, err := ReadFile(path)
		return b, func() {}, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		b, rerr := ReadFile(path)
		if rerr != nil {
			return nil, func() {}, &fs.PathError{Op: "mmap", Path: path, Err: err}
		}
		return b, func() {}, nil
	}
	return data, func() { syscall.Munmap(data) }, nil
}

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
// file is large, the file's FileInfo as it was opened, and a function that
// releases the contents. The bytes must not be modified, nor used after
// release.
//
// Why: Stop reads a session's L1 file and its extraction state (hundreds
// of kilobytes) once per process. Read into the heap, every 4 KiB page of
// them costs a fresh zeroed page and a copy; mapped, the page cache is
// used as it is and the kernel maps 16 pages per fault. A file truncated
// by another process while mapped makes a read past its new end fault
// (SIGBUS): memkeep replaces its files by rename and appends to them,
// never truncates them in place, and hooks run with debug.SetPanicOnFault
// so that even then the fault is an error, not a crash.
func Map(path string) ([]byte, fs.FileInfo, func(), error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, func() {}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, func() {}, err
	}
	if fi.Size() >= mapMin && fi.Size() <= 1<<31 && fi.Mode().IsRegular() {
		if data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			return data, fi, func() { syscall.Munmap(data) }, nil
		}
		// A file system that cannot map: read it instead.
	}
	b, err := readAll(f, fi)
	return b, fi, func() {}, err
}

//go:build !unix

package fastfile

import (
	"io/fs"
	"os"
)

// Map returns the contents of the file at path, the file's FileInfo as it
// was opened, and a function that releases the contents; here the file is
// read.
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
	b, err := readAll(f, fi)
	return b, fi, func() {}, err
}

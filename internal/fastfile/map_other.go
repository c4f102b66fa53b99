//go:build !unix

package fastfile

import (
	"io/fs"
	"os"
)

// mapFile does not map here: Map reads the file.
func mapFile(*os.File, fs.FileInfo) ([]byte, func(), bool) { return nil, nil, false }

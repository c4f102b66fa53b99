//go:build !linux && !darwin

package gitstore

import (
	"os"

	"github.com/memkeep/memkeep/gitstore/internal/gitindex"
)

// statOf records size and mtime only; git re-reads the files once and then
// sees them clean.
func statOf(fi os.FileInfo) gitindex.Stat {
	return gitindex.Stat{
		MtimeSec: uint32(fi.ModTime().Unix()), MtimeNsec: uint32(fi.ModTime().Nanosecond()),
		Size: uint32(fi.Size()),
	}
}

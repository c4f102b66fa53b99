//go:build !linux && !darwin

package fastfile

import "io/fs"

func inodeCtime(fs.FileInfo) (uint64, int64, bool) { return 0, 0, false }

package fastfile

import (
	"io/fs"
	"syscall"
)

func inodeCtime(fi fs.FileInfo) (uint64, int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Ino, st.Ctimespec.Nano(), true
}

package fastfile

import (
	"io/fs"
	"syscall"
)

func sysOf(fi fs.FileInfo) (Sys, bool) {
	s, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Sys{}, false
	}
	return Sys{Dev: uint64(s.Dev), Ino: s.Ino, UID: s.Uid, GID: s.Gid,
		Ctime: s.Ctimespec.Nano(), Mtime: s.Mtimespec.Nano()}, true
}

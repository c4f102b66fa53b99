package gitstore

import (
	"os"
	"syscall"

	"github.com/memkeep/memkeep/gitstore/internal/gitindex"
)

// statOf converts file info to the stat data git records in the index, so
// that `git status` sees the memory files clean without re-reading them.
func statOf(fi os.FileInfo) gitindex.Stat {
	st := gitindex.Stat{Size: uint32(fi.Size())}
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.CtimeSec, st.CtimeNsec = uint32(s.Ctimespec.Sec), uint32(s.Ctimespec.Nsec)
		st.MtimeSec, st.MtimeNsec = uint32(s.Mtimespec.Sec), uint32(s.Mtimespec.Nsec)
		st.Dev, st.Ino = uint32(s.Dev), uint32(s.Ino)
		st.UID, st.GID = s.Uid, s.Gid
	} else {
		st.MtimeSec, st.MtimeNsec = uint32(fi.ModTime().Unix()), uint32(fi.ModTime().Nanosecond())
	}
	return st
}

package gitstore

import (
	"os"

	"github.com/memkeep/memkeep/gitstore/internal/gitindex"
	"github.com/memkeep/memkeep/internal/fastfile"
)

// statOf converts file info to the stat data git records in the index, so
// that `git status` sees the memory files clean without re-reading them.
// Where the system gives only size and modification time, git reads the
// files once and then records its own stat data.
func statOf(fi os.FileInfo) gitindex.Stat {
	st := gitindex.Stat{Size: uint32(fi.Size())}
	s, ok := fastfile.SysOf(fi)
	if !ok {
		st.MtimeSec, st.MtimeNsec = uint32(fi.ModTime().Unix()), uint32(fi.ModTime().Nanosecond())
		return st
	}
	st.CtimeSec, st.CtimeNsec = uint32(s.Ctime/1e9), uint32(s.Ctime%1e9)
	st.MtimeSec, st.MtimeNsec = uint32(s.Mtime/1e9), uint32(s.Mtime%1e9)
	st.Dev, st.Ino = uint32(s.Dev), uint32(s.Ino)
	st.UID, st.GID = s.UID, s.GID
	return st
}

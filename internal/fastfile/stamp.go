package fastfile

import (
	"io/fs"
	"strconv"
)

// Sys is the part of a file's stat data that fs.FileInfo does not carry
// portably: device and inode, owner, and the change and modification
// times in nanoseconds.
type Sys struct {
	Dev, Ino     uint64
	UID, GID     uint32
	Ctime, Mtime int64
}

// SysOf returns fi's stat data, and false where the system has none.
func SysOf(fi fs.FileInfo) (Sys, bool) { return sysOf(fi) }

// Stamp identifies a state of a file from its metadata, for caches that
// must not read the file to know it changed: size and modification time,
// and where the system has them the inode and the change time, which no
// tool sets back (rsync -a, tar and cp -p restore the modification time;
// a rewrite by rename changes the inode).
func Stamp(fi fs.FileInfo) string {
	s := strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	if sys, ok := sysOf(fi); ok {
		s += " " + strconv.FormatUint(sys.Ino, 10) + " " + strconv.FormatInt(sys.Ctime, 10)
	}
	return s
}

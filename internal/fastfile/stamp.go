package fastfile

import (
	"io/fs"
	"strconv"
)

// Stamp identifies a state of a file from its metadata, for caches that
// must not read the file to know it changed: size and modification time,
// and where the system has them the inode and the change time, which no
// tool sets back (rsync -a, tar and cp -p restore the modification time;
// a rewrite by rename changes the inode).
func Stamp(fi fs.FileInfo) string {
	s := strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	if ino, ctime, ok := inodeCtime(fi); ok {
		s += " " + strconv.FormatUint(ino, 10) + " " + strconv.FormatInt(ctime, 10)
	}
	return s
}

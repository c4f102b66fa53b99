package repo

import (
	"os"
	"strconv"
	"strings"
)

// core.sharedRepository makes a repository writable by a group (or by
// everyone): git widens the mode of every file and folder it creates in
// the git dir and sets the group bit on folders (path.c's
// adjust_shared_perm). memkeep creates objects, their folders, the index,
// refs and reflogs there, and does the same, so that teammates' git keeps
// working in a shared repository.

// Shared perm values, as git's get_shared_repository gives them.
const (
	permUmask     = 0
	permGroup     = 0o660
	permEverybody = 0o664
)

// SharedPerm reads core.sharedRepository: 0 (follow the umask), the bits
// to add (0660 for group, 0664 for everybody), or a negative exact mode
// (-0640 for "0640").
func (c *Config) SharedPerm() int {
	v, ok := c.Get("core", "", "sharedrepository")
	if !ok {
		return permUmask
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "umask", "false", "no", "off", "0":
		return permUmask
	case "group", "true", "yes", "on", "1":
		return permGroup
	case "all", "world", "everybody", "2":
		return permEverybody
	}
	if n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil && n&0o600 == 0o600 {
		return -int(n & 0o666)
	}
	return permUmask
}

// sharedMode is git's calc_shared_perm for a file or folder of mode m.
func sharedMode(m os.FileMode, dir bool, perm int) os.FileMode {
	tweak := perm
	if perm < 0 {
		tweak = -perm
	}
	mode := int(m.Perm())
	if mode&0o200 == 0 {
		tweak &^= 0o222
	}
	if mode&0o100 != 0 {
		tweak |= (tweak & 0o444) >> 2
	}
	if perm < 0 {
		mode = tweak
	} else {
		mode |= tweak
	}
	out := os.FileMode(mode)
	if dir {
		out |= os.FileMode(mode&0o444) >> 2
		out |= os.ModeSetgid
	}
	return out
}

// AdjustShared gives path the mode git would under perm (SharedPerm);
// nothing happens when perm is 0.
func AdjustShared(path string, perm int) error {
	if perm == permUmask {
		return nil
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	want := sharedMode(fi.Mode(), fi.IsDir(), perm)
	have := fi.Mode().Perm() | fi.Mode()&os.ModeSetgid
	if want == have {
		return nil
	}
	return os.Chmod(path, want)
}

// SharedPerm is the repository's core.sharedRepository (see Config.SharedPerm).
func (r *Repo) SharedPerm() int { return r.Config.SharedPerm() }

// mkdirShared creates the folders of path that are missing, each given
// the shared mode.
func mkdirShared(dir string, perm int) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	parent := dir[:max(0, strings.LastIndexByte(dir, os.PathSeparator))]
	if parent != "" && parent != dir {
		if err := mkdirShared(parent, perm); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !os.IsExist(err) {
		return err
	}
	return AdjustShared(dir, perm)
}

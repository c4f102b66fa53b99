package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memkeep/memkeep/layers/memdir"
)

// gitWriters are the git commands that change HEAD, the index or the work
// tree. While one of them runs in the work tree, a memory commit could make
// it fail: `git commit` reads HEAD, opens the editor without holding any
// lock, then refuses to move a branch that moved meanwhile; a stash or a
// rebase runs several steps, each under its own lock.
var gitWriters = map[string]bool{
	"commit": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true,
	"am": true, "stash": true, "checkout": true, "switch": true, "reset": true,
	"pull": true, "restore": true, "add": true, "rm": true, "mv": true, "bisect": true,
	"apply": true, "update-index": true, "read-tree": true, "update-ref": true,
	"sparse-checkout": true, "worktree": true, "notes": true, "clean": true,
}

// userGit names a git command of a person's that is running in this work
// tree and changes it (a commit whose editor is open, a rebase, a stash),
// found through /proc; "" when there is none, or on a system without
// /proc. Read-only commands (status, log, diff) never race a commit and
// are not counted, nor is a git that is an ancestor of this process.
func userGit(l memdir.Layout) string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return ""
	}
	ancestors := ancestorPids()
	root := filepath.Clean(l.Root)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || ancestors[pid] {
			continue
		}
		dir := "/proc/" + e.Name()
		comm, err := os.ReadFile(dir + "/comm")
		if err != nil || string(bytes.TrimSpace(comm)) != "git" {
			continue
		}
		cwd, err := os.Readlink(dir + "/cwd")
		if err != nil || (cwd != root && !strings.HasPrefix(cwd, root+string(filepath.Separator))) {
			continue
		}
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil {
			continue
		}
		if sub := gitSubcommand(strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")); gitWriters[sub] {
			return "git " + sub + " (pid " + e.Name() + ")"
		}
	}
	return ""
}

// gitSubcommand is the first argument after git's own options.
func gitSubcommand(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++ // the option's value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// ancestorPids are this process and its parents: a git that runs memkeep
// (a hook, the merge driver) is not a person's command to wait for.
func ancestorPids() map[int]bool {
	out := map[int]bool{}
	for pid := os.Getpid(); pid > 1 && !out[pid]; {
		out[pid] = true
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			break
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			break
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			break
		}
		if pid, err = strconv.Atoi(f[1]); err != nil {
			break
		}
	}
	return out
}

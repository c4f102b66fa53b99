package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedRepositoryModes: in a repository with core.sharedRepository,
// memkeep's memory commit creates its objects, their folders, the index,
// the branch ref and the reflogs with the modes git gives the same files
// when it makes the same commit.
func TestSharedRepositoryModes(t *testing.T) {
	for _, shared := range []string{"group", "all", "0640"} {
		t.Run(shared, func(t *testing.T) {
			mk, byGit := newRepo(t), newRepo(t)
			before := map[string]bool{}
			for _, l := range []string{mk.Root, byGit.Root} {
				git(t, l, "config", "core.sharedRepository", shared)
				if l == byGit.Root {
					writeMemoryWith(t, l, writeWork)
				} else {
					writeMemory(t, l)
				}
				for p := range looseObjects(t, l) {
					before[p] = true
				}
			}
			mustCommit(t, mk, Options{Message: "memory: shared"})
			git(t, byGit.Root, "add", ".claude/memory")
			git(t, byGit.Root, "commit", "-q", "-m", "memory: shared")

			mode := func(root, rel string) os.FileMode {
				fi, err := os.Stat(filepath.Join(root, ".git", rel))
				if err != nil {
					t.Fatal(err)
				}
				return fi.Mode() & (os.ModePerm | os.ModeSetgid)
			}
			for _, rel := range []string{"index", "refs/heads/main", "logs/HEAD", "logs/refs/heads/main"} {
				if m, g := mode(mk.Root, rel), mode(byGit.Root, rel); m != g {
					t.Errorf("%s: memkeep %v, git %v", rel, m, g)
				}
			}
			// Every object folder and object memkeep wrote has git's mode.
			gitDir, gitFile := objectModes(t, byGit.Root, before)
			mkDir, mkFile := objectModes(t, mk.Root, before)
			if mkDir == 0 || mkFile == 0 {
				t.Fatalf("memkeep wrote no new object folder or object (%v %v): the test proves nothing", mkDir, mkFile)
			}
			if mkDir != gitDir || mkFile != gitFile {
				t.Errorf("objects: memkeep folders %v files %v, git folders %v files %v", mkDir, mkFile, gitDir, gitFile)
			}
			fsck(t, mk.Root)
		})
	}
}

// looseObjects lists the loose object folders and files, by path.
func looseObjects(t *testing.T, root string) map[string]os.FileMode {
	out := map[string]os.FileMode{}
	objects := filepath.Join(root, ".git", "objects")
	ents, _ := os.ReadDir(objects)
	for _, e := range ents {
		if len(e.Name()) != 2 || strings.Trim(e.Name(), "0123456789abcdef") != "" {
			continue
		}
		d := filepath.Join(objects, e.Name())
		fi, _ := os.Stat(d)
		out[d] = fi.Mode() & (os.ModePerm | os.ModeSetgid | os.ModeDir)
		files, _ := os.ReadDir(d)
		for _, f := range files {
			fi, _ := f.Info()
			out[filepath.Join(d, f.Name())] = fi.Mode() & os.ModePerm
		}
	}
	return out
}

// objectModes gives the modes of the loose object folders and files not
// in before, failing when they are not all alike.
func objectModes(t *testing.T, root string, before map[string]bool) (dir, file os.FileMode) {
	t.Helper()
	for p, m := range looseObjects(t, root) {
		if before[p] {
			continue
		}
		if m&os.ModeDir != 0 {
			m &^= os.ModeDir
			if dir != 0 && dir != m {
				t.Errorf("new object folders differ: %v and %v", dir, m)
			}
			dir = m
			continue
		}
		if file != 0 && file != m {
			t.Errorf("new objects differ: %v and %v (%s)", file, m, p)
		}
		file = m
	}
	return dir, file
}

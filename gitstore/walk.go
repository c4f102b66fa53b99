package gitstore

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memkeep/memkeep/gitstore/internal/gitignore"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/layers/memdir"
)

// memFile is one file found under the memory folder.
type memFile struct {
	rel  string // path relative to the repository root, slash separated
	abs  string
	info os.FileInfo
	mode uint32
}

// ignoreRules collects the exclude patterns that can apply under the memory
// folder: core.excludesFile, info/exclude, and the .gitignore files of the
// root, every folder on the way down and every folder inside. Only that
// path is read, never the rest of the work tree.
type ignoreRules struct {
	pats []gitignore.Pattern
}

func loadIgnore(root string, r *repo.Repo, memRel string) *ignoreRules {
	ig := &ignoreRules{}
	if p, ok := r.Config.Get("core", "", "excludesfile"); ok {
		ig.addFile(repo.ExpandHome(p), nil)
	} else {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			home, _ := os.UserHomeDir()
			xdg = filepath.Join(home, ".config")
		}
		ig.addFile(filepath.Join(xdg, "git", "ignore"), nil)
	}
	ig.addFile(filepath.Join(r.CommonDir, "info", "exclude"), nil)
	ig.addFile(filepath.Join(root, ".gitignore"), nil)
	parts := strings.Split(memRel, "/")
	for i := 1; i < len(parts); i++ {
		dom := parts[:i]
		ig.addFile(filepath.Join(root, filepath.FromSlash(strings.Join(dom, "/")), ".gitignore"), dom)
	}
	return ig
}

func (ig *ignoreRules) addFile(p string, domain []string) {
	b, err := os.ReadFile(p)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ig.pats = append(ig.pats, gitignore.Parse(line, append([]string(nil), domain...)))
	}
}

func (ig *ignoreRules) ignored(rel string, dir bool) bool {
	if len(ig.pats) == 0 {
		return false
	}
	return gitignore.NewMatcher(ig.pats).Match(strings.Split(rel, "/"), dir)
}

// isTempFile spots atomicfile's temporary files (".name.tmp-123"), which a
// concurrent memkeep writer may have open while we walk.
// staleTemp is the age after which a temporary file in the memory folder
// belongs to a dead writer: memkeep writes one in milliseconds.
const staleTemp = time.Minute

func isTempFile(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// walkMemory lists the files under memRel that git would add: regular
// files, not ignored unless tracked, skipping nested repositories. A
// symbolic link anywhere from memRel down is an error (see
// memdir.Layout.CheckLinks).
//
// The files are read from dir, the folder that stands for memRel (the
// shadow of the memory folder under the git dir); rel stays the path git
// records.
func walkMemory(l memdir.Layout, dir, memRel string, ig *ignoreRules, tracked func(rel string) bool) ([]memFile, error) {
	var out []memFile
	var walk func(rel string) error
	walk = func(rel string) error {
		abs := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(rel, memRel), "/")))
		if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return l.LinkError(abs)
		}
		ents, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if e.Name() == ".gitignore" {
				ig.addFile(filepath.Join(abs, ".gitignore"), strings.Split(rel, "/"))
			}
		}
		for _, e := range ents {
			name := e.Name()
			if name == ".git" {
				continue
			}
			if isTempFile(name) {
				// A temporary file of a write that was killed part way
				// (atomicfile): it would sit untracked in git status
				// for good. One still being written is younger.
				if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
					os.Remove(filepath.Join(abs, name))
				}
				continue
			}
			r := path.Join(rel, name)
			if e.IsDir() {
				if _, err := os.Lstat(filepath.Join(abs, name, ".git")); err == nil {
					continue // a nested repository is not ours to commit
				}
				if ig.ignored(r, true) && !tracked(r+"/") {
					continue
				}
				if err := walk(r); err != nil {
					return err
				}
				continue
			}
			info, err := e.Info()
			if err != nil {
				if os.IsNotExist(err) {
					continue // removed while we walked
				}
				return err
			}
			var mode uint32
			switch {
			case info.Mode().IsRegular():
				mode = 0o100644
				if info.Mode()&0o111 != 0 {
					mode = 0o100755
				}
			case info.Mode()&os.ModeSymlink != 0:
				// git would commit the link itself, but memkeep reads
				// and rewrites memory files through their names: a link
				// would let it read and write outside the repository.
				return l.LinkError(filepath.Join(abs, name))
			default:
				continue
			}
			if ig.ignored(r, false) && !tracked(r) {
				continue
			}
			out = append(out, memFile{rel: r, abs: filepath.Join(abs, name), info: info, mode: mode})
		}
		return nil
	}
	if err := walk(memRel); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
}

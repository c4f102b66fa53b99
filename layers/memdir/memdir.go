// Package memdir knows where memkeep's files live: the committed memory
// folder inside the work tree and the local, never committed state folder
// inside the git directory. Every other package asks it for paths so that
// the layout of SPEC §2 is written down in one place.
package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// MemoryRel is the memory folder relative to the work tree root, with
// forward slashes as git spells it.
const MemoryRel = ".claude/memory"

// Layout holds the absolute paths of one project.
type Layout struct {
	// Root is the top of the work tree (the folder holding .git).
	Root string
	// GitDir is the git directory of this work tree. For a linked worktree
	// it is .git/worktrees/<name> of the main repository.
	GitDir string
	// CommonDir is the git directory shared by all worktrees (objects,
	// refs, config). Equal to GitDir outside linked worktrees.
	CommonDir string
}

// ErrNoRepo is returned by Find when no git work tree encloses the folder.
var ErrNoRepo = errors.New("not inside a git work tree")

// Find walks up from dir to the nearest work tree root and resolves its git
// directories, following the "gitdir:" file of linked worktrees and
// submodules.
func Find(dir string) (Layout, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		if err == nil {
			l := Layout{Root: d}
			if fi.IsDir() {
				l.GitDir = dotgit
			} else {
				gd, err := readGitFile(dotgit)
				if err != nil {
					return Layout{}, err
				}
				l.GitDir = gd
			}
			l.CommonDir = l.GitDir
			if b, err := os.ReadFile(filepath.Join(l.GitDir, "commondir")); err == nil {
				c := strings.TrimSpace(string(b))
				if !filepath.IsAbs(c) {
					c = filepath.Join(l.GitDir, c)
				}
				l.CommonDir = filepath.Clean(c)
			}
			return l, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return Layout{}, fmt.Errorf("%s: %w (run memkeep inside a git repository, or `git init` first)", abs, ErrNoRepo)
		}
		d = parent
	}
}

func readGitFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	rest, ok := strings.CutPrefix(s, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitdir file", p)
	}
	gd := strings.TrimSpace(rest)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(p), gd)
	}
	return filepath.Clean(gd), nil
}

// MemoryDir is where memkeep reads and writes its memory: a private copy
// of the committed memory folder under the git dir (the "shadow"). Hooks
// append to it between commits, so the tracked files in the work tree
// change only inside memkeep's own commit, which writes the shadow's files
// there, their index entries and the branch together (gitstore.Commit).
// Until then `git status`, stash, rebase and pull never see memkeep's
// work in progress. Recall and the session context read the shadow, so
// they see memory as soon as it is written.
func (l Layout) MemoryDir() string { return filepath.Join(l.StateDir(), "memory") }

// WorkMemoryDir is the committed memory folder in the work tree: what git
// tracks, what a reviewer reads, and what the user may edit.
func (l Layout) WorkMemoryDir() string {
	return filepath.Join(l.Root, filepath.FromSlash(MemoryRel))
}

// Initialised reports whether memkeep is set up in the project: the work
// tree has a memory folder (memkeep init, or a clone of a project that
// has one) or memkeep already keeps a shadow of it.
func (l Layout) Initialised() bool {
	if fi, err := os.Stat(l.WorkMemoryDir()); err == nil && fi.IsDir() {
		return true
	}
	fi, err := os.Stat(l.MemoryDir())
	return err == nil && fi.IsDir()
}

// SessionsDir holds the L1 and L2 files of every session.
func (l Layout) SessionsDir() string { return filepath.Join(l.MemoryDir(), "sessions") }

// StreamDir holds the monthly event stream files.
func (l Layout) StreamDir() string { return filepath.Join(l.MemoryDir(), "stream") }

// FactsFile is L4 (facts.json).
func (l Layout) FactsFile() string { return filepath.Join(l.MemoryDir(), "facts.json") }

// ConceptsFile is L3 (concepts.json).
func (l Layout) ConceptsFile() string { return filepath.Join(l.MemoryDir(), "concepts.json") }

// DigestFile is the rendered memory.md.
func (l Layout) DigestFile() string { return filepath.Join(l.MemoryDir(), "memory.md") }

// ConfigFile is the optional config.yaml. It is the user's file, read from
// the work tree so that an edit takes effect before it is committed.
func (l Layout) ConfigFile() string { return filepath.Join(l.WorkMemoryDir(), "config.yaml") }

// ProjectFile is the optional project.md, the human-written description
// of the project, read from the work tree like config.yaml.
func (l Layout) ProjectFile() string { return filepath.Join(l.WorkMemoryDir(), "project.md") }

// StateDir is memkeep's local state under the git dir: offsets, counters,
// locks, caches, deferred work. It is per worktree, because sessions and
// the index are per worktree.
func (l Layout) StateDir() string { return filepath.Join(l.GitDir, "memkeep") }

// RenderedDigest is the copy of memory.md as memkeep last rendered it:
// what a person's edit of memory.md is read against.
func (l Layout) RenderedDigest() string { return filepath.Join(l.StateDir(), "rendered-memory.md") }

// MemoryLock is the lock file around every read-modify-write of L2, L3,
// L4 and memory.md, and around a merge of HEAD's memory into MemoryDir.
func (l Layout) MemoryLock() string { return filepath.Join(l.StateDir(), "memory.lock") }

// SessionBase is the file name stem of a session: <date>_<HHMM>_<sid8>,
// from the session's first timestamp (UTC) and the first 8 characters of
// its id.
func SessionBase(start time.Time, sessionID string) string {
	sid := sessionID
	if len(sid) > 8 {
		sid = sid[:8]
	}
	return start.UTC().Format("2006-01-02_1504") + "_" + SafeName(sid)
}

// SafeName keeps the letters, digits, '-' and '_' of a name that comes
// from outside (a session id) so it can name a file without leaving its
// folder; a name with none of them becomes "unknown".
func SafeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}

// L1File and L2File name a session's files in SessionsDir.
func (l Layout) L1File(base string) string { return filepath.Join(l.SessionsDir(), base+".l1.jsonl") }
func (l Layout) L2File(base string) string { return filepath.Join(l.SessionsDir(), base+".l2.json") }

// Rel turns an absolute path under Root into a repo-relative slash path. ok
// is false when p is outside the work tree.
//
// A path in the shadow (MemoryDir) is named by the path it has in the
// work tree, .claude/memory/…, which is where it is committed.
func (l Layout) Rel(p string) (rel string, ok bool) {
	if l.GitDir != "" {
		if r, err := filepath.Rel(l.MemoryDir(), p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			if r == "." {
				return MemoryRel, true
			}
			return MemoryRel + "/" + filepath.ToSlash(r), true
		}
	}
	r, err := filepath.Rel(l.Root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// ErrSymlink is wrapped by the errors of a symbolic link where memkeep
// reads, writes or commits memory.
var ErrSymlink = errors.New("symbolic link in the memory folder")

// CheckLinks refuses a memory folder reached through a symbolic link: the
// folders from the work tree's root down to the memory folder and its
// sessions and stream folders, and the memory's own named files. A cloned
// repository can carry such a link (.claude/memory -> ~/private), and
// following it would write events outside the repository and commit a
// private folder's files as memory; git itself refuses paths beyond a
// symbolic link. Files inside sessions/ and stream/ are refused where they
// are opened (OpenNoFollow) and committed. The cost is a handful of lstat
// calls, paid by every hook.
func (l Layout) CheckLinks() error {
	for _, p := range [...]string{
		filepath.Join(l.Root, ".claude"), l.WorkMemoryDir(), l.ConfigFile(), l.ProjectFile(),
		filepath.Join(l.WorkMemoryDir(), "sessions"), filepath.Join(l.WorkMemoryDir(), "stream"),
		l.StateDir(), l.MemoryDir(), l.SessionsDir(), l.StreamDir(),
		l.FactsFile(), l.ConceptsFile(), l.DigestFile(), filepath.Join(l.MemoryDir(), ".gitattributes"),
	} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return l.LinkError(p)
		}
	}
	return nil
}

// LinkError says that the path p is a symbolic link memkeep will not
// follow, where it points, and what to do.
func (l Layout) LinkError(p string) error {
	name := p
	if rel, ok := l.Rel(p); ok {
		name = rel
	}
	target, _ := os.Readlink(p)
	return fmt.Errorf("%s is a symbolic link (to %s): memkeep never follows links in the memory folder, so nothing outside the repository is read, written or committed; replace it with a real folder or file: %w", name, target, ErrSymlink)
}

// OpenNoFollow opens a memory file like os.OpenFile, refusing a symbolic
// link as its last component with LinkError.
func (l Layout) OpenNoFollow(p string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := fastfile.Open(p, flag|syscall.O_NOFOLLOW, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, l.LinkError(p)
	}
	return f, err
}

// CheckAllLinks is CheckLinks and a walk of the whole memory folder for
// any other link: doctor's thorough check, too slow for every hook.
func (l Layout) CheckAllLinks() error {
	if err := l.CheckLinks(); err != nil {
		return err
	}
	for _, dir := range []string{l.WorkMemoryDir(), l.MemoryDir()} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				return l.LinkError(p)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

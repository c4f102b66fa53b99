package merge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Renderer renders memory.md from facts.json, concepts.json and the
// sessions' L2 files, by session file stem (nil for a session with an L1
// file and no L2 yet), injected by the command wiring, which renders with
// the consolidation's view of a session. (Reading and making edits of
// memory.md is the render package's, used directly.)
type Renderer func(factsJSON, conceptsJSON []byte, sessions map[string][]byte) ([]byte, error)

// Exit codes of the merge driver, git's contract.
const (
	ExitClean    = 0   // merged; result in %A
	ExitConflict = 1   // a conflict the rules cannot resolve; markers in %A
	ExitCrash    = 129 // the driver itself failed (>128)
)

// MaxFileSize is the largest memory file the driver merges. A refined L1
// file is a few percent of its transcript, so even a session of gigabytes
// stays far below; anything larger is left to git as a conflict rather
// than read whole and merged for minutes.
const MaxFileSize = 256 << 20

// readBounded reads the file at p, at most one byte past MaxFileSize.
func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// RunMergeDriver is `memkeep merge-driver %O %A %B %P`: it merges the base
// (o), ours (a) and theirs (b) temporary files for the repo path pathname
// and writes the result over a. memory.md is rendered again from the
// merged facts.json and concepts.json when render is set and the other side
// of the merge can be found (git merge exports GITHEAD_<id>, git rebase
// records the pick in rebase-merge/done); git runs drivers in reverse path
// order and writes the work tree only at the end, so those merged files
// are computed here from the three commits rather than read from disk.
// Otherwise memory.md takes one side deterministically and the next
// consolidation re-renders it.
func RunMergeDriver(o, a, b, pathname string, render Renderer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "memkeep merge-driver: internal error merging %s: %v\n", pathname, r)
			code = ExitCrash
		}
	}()
	base, err1 := readBounded(o)
	ours, err2 := readBounded(a)
	theirs, err3 := readBounded(b)
	if err := errors.Join(err1, err2, err3); err != nil {
		fmt.Fprintf(os.Stderr, "memkeep merge-driver: %v\n", err)
		return ExitCrash
	}
	var out []byte
	var err error
	if len(base) > MaxFileSize || len(ours) > MaxFileSize || len(theirs) > MaxFileSize {
		err = fmt.Errorf("%s: a side is larger than %d MiB, which no memory file is: %w", pathname, MaxFileSize>>20, ErrConflict)
	} else if path.Base(pathname) == "memory.md" {
		out = MergeDigest(pathname, base, ours, theirs, render)
	} else {
		out, err = MergeFile(pathname, base, ours, theirs)
	}
	if errors.Is(err, ErrConflict) {
		fmt.Fprintf(os.Stderr, "memkeep merge-driver: %v\n", err)
		out = conflictMarkers(ours, theirs)
		if werr := os.WriteFile(a, out, 0o644); werr != nil {
			return ExitCrash
		}
		return ExitConflict
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "memkeep merge-driver: %s: %v\n", pathname, err)
		return ExitCrash
	}
	if err := os.WriteFile(a, out, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "memkeep merge-driver: %v\n", err)
		return ExitCrash
	}
	return ExitClean
}

func conflictMarkers(ours, theirs []byte) []byte {
	var b bytes.Buffer
	b.WriteString("<<<<<<< ours\n")
	b.Write(ours)
	if len(ours) > 0 && ours[len(ours)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("=======\n")
	b.Write(theirs)
	if len(theirs) > 0 && theirs[len(theirs)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(">>>>>>> theirs\n")
	return b.Bytes()
}

// MergeDigest merges memory.md: unchanged sides resolve trivially; a
// person's edit on either side or both is kept (editedSide); else it is
// rendered from the merged JSON when possible, and otherwise the larger
// side is taken (symmetric, so both merge directions agree).
func MergeDigest(pathname string, base, ours, theirs []byte, render Renderer) []byte {
	if out, ok := trivial(base, ours, theirs); ok {
		return out
	}
	if render != nil {
		if m, err := openMerge(); err == nil {
			defer m.r.Close()
			dir := path.Dir(pathname)
			if out, notes, ok := m.editedSide(dir, ours, theirs, render); ok {
				for _, n := range notes {
					fmt.Fprintf(os.Stderr, "memkeep merge-driver: %s: %s\n", pathname, n)
				}
				return out
			}
			if facts, concepts, sessions, err := m.mergedInputs(dir); err == nil {
				if out, err := render(facts, concepts, sessions); err == nil {
					return out
				}
			}
		}
	}
	if larger(string(ours), string(theirs)) {
		return ours
	}
	return theirs
}

// mergeInProgress is the merge (or rebase step) git runs the driver for:
// the repository and the commits of both sides and their base (nil when
// there is none).
type mergeInProgress struct {
	r                  *repo.Repo
	l                  memdir.Layout
	ours, theirs, base *repo.Commit
}

// openMerge finds the three commits of the merge in progress; the caller
// closes m.r.
func openMerge() (*mergeInProgress, error) {
	l, err := memdir.Find(".")
	if err != nil {
		return nil, err
	}
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil, err
	}
	m := &mergeInProgress{r: r, l: l}
	err = func() error {
		head, err := r.ReadHead()
		if err != nil {
			return err
		}
		if head.Hash.IsZero() {
			return fmt.Errorf("HEAD has no commit")
		}
		if m.ours, err = r.Commit(head.Hash); err != nil {
			return err
		}
		m.theirs, m.base, err = otherSide(r, l, m.ours)
		return err
	}()
	if err != nil {
		r.Close()
		return nil, err
	}
	return m, nil
}

// mergedInputs merges dir/facts.json, dir/concepts.json and every
// session's L2 file of the merge's trees, as the driver merges them.
func (m *mergeInProgress) mergedInputs(dir string) (facts, concepts []byte, sessions map[string][]byte, err error) {
	read := func(c *repo.Commit, name string) []byte {
		if c == nil {
			return nil
		}
		b, err := m.r.File(c.TreeHash, path.Join(dir, name))
		if err != nil {
			return nil
		}
		return b
	}
	for _, name := range []string{"facts.json", "concepts.json"} {
		merged, err := MergeJSON(read(m.base, name), read(m.ours, name), read(m.theirs, name))
		if err != nil {
			return nil, nil, nil, err
		}
		if name == "facts.json" {
			facts = merged
		} else {
			concepts = merged
		}
	}
	// The sessions of either side; a session's L2 file is merged as the
	// driver merges it.
	sessions = map[string][]byte{}
	for _, c := range []*repo.Commit{m.ours, m.theirs} {
		err := eachSession(m.r, c.TreeHash, dir, func(base string, hasL2 bool) error {
			if _, seen := sessions[base]; seen && (sessions[base] != nil || !hasL2) {
				return nil
			}
			sessions[base] = nil
			if !hasL2 {
				return nil
			}
			name := path.Join("sessions", base+".l2.json")
			merged, err := MergeJSON(read(m.base, name), read(m.ours, name), read(m.theirs, name))
			sessions[base] = merged
			return err
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return facts, concepts, sessions, nil
}

// eachSession calls fn with the stem of each session of the memory folder
// dir in the tree root, and whether it has an L2 file.
func eachSession(r *repo.Repo, root plumbing.Hash, dir string, fn func(base string, hasL2 bool) error) error {
	t, err := r.SubtreeAt(root, path.Join(dir, "sessions"))
	if err != nil || t.IsZero() {
		return nil
	}
	ents, err := r.Tree(t)
	if err != nil {
		return err
	}
	l2s := map[string]bool{}
	var bases []string
	for _, e := range ents {
		for _, ext := range []string{".l2.json", ".l1.jsonl"} {
			if b, ok := strings.CutSuffix(e.Name, ext); ok {
				if _, seen := l2s[b]; !seen {
					bases = append(bases, b)
					l2s[b] = false
				}
				l2s[b] = l2s[b] || ext == ".l2.json"
			}
		}
	}
	for _, b := range bases {
		if err := fn(b, l2s[b]); err != nil {
			return err
		}
	}
	return nil
}

// TreeInputs reads what memory.md is rendered from (facts.json,
// concepts.json and each session's L2 file, nil for a session with an L1
// file only) out of the memory folder dir of the tree root.
func TreeInputs(r *repo.Repo, root plumbing.Hash, dir string) (facts, concepts []byte, sessions map[string][]byte, err error) {
	read := func(name string) []byte {
		b, err := r.File(root, path.Join(dir, name))
		if err != nil {
			return nil
		}
		return b
	}
	sessions = map[string][]byte{}
	err = eachSession(r, root, dir, func(base string, hasL2 bool) error {
		sessions[base] = nil
		if hasL2 {
			sessions[base] = read(path.Join("sessions", base+".l2.json"))
		}
		return nil
	})
	return read("facts.json"), read("concepts.json"), sessions, err
}

// otherSide finds the commit being merged into ours and their merge base:
// the commit git names in a GITHEAD_<hash> variable during a merge, or
// the commit a rebase is picking (the last step of rebase-merge/done),
// based on its parent.
func otherSide(r *repo.Repo, l memdir.Layout, ours *repo.Commit) (theirs, base *repo.Commit, err error) {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if h, ok := strings.CutPrefix(k, "GITHEAD_"); ok && plumbing.IsHash(h) && h != ours.Hash.String() {
			if theirs, err = r.Commit(plumbing.NewHash(h)); err != nil {
				return nil, nil, err
			}
			bases, err := r.MergeBase(ours.Hash, theirs.Hash)
			if err != nil || len(bases) == 0 {
				return theirs, nil, err
			}
			if base, err = r.Commit(bases[0]); err != nil {
				return theirs, nil, err
			}
			return theirs, base, nil
		}
	}
	f, err := os.Open(path.Join(l.GitDir, "rebase-merge", "done"))
	if err != nil {
		return nil, nil, fmt.Errorf("no merge or rebase in progress")
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			last = s
		}
	}
	fields := strings.Fields(last)
	if len(fields) < 2 || (fields[0] != "pick" && fields[0] != "p") {
		return nil, nil, fmt.Errorf("rebase step %q is not a pick", last)
	}
	h, err := r.ResolveCommit(fields[1])
	if err != nil {
		return nil, nil, err
	}
	if theirs, err = r.Commit(h); err != nil {
		return nil, nil, err
	}
	if theirs.NumParents() > 0 {
		base, _ = r.Commit(theirs.ParentHashes[0])
	}
	return theirs, base, nil
}

// editedSide keeps a person's edit of memory.md through a merge (the
// edit is read back into the memory files by the next consolidation, not
// yet; rendering from the merged files alone would drop it). A side's
// memory.md is edited when it is not what that side's memory files render
// to. When exactly one side is edited, that side's memory.md is the
// result, and that side's own rendering becomes the copy the edit is read
// against (memdir.Layout.RenderedDigest): the next consolidation carries
// the edit into the merged memory files, and only the edit, then renders
// again. When both are, the result is memory.md rendered from the merged
// files with both sides' edits made in it (MergeEditedDigests, which says
// which edit stays when both edited one item), and that rendering is the
// copy. With neither edited, ok is false; notes names what was not kept.
func (m *mergeInProgress) editedSide(dir string, ours, theirs []byte, render Renderer) (out []byte, notes []string, ok bool) {
	var edited []EditedDigest
	for _, side := range []struct {
		c  *repo.Commit
		md []byte
	}{{m.ours, ours}, {m.theirs, theirs}} {
		facts, concepts, sessions, err := TreeInputs(m.r, side.c.TreeHash, dir)
		if err != nil {
			return nil, nil, false
		}
		rendered, err := render(facts, concepts, sessions)
		if err != nil {
			return nil, nil, false
		}
		if !bytes.Equal(rendered, side.md) {
			edited = append(edited, EditedDigest{Text: side.md, Rendered: rendered})
		}
	}
	var against []byte
	switch len(edited) {
	case 1:
		out, against = edited[0].Text, edited[0].Rendered
	case 2:
		facts, concepts, sessions, err := m.mergedInputs(dir)
		if err != nil {
			return nil, nil, false
		}
		if against, err = render(facts, concepts, sessions); err != nil {
			return nil, nil, false
		}
		out, notes = MergeEditedDigests(edited[0], edited[1], against)
	default:
		return nil, nil, false
	}
	if err := os.MkdirAll(m.l.StateDir(), 0o755); err != nil {
		return nil, nil, false
	}
	if err := os.WriteFile(m.l.RenderedDigest(), against, 0o644); err != nil {
		return nil, nil, false
	}
	return out, notes, true
}

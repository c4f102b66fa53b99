package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Problem is a repository setting under which memory is not committed,
// or not safely: what it is, and what to do.
type Problem struct {
	What, Fix string
}

// Health lists the repository's settings that keep memkeep from
// committing memory, for `memkeep doctor`: each would otherwise defer
// every commit in silence. It never fails: what cannot be read is not
// reported.
func Health(l memdir.Layout) []Problem {
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return []Problem{{What: "the repository cannot be read: " + err.Error(), Fix: "check .git, or run git init"}}
	}
	defer r.Close()
	var out []Problem
	if v, _ := r.Config.Get("extensions", "", "objectformat"); v != "" && !strings.EqualFold(v, "sha1") {
		out = append(out, Problem{
			What: fmt.Sprintf("the repository uses %s object ids: memkeep commits only to SHA-1 repositories, so memory is never committed here", v),
			Fix:  "keep the memory in the work tree and commit it with git yourself (git add .claude/memory)"})
	}
	if loadIgnore(l.Root, r, memRel).ignored(memRel, true) || loadIgnore(l.Root, r, memRel).ignored(".claude", true) {
		out = append(out, Problem{
			What: memRel + " is ignored (.gitignore or info/exclude): memory is never committed",
			Fix:  "add `!.claude/` and `!" + memRel + "/` to .gitignore after the line that ignores it"})
	}
	if _, err := os.Stat(filepath.Join(l.CommonDir, "shallow")); err == nil {
		out = append(out, Problem{
			What: "this is a shallow clone: memkeep log and diff cannot see memory commits older than its depth",
			Fix:  "git fetch --unshallow"})
	}
	if SparseExcludesMemory(l) {
		out = append(out, Problem{
			What: "the sparse checkout leaves out " + memRel + ": memkeep neither reads nor commits memory it cannot see (the committed memory is kept as it is)",
			Fix:  "git sparse-checkout add " + memRel})
	} else if b, err := os.ReadFile(filepath.Join(l.GitDir, "info", "sparse-checkout")); err == nil && r.Config.Bool("core", "sparsecheckout", false) {
		if !strings.Contains(string(b), ".claude") {
			out = append(out, Problem{
				What: "the sparse checkout may leave out " + memRel + ": memory outside it is never committed",
				Fix:  "git sparse-checkout add " + memRel})
		}
	}
	if sign, err := signer(r.Config, "memkeep doctor <doctor@memkeep.invalid>"); err != nil {
		out = append(out, Problem{What: "commit.gpgsign is set but signing is not possible: " + err.Error(), Fix: "fix gpg.program / user.signingkey, or unset commit.gpgsign"})
	} else if sign != nil {
		if _, err := sign([]byte("memkeep doctor: can this key sign?\n")); err != nil {
			out = append(out, Problem{What: "commit.gpgsign is set but no signature can be made, so every memory commit waits: " + firstLines(err.Error(), 2), Fix: "make the signing key usable (gpg --list-secret-keys, ssh-add), or unset commit.gpgsign"})
		}
	}
	return out
}

// SparseExcludesMemory reports whether the index marks the memory folder's
// files skip-worktree: a sparse checkout that leaves them out.
func SparseExcludesMemory(l memdir.Layout) bool {
	ix, _, err := readIndex(l.GitDir)
	if err != nil {
		return false
	}
	lo, hi := ix.Range(memRel)
	for k := lo; k < hi; k++ {
		if ix.Entries[k].SkipWorktree() {
			return true
		}
	}
	return false
}

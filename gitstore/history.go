package gitstore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/layers/memdir"
)

// LogEntry is one commit that changed the memory folder.
type LogEntry struct {
	Hash    string    `json:"hash"`
	Time    time.Time `json:"time"`
	Author  string    `json:"author"`
	Subject string    `json:"subject"` // per-layer summary computed from the trees
	Message string    `json:"message"` // the commit's own subject line
	// Sessions are the Memkeep-Session trailers of the commit.
	Sessions []string `json:"sessions,omitempty"`
}

// maxLogWalk bounds how far back Log looks for memory commits in a long
// history where memory changed rarely.
const maxLogWalk = 20000

// Log lists up to n commits that changed the memory folder, newest first,
// following first parents from HEAD (so a merge of two memory branches is
// one entry, summarised against the branch it landed on).
func Log(l memdir.Layout, n int) ([]LogEntry, error) {
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	head, err := r.ReadHead()
	if err != nil || head.Hash.IsZero() {
		return nil, err
	}
	var out []LogEntry
	shallow := shallowCommits(l)
	h := head.Hash
	for walked := 0; !h.IsZero() && len(out) < n && walked < maxLogWalk; walked++ {
		c, err := r.Commit(h)
		if err != nil {
			return out, err
		}
		mem, err := r.SubtreeAt(c.TreeHash, memRel)
		if err != nil {
			return out, err
		}
		var parent, pmem plumbing.Hash
		// A shallow clone's boundary commit has no parents here, as in git log.
		if len(c.ParentHashes) > 0 && !shallow[h] {
			parent = c.ParentHashes[0]
			pc, err := r.Commit(parent)
			if err != nil {
				return out, err
			}
			if pmem, err = r.SubtreeAt(pc.TreeHash, memRel); err != nil {
				return out, err
			}
		}
		if mem != pmem {
			rv, err := reviewTrees(r, pmem, mem, blobReader(r, nil))
			if err != nil {
				return out, err
			}
			out = append(out, LogEntry{
				Hash:     c.Hash.String(),
				Time:     c.Committer.When,
				Author:   c.Author.Name,
				Subject:  rv.Subject(),
				Message:  strings.SplitN(c.Message, "\n", 2)[0],
				Sessions: trailerValues(c.Message, "Memkeep-Session"),
			})
		}
		h = parent
	}
	return out, nil
}

// shallowCommits are the boundary commits of a shallow clone, whose
// parents the repository does not have.
func shallowCommits(l memdir.Layout) map[plumbing.Hash]bool {
	b, err := os.ReadFile(filepath.Join(l.CommonDir, "shallow"))
	if err != nil {
		return nil
	}
	out := map[plumbing.Hash]bool{}
	for _, line := range strings.Fields(string(b)) {
		if len(line) == 40 {
			out[plumbing.NewHash(line)] = true
		}
	}
	return out
}

func trailerValues(msg, key string) []string {
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// ParseRange splits "A..B" (either side may be empty: "A.." means A..HEAD).
// A single revision R means R's parent..R. "A...B", as git reads it for a
// pull request, reviews B against its merge base with A: what the branch
// changed, not what A gained since; from is then "A..." (see Diff).
func ParseRange(s string) (from, to string) {
	if a, b, ok := strings.Cut(s, "..."); ok {
		if a == "" {
			a = "HEAD"
		}
		if b == "" {
			b = "HEAD"
		}
		return a + mergeBaseMark, b
	}
	if a, b, ok := strings.Cut(s, ".."); ok {
		if b == "" {
			b = "HEAD"
		}
		return a, b
	}
	if s == "" {
		return "", ""
	}
	return s + "~1", s
}

// mergeBaseMark ends a from revision that stands for its merge base with
// to ("main..." of "main...HEAD").
const mergeBaseMark = "..."

// Diff reviews the memory change from revision from to revision to
// (branch names, tags, HEAD~N, full or short hashes). Both empty: the last
// commit that changed memory against its parent. from empty: to's parent.
func Diff(l memdir.Layout, from, to string) (*Review, error) {
	if from == "" && to == "" {
		last, err := Log(l, 1)
		if err != nil {
			return nil, err
		}
		if len(last) == 0 {
			return &Review{}, nil
		}
		to = last[0].Hash
	}
	if to == "" {
		to = "HEAD"
	}
	if from == "" {
		from = to + "~1"
	}
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	resolve := func(rev string) (plumbing.Hash, plumbing.Hash, error) {
		h, err := r.ResolveCommit(rev)
		if err != nil {
			// the parent of a root commit: an empty memory
			if strings.HasSuffix(rev, "~1") {
				if _, err2 := r.ResolveCommit(strings.TrimSuffix(rev, "~1")); err2 == nil {
					return plumbing.ZeroHash, plumbing.ZeroHash, nil
				}
			}
			return plumbing.ZeroHash, plumbing.ZeroHash, err
		}
		c, err := r.Commit(h)
		if err != nil {
			return plumbing.ZeroHash, plumbing.ZeroHash, err
		}
		mem, err := r.SubtreeAt(c.TreeHash, memRel)
		return h, mem, err
	}
	th, tmem, err := resolve(to)
	if err != nil {
		return nil, err
	}
	if a, ok := strings.CutSuffix(from, mergeBaseMark); ok {
		ah, err := r.ResolveCommit(a)
		if err != nil {
			return nil, err
		}
		bases, err := r.MergeBase(ah, th)
		if err != nil {
			return nil, err
		}
		if len(bases) == 0 {
			return nil, fmt.Errorf("%s and %s have no common ancestor: name the range with two dots", a, to)
		}
		from = bases[0].String()
	}
	fh, fmem, err := resolve(from)
	if err != nil {
		return nil, err
	}
	rv, err := reviewTrees(r, fmem, tmem, blobReader(r, nil))
	if err != nil {
		return nil, err
	}
	if !fh.IsZero() {
		rv.From = fh.String()
	}
	rv.To = th.String()
	return rv, nil
}

// JSON renders the review for scripts (`memkeep diff --format json`).
func (rv *Review) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(rv, "", "  ")
	return append(b, '\n'), err
}

// Markdown renders the review so it can be pasted into a pull request.
func (rv *Review) Markdown() string {
	var b strings.Builder
	rng := abbrev(rv.To)
	if rv.From != "" {
		rng = abbrev(rv.From) + ".." + rng
	}
	fmt.Fprintf(&b, "## Memory changes `%s`\n\n%s\n", rng, rv.Subject())
	id := func(id string) string {
		if rv.Link == "" {
			return "`" + id + "`"
		}
		return "[`" + id + "`](" + rv.Link + "#" + id + ")"
	}
	section := func(title string, c Changes) {
		if c.empty() {
			return
		}
		fmt.Fprintf(&b, "\n### %s\n\n", title)
		for _, x := range []struct {
			verb  string
			items []Item
		}{{"Added", c.Added}, {"Changed", c.Changed}, {"Removed", c.Removed}} {
			for _, it := range x.items {
				fmt.Fprintf(&b, "- **%s** %s (%s)\n", x.verb, mdEscape(it.Title), id(it.ID))
			}
		}
	}
	section("Rules", rv.Rules)
	section("Solutions", rv.Solutions)
	section("Core logic", rv.CoreLogic)
	section("Concepts", rv.Concepts)
	list := func(title string, items []Item) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n### %s (%d)\n\n", title, len(items))
		for _, it := range items {
			fmt.Fprintf(&b, "- %s (%s)\n", mdEscape(it.Title), id(it.ID))
		}
	}
	list("Exchanges added", rv.Exchanges)
	list("Facts added", rv.Facts)
	if len(rv.Sessions) > 0 {
		fmt.Fprintf(&b, "\n### Sessions added (%d)\n\n", len(rv.Sessions))
		for _, s := range rv.Sessions {
			fmt.Fprintf(&b, "- `%s`\n", s)
		}
	}
	if rv.Events > 0 {
		fmt.Fprintf(&b, "\n%d stream event(s) added.\n", rv.Events)
	}
	if len(rv.Files) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d file(s) changed</summary>\n\n", len(rv.Files))
		for _, f := range rv.Files {
			fmt.Fprintf(&b, "- %s `%s`\n", f.Status, f.Path)
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

func abbrev(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(empty)"
	}
	return h
}

func mdEscape(s string) string {
	return strings.NewReplacer("\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "'").Replace(s)
}

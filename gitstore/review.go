package gitstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
)

// Item is one memory record in a review: its id and a one-line title (the
// concept name, the rule text, the exchange summary…).
type Item struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Changes lists the records of one kind added, changed and removed.
type Changes struct {
	Added   []Item `json:"added,omitempty"`
	Changed []Item `json:"changed,omitempty"`
	Removed []Item `json:"removed,omitempty"`
}

func (c Changes) empty() bool { return len(c.Added)+len(c.Changed)+len(c.Removed) == 0 }

// FileChange is one memory file that differs.
type FileChange struct {
	Path   string `json:"path"`   // repo-relative
	Status string `json:"status"` // added, modified, deleted
}

// Review is the change of the memory between two trees, by layer: what a
// reviewer reads in a pull request instead of raw JSON diffs.
type Review struct {
	From string `json:"from,omitempty"` // commit ids (empty: no commit)
	To   string `json:"to,omitempty"`
	// Link, when set, is the address of the published HTML view
	// (memkeep render --html): each id in the Markdown links to its item.
	Link string `json:"-"`

	Rules     Changes `json:"rules"`
	Solutions Changes `json:"solutions"`
	CoreLogic Changes `json:"core_logic"`
	Concepts  Changes `json:"concepts"`
	// Exchanges and Facts are L2 records added by the sessions.
	Exchanges []Item `json:"exchanges_added,omitempty"`
	Facts     []Item `json:"facts_added,omitempty"`
	// Sessions are the session file stems (<date>_<HHMM>_<sid8>) added.
	Sessions []string `json:"sessions_added,omitempty"`
	// Events counts stream events added.
	Events int          `json:"events_added"`
	Files  []FileChange `json:"files"`
}

func (rv *Review) paths() []string {
	var out []string
	for _, f := range rv.Files {
		out = append(out, f.Path)
	}
	return out
}

// subjectWidth is the length a commit subject is kept within (git's
// one-line log, a pull request's list of commits).
const subjectWidth = 72

// Subject says what changed in words a reviewer reads, the most telling
// first, within subjectWidth: `memory: rule "Always run make lint", 2
// exchanges on inventory-stock`. The counts of every layer are in Counts.
func (rv *Review) Subject() string {
	// Each part has a long form and a shorter one for a crowded line.
	var parts [][2]string
	add := func(long, short string) { parts = append(parts, [2]string{long, short}) }
	named := func(c Changes, kind, kinds string) {
		n := len(c.Added) + len(c.Changed) + len(c.Removed)
		counted := fmt.Sprintf("%d %s", n, plural(n, kind, kinds))
		switch {
		case n == 0:
		case len(c.Added) == 1 && n == 1:
			add(fmt.Sprintf("%s %q", kind, short(c.Added[0].Title, 36)), counted)
		case len(c.Changed) == 1 && n == 1:
			add(fmt.Sprintf("%s %q updated", kind, short(c.Changed[0].Title, 36)), counted+" updated")
		case len(c.Removed) == 1 && n == 1:
			add(fmt.Sprintf("%s %q forgotten", kind, short(c.Removed[0].Title, 36)), counted+" forgotten")
		default:
			var bits []string
			if k := len(c.Added); k > 0 {
				bits = append(bits, fmt.Sprintf("%d new", k))
			}
			if k := len(c.Changed); k > 0 {
				bits = append(bits, fmt.Sprintf("%d updated", k))
			}
			if k := len(c.Removed); k > 0 {
				bits = append(bits, fmt.Sprintf("%d forgotten", k))
			}
			add(kinds+" "+strings.Join(bits, ", "), counted)
		}
	}
	named(rv.Rules, "rule", "rules")
	named(rv.Solutions, "solution", "solutions")
	named(rv.CoreLogic, "core logic", "core logic")
	// The exchanges are told by the concepts they went to.
	var topics []string
	for _, it := range append(append([]Item(nil), rv.Concepts.Added...), rv.Concepts.Changed...) {
		if len(topics) < 2 {
			topics = append(topics, short(it.Title, 30))
		}
	}
	n := len(rv.Exchanges)
	counted := fmt.Sprintf("%d %s", n, plural(n, "exchange", "exchanges"))
	switch {
	case n == 1 && len(topics) == 0:
		add(fmt.Sprintf("exchange %q", short(rv.Exchanges[0].Title, 50)), counted)
	case n > 0 && len(topics) > 0:
		add(counted+" on "+strings.Join(topics, ", "), counted)
	case n > 0:
		add(counted, counted)
	case len(topics) > 0:
		add("concept "+strings.Join(topics, ", ")+" updated", "concepts updated")
	}
	if n := len(rv.Concepts.Removed); n > 0 {
		c := fmt.Sprintf("%d %s forgotten", n, plural(n, "concept", "concepts"))
		add(c, c)
	}
	if n := len(rv.Facts); n > 0 {
		c := fmt.Sprintf("%d %s", n, plural(n, "fact", "facts"))
		add(c, c)
	}
	if len(parts) == 0 && len(rv.Sessions) > 0 {
		c := fmt.Sprintf("%d %s", len(rv.Sessions), plural(len(rv.Sessions), "session", "sessions"))
		add(c, c)
	}
	if len(parts) == 0 && rv.Events > 0 {
		c := fmt.Sprintf("%d %s", rv.Events, plural(rv.Events, "event", "events"))
		add(c, c)
	}
	if len(parts) == 0 {
		return "memory: " + rv.fileNames()
	}
	subject := "memory: " + parts[0][0]
	for _, p := range parts[1:] {
		switch {
		case len(subject)+2+len(p[0]) <= subjectWidth:
			subject += ", " + p[0]
		case len(subject)+2+len(p[1]) <= subjectWidth:
			subject += ", " + p[1]
		}
	}
	return subject
}

// Counts is the per-layer count of the change, for the commit's body:
// `+3 exchanges, +1 session, concept "auth" updated, +1 rule, +12 events`.
func (rv *Review) Counts() string {
	var parts []string
	count := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "+1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("+%d %s", n, many))
		}
	}
	count(len(rv.Exchanges), "exchange", "exchanges")
	count(len(rv.Sessions), "session", "sessions")
	count(len(rv.Facts), "fact", "facts")
	kind := func(c Changes, one, many string, name bool) {
		if name && len(c.Added)+len(c.Changed)+len(c.Removed) <= 2 {
			for _, it := range c.Added {
				parts = append(parts, fmt.Sprintf("%s %q added", one, short(it.Title, 30)))
			}
			for _, it := range c.Changed {
				parts = append(parts, fmt.Sprintf("%s %q updated", one, short(it.Title, 30)))
			}
			for _, it := range c.Removed {
				parts = append(parts, fmt.Sprintf("%s %q removed", one, short(it.Title, 30)))
			}
			return
		}
		if n := len(c.Added); n > 0 {
			parts = append(parts, fmt.Sprintf("+%d %s", n, plural(n, one, many)))
		}
		if n := len(c.Changed); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s updated", n, plural(n, one, many)))
		}
		if n := len(c.Removed); n > 0 {
			parts = append(parts, fmt.Sprintf("-%d %s", n, plural(n, one, many)))
		}
	}
	kind(rv.Concepts, "concept", "concepts", true)
	kind(rv.Rules, "rule", "rules", false)
	kind(rv.Solutions, "solution", "solutions", false)
	kind(rv.CoreLogic, "core logic", "core logic", false)
	count(rv.Events, "event", "events")
	if len(parts) == 0 {
		return rv.fileNames()
	}
	return strings.Join(parts, ", ")
}

// fileNames names the files changed, for a change no layer counts.
func (rv *Review) fileNames() string {
	var names []string
	for _, f := range rv.Files {
		names = append(names, path.Base(f.Path))
	}
	if len(names) == 0 {
		return "no change"
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
	}
	return "update " + strings.Join(names, ", ")
}

// eventsOnly reports whether the change adds stream events and nothing
// else: no reason for a commit of its own.
func (rv *Review) eventsOnly() bool {
	if rv.Events == 0 {
		return false
	}
	for _, f := range rv.Files {
		if !strings.HasPrefix(f.Path, memRel+"/stream/") {
			return false
		}
	}
	return true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

type blobFunc func(h plumbing.Hash) ([]byte, error)

// blobReader reads blobs from the repository, preferring content the caller
// already holds in memory.
func blobReader(r *repo.Repo, fresh map[plumbing.Hash][]byte) blobFunc {
	return func(h plumbing.Hash) ([]byte, error) {
		if b, ok := fresh[h]; ok {
			return b, nil
		}
		return r.Blob(h)
	}
}

type fileDiff struct {
	rel      string // relative to the memory folder
	old, new plumbing.Hash
}

// diffTrees lists the files that differ between two trees, skipping equal
// subtrees without reading them.
func diffTrees(r *repo.Repo, a, b plumbing.Hash, prefix string, out *[]fileDiff) error {
	if a == b {
		return nil
	}
	ea, err := r.Tree(a)
	if err != nil {
		return err
	}
	eb, err := r.Tree(b)
	if err != nil {
		return err
	}
	type side struct {
		h   plumbing.Hash
		dir bool
	}
	m := map[string][2]side{}
	for _, e := range ea {
		v := m[e.Name]
		v[0] = side{e.Hash, e.Mode == filemode.Dir}
		m[e.Name] = v
	}
	for _, e := range eb {
		v := m[e.Name]
		v[1] = side{e.Hash, e.Mode == filemode.Dir}
		m[e.Name] = v
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := m[n]
		p := path.Join(prefix, n)
		if v[0].h == v[1].h && v[0].dir == v[1].dir {
			continue
		}
		var da, db, fa, fb plumbing.Hash
		if v[0].dir {
			da = v[0].h
		} else {
			fa = v[0].h
		}
		if v[1].dir {
			db = v[1].h
		} else {
			fb = v[1].h
		}
		if !da.IsZero() || !db.IsZero() {
			if err := diffTrees(r, da, db, p, out); err != nil {
				return err
			}
		}
		if fa != fb {
			*out = append(*out, fileDiff{p, fa, fb})
		}
	}
	return nil
}

// reviewTrees computes the review of the memory folder going from tree a
// to tree b (zero hashes are empty).
func reviewTrees(r *repo.Repo, a, b plumbing.Hash, blob blobFunc) (*Review, error) {
	var diffs []fileDiff
	if err := diffTrees(r, a, b, "", &diffs); err != nil {
		return nil, err
	}
	rv := &Review{}
	sessions := map[string]bool{}
	for _, d := range diffs {
		st := "modified"
		if d.old.IsZero() {
			st = "added"
		} else if d.new.IsZero() {
			st = "deleted"
		}
		rv.Files = append(rv.Files, FileChange{Path: memRel + "/" + d.rel, Status: st})
		read := func(h plumbing.Hash) []byte {
			if h.IsZero() {
				return nil
			}
			data, err := blob(h)
			if err != nil {
				return nil
			}
			return data
		}
		base := path.Base(d.rel)
		switch {
		case d.rel == "facts.json":
			o, n := recordsOf(read(d.old)), recordsOf(read(d.new))
			rv.Rules = compareRecords(o["rules"], n["rules"])
			rv.Solutions = compareRecords(o["solutions"], n["solutions"])
			rv.CoreLogic = compareRecords(o["core_logic"], n["core_logic"])
		case d.rel == "concepts.json":
			rv.Concepts = compareRecords(recordsOf(read(d.old))["concepts"], recordsOf(read(d.new))["concepts"])
		case strings.HasPrefix(d.rel, "sessions/") && strings.HasSuffix(base, ".l2.json"):
			x, f := addedL2(read(d.old), read(d.new))
			rv.Exchanges = append(rv.Exchanges, x...)
			rv.Facts = append(rv.Facts, f...)
			if st == "added" {
				sessions[strings.TrimSuffix(base, ".l2.json")] = true
			}
		case strings.HasPrefix(d.rel, "sessions/") && strings.HasSuffix(base, ".l1.jsonl"):
			if st == "added" {
				sessions[strings.TrimSuffix(base, ".l1.jsonl")] = true
			}
		case strings.HasPrefix(d.rel, "stream/") && strings.HasSuffix(base, ".jsonl"):
			rv.Events += newLineIDs(read(d.old), read(d.new))
		}
	}
	for s := range sessions {
		rv.Sessions = append(rv.Sessions, s)
	}
	sort.Strings(rv.Sessions)
	return rv, nil
}

// record is one JSON object with an id, kept as its canonical encoding.
type record struct {
	title string
	enc   string
}

// recordsOf finds, generically, every top-level list of objects with an
// "id" in a JSON document (docs/format.md: mergeable records have ids).
func recordsOf(data []byte) map[string]map[string]record {
	out := map[string]map[string]record{}
	if len(data) == 0 {
		return out
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return out
	}
	for key, raw := range doc {
		var list []map[string]any
		if json.Unmarshal(raw, &list) != nil {
			continue
		}
		m := map[string]record{}
		for _, rec := range list {
			id, _ := rec["id"].(string)
			if id == "" {
				continue
			}
			enc, _ := json.Marshal(rec) // map keys sort: a canonical form
			m[id] = record{title: titleOf(rec, id), enc: string(enc)}
		}
		if len(m) > 0 {
			out[key] = m
		}
	}
	return out
}

// l2Records are the ids and title fields of an L2 file's records.
type l2Records struct {
	Exchanges, Facts []struct{ ID, Name, Text, Problem, Summary string }
}

// addedL2 are the exchanges and facts of L2 file b that a lacks, as
// compareRecords(…).Added gives them. A review of an L2 file lists only
// what was added, so its records are read for their ids and titles alone,
// not encoded whole to compare: a Stop commits every turn, and the
// session's L2 file grows with the session.
func addedL2(a, b []byte) (exchanges, facts []Item) {
	var old, cur l2Records
	if json.Unmarshal(a, &old) != nil {
		old = l2Records{} // unreadable: everything in b is new
	}
	if len(b) == 0 || json.Unmarshal(b, &cur) != nil {
		return nil, nil
	}
	added := func(was, now []struct{ ID, Name, Text, Problem, Summary string }) []Item {
		had := make(map[string]bool, len(was))
		for _, r := range was {
			had[r.ID] = true
		}
		var out []Item
		for _, r := range now {
			if r.ID == "" || had[r.ID] {
				continue
			}
			had[r.ID] = true
			out = append(out, Item{r.ID, titleOf(map[string]any{"name": r.Name, "text": r.Text, "problem": r.Problem, "summary": r.Summary}, r.ID)})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
		return out
	}
	return added(old.Exchanges, cur.Exchanges), added(old.Facts, cur.Facts)
}

func titleOf(rec map[string]any, id string) string {
	for _, k := range []string{"name", "text", "problem", "summary"} {
		if s, ok := rec[k].(string); ok && strings.TrimSpace(s) != "" {
			return short(s, 100)
		}
	}
	return id
}

func compareRecords(a, b map[string]record) Changes {
	var c Changes
	for id, rb := range b {
		ra, ok := a[id]
		switch {
		case !ok:
			c.Added = append(c.Added, Item{id, rb.title})
		case ra.enc != rb.enc:
			c.Changed = append(c.Changed, Item{id, rb.title})
		}
	}
	for id, ra := range a {
		if _, ok := b[id]; !ok {
			c.Removed = append(c.Removed, Item{id, ra.title})
		}
	}
	for _, l := range [][]Item{c.Added, c.Changed, c.Removed} {
		sort.Slice(l, func(i, j int) bool { return l[i].ID < l[j].ID })
	}
	return c
}

// newLineIDs counts JSONL records in b whose id (or, without one, whose
// line) is not in a.
func newLineIDs(a, b []byte) int {
	key := func(line []byte) string {
		var v struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(line, &v) == nil && v.ID != "" {
			return v.ID
		}
		return string(line)
	}
	seen := map[string]bool{}
	for _, line := range bytes.Split(a, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			seen[key(line)] = true
		}
	}
	n := 0
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && !seen[key(line)] {
			seen[key(line)] = true
			n++
		}
	}
	return n
}

// Package l3 is the third memory layer: concepts, the features and topics
// of the project, each grouping the L2 exchanges about it, kept in
// concepts.json. The agent assigns each exchange to a concept or names a
// new one (LiSA); memkeep proposes the assignment by the similarity of
// files and keywords and refuses a new name close to an existing one, so
// concepts never duplicate.
package l3

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
)

// SchemaVersion is the version of concepts.json.
const SchemaVersion = 1

// Concept is one feature or topic.
type Concept struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Summary   string   `json:"summary"`
	Exchanges []string `json:"exchanges"`
	Files     []string `json:"files"`
	Keywords  []string `json:"keywords"`
	Updated   string   `json:"updated"`
}

// File is concepts.json.
type File struct {
	SchemaVersion int       `json:"schema_version"`
	Concepts      []Concept `json:"concepts"`
	// Common, when set, are the words too common in the project's
	// exchanges to name a concept by (the project's own name, a folder
	// every change touches): see CommonWords.
	Common map[string]bool `json:"-"`
}

// Load reads concepts.json; a missing file is an empty one.
func Load(path string) (*File, error) {
	f := &File{SchemaVersion: SchemaVersion}
	if err := l2.LoadJSON(path, f, "restore it with git; memkeep consolidate --deep rebuilds concepts from L2"); err != nil {
		return nil, err
	}
	return f, nil
}

// Encode serialises the file byte-stably: concepts by id, lists sorted.
func (f *File) Encode() []byte {
	f.SchemaVersion = SchemaVersion
	if f.Concepts == nil {
		f.Concepts = []Concept{}
	}
	for i := range f.Concepts {
		c := &f.Concepts[i]
		c.Exchanges = set(c.Exchanges)
		c.Files = set(c.Files)
		c.Keywords = set(c.Keywords)
	}
	slices.SortFunc(f.Concepts, func(a, b Concept) int { return strings.Compare(a.ID, b.ID) })
	return l2.EncodeJSON(f)
}

// Save writes the file atomically.
func (f *File) Save(path string) error { return atomicfile.WriteFile(path, f.Encode(), 0o644) }

// Get returns the concept with id, or nil.
func (f *File) Get(id string) *Concept {
	for i := range f.Concepts {
		if f.Concepts[i].ID == id {
			return &f.Concepts[i]
		}
	}
	return nil
}

// ConceptID derives a concept's id from its normalised name alone: two
// clones that both name a concept "auth" mint the same id, and the merge
// joins them instead of keeping two.
func ConceptID(name string) string {
	h := sha256.Sum256([]byte(normName(name)))
	return "c-" + hex.EncodeToString(h[:4])
}

func normName(name string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}), "-")
}

// DuplicateError refuses a new concept whose name is close to an existing
// one.
type DuplicateError struct {
	Name     string
	Existing Concept
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("concept name %q is too close to the existing concept %q (%s): assign to it with --concept %s, or choose a clearly different name", e.Name, e.Existing.Name, e.Existing.ID, e.Existing.ID)
}

// NameThreshold is the name similarity at which a new concept is refused.
const NameThreshold = 0.5

// Create adds a concept named name, or refuses it with a *DuplicateError
// when an existing concept's name is close: the same words, their stems,
// abbreviations ("auth" for "authentication") or a typo away.
func (f *File) Create(name string) (*Concept, error) {
	n := normName(name)
	if n == "" {
		return nil, fmt.Errorf("concept name %q has no letters or digits: name the feature or topic, like \"session-sync\"", name)
	}
	for _, c := range f.Concepts {
		if NameSimilarity(n, c.Name) >= NameThreshold {
			return nil, &DuplicateError{Name: name, Existing: c}
		}
	}
	f.Concepts = append(f.Concepts, Concept{ID: ConceptID(n), Name: n})
	return &f.Concepts[len(f.Concepts)-1], nil
}

// NameSimilarity compares two concept names, 0–1.
func NameSimilarity(a, b string) float64 {
	a, b = normName(a), normName(b)
	if a == b {
		return 1
	}
	if len(a) >= 5 && len(b) >= 5 && levenshtein(a, b) <= 1 {
		return 0.9
	}
	return terms.Jaccard(terms.NewSet(terms.Words(a)), terms.NewSet(terms.Words(b)))
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Proposal is memkeep's suggestion for an exchange's concept.
type Proposal struct {
	ConceptID string  // empty when a new concept is proposed
	Name      string  // the existing concept's name, or the proposed new name
	Score     float64 // similarity to the existing concept
}

// New reports whether the proposal is a new concept.
func (p Proposal) New() bool { return p.ConceptID == "" }

// ProposeThreshold is the similarity above which an existing concept is
// proposed rather than a new one; AutoAssignThreshold the one above which
// consolidation assigns without asking.
const (
	ProposeThreshold    = 0.3
	AutoAssignThreshold = 0.55
)

// Propose suggests a concept for an exchange: the most similar existing
// concept by files and keywords, or a new name from the exchange's own
// words when none is similar enough. It scores against the union of each
// concept's members' files and words; ProposeAmong, where the members
// are loaded, against the members themselves.
func (f *File) Propose(e *l2.Exchange) Proposal { return f.ProposeAmong(e, nil) }

// settle gives the best concept found when it is similar enough, its
// score rounded, and otherwise a new concept named by e's own words.
func (f *File) settle(best Proposal, e *l2.Exchange) Proposal {
	if best.Score >= ProposeThreshold {
		best.Score = float64(int(best.Score*100+0.5)) / 100
		return best
	}
	return Proposal{Name: SuggestName(e, f.Common)}
}

// Members gives proposals the concepts' members: the exchanges by id.
type Members struct {
	byID map[string]*l2.Exchange
}

// NewMembers indexes the exchanges for ProposeAmong.
func NewMembers(byID map[string]*l2.Exchange) *Members { return &Members{byID: byID} }

// member is the exchange id; nil when it or the members are unknown.
func (m *Members) member(id string) *l2.Exchange {
	if m == nil {
		return nil
	}
	return m.byID[id]
}

// ProposeAmong is Propose when the concepts' members are known (m; nil
// when they are not): an exchange is scored against each concept as the
// mean of its similarity to the concept's members (average link), not
// against the union of the members' files and words. A concept that has
// taken in many different pieces of work then draws no more than one of
// them would: the union grows with every member, and every feature that
// touched a config file joined the first concept that had.
func (f *File) ProposeAmong(e *l2.Exchange, m *Members) Proposal {
	p := newProbe(e)
	best := Proposal{}
	for _, c := range f.Concepts {
		// The union of the members' files and words is at least as like
		// e as most members are: a concept far from e by it is passed
		// over without comparing its members, which keeps a memory of
		// hundreds of concepts cheap.
		s := p.against(&c)
		if s < ProposeThreshold || s <= best.Score {
			continue
		}
		var sum float64
		n := 0
		// The newest members speak for the concept: a long-lived one
		// is compared with what it is now about, at a bounded cost.
		for _, id := range c.Exchanges[max(0, len(c.Exchanges)-maxLinkMembers):] {
			if x := m.member(id); x != nil && x.ID != e.ID {
				sum += p.against(&Concept{Files: x.Files, Keywords: x.Keywords})
				n++
			}
		}
		if n > 0 {
			s = sum / float64(n)
		}
		if s > best.Score {
			best = Proposal{ConceptID: c.ID, Name: c.Name, Score: s}
		}
	}
	return f.settle(best, e)
}

// maxLinkMembers bounds the members an exchange is compared with.
const maxLinkMembers = 50

// exchangeTerms are the words an exchange is compared by: its keywords,
// its summary's and its files' paths'.
func exchangeTerms(e *l2.Exchange) terms.Set {
	et := terms.NewSet(e.Keywords, terms.Words(e.Summary))
	for _, f := range e.Files {
		et = terms.NewSet(et.Sorted(), terms.PathWords(f))
	}
	return et
}

// Similarity scores an exchange against a concept: half the share of its
// files the concept already holds (or whose folder it holds), half the
// overlap of their words.
func Similarity(e *l2.Exchange, c *Concept) float64 { return newProbe(e).against(c) }

// probe is an exchange made ready to compare with many concepts: its
// files and its words, worked out once.
type probe struct {
	files []string
	terms terms.Set
}

func newProbe(e *l2.Exchange) probe {
	return probe{files: append(slices.Clone(e.Files), e.Read...), terms: exchangeTerms(e)}
}

// against is Similarity of the probe's exchange and c.
func (p probe) against(c *Concept) float64 {
	fileScore := 0.0
	if len(p.files) > 0 && len(c.Files) > 0 {
		dirs := map[string]bool{}
		for _, f := range c.Files {
			dirs[dir(f)] = true
		}
		var sum float64
		for _, f := range p.files {
			switch {
			case slices.Contains(c.Files, f):
				sum++
			case dirs[dir(f)]:
				sum += 0.5
			}
		}
		fileScore = sum / float64(len(p.files))
	}
	wordScore, _ := terms.Overlap(p.terms, terms.NewSet(c.Keywords, terms.Words(c.Name)))
	if len(p.files) == 0 || len(c.Files) == 0 {
		return wordScore * 0.8
	}
	return 0.5*fileScore + 0.5*wordScore
}

func dir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// nameWords calls fn with each word that could name a concept for e and
// its weight: the words of its files' paths (2 for the file and its
// folder, 1 for the folders above) and of its summary (1).
func nameWords(e *l2.Exchange, fn func(w string, weight int)) {
	for _, f := range e.Files {
		segs := strings.Split(strings.TrimSuffix(f, pathExt(f)), "/")
		for i, seg := range segs {
			// The file and its folder say what the work is about; the
			// folders above it ("lib/spotter") say where the project
			// keeps its code.
			weight := 1
			if i >= len(segs)-2 {
				weight = 2
			}
			for _, w := range strings.FieldsFunc(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
				if !genericName[strings.ToLower(w)] {
					fn(w, weight)
				}
			}
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(e.Summary), func(r rune) bool {
		return r == ' ' || r == '-' || r == '/' || r == '_' || r == '(' || r == ')'
	}) {
		if w = strings.Trim(w, ".,:;[]`'\"0123456789"); !genericName[w] {
			fn(w, 1)
		}
	}
}

// CommonWords are the name words (stemmed) found in more than a quarter
// of the exchanges, when there are enough of them to tell: in a project
// called spotter whose code lives in lib/spotter, "spotter" names nothing.
func CommonWords(exchanges []*l2.Exchange) map[string]bool {
	if len(exchanges) < 8 {
		return nil
	}
	df := map[string]int{}
	for _, e := range exchanges {
		seen := map[string]bool{}
		nameWords(e, func(w string, _ int) {
			if st := terms.Words(w); len(st) == 1 && !seen[st[0]] {
				seen[st[0]] = true
				df[st[0]]++
			}
		})
	}
	common := map[string]bool{}
	for w, n := range df {
		if n*4 > len(exchanges) {
			common[w] = true
		}
	}
	return common
}

// SuggestName names a new concept from the exchange's most frequent
// words that could name one (nameWords), leaving out the project's common
// words (CommonWords; nil: none): "session-registry".
func SuggestName(e *l2.Exchange, common map[string]bool) string {
	count := map[string]int{}
	raw := map[string]string{}
	note := func(w string, n int) {
		st := terms.Words(w)
		if len(st) != 1 || len(w) < 3 || common[st[0]] {
			return
		}
		count[st[0]] += n
		if r, ok := raw[st[0]]; !ok || len(w) < len(r) {
			raw[st[0]] = strings.ToLower(w)
		}
	}
	nameWords(e, note)
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range count {
		all = append(all, kv{k, n})
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.k, b.k)
	})
	var parts []string
	for _, x := range all {
		// A second word joins the name only when it is more than one
		// passing word of the summary ("cart", not "cart-gives").
		if len(parts) == 2 || len(parts) == 1 && x.n < 2 {
			break
		}
		parts = append(parts, raw[x.k])
	}
	if len(parts) == 0 {
		return "general"
	}
	return strings.Join(parts, "-")
}

// genericName are words that never name a concept: folders every project
// has, the documents every project keeps (plan.md, README.md, CLAUDE.md:
// a plan is about something, and that is the concept), and the verbs and
// adverbs of how work is told ("always", "decide", "before").
var genericName = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`lib src app apps internal pkg cmd test tests spec specs web www
		common main index mod init priv assets static public docs doc util utils helper helpers misc tmp
		always never before after again also just only still then now when while each every some any all
		add added adds fix fixed fixes make made makes run runs ran use used uses update updated change changed
		remove removed create created decide decided check checked write wrote read show get set move moved
		rename renamed implement implemented try tried start started need needs want wants count call called
		see work worked do does did done note noted say said keep kept let lets give gives gave wrong right
		new old good bad first last next more most other same
		feat chore refactor perf style ci build wip
		plan plans notes todo readme changelog license contributing claude agents`) {
		m[w] = true
	}
	return m
}()

func pathExt(p string) string {
	b := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[i:]
	}
	return ""
}

// Assign puts exchange e into concept id: the exchange records the
// concept, the concept lists the exchange. It returns an error naming the
// concepts when id does not exist. An exchange moves out of its previous
// concept.
func (f *File) Assign(e *l2.Exchange, id string) error {
	c := f.Get(id)
	if c == nil {
		var ids []string
		for _, x := range f.Concepts {
			ids = append(ids, x.ID+" ("+x.Name+")")
		}
		if len(ids) == 0 {
			return fmt.Errorf("no concept %s: there are no concepts yet; create one with --new NAME", id)
		}
		return fmt.Errorf("no concept %s; the concepts are: %s (or create one with --new NAME)", id, strings.Join(ids, ", "))
	}
	for i := range f.Concepts {
		o := &f.Concepts[i]
		if o.ID != id {
			o.Exchanges = slices.DeleteFunc(o.Exchanges, func(x string) bool { return x == e.ID })
		}
	}
	if !slices.Contains(c.Exchanges, e.ID) {
		c.Exchanges = append(c.Exchanges, e.ID)
	}
	// The concept takes the exchange's files and words at once, so the
	// next proposal sees them; Refresh trims them to the strongest later.
	c.Files = set(append(c.Files, e.Files...))
	c.Keywords = set(append(c.Keywords, e.Keywords...))
	if c.Summary == "" {
		c.Summary = e.Summary
	}
	c.Updated = max(c.Updated, e.Updated)
	e.Concept = id
	return nil
}

// Refresh keeps every concept current with its exchanges: members that no
// longer exist are dropped, and files, keywords, summary and updated are
// derived again from the members (the most frequent files and keywords,
// the summary of the most significant member, preferring what a person
// wrote). Concepts left without members are kept: a person named them.
func (f *File) Refresh(byID map[string]*l2.Exchange) {
	for i := range f.Concepts {
		c := &f.Concepts[i]
		c.Exchanges = slices.DeleteFunc(c.Exchanges, func(id string) bool { return byID[id] == nil })
		if len(c.Exchanges) == 0 {
			continue
		}
		files, kws := map[string]int{}, map[string]int{}
		var best *l2.Exchange
		updated := ""
		for _, id := range c.Exchanges {
			e := byID[id]
			for _, x := range e.Files {
				files[x]++
			}
			for _, k := range e.Keywords {
				kws[k]++
			}
			if best == nil || better(e, best) {
				best = e
			}
			updated = max(updated, e.Updated)
		}
		c.Files = top(files, 20)
		c.Keywords = top(kws, 12)
		c.Summary = summarise(c.Exchanges, byID)
		if c.Summary == "" {
			c.Summary = best.Summary
		}
		c.Updated = updated
	}
}

// maxSummary bounds a concept's summary: it is a line in memory.md and
// in the session-start context.
const maxSummary = 240

// summarise writes a concept's summary from its exchanges: the best few
// in order (the agents' own words first), each said once, an extracted
// record left out when the agent's record of the same exchange is there.
// Facts speak only for a concept without exchanges.
func summarise(ids []string, byID map[string]*l2.Exchange) string {
	var es []*l2.Exchange
	voiced := map[string]bool{}
	for _, id := range ids {
		if e := byID[id]; e.Source == l2.Conscious {
			for _, x := range e.Links {
				voiced[x] = true
			}
		}
	}
	for _, id := range ids {
		if e := byID[id]; !voiced[id] && !e.IsFact() {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		for _, id := range ids {
			es = append(es, byID[id])
		}
	}
	slices.SortFunc(es, func(a, b *l2.Exchange) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	var parts []string
	n := 0
	for _, e := range es {
		s := strings.TrimRight(strings.Join(strings.Fields(e.Summary), " "), ".")
		if s == "" || slices.ContainsFunc(parts, func(p string) bool { return strings.EqualFold(p, s) }) {
			continue
		}
		if n > 0 && n+2+len(s) > maxSummary {
			break
		}
		parts = append(parts, s)
		n += len(s) + 2
		if len(parts) == 3 {
			break
		}
	}
	return strings.Join(parts, "; ")
}

func better(a, b *l2.Exchange) bool {
	if (a.Source == l2.Conscious) != (b.Source == l2.Conscious) {
		return a.Source == l2.Conscious
	}
	if a.Significance != b.Significance {
		return a.Significance > b.Significance
	}
	return a.Updated > b.Updated
}

func top(m map[string]int, n int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(m[b]-m[a], strings.Compare(a, b))
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	slices.Sort(keys)
	return keys
}

// set is the sorted, duplicate-free form of a list (l2.SortedSet).
func set(l []string) []string { return l2.SortedSet(l) }

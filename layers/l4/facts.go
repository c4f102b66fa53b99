// Package l4 is permanent memory, facts.json: rules the user stated,
// solutions to problems that recurred, and the core logic of features
// changed again and again, each with a confidence, its contradictions and
// when it was last seen to hold. Reflect derives them from L2 and L3,
// promotes what was seen in three or more sessions, flags for review what
// was contradicted five or more times, drops expired L2 records and
// rebuilds the keyword index. People add rules and forget items by hand;
// forgetting is kept in the file's history.
package l4

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
)

// SchemaVersion is the version of facts.json.
const SchemaVersion = 1

// Rule sources.
const (
	SourceUser   = "user"   // stated in a prompt ("always …", "from now on …")
	SourceManual = "manual" // added with memkeep l4 add-rule
)

// Rule is a standing instruction.
type Rule struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Source string `json:"source"`
	// Sessions are the sessions (first 8 characters of their ids) in which
	// the rule was stated.
	Sessions []string `json:"sessions"`
	// Evidence and ContradictedBy are statement keys (<sid8>#<hash of the
	// statement>): reflecting again never counts a statement twice.
	Evidence       []string `json:"evidence"`
	ContradictedBy []string `json:"contradicted_by"`
	Confidence     float64  `json:"confidence"`
	Contradictions int      `json:"contradictions"`
	// Promoted is set once the rule was stated in PromoteSessions sessions
	// (or added by a person); until then it is a candidate.
	Promoted      bool   `json:"promoted"`
	Review        bool   `json:"review"`
	LastValidated string `json:"last_validated"`
	Updated       string `json:"updated"`
}

// Solution is a problem that recurred and the fix that worked.
type Solution struct {
	ID             string   `json:"id"`
	Problem        string   `json:"problem"`
	Solution       string   `json:"solution"`
	Attempts       []string `json:"attempts"`
	Files          []string `json:"files"`
	Sessions       []string `json:"sessions"`
	Evidence       []string `json:"evidence"`
	Confidence     float64  `json:"confidence"`
	Contradictions int      `json:"contradictions"`
	Review         bool     `json:"review"`
	LastValidated  string   `json:"last_validated"`
	Updated        string   `json:"updated"`
}

// CoreLogic is a central feature: a concept whose files were changed in
// many sessions.
type CoreLogic struct {
	ID             string   `json:"id"`
	Text           string   `json:"text"`
	Concept        string   `json:"concept"`
	Files          []string `json:"files"`
	Sessions       []string `json:"sessions"`
	Confidence     float64  `json:"confidence"`
	Contradictions int      `json:"contradictions"`
	Review         bool     `json:"review"`
	LastValidated  string   `json:"last_validated"`
	Updated        string   `json:"updated"`
}

// Forgotten records an item removed by a person, and why.
type Forgotten struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
	Time   string `json:"time"`
}

// Stats counts the memory.
type Stats struct {
	Exchanges int `json:"exchanges"`
	Concepts  int `json:"concepts"`
	Sessions  int `json:"sessions"`
}

// Facts is facts.json.
type Facts struct {
	SchemaVersion int         `json:"schema_version"`
	Rules         []Rule      `json:"rules"`
	Solutions     []Solution  `json:"solutions"`
	CoreLogic     []CoreLogic `json:"core_logic"`
	// Keywords maps a keyword to the concepts and exchanges that carry it.
	Keywords  map[string][]string `json:"keywords"`
	Stats     Stats               `json:"stats"`
	Forgotten []Forgotten         `json:"forgotten"`
}

// Load reads facts.json; a missing file is empty memory.
func Load(path string) (*Facts, error) {
	f := &Facts{SchemaVersion: SchemaVersion}
	if err := l2.LoadJSON(path, f, "restore it with git; memkeep l4 reflect derives it again from L2 and L3, but rules added by hand would be lost"); err != nil {
		return nil, err
	}
	return f, nil
}

// Encode serialises byte-stably: records by id, lists sorted, map keys
// sorted (encoding/json sorts them).
func (f *Facts) Encode() []byte {
	f.SchemaVersion = SchemaVersion
	if f.Rules == nil {
		f.Rules = []Rule{}
	}
	if f.Solutions == nil {
		f.Solutions = []Solution{}
	}
	if f.CoreLogic == nil {
		f.CoreLogic = []CoreLogic{}
	}
	if f.Keywords == nil {
		f.Keywords = map[string][]string{}
	}
	if f.Forgotten == nil {
		f.Forgotten = []Forgotten{}
	}
	for i := range f.Rules {
		r := &f.Rules[i]
		r.Sessions, r.Evidence, r.ContradictedBy = set(r.Sessions), set(r.Evidence), set(r.ContradictedBy)
	}
	for i := range f.Solutions {
		s := &f.Solutions[i]
		s.Attempts, s.Files, s.Sessions, s.Evidence = set(s.Attempts), set(s.Files), set(s.Sessions), set(s.Evidence)
	}
	for i := range f.CoreLogic {
		k := &f.CoreLogic[i]
		k.Files, k.Sessions = set(k.Files), set(k.Sessions)
	}
	for k, v := range f.Keywords {
		f.Keywords[k] = set(v)
	}
	slices.SortFunc(f.Rules, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(f.Solutions, func(a, b Solution) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(f.CoreLogic, func(a, b CoreLogic) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(f.Forgotten, func(a, b Forgotten) int { return strings.Compare(a.Time+a.ID, b.Time+b.ID) })
	return l2.EncodeJSON(f)
}

// Save writes facts.json atomically.
func (f *Facts) Save(path string) error { return atomicfile.WriteFile(path, f.Encode(), 0o644) }

// set is the sorted, duplicate-free form of a list (l2.SortedSet).
func set(l []string) []string { return l2.SortedSet(l) }

func hash8(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}

func normText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// sid8 is the short session identity rules and solutions record: the
// first 8 characters of the session id, which is also the end of the
// session's file stem.
func sid8(sessionOrBase string) string {
	s := sessionOrBase
	if i := strings.LastIndexByte(s, '_'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 8 {
		s = s[:8]
	}
	return s
}

// AddRule adds a rule a person states on purpose: promoted at once, with
// high confidence. Adding the same text again changes nothing.
func (f *Facts) AddRule(text string, now time.Time) (*Rule, bool, error) {
	text = strings.TrimSpace(text)
	if len(text) < 8 {
		return nil, false, fmt.Errorf("rule %q is too short: state it as an instruction, like \"Run gofmt before committing.\"", text)
	}
	id := "r-" + hash8(normText(text))
	for i := range f.Rules {
		if f.Rules[i].ID == id {
			return &f.Rules[i], false, nil
		}
	}
	ts := l2.Timestamp(now)
	f.Rules = append(f.Rules, Rule{ID: id, Text: text, Source: SourceManual, Confidence: 0.9, Promoted: true, LastValidated: ts, Updated: ts})
	return &f.Rules[len(f.Rules)-1], true, nil
}

// ErrNotFound is returned by Forget for an unknown id.
var ErrNotFound = errors.New("no such memory item")

// Forget removes a rule, solution or core-logic item and records it, with
// the reason, in the history (forgotten). Reflection does not bring a
// forgotten item back.
func (f *Facts) Forget(id, reason string, now time.Time) (Forgotten, error) {
	if strings.TrimSpace(reason) == "" {
		return Forgotten{}, fmt.Errorf("forgetting %s needs a reason (--reason \"the rule no longer applies since v2\"): the history keeps it", id)
	}
	fg := Forgotten{ID: id, Reason: strings.TrimSpace(reason), Time: l2.Timestamp(now)}
	found := false
	f.Rules = slices.DeleteFunc(f.Rules, func(r Rule) bool {
		if r.ID == id {
			fg.Text, found = r.Text, true
		}
		return r.ID == id
	})
	f.Solutions = slices.DeleteFunc(f.Solutions, func(s Solution) bool {
		if s.ID == id {
			fg.Text, found = s.Problem+" → "+s.Solution, true
		}
		return s.ID == id
	})
	f.CoreLogic = slices.DeleteFunc(f.CoreLogic, func(k CoreLogic) bool {
		if k.ID == id {
			fg.Text, found = k.Text, true
		}
		return k.ID == id
	})
	if !found {
		return fg, fmt.Errorf("%w: %s is not a rule (r-), solution (s-) or core logic (k-) id in facts.json", ErrNotFound, id)
	}
	f.Forgotten = append(f.Forgotten, fg)
	return fg, nil
}

// Record adds a forgotten entry for an item removed from another layer
// (an exchange or a concept).
func (f *Facts) Record(fg Forgotten) { f.Forgotten = append(f.Forgotten, fg) }

// IsForgotten reports whether a person forgot the item with id.
func (f *Facts) IsForgotten(id string) bool { return f.forgotten(id) }

func (f *Facts) forgotten(id string) bool {
	for _, x := range f.Forgotten {
		if x.ID == id {
			return true
		}
	}
	return false
}

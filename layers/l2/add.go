package l2

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2/terms"
)

// MaxFacts is the most facts kept per session (ProMem): a fact must earn
// its place, and the agent merges instead of piling up.
const MaxFacts = 10

// Input is a conscious record as `memkeep l2 add` takes it, on standard
// input as JSON or from flags.
type Input struct {
	// Kind is "exchange" (the default) or "fact".
	Kind         string   `json:"kind,omitempty"`
	Summary      string   `json:"summary"`
	Details      string   `json:"details,omitempty"`
	Files        []string `json:"files,omitempty"`
	Keywords     []string `json:"keywords,omitempty"`
	L1Range      [2]int   `json:"l1_range"`
	Significance *float64 `json:"significance,omitempty"`
	Type         string   `json:"type,omitempty"`
	Tags         []string `json:"tags,omitempty"`
	// File and Lines are required for a fact.
	File  string `json:"file,omitempty"`
	Lines string `json:"lines,omitempty"`

	// The record fields: the agent's record of an exchange, as the Stop
	// hook asks for it (see record.go).

	// Session is the session's id; `l2 add --session` may give it instead.
	Session string `json:"session,omitempty"`
	// Exchange is memkeep's own (subconscious) record of the same
	// exchange: the two are linked and marked convergent.
	Exchange string   `json:"exchange,omitempty"`
	Commands []string `json:"commands,omitempty"`
	// Why is the cause of a problem, or why the change was needed.
	Why string `json:"why,omitempty"`
	// Decision is a choice made in the exchange, with its reason.
	Decision string `json:"decision,omitempty"`
	// Learned are facts a later session needs; each becomes a verified
	// L2 fact (at most MaxFacts per session).
	Learned []string `json:"learned,omitempty"`
	// Concept is the L3 concept of the exchange: an existing concept's
	// id or name, or a new name.
	Concept string `json:"concept,omitempty"`
}

// ExampleInput is a valid record, shown with every validation error.
const ExampleInput = `{"summary": "Login failed on expired tokens; refresh them in middleware", ` +
	`"details": "The 401 came from auth/token.go; refreshing before the call fixed it.", ` +
	`"files": ["auth/token.go"], "keywords": ["auth", "token"], "l1_range": [12, 40], ` +
	`"type": "iteration", "significance": 0.7}`

// ExampleFact is a valid fact.
const ExampleFact = `{"kind": "fact", "summary": "Tokens are refreshed in the HTTP middleware", ` +
	`"file": "auth/token.go", "lines": "10-42", "l1_range": [12, 40]}`

// FieldError is one problem with one field of an Input.
type FieldError struct {
	Field   string
	Problem string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Problem }

// ValidationError lists every problem of a record and shows a valid one.
type ValidationError struct {
	Problems []FieldError
	Example  string
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid L2 record:")
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.Error())
	}
	b.WriteString("\nA valid record looks like:\n  " + e.Example)
	return b.String()
}

// Validate checks the record on its own, before it is compared with L1.
// With requireRange the record must name its L1 lines (l2 add); the
// remember/learn/decide commands tie records to their time instead.
func (in *Input) Validate(requireRange bool) error {
	probs := in.placeholderProblems()
	bad := func(field, format string, args ...any) {
		probs = append(probs, FieldError{field, fmt.Sprintf(format, args...)})
	}
	switch in.Kind {
	case "", "exchange", "fact":
	default:
		bad("kind", "%q is not one of exchange, fact", in.Kind)
	}
	if strings.TrimSpace(in.Summary) == "" {
		bad("summary", "is empty: say in one sentence what happened or what holds")
	} else if len(in.Summary) > 300 {
		bad("summary", "is %d characters long, more than 300: put the rest in details", len(in.Summary))
	}
	if in.Type != "" && !slices.Contains(Types, in.Type) {
		bad("type", "%q is not one of %s", in.Type, strings.Join(Types, ", "))
	}
	if in.Significance != nil && (*in.Significance < 0 || *in.Significance > 1) {
		bad("significance", "%v is outside 0–1", *in.Significance)
	}
	r := in.L1Range
	switch {
	case r == [2]int{} && requireRange:
		bad("l1_range", "is missing: give the first and last L1 line the record covers, as [first, last] (memkeep status shows the ranges still uncovered)")
	case r != [2]int{} && (r[0] < 1 || r[1] < r[0]):
		bad("l1_range", "[%d, %d] is not a range of 1-based lines with first <= last", r[0], r[1])
	}
	for i, f := range in.Files {
		if f == "" || strings.HasPrefix(f, "/") || strings.Contains(f, "\\") {
			bad(fmt.Sprintf("files[%d]", i), "%q is not a repo-relative path with forward slashes", f)
		}
	}
	if in.Kind == "fact" && (in.Exchange != "" || len(in.Learned) > 0) {
		bad("kind", "a fact cannot carry an exchange's record fields (exchange, learned)")
	}
	if in.Kind == "fact" {
		if in.File == "" {
			bad("file", "is required for a fact: the file where the fact holds")
		}
		if in.Lines != "" {
			if _, _, ok := parseLines(in.Lines); !ok {
				bad("lines", "%q is not a line range like \"10-42\"", in.Lines)
			}
		}
	} else if in.File != "" || in.Lines != "" {
		bad("file", "file and lines are for facts: set \"kind\": \"fact\" or list the file in files")
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: probs, Example: in.example()}
}

// example is the valid record shown with a problem of this one.
func (in *Input) example() string {
	switch {
	case in.Kind == "fact":
		return ExampleFact
	case in.Exchange != "" || in.Why != "" || len(in.Learned) > 0:
		return ExampleRecord
	}
	return ExampleInput
}

// Verify checks the record against the session's L1 (ProMem: a memory
// names only what really happened): its range is inside the L1 file, its
// files are files the session touched, and a fact's lines overlap lines
// the session read or changed. exists answers for files that L1 does not
// mention (a conscious note about a file on disk); nil means L1 only.
func (in *Input) Verify(recs []l1.Record, exists func(string) bool) error {
	var probs []FieldError
	if r := in.L1Range; r != [2]int{} && r[1] > len(recs) {
		probs = append(probs, FieldError{"l1_range", fmt.Sprintf("[%d, %d] ends after the session's L1, which has %d lines", r[0], r[1], len(recs))})
	}
	seen := touchedFiles(recs)
	known := func(f string) bool {
		if seen[f] {
			return true
		}
		for _, r := range recs {
			if r.Tool == "Bash" && strings.Contains(r.Cmd, f) {
				return true
			}
		}
		return exists != nil && exists(f)
	}
	for i, f := range in.Files {
		if !known(f) {
			probs = append(probs, FieldError{fmt.Sprintf("files[%d]", i), fmt.Sprintf("%q is not a file this session read or changed (%s)", f, sample(seen))})
		}
	}
	if in.Kind == "fact" && in.File != "" {
		if !seen[in.File] {
			probs = append(probs, FieldError{"file", fmt.Sprintf("%q is not a file this session read or changed (%s)", in.File, sample(seen))})
		} else if in.Lines != "" && !linesSeen(recs, in.File, in.Lines) {
			probs = append(probs, FieldError{"lines", fmt.Sprintf("%s of %s were not read or changed in this session (%s)", in.Lines, in.File, rangesOf(recs, in.File))})
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: probs, Example: in.example()}
}

// touchedFiles are the files the session's L1 read or changed.
func touchedFiles(recs []l1.Record) map[string]bool {
	seen := map[string]bool{}
	for _, r := range recs {
		if r.File != "" {
			seen[r.File] = true
		}
	}
	return seen
}

func sample(seen map[string]bool) string {
	var l []string
	for f := range seen {
		if projectFile(f) {
			l = append(l, f)
		}
	}
	slices.Sort(l)
	if len(l) == 0 {
		return "it touched no project file"
	}
	more := ""
	if len(l) > 6 {
		more = fmt.Sprintf(", … %d more", len(l)-6)
		l = l[:6]
	}
	return "it touched " + strings.Join(l, ", ") + more
}

func parseLines(s string) (a, b int, ok bool) {
	x, y, found := strings.Cut(s, "-")
	a, err := strconv.Atoi(strings.TrimSpace(x))
	if err != nil || a < 1 {
		return 0, 0, false
	}
	if !found {
		return a, a, true
	}
	if strings.TrimSpace(y) == "" {
		return a, 1 << 30, true // "128-": to the end
	}
	b, err = strconv.Atoi(strings.TrimSpace(y))
	if err != nil || b < a {
		return 0, 0, false
	}
	return a, b, true
}

// linesSeen reports whether lines of file overlap a range L1 recorded for
// it; a read of the whole file (no range) covers every line.
func linesSeen(recs []l1.Record, file, lines string) bool {
	a, b, _ := parseLines(lines)
	for _, r := range recs {
		if r.File != file {
			continue
		}
		if r.Lines == "" {
			return true
		}
		if x, y, ok := parseLines(r.Lines); ok && a <= y && x <= b {
			return true
		}
	}
	return false
}

func rangesOf(recs []l1.Record, file string) string {
	var l []string
	for _, r := range recs {
		if r.File == file && r.Lines != "" && !slices.Contains(l, r.Lines) {
			l = append(l, r.Lines)
		}
	}
	if len(l) == 0 {
		return "no line ranges recorded"
	}
	return "recorded: " + strings.Join(capList(l, 8), ", ")
}

// DefaultConsciousSignificance is the significance of a conscious record
// that does not give one: someone chose to say it, which is a strong
// signal in itself.
const DefaultConsciousSignificance = 0.7

// ErrTooManyFacts is returned when a session already has MaxFacts facts.
var ErrTooManyFacts = errors.New("too many facts")

// AddResult says what Add did.
type AddResult struct {
	ID     string
	Merged bool   // merged into an existing near-duplicate (ID is that record)
	Linked string // the subconscious exchange it converged with, if any
}

// Add stores a validated, verified conscious record in the file. A record
// nearly identical to an existing conscious one of the same kind is merged
// into it rather than added; a fact beyond MaxFacts is refused. Then the
// record is converged with the subconscious exchanges. now is the time of
// the record (injected so tests and replays are stable).
func (f *File) Add(in Input, now time.Time) (AddResult, error) {
	rec := Exchange{
		Summary:      strings.TrimSpace(in.Summary),
		Details:      strings.TrimSpace(in.Details),
		Files:        in.Files,
		Commands:     in.Commands,
		Keywords:     in.Keywords,
		L1Range:      in.L1Range,
		Source:       Conscious,
		Significance: DefaultConsciousSignificance,
		Type:         in.Type,
		Tags:         in.Tags,
		File:         in.File,
		Lines:        in.Lines,
		Created:      Timestamp(now),
		Updated:      Timestamp(now),
	}
	if in.Significance != nil {
		rec.Significance = *in.Significance
	}
	if rec.Type == "" {
		rec.Type = TypeInsight
	}
	if rule, ok := RuleStatement(rec.Summary); ok {
		rec.Rule = rule
	}
	if len(rec.Keywords) == 0 {
		rec.Keywords = terms.NewSet(terms.Words(rec.Summary)).Sorted()
		rec.Keywords = capList(rec.Keywords, maxKeywords)
	}
	list := &f.Exchanges
	prefix := "x"
	if in.Kind == "fact" {
		list, prefix = &f.Facts, "f"
		if rec.File != "" && !slices.Contains(rec.Files, rec.File) {
			rec.Files = append(rec.Files, rec.File)
		}
	}
	rec.ID = MakeID(prefix, f.Base(), "con:"+strings.ToLower(strings.Join(strings.Fields(rec.Summary), " ")))
	rec.Normalize()

	if i := nearDuplicate(*list, &rec); i >= 0 {
		old := &(*list)[i]
		mergeInto(old, &rec)
		res := AddResult{ID: old.ID, Merged: true}
		Converge(f)
		f.linkNamed(old.ID, in.Exchange)
		res.Linked = firstLink(f.Find(res.ID))
		return res, nil
	}
	if in.Kind == "fact" && len(f.Facts) >= MaxFacts {
		var ids []string
		for _, x := range f.Facts {
			ids = append(ids, x.ID)
		}
		return AddResult{}, fmt.Errorf("%w: this session already has %d facts, the most kept per session: fold this one into one of them (%s) or leave it out", ErrTooManyFacts, MaxFacts, strings.Join(ids, ", "))
	}
	*list = append(*list, rec)
	Converge(f)
	f.linkNamed(rec.ID, in.Exchange)
	return AddResult{ID: rec.ID, Linked: firstLink(f.Find(rec.ID))}, nil
}

// linkNamed links the conscious record id to the subconscious exchange
// the agent named as memkeep's record of the same exchange, unless
// convergence already did.
func (f *File) linkNamed(id, exchange string) {
	c, s := f.Find(id), f.Find(exchange)
	if c == nil || s == nil || s.Source != Subconscious || slices.Contains(c.Links, s.ID) {
		return
	}
	link(c, s)
}

func firstLink(e *Exchange) string {
	if e == nil || len(e.Links) == 0 {
		return ""
	}
	return e.Links[0]
}

// DuplicateThreshold is the similarity at which two conscious records are
// the same memory said twice.
const DuplicateThreshold = 0.6

// Similarity compares two records as peers: the words of their summaries
// (details vary in length and would dilute it) and the files they name.
func Similarity(a, b *Exchange) float64 {
	ta := terms.NewSet(terms.Words(a.Summary))
	tb := terms.NewSet(terms.Words(b.Summary))
	s := terms.Jaccard(ta, tb)
	for _, f := range a.Files {
		if slices.Contains(b.Files, f) {
			s += 0.2
			break
		}
	}
	if a.File != "" && a.File == b.File {
		s += 0.1
	}
	return s
}

func nearDuplicate(list []Exchange, rec *Exchange) int {
	best, bestScore := -1, 0.0
	for i := range list {
		if list[i].Source != Conscious {
			continue
		}
		if list[i].ID == rec.ID {
			return i
		}
		if s := Similarity(&list[i], rec); s >= DuplicateThreshold && s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// mergeInto folds rec into old: lists unioned, the longer details kept,
// the range widened, the higher significance kept.
func mergeInto(old, rec *Exchange) {
	before := string(EncodeJSON(old))
	old.Files = append(old.Files, rec.Files...)
	old.Keywords = append(old.Keywords, rec.Keywords...)
	old.Tags = append(old.Tags, rec.Tags...)
	if len(rec.Details) > len(old.Details) {
		old.Details = rec.Details
	}
	if rec.L1Range != [2]int{} {
		if old.L1Range == [2]int{} {
			old.L1Range = rec.L1Range
		} else {
			old.L1Range[0] = min(old.L1Range[0], rec.L1Range[0])
			old.L1Range[1] = max(old.L1Range[1], rec.L1Range[1])
		}
	}
	old.Significance = max(old.Significance, rec.Significance)
	if old.Rule == "" {
		old.Rule = rec.Rule
	}
	old.Normalize()
	if string(EncodeJSON(old)) != before {
		old.Updated = rec.Updated
	}
}

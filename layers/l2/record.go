package l2

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/layers/l1"
)

// The agent's record of an exchange is what the Stop hook asks for: an
// Input (see its record fields) that memkeep prefills with what it knows
// (session, its own record's id, L1 range, files, commands) and whose
// judgement fields the agent writes in its own words, in place of the <…>
// placeholders.

// Placeholders are the <…> texts the Stop hook's request leaves for the
// agent to write. A record that still holds one of them, or a field that
// is nothing but a <…>, is refused with the field named.
var Placeholders = struct {
	Summary, Why, Decision, Learned, Keywords string
}{
	Summary:  "<one line in your own words: what was done and its outcome>",
	Why:      "<the cause, or why it was needed>",
	Decision: "<a decision taken and its reason, or empty>",
	Learned:  "<a fact a later session needs, naming its file>",
	Keywords: "<words someone would search for, yours and others'>",
}

// conceptPlaceholder opens the concept's placeholder, which names
// memkeep's proposal.
const conceptPlaceholder = "<the concept: "

// ConceptPlaceholder is the concept's placeholder naming memkeep's
// proposal ("cart as memkeep proposes, or a better name").
func ConceptPlaceholder(proposal string) string { return conceptPlaceholder + proposal + ">" }

// IsPlaceholder reports whether s is, or still holds, a placeholder of the
// Stop hook's request.
func IsPlaceholder(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") {
		return true
	}
	for _, p := range []string{Placeholders.Summary, Placeholders.Why, Placeholders.Decision, Placeholders.Learned, Placeholders.Keywords, conceptPlaceholder} {
		if strings.Contains(s, strings.TrimSuffix(p, ">")) {
			return true
		}
	}
	return false
}

// placeholderProblems names every field of the record that still holds a
// placeholder.
func (in *Input) placeholderProblems() []FieldError {
	var probs []FieldError
	check := func(field, v string) {
		if IsPlaceholder(v) {
			probs = append(probs, FieldError{field, fmt.Sprintf("still holds the placeholder %q: write it yourself (\"\" when there is nothing to say)", strings.TrimSpace(v))})
		}
	}
	check("summary", in.Summary)
	check("details", in.Details)
	check("why", in.Why)
	check("decision", in.Decision)
	check("concept", in.Concept)
	for i, v := range in.Learned {
		check(fmt.Sprintf("learned[%d]", i), v)
	}
	for i, v := range in.Keywords {
		check(fmt.Sprintf("keywords[%d]", i), v)
	}
	for i, v := range in.Files {
		check(fmt.Sprintf("files[%d]", i), v)
	}
	return probs
}

// Record is the agent's record as the layers store it: the exchange in
// the agent's words, and the facts it learned.
type Record struct {
	Exchange Input
	Facts    []Input
}

// Split turns an agent's record into the conscious exchange and its
// facts. Each learned fact is tied to a file the session's L1 (recs) read
// or changed that it names (by path or by file name), else to the first
// such file of the exchange. A fact that names no such file and has no
// exchange file to fall back on is refused: a fact must say where it
// holds.
func (in Input) Split(recs []l1.Record) (Record, error) {
	touched := touchedFiles(recs)
	known := slices.Sorted(maps.Keys(touched))
	ex := in
	ex.Learned, ex.Why, ex.Decision = nil, "", ""
	var details []string
	if w := strings.TrimSpace(in.Why); w != "" {
		details = append(details, "Why: "+w)
	}
	if d := strings.TrimSpace(in.Decision); d != "" {
		details = append(details, "Decision: "+d)
		ex.Type = TypeDecision
	}
	if d := strings.TrimSpace(in.Details); d != "" {
		details = append(details, d)
	}
	ex.Details = strings.Join(details, "\n")
	rec := Record{Exchange: ex}
	var probs []FieldError
	for i, text := range in.Learned {
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		file := namedFile(text, known)
		if file == "" {
			for _, f := range in.Files {
				if touched[f] {
					file = f
					break
				}
			}
		}
		if file == "" {
			probs = append(probs, FieldError{fmt.Sprintf("learned[%d]", i), "names no file this session read or changed: say where the fact holds"})
			continue
		}
		rec.Facts = append(rec.Facts, Input{Kind: "fact", Summary: text, File: file, L1Range: in.L1Range, Keywords: in.Keywords})
	}
	if len(probs) > 0 {
		return rec, &ValidationError{Problems: probs, Example: ExampleRecord}
	}
	return rec, nil
}

// namedFile is the longest of the known files whose path, or whose name
// when it is distinctive, the text mentions.
func namedFile(text string, known []string) string {
	best := ""
	for _, f := range known {
		name := path.Base(f)
		if strings.Contains(text, f) || len(name) >= 6 && strings.Contains(name, ".") && strings.Contains(text, name) {
			if len(f) > len(best) {
				best = f
			}
		}
	}
	return best
}

// ExampleRecord is a valid agent's record.
const ExampleRecord = `{"session": "3f2a9c1e", "exchange": "x-1a2b3c4d", "l1_range": [12, 40], ` +
	`"files": ["auth/token.go"], "summary": "Fixed the 401s: tokens are refreshed in the middleware", ` +
	`"why": "Expired tokens were sent as they were", "decision": "", ` +
	`"learned": ["auth/token.go refreshes a token 30 s before it expires"], "keywords": ["auth", "token", "401"], "concept": "auth"}`

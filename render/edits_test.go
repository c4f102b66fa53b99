package render

import (
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

func editable() Memory {
	return Memory{
		Facts: &l4.Facts{Rules: []l4.Rule{
			{ID: "r-0000000a", Text: "Run gofmt before committing.", Source: l4.SourceManual, Confidence: 0.9, Promoted: true},
			{ID: "r-0000000b", Text: "Always use `make lint`.", Sessions: []string{"a"}, Confidence: 0.4, Contradictions: 2, Review: true},
		}},
		Concepts: &l3.File{Concepts: []l3.Concept{{ID: "c-0000000c", Name: "store", Summary: "SQLite store", Exchanges: []string{"x-0000000d"}}}},
		Sessions: []*l2.File{{L1: "2026-03-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{
			{ID: "x-0000000d", Summary: "Fix locked database", Type: "iteration", Significance: 0.75},
		}}},
	}
}

// TestReadEditsMapsRuleAndConceptEdits: a reworded rule (its note and id
// kept or not), a deleted rule and concept line and an added rule are
// read by id; anything else is named as unmapped, with its line.
func TestReadEditsMapsRuleAndConceptEdits(t *testing.T) {
	base := string(Markdown(editable()))
	edited := strings.Replace(base, "Run gofmt before committing.", "Run gofmt and go vet before committing.", 1)
	edited = strings.Replace(edited, "- Always use `make lint`. *(1 session, confidence 0.40, contradicted 2 times, **needs review**)* `r-0000000b`\n", "", 1)
	edited = strings.Replace(edited, "- **store** (1 exchange): SQLite store `c-0000000c`\n", "", 1)
	edited = strings.Replace(edited, "## Rules\n\n", "## Rules\n\n- Never edit files under generated/.\n", 1)
	if edited == base || strings.Contains(edited, "r-0000000b") || strings.Contains(edited, "c-0000000c") {
		t.Fatalf("the test's edits did not apply:\n%s", edited)
	}
	edits, unmapped := ReadEdits([]byte(edited), []byte(base))
	if len(unmapped) > 0 {
		t.Errorf("unmapped: %+v", unmapped)
	}
	want := map[string]Edit{
		"reword r-0000000a": {Kind: EditReword, ID: "r-0000000a", Text: "Run gofmt and go vet before committing."},
		"delete r-0000000b": {Kind: EditDelete, ID: "r-0000000b"},
		"delete c-0000000c": {Kind: EditDelete, ID: "c-0000000c"},
		"add ":              {Kind: EditAdd, Text: "Never edit files under generated/."},
	}
	if len(edits) != len(want) {
		t.Errorf("edits: %+v", edits)
	}
	for _, e := range edits {
		w, ok := want[e.Kind+" "+e.ID]
		if !ok || w.Text != e.Text {
			t.Errorf("unexpected edit %+v", e)
		}
		if e.Line == 0 {
			t.Errorf("edit without a line: %+v", e)
		}
	}
	if e, u := ReadEdits([]byte(base), []byte(base)); e != nil || u != nil {
		t.Errorf("no edit read as %+v %+v", e, u)
	}
}

// TestReadEditsNamesWhatItCannotMap: an edited session line, a new
// paragraph and a deleted heading are left to the reviewer, by line.
func TestReadEditsNamesWhatItCannotMap(t *testing.T) {
	base := string(Markdown(editable()))
	edited := strings.Replace(base, "Fix locked database", "Fix the locked database", 1)
	edited = strings.Replace(edited, "## Solutions\n", "## Solutions\n\nA note from the reviewer.\n", 1)
	edits, unmapped := ReadEdits([]byte(edited), []byte(base))
	if len(edits) != 0 {
		t.Errorf("edits: %+v", edits)
	}
	var texts []string
	for _, u := range unmapped {
		texts = append(texts, u.Text)
		if u.Line == 0 {
			t.Errorf("no line: %+v", u)
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Fix the locked database", "A note from the reviewer."} {
		if !strings.Contains(all, want) {
			t.Errorf("unmapped lacks %q: %q", want, texts)
		}
	}
}

// TestApplyEditsReadsBack: edits applied to a rendered memory.md by id
// (a rule reworded with its note and id kept, a rule and a concept line
// deleted, two rules added) are read back from the result as the same
// edits, and nothing else; an edit of an item the file does not show is
// returned unplaced.
func TestApplyEditsReadsBack(t *testing.T) {
	for _, name := range []string{"with promoted rules", "candidates only"} {
		m := editable()
		if name == "candidates only" {
			m.Facts.Rules = m.Facts.Rules[1:]
		}
		base := Markdown(m)
		edits := []Edit{
			{Kind: EditReword, ID: "r-0000000b", Text: "Always use `make lint` first."},
			{Kind: EditDelete, ID: "c-0000000c"},
			{Kind: EditAdd, Text: "Never edit files under generated/."},
			{Kind: EditAdd, Text: "Keep commits small."},
		}
		if name == "with promoted rules" {
			edits = append(edits, Edit{Kind: EditDelete, ID: "r-0000000a"})
		}
		out, unplaced := ApplyEdits(base, append(edits, Edit{Kind: EditReword, ID: "r-000000ff", Text: "gone"}))
		if len(unplaced) != 1 || unplaced[0].ID != "r-000000ff" {
			t.Errorf("%s: unplaced %+v", name, unplaced)
		}
		got, unmapped := ReadEdits(out, base)
		if len(unmapped) > 0 {
			t.Errorf("%s: unmapped %+v in\n%s", name, unmapped, out)
		}
		key := func(e Edit) string { return e.Kind + " " + e.ID + " " + e.Text }
		want := map[string]bool{}
		for _, e := range edits {
			want[key(e)] = true
		}
		for _, e := range got {
			if !want[key(e)] {
				t.Errorf("%s: read back an edit not made: %+v", name, e)
			}
			delete(want, key(e))
		}
		if len(want) > 0 {
			t.Errorf("%s: edits not read back: %v in\n%s", name, want, out)
		}
		if !strings.Contains(string(out), "- Always use `make lint` first. *(1 session") || strings.Contains(string(out), "\n\n\n") {
			t.Errorf("%s: the rewording lost its note or left blank lines:\n%s", name, out)
		}
	}
}

// TestReadPendingEdits: a difference from both what memkeep wrote and
// what the memory renders now is an edit; one from only one of them is
// memkeep's own; without the copy deletions are not read.
func TestReadPendingEdits(t *testing.T) {
	written := Markdown(editable())
	now := editable()
	now.Facts.Rules = append(now.Facts.Rules, l4.Rule{ID: "r-0000000e", Text: "A rule the copy never showed.", Confidence: 0.9, Promoted: true})
	have, _ := ApplyEdits(written, []Edit{{Kind: EditReword, ID: "r-0000000a", Text: "Run gofmt -s."}, {Kind: EditDelete, ID: "c-0000000c"}})
	edits, unmapped := ReadPendingEdits(have, written, Markdown(now))
	if len(edits) != 2 || len(unmapped) != 0 {
		t.Errorf("edits %+v, unmapped %+v", edits, unmapped)
	}
	edits, _ = ReadPendingEdits(have, nil, Markdown(now))
	if len(edits) != 1 || edits[0].Kind != EditReword {
		t.Errorf("without the copy: %+v", edits)
	}
	if e, u := ReadPendingEdits(written, written, Markdown(now)); e != nil || u != nil {
		t.Errorf("memkeep's own file read as edits: %+v %+v", e, u)
	}
}

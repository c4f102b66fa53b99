package consolidate

import (
	"os"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

// TestReviewersEditsOfMemoryMD: a reviewer rewords a rule, deletes a rule
// line and a concept line and adds a rule in memory.md; the next
// consolidation carries each into facts.json and concepts.json (a
// deletion is forgotten with its reason) and renders memory.md again.
func TestReviewersEditsOfMemoryMD(t *testing.T) {
	l := project(t)
	for _, r := range []string{"Run gofmt before committing.", "Never log tokens, even redacted."} {
		if _, _, err := AddRule(l, r, clock); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Consolidate(l, Options{Deep: true}); err != nil {
		t.Fatal(err)
	}
	concepts, _ := l3.Load(l.ConceptsFile())
	if len(concepts.Concepts) == 0 {
		t.Fatal("no concept to delete")
	}
	gone := concepts.Concepts[0]
	md, _ := os.ReadFile(l.DigestFile())
	lines := strings.Split(string(md), "\n")
	var kept []string
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "- Never log tokens"), strings.Contains(line, "`"+gone.ID+"`"):
			continue // deleted
		case strings.HasPrefix(line, "- Run gofmt before committing."):
			line = strings.Replace(line, "Run gofmt before committing.", "Run gofmt and go vet before committing.", 1)
		case line == "## Rules":
			kept = append(kept, line, "", "- Never edit files under generated/.")
			continue
		}
		kept = append(kept, line)
	}
	if err := os.WriteFile(l.DigestFile(), []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Consolidate(l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.DigestEdits.Applied) != 4 || len(sum.DigestEdits.Unmapped) != 0 {
		t.Errorf("edits: %+v", sum.DigestEdits)
	}
	facts, _ := l4.Load(l.FactsFile())
	var texts []string
	for _, r := range facts.Rules {
		texts = append(texts, r.Text)
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"Run gofmt and go vet before committing.", "Never edit files under generated/."} {
		if !strings.Contains(all, want) {
			t.Errorf("facts.json lacks the rule %q: %s", want, all)
		}
	}
	if strings.Contains(all, "Never log tokens") || strings.Contains(all, "Run gofmt before committing.") {
		t.Errorf("a deleted or reworded rule's old text is still a rule: %s", all)
	}
	var reason string
	for _, fg := range facts.Forgotten {
		if strings.HasPrefix(fg.Text, "Never log tokens") {
			reason = fg.Reason
		}
	}
	if !strings.HasPrefix(reason, "removed from memory.md") {
		t.Errorf("the deleted rule is not forgotten with its reason: %+v", facts.Forgotten)
	}
	concepts, _ = l3.Load(l.ConceptsFile())
	if concepts.Get(gone.ID) != nil {
		t.Errorf("the deleted concept %s is still a concept", gone.ID)
	}
	md, _ = os.ReadFile(l.DigestFile())
	if !strings.Contains(string(md), "- Run gofmt and go vet before committing. *(") || !strings.Contains(string(md), "Never edit files under generated/. *(") {
		t.Errorf("memory.md was not rendered from the edited memory:\n%s", md)
	}
	// A second consolidation finds nothing left to carry.
	if sum, err := Consolidate(l, Options{Deep: true}); err != nil || len(sum.DigestEdits.Applied)+len(sum.DigestEdits.Unmapped) != 0 {
		t.Errorf("again: %+v, %v", sum.DigestEdits, err)
	}
	facts, _ = l4.Load(l.FactsFile())
	for _, r := range facts.Rules {
		if r.Text == "Run gofmt before committing." {
			t.Error("reflection brought the old wording back")
		}
	}
}

// TestUnmappedEditIsLeftInPlace: an edit memkeep cannot carry back keeps
// memory.md as the reviewer left it, and is named.
func TestUnmappedEditIsLeftInPlace(t *testing.T) {
	l := project(t)
	if _, err := Consolidate(l, Options{Deep: true}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(l.DigestFile())
	edited := strings.Replace(string(md), "## Solutions\n", "## Solutions\n\nAsk Dana before touching the billing code.\n", 1)
	os.WriteFile(l.DigestFile(), []byte(edited), 0o644)
	if _, _, err := AddRule(l, "Always run the billing tests.", clock); err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(l.DigestFile())
	if string(now) != edited {
		t.Errorf("memory.md was rendered over an edit memkeep cannot map")
	}
	u, err := DigestUnmapped(l)
	if err != nil || len(u) != 1 || !strings.Contains(u[0].Text, "Ask Dana") || u[0].Line == 0 {
		t.Errorf("unmapped = %+v, %v", u, err)
	}
}

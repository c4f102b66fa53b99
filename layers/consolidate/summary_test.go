package consolidate

import (
	"strings"
	"testing"

	"github.com/memkeep/memkeep/render"
)

// TestSummaryNamesWhatWasWritten: a consolidation that wrote files never
// reports "no change" (the commit it makes would contradict it); a
// reviewer's edits carried in are named; one that wrote nothing says so.
func TestSummaryNamesWhatWasWritten(t *testing.T) {
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{}, "no change"},
		{Summary{Written: []string{"facts.json"}, DigestEdits: DigestEdits{Applied: []render.Edit{{Kind: render.EditReword, ID: "r-1", Text: "x"}}}}, "1 edit of memory.md carried in"},
		{Summary{Written: []string{"/p/.claude/memory/facts.json"}}, "facts.json updated"},
		{Summary{Written: []string{"memory.md"}, Added: 2, Rendered: true}, "+2 exchanges, memory.md"},
	} {
		if got := c.s.String(); !strings.Contains(got, c.want) {
			t.Errorf("%+v says %q, want %q", c.s, got, c.want)
		}
	}
	var total Summary
	total.Add(Summary{Written: []string{"facts.json"}, DigestEdits: DigestEdits{Applied: []render.Edit{{Kind: render.EditDelete, ID: "r-2"}}}})
	if !strings.Contains(total.String(), "1 edit of memory.md") {
		t.Errorf("Add loses the digest edits: %q", total.String())
	}
}

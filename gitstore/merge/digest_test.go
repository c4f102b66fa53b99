package merge

import (
	"slices"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/render"
)

func digestMemory(ids ...string) render.Memory {
	m := render.Memory{Facts: &l4.Facts{}, Concepts: &l3.File{}}
	for _, id := range ids {
		m.Facts.Rules = append(m.Facts.Rules, l4.Rule{ID: id, Text: "Rule " + id + ".", Source: l4.SourceManual, Confidence: 1, Promoted: true})
	}
	return m
}

// edited is a side's memory.md: its own rendering with a person's edits.
func edited(t *testing.T, own []byte, edits ...render.Edit) EditedDigest {
	t.Helper()
	text, unplaced := render.ApplyEdits(own, edits)
	if len(unplaced) > 0 {
		t.Fatalf("unplaced: %+v", unplaced)
	}
	return EditedDigest{Text: text, Rendered: own}
}

// TestMergeEditedDigests: both sides' edits of memory.md are made in the
// merged rendering; where both edited one item, a rewording wins over a
// deletion and the longer of two rewordings wins, and the result is the
// same whichever side is ours; what is given up is named.
func TestMergeEditedDigests(t *testing.T) {
	const a, b, c, d, e = "r-0000000a", "r-0000000b", "r-0000000c", "r-0000000d", "r-0000000e"
	oursOwn := render.Markdown(digestMemory(a, b, c))
	theirsOwn := render.Markdown(digestMemory(a, b, c, d))
	merged := render.Markdown(digestMemory(a, b, c, d, e))
	ours := edited(t, oursOwn,
		render.Edit{Kind: render.EditReword, ID: a, Text: "Run gofmt."},
		render.Edit{Kind: render.EditReword, ID: b, Text: "Keep it."},
		render.Edit{Kind: render.EditAdd, Text: "Never push on Fridays."})
	theirs := edited(t, theirsOwn,
		render.Edit{Kind: render.EditReword, ID: a, Text: "Run gofmt and go vet."},
		render.Edit{Kind: render.EditDelete, ID: b},
		render.Edit{Kind: render.EditDelete, ID: c},
		render.Edit{Kind: render.EditReword, ID: d, Text: "A rule ours never saw."},
		render.Edit{Kind: render.EditAdd, Text: "Never push on Fridays."})
	out, notes := MergeEditedDigests(ours, theirs, merged)
	if back, _ := MergeEditedDigests(theirs, ours, merged); string(back) != string(out) {
		t.Errorf("the result depends on which side is ours:\n%s\n---\n%s", out, back)
	}
	edits, unmapped := render.ReadEdits(out, merged)
	if len(unmapped) > 0 {
		t.Errorf("unmapped: %+v", unmapped)
	}
	var got []string
	for _, e := range edits {
		got = append(got, e.Kind+" "+e.ID+" "+e.Text)
	}
	slices.Sort(got)
	want := []string{
		"add  Never push on Fridays.",
		"delete " + c + " ",
		"reword " + a + " Run gofmt and go vet.",
		"reword " + b + " Keep it.",
		"reword " + d + " A rule ours never saw.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edits in the merged memory.md:\n%q\nwant\n%q\n%s", got, want, out)
	}
	if !strings.Contains(string(out), "`"+e+"`") {
		t.Errorf("the merged memory's own rule is missing:\n%s", out)
	}
	all := strings.Join(notes, "\n")
	for _, w := range []string{`not the rewording of r-0000000a to "Run gofmt."`, "not the deletion of r-0000000b"} {
		if !strings.Contains(all, w) {
			t.Errorf("notes lack %q:\n%s", w, all)
		}
	}
}

package merge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/render"
)

// EditedDigest is one side of a merge of memory.md: the side's file and
// the rendering its edits are read against (that side's own memory
// rendered; nil when unknown, and then only rewordings and additions are
// read).
type EditedDigest struct {
	Text, Rendered []byte
}

// MergeEditedDigests merges memory.md when both sides hold a person's
// edit not yet carried back into the memory files. Each side's edits are
// read as the next consolidation would read them (render.ReadPendingEdits
// against the side's own rendering and merged, memory.md rendered from
// the merged memory files) and both are made again in merged, by item
// id (render.ApplyEdits). The caller keeps merged as the copy the result
// is read against (memdir.Layout.RenderedDigest), so that the next
// consolidation carries both sides' edits into facts.json and
// concepts.json.
//
// Where the two sides edited the same item differently, one edit is
// kept, whichever side is ours (a merge and a rebase agree): a rewording
// over a deletion (the rule stays, with the new text; deleting it again
// is one line), and of two rewordings the longer text, then the one that
// sorts last. Rules added on both sides with the same text are added
// once. An edit memkeep cannot carry back (render.Unmapped: a session
// line reworded, a paragraph added) is not kept. notes names what was
// dropped, for the merge driver to tell.
func MergeEditedDigests(ours, theirs EditedDigest, merged []byte) (out []byte, notes []string) {
	var all [2][]render.Edit
	for i, side := range []struct {
		name string
		d    EditedDigest
	}{{"ours", ours}, {"theirs", theirs}} {
		edits, unmapped := render.ReadPendingEdits(side.d.Text, side.d.Rendered, merged)
		all[i] = edits
		for _, u := range unmapped {
			notes = append(notes, fmt.Sprintf("%s line %d is not kept, as memkeep cannot carry it back: %s", side.name, u.Line, u.Text))
		}
	}
	kept, dropped := unionEdits(all[0], all[1])
	notes = append(notes, dropped...)
	out, unplaced := render.ApplyEdits(merged, kept)
	for _, e := range unplaced {
		notes = append(notes, fmt.Sprintf("%s is not kept: the merged memory has no such item", describeEdit(e)))
	}
	return out, notes
}

// unionEdits gives both sides' edits once each, one edit per item (see
// MergeEditedDigests), additions last and sorted: the same result
// whichever side is ours. dropped names each edit given up for another.
func unionEdits(ours, theirs []render.Edit) (kept []render.Edit, dropped []string) {
	byID := map[string]render.Edit{}
	var ids []string
	addSeen := map[string]bool{}
	var adds []render.Edit
	for _, e := range slices.Concat(ours, theirs) {
		if e.Kind == render.EditAdd {
			if t := strings.TrimSpace(e.Text); !addSeen[t] {
				addSeen[t] = true
				adds = append(adds, e)
			}
			continue
		}
		prev, seen := byID[e.ID]
		if !seen {
			byID[e.ID] = e
			ids = append(ids, e.ID)
			continue
		}
		if prev.Kind == e.Kind && prev.Text == e.Text {
			continue
		}
		win, lose := prev, e
		if preferEdit(e, prev) {
			win, lose = e, prev
		}
		byID[e.ID] = win
		dropped = append(dropped, fmt.Sprintf("%s was edited on both sides: kept %s, not %s", e.ID, describeEdit(win), describeEdit(lose)))
	}
	slices.Sort(ids)
	for _, id := range ids {
		kept = append(kept, byID[id])
	}
	slices.SortFunc(adds, func(a, b render.Edit) int { return cmp.Compare(a.Text, b.Text) })
	return append(kept, adds...), dropped
}

// preferEdit reports whether a wins over b, two different edits of one
// item: a rewording over a deletion, then the longer text, then the
// greater.
func preferEdit(a, b render.Edit) bool {
	if a.Kind != b.Kind {
		return a.Kind == render.EditReword
	}
	return larger(a.Text, b.Text)
}

func describeEdit(e render.Edit) string {
	switch e.Kind {
	case render.EditReword:
		return fmt.Sprintf("the rewording of %s to %q", e.ID, e.Text)
	case render.EditDelete:
		return "the deletion of " + e.ID
	}
	return fmt.Sprintf("the added rule %q", e.Text)
}

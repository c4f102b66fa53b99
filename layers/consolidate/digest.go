package consolidate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/scrub"
	"github.com/memkeep/memkeep/render"
)

// memory.md is the human surface: a reviewer may edit it in a pull
// request (render.ReadEdits). Before memkeep renders it again, the edits
// are carried into facts.json and concepts.json — a reworded rule keeps
// its id and takes the new text, a deleted rule or concept line is
// forgotten with the reason "removed from memory.md", a new line under
// Rules becomes a rule — and the file is rendered from the result. An
// edit memkeep cannot map is left in place: memory.md is not rendered
// again until it is resolved, and `memkeep status` and `doctor` name it.
//
// The edits are read against the file as memkeep last wrote it, kept
// under the git dir (rendered-memory.md), so that the memory's own
// changes since (a session's new exchanges) are never taken for edits.
// Without that copy (a fresh clone) the file is compared with what the
// memory renders now, and only rule and concept edits are read.

// DigestEdits are the reviewer's edits of memory.md found and applied,
// and those left in place.
type DigestEdits struct {
	Applied  []render.Edit
	Unmapped []render.Unmapped
}

// readDigestEdits finds a reviewer's edits of memory.md: the differences
// from both the file memkeep last wrote (kept under the git dir) and
// what the memory files render to now. A difference from one only is
// memkeep's own: a session's exchanges not rendered yet, or another
// clone's rendering that came with a pull or a merge of its memory.
// Without the copy (a fresh clone) only rule and concept edits against
// the memory as it is are read.
func (m *Memory) readDigestEdits() DigestEdits {
	have, err := os.ReadFile(m.Layout.DigestFile())
	if err != nil {
		return DigestEdits{}
	}
	written, err := os.ReadFile(m.Layout.RenderedDigest())
	if err != nil {
		written = nil
	} else if bytes.Equal(have, written) {
		return DigestEdits{}
	}
	edits, unmapped := render.ReadPendingEdits(have, written, render.Markdown(m.View()))
	return DigestEdits{Applied: edits, Unmapped: unmapped}
}

// applyDigestEdits carries the reviewer's edits into the memory; the
// commit that last changed memory.md (EditSource) names where a
// deletion came from, in the reason kept in the history.
func (m *Memory) applyDigestEdits(now time.Time) (DigestEdits, error) {
	d := m.readDigestEdits()
	if len(d.Applied) == 0 {
		return d, nil
	}
	where := "removed from memory.md"
	if EditSource != nil {
		if c := EditSource(m.Layout); c != "" {
			where += " in " + c
		}
	}
	var errs []error
	for _, e := range d.Applied {
		switch e.Kind {
		case render.EditReword:
			for i := range m.Facts.Rules {
				if r := &m.Facts.Rules[i]; r.ID == e.ID {
					r.Text = scrub.Text(e.Text, m.Layout.Root)
					r.Updated = l2.Timestamp(now)
				}
			}
		case render.EditAdd:
			if _, _, err := m.Facts.AddRule(scrub.Text(e.Text, m.Layout.Root), now); err != nil {
				errs = append(errs, fmt.Errorf("memory.md line %d: %w", e.Line, err))
			}
		case render.EditDelete:
			var err error
			if strings.HasPrefix(e.ID, "c-") {
				_, err = m.forgetConcept(e.ID, where, now)
			} else {
				_, err = m.Facts.Forget(e.ID, where, now)
			}
			if err != nil && !errors.Is(err, l4.ErrNotFound) {
				errs = append(errs, fmt.Errorf("memory.md: %s: %w", e.ID, err))
			}
		}
	}
	return d, errors.Join(errs...)
}

// writeDigest renders memory.md, the reviewer's edits carried into the
// memory when it was loaded (locked); an edit memkeep cannot map leaves
// the file as it is. It reports whether it wrote.
func (m *Memory) writeDigest() (bool, DigestEdits, error) {
	wrote, err := m.renderDigest(m.digest)
	return wrote, m.digest, err
}

// renderDigest renders memory.md, unless it holds edits memkeep cannot
// map, and keeps a copy of what it wrote.
func (m *Memory) renderDigest(d DigestEdits) (bool, error) {
	if len(d.Unmapped) > 0 {
		return false, nil
	}
	view := m.View()
	wrote, err := render.Write(m.Layout.DigestFile(), view)
	if err != nil {
		return wrote, err
	}
	want := render.Markdown(view)
	if have, err := os.ReadFile(m.Layout.RenderedDigest()); err != nil || !bytes.Equal(have, want) {
		if err := os.MkdirAll(m.Layout.StateDir(), 0o755); err != nil {
			return wrote, err
		}
		// The copy is only a cache of what was written: failing to keep it
		// costs the next consolidation the lenient comparison.
		_ = atomicfile.WriteFile(m.Layout.RenderedDigest(), want, 0o644)
	}
	return wrote, nil
}

// EditSource, when set, names the commit that last changed memory.md
// (the command wiring asks git); nil leaves the reason without it.
var EditSource func(l memdir.Layout) string

// DigestUnmapped names the edits of memory.md that memkeep cannot carry
// back, for status and doctor.
func DigestUnmapped(l memdir.Layout) ([]render.Unmapped, error) {
	m, err := Load(l)
	if err != nil {
		return nil, err
	}
	return m.readDigestEdits().Unmapped, nil
}

package consolidate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/internal/shellquote"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// LayerStatus is one line of the Stop hook's check: a layer, whether it
// is complete, what is missing, and commands that can be pasted as they
// are to complete it.
type LayerStatus struct {
	Layer    string   `json:"layer"` // L2, L3, L4, memory.md
	OK       bool     `json:"ok"`
	Detail   string   `json:"detail"`
	Commands []string `json:"commands,omitempty"`
}

// Status is what is pending for a session.
type Status struct {
	SessionID string        `json:"session_id"`
	Base      string        `json:"base"`
	Layers    []LayerStatus `json:"layers"`
}

// Done reports whether every layer is complete.
func (s Status) Done() bool {
	for _, l := range s.Layers {
		if !l.OK {
			return false
		}
	}
	return true
}

// maxCommands bounds the commands listed per layer: the Stop hook's
// message must stay short enough for the agent to act on.
const maxCommands = 6

// Pending answers the Stop hook's enforcement questions for a session
// from the files on disk, without changing them:
//
//   - L2: does L2 cover every exchange of the session's L1 (each typed
//     prompt and what followed it)?
//   - L3: does every L2 record of the session have a concept? Each
//     missing one comes with memkeep's proposal.
//   - L4: did reflection run after the last change of L2 or L3?
//   - memory.md: is it exactly what render gives now?
//
// It loads only facts.json, concepts.json and the session's L2 file (and
// the L2 files memory.md shows), takes the session's L1 coverage from
// the extraction state when that describes the L1 file as it is, and the
// other sessions' digests from local state while their files are
// unchanged; the answer is the same as from everything loaded.
func Pending(l memdir.Layout, sessionID string) (Status, error) {
	if !incremental {
		return pendingFull(l, sessionID)
	}
	v, err := openView(l)
	if err != nil {
		return Status{}, err
	}
	defer v.saveIndex()
	st := Status{SessionID: sessionID}
	base, err := l2.BaseFor(l, sessionID)
	if err != nil {
		st.Layers = append(st.Layers, LayerStatus{Layer: "L2", OK: true, Detail: "no L1 recorded for this session yet"})
	} else {
		st.Base = base
		v.own = base
		s, err := v.session(base)
		if err != nil {
			return st, err
		}
		id := sessionID
		if lines, ranges, ok := l1Coverage(l, base); ok && s.Consolidated >= lines {
			st.Layers = append(st.Layers, LayerStatus{Layer: "L2", OK: true, Detail: coveredDetail(ranges, lines)})
		} else {
			recs, err := readL1(l, base)
			if err != nil {
				return st, err
			}
			st.Layers = append(st.Layers, l2Status(s, recs, id))
		}
		st.Layers = append(st.Layers, l3Status(v.concepts, s, id))
	}
	l4, err := v.l4Status()
	if err != nil {
		return st, err
	}
	md, err := v.digestStatus()
	if err != nil {
		return st, err
	}
	st.Layers = append(st.Layers, l4, md)
	return st, nil
}

// pendingFull is Pending from every file loaded.
func pendingFull(l memdir.Layout, sessionID string) (Status, error) {
	m, err := Load(l)
	if err != nil {
		return Status{}, err
	}
	st := Status{SessionID: sessionID}
	base, err := l2.BaseFor(l, sessionID)
	if err != nil {
		st.Layers = append(st.Layers, LayerStatus{Layer: "L2", OK: true, Detail: "no L1 recorded for this session yet"})
	} else {
		st.Base = base
		s := m.Session(base)
		recs, err := readL1(l, base)
		if err != nil {
			return st, err
		}
		id := sessionID
		st.Layers = append(st.Layers, l2Status(s, recs, id), l3Status(m.Concepts, s, id))
	}
	st.Layers = append(st.Layers, m.l4Status(), m.digestStatus())
	return st, nil
}

// promptRanges are the L1 line ranges of the session's exchanges.
func promptRanges(recs []l1.Record) [][2]int {
	var out [][2]int
	start := 0
	for i, r := range recs {
		if r.Kind == l1.KindPrompt && r.Agent == "" {
			if i > 0 {
				out = append(out, [2]int{start + 1, i})
			}
			start = i
		}
	}
	if len(recs) > 0 {
		out = append(out, [2]int{start + 1, len(recs)})
	}
	return out
}

func l2Status(s *l2.File, recs []l1.Record, sid string) LayerStatus {
	ranges := promptRanges(recs)
	var missing [][2]int
	for _, r := range ranges {
		if r[1] <= s.Consolidated || overlaps(s, r) {
			continue
		}
		missing = append(missing, r)
	}
	if len(missing) == 0 {
		return LayerStatus{Layer: "L2", OK: true, Detail: coveredDetail(len(ranges), len(recs))}
	}
	var spans []string
	for _, r := range missing {
		spans = append(spans, fmt.Sprintf("%d-%d", r[0], r[1]))
	}
	cmds := []string{"memkeep consolidate --session " + sid}
	for _, r := range missing {
		if len(cmds) >= maxCommands {
			break
		}
		summary := promptSummary(recs, r)
		cmds = append(cmds, fmt.Sprintf("memkeep l2 add --session %s --range %d-%d --summary %s", sid, r[0], r[1], shellquote.Quote(summary)))
	}
	return LayerStatus{Layer: "L2", Detail: fmt.Sprintf("%d of %d exchanges not in L2 (L1 lines %s): extract them, or say what mattered with l2 add (edit the summary)", len(missing), len(ranges), strings.Join(spans, ", ")), Commands: cmds}
}

func coveredDetail(ranges, lines int) string {
	return fmt.Sprintf("%s of %d L1 lines covered", plural(ranges, "exchange"), lines)
}

func overlaps(s *l2.File, r [2]int) bool {
	for _, e := range s.Exchanges {
		if e.L1Range[0] > 0 && e.L1Range[0] <= r[1] && r[0] <= e.L1Range[1] {
			return true
		}
	}
	return false
}

func promptSummary(recs []l1.Record, r [2]int) string {
	t := strings.Join(strings.Fields(recs[r[0]-1].Text), " ")
	if len(t) > 100 {
		cut := 100
		for cut > 0 && t[cut]&0xC0 == 0x80 {
			cut--
		}
		t = t[:cut] + "…"
	}
	if t == "" {
		t = "what this exchange did"
	}
	return t
}

func l3Status(concepts *l3.File, s *l2.File, sid string) LayerStatus {
	var cmds []string
	missing := 0
	// The commands run in order: a concept one of them creates is there
	// for the next, whose own proposal of a close name would be refused.
	planned := &l3.File{Concepts: slices.Clone(concepts.Concepts)}
	for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
		for i := range l {
			e := &l[i]
			if e.Concept != "" && concepts.Get(e.Concept) != nil {
				continue
			}
			missing++
			if len(cmds) >= maxCommands {
				continue
			}
			p := concepts.Propose(e)
			if !p.New() {
				cmds = append(cmds, fmt.Sprintf("memkeep l3 assign %s --concept %s   # %s (similarity %.2f): %s", e.ID, p.ConceptID, p.Name, p.Score, oneLine(e.Summary, 60)))
				continue
			}
			var dup *l3.DuplicateError
			if _, err := planned.Create(p.Name); errors.As(err, &dup) {
				cmds = append(cmds, fmt.Sprintf("memkeep l3 assign %s --concept %s   # %s: %s", e.ID, dup.Existing.ID, dup.Existing.Name, oneLine(e.Summary, 60)))
				continue
			}
			cmds = append(cmds, fmt.Sprintf("memkeep l3 assign %s --new %s   # new concept for: %s", e.ID, shellquote.Quote(p.Name), oneLine(e.Summary, 70)))
		}
	}
	if missing == 0 {
		return LayerStatus{Layer: "L3", OK: true, Detail: "every L2 record of the session has a concept"}
	}
	detail := fmt.Sprintf("%s without a concept: confirm memkeep's proposal or name a better concept", plural(missing, "L2 record"))
	if missing > len(cmds) {
		detail += fmt.Sprintf(" (%d shown; memkeep consolidate --deep --session %s assigns the rest by proposal)", len(cmds), sid)
	}
	return LayerStatus{Layer: "L3", Detail: detail, Commands: cmds}
}

func (m *Memory) l4Status() LayerStatus { return l4Status(m.reflectedCurrent()) }

func l4Status(current bool) LayerStatus {
	if current {
		return LayerStatus{Layer: "L4", OK: true, Detail: "reflection is current"}
	}
	return LayerStatus{Layer: "L4", Detail: "L2 or L3 changed since the last reflection", Commands: []string{"memkeep l4 reflect"}}
}

func (m *Memory) digestStatus() LayerStatus {
	return digestStatus(m.Layout, m.View())
}

// digestStatus says whether memory.md is what the memory renders to.
func digestStatus(l memdir.Layout, v render.Memory) LayerStatus {
	have, err := os.ReadFile(l.DigestFile())
	now := render.Markdown(v)
	if err == nil && bytes.Equal(have, now) {
		return LayerStatus{Layer: "memory.md", OK: true, Detail: "current"}
	}
	if u := unmappedEdits(l, have, now); len(u) > 0 {
		// A reviewer's edit the agent cannot resolve: named, never asked for.
		return LayerStatus{Layer: "memory.md", OK: true, Detail: fmt.Sprintf("left as a reviewer edited it: %d edit(s) memkeep cannot carry back, first at line %d (%s); undo them or make the change with memkeep commands", len(u), u[0].Line, oneLine(u[0].Text, 80))}
	}
	return LayerStatus{Layer: "memory.md", Detail: "out of date with facts.json, concepts.json and L2", Commands: []string{"memkeep render"}}
}

// unmappedEdits are the differences of memory.md (have) from both what
// memkeep last wrote and what the memory renders to now that memkeep
// cannot carry back; nothing without the copy of what it wrote.
func unmappedEdits(l memdir.Layout, have, now []byte) []render.Unmapped {
	written, err := os.ReadFile(l.RenderedDigest())
	if err != nil || have == nil {
		return nil
	}
	_, u1 := render.ReadEdits(have, written)
	_, u := render.ReadEdits(have, now)
	return slices.DeleteFunc(u, func(x render.Unmapped) bool {
		return !slices.ContainsFunc(u1, func(y render.Unmapped) bool { return y.Text == x.Text })
	})
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// plural writes "1 exchange", "2 exchanges".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Package merge merges memkeep's memory files from two branches by record
// id with deterministic rules (docs/format.md, "Merging"), so memory never
// conflicts in a merge or a rebase, and the result is the same bytes
// whichever side git calls "ours".
package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ErrConflict means the sides cannot be merged by the rules (a file that is
// not valid JSON on both changed sides, or a file type with no rules).
var ErrConflict = errors.New("merge conflict")

// MergeFile merges one memory file. path (repo-relative, as git's %P)
// selects the rules: *.jsonl is a union of records, *.json a three-way
// merge by record id. Any other file merges only when at most one side
// changed it. base is nil when the file did not exist in the merge base.
func MergeFile(path string, base, ours, theirs []byte) ([]byte, error) {
	if out, ok := trivial(base, ours, theirs); ok {
		return out, nil
	}
	switch {
	case strings.HasSuffix(path, ".jsonl"):
		return MergeJSONL(base, ours, theirs)
	case strings.HasSuffix(path, ".json"):
		return MergeJSON(base, ours, theirs)
	}
	return nil, fmt.Errorf("%s: both sides changed it and memkeep has no merge rule for it: %w", path, ErrConflict)
}

// trivial handles the cases that need no rules: equal sides, or one side
// unchanged from the base.
func trivial(base, ours, theirs []byte) ([]byte, bool) {
	switch {
	case bytes.Equal(ours, theirs):
		return ours, true
	case bytes.Equal(base, ours):
		return theirs, true
	case bytes.Equal(base, theirs):
		return ours, true
	}
	return nil, false
}

// larger picks, of two different encodings, the longer one and then the
// lexically greater: an arbitrary but symmetric tie-break.
func larger(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// ---- JSONL ----

type line struct {
	raw  []byte
	key  string
	time string
	id   string
	off  int64
	l1   bool // an L1 record: no id, an off
}

func parseLines(b []byte) map[string]line {
	out := map[string]line{}
	for _, raw := range bytes.Split(b, []byte("\n")) {
		raw = bytes.TrimRight(raw, "\r")
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		ln := line{raw: raw, key: "line:" + string(raw)}
		var rec struct {
			ID   *string         `json:"id"`
			TS   string          `json:"ts"`
			Time string          `json:"time"`
			Off  json.RawMessage `json:"off"`
		}
		if json.Unmarshal(raw, &rec) == nil {
			ln.time = rec.TS
			if ln.time == "" {
				ln.time = rec.Time
			}
			if rec.ID != nil && *rec.ID != "" {
				ln.id = *rec.ID
				// Stream ids are 32 random bits: two clones can mint the
				// same one for different events. The time is part of the
				// key so such events are both kept, while an event present
				// on both sides is still one line.
				ln.key = "id:" + ln.id + "\x00" + ln.time
			} else if n, err := strconv.ParseInt(string(rec.Off), 10, 64); err == nil {
				ln.off, ln.l1 = n, true
				ln.key = "off:" + string(rec.Off) + "\x00" + string(raw)
			}
		}
		if old, dup := out[ln.key]; dup && !larger(string(raw), string(old.raw)) {
			continue
		}
		out[ln.key] = ln
	}
	return out
}

// MergeJSONL merges append-only record files: the union of both sides by
// record id (L1 lines, which have none, by `off` and content), minus the
// records one side removed from the base (archiving), without duplicates.
// L1 lines are ordered by `off`, which is transcript order and keeps the
// line numbers L2 points at; others by time, then id.
func MergeJSONL(base, ours, theirs []byte) ([]byte, error) {
	if out, ok := trivial(base, ours, theirs); ok {
		return out, nil
	}
	b, a, t := parseLines(base), parseLines(ours), parseLines(theirs)
	var out []line
	add := func(ln line) {
		if _, inBase := b[ln.key]; inBase {
			_, inA := a[ln.key]
			_, inT := t[ln.key]
			if !inA || !inT {
				return // removed on one side
			}
		}
		out = append(out, ln)
	}
	for k, la := range a {
		if lt, ok := t[k]; ok && larger(string(lt.raw), string(la.raw)) {
			la = lt
		}
		add(la)
	}
	for k, lt := range t {
		if _, ok := a[k]; !ok {
			add(lt)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.l1 && y.l1 && x.off != y.off {
			return x.off < y.off
		}
		if !(x.l1 && y.l1) {
			if x.time != y.time {
				return x.time < y.time
			}
			if x.id != y.id {
				return x.id < y.id
			}
		}
		return string(x.raw) < string(y.raw)
	})
	var buf bytes.Buffer
	for _, ln := range out {
		buf.Write(ln.raw)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// ---- JSON ----

// MergeJSON merges facts.json, concepts.json and L2 files three-way:
// objects key by key; lists of records (objects with an "id") by id, a
// record deleted on either side stays deleted, a record changed on one side
// takes that side, a record changed on both takes field by field the side
// whose `updated` is later (ties: the larger encoding); `contradictions`
// and the integer `stats` add both sides' increments to the base,
// `confidence` takes the maximum, `updated`/`last_validated` the latest,
// lists of strings are unioned and sorted. Output: two-space indent,
// input key order, unknown fields kept, records sorted by id.
func MergeJSON(base, ours, theirs []byte) ([]byte, error) {
	if out, ok := trivial(base, ours, theirs); ok {
		return out, nil
	}
	a, errA := parseJSON(ours)
	t, errT := parseJSON(theirs)
	if errA != nil || errT != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, errors.Join(errA, errT))
	}
	var b *value
	if len(bytes.TrimSpace(base)) > 0 {
		b, _ = parseJSON(base) // an unreadable base merges as if absent
	}
	m := &merger{}
	v := m.merge(b, a, t, "", nil)
	if v == nil {
		return []byte{}, nil
	}
	return v.encode(), nil
}

type merger struct{}

// winner is the side (0 ours, 1 theirs) that wins plain field conflicts
// inside one record; nil outside records.
type winner *int

func (m *merger) merge(b, a, t *value, key string, win winner) *value {
	ca, ct, cb := a.compact(), t.compact(), b.compact()
	switch {
	case ca == ct:
		return a
	case cb == ca:
		return t
	case cb == ct:
		return a
	}
	if a == nil || t == nil { // removed on one side, changed on the other
		if win != nil {
			return []*value{a, t}[*win]
		}
		if a == nil {
			return t
		}
		return a
	}
	if a.kind == '{' && t.kind == '{' {
		if b != nil && b.kind != '{' {
			b = nil
		}
		if key == "stats" {
			return m.stats(b, a, t)
		}
		return m.object(b, a, t, win)
	}
	if a.kind == '[' && t.kind == '[' {
		if b != nil && b.kind != '[' {
			b = nil
		}
		switch {
		case records(a) && records(t) && (b == nil || records(b)):
			return m.records(b, a, t)
		case strs(a) && strs(t) && (b == nil || strs(b)):
			return setMerge(b, a, t)
		}
	}
	if a.kind == 's' && t.kind == 's' {
		switch {
		case key == "contradictions" || key == "stats":
			x, okA := a.isInt()
			y, okT := t.isInt()
			z, okB := b.isInt()
			if !okB && b == nil {
				z, okB = 0, true
			}
			if okA && okT && okB {
				return &value{kind: 's', raw: []byte(strconv.FormatInt(x+y-z, 10))}
			}
		case key == "confidence":
			x, okA := a.num()
			y, okT := t.num()
			if okA && okT && x != y {
				if x > y {
					return a
				}
				return t
			}
		case key == "updated" || key == "last_validated":
			if a.str() != t.str() {
				if a.str() > t.str() {
					return a
				}
				return t
			}
		}
	}
	if win != nil {
		return []*value{a, t}[*win]
	}
	if larger(ca, ct) {
		return a
	}
	return t
}

func (m *merger) object(b, a, t *value, win winner) *value {
	if win == nil && a.id() != "" && a.id() == t.id() {
		// A record changed on both sides: plain field conflicts go to the
		// side updated later, then to the larger encoding.
		w := 1
		ua, ut := a.get("updated").str(), t.get("updated").str()
		if ua > ut || (ua == ut && larger(a.compact(), t.compact())) {
			w = 0
		}
		win = &w
	}
	out := &value{kind: '{'}
	for _, k := range keyOrder(a, t) {
		v := m.merge(b.get(k), a.get(k), t.get(k), k, win)
		if v == nil {
			continue
		}
		out.keys = append(out.keys, k)
		out.rkeys = append(out.rkeys, rawKey(a, t, k))
		out.vals = append(out.vals, v)
	}
	return out
}

// stats merges the counters object: each integer adds both increments.
func (m *merger) stats(b, a, t *value) *value {
	out := &value{kind: '{'}
	for _, k := range keyOrder(a, t) {
		v := m.merge(b.get(k), a.get(k), t.get(k), "stats", nil)
		if v == nil {
			continue
		}
		out.keys = append(out.keys, k)
		out.rkeys = append(out.rkeys, rawKey(a, t, k))
		out.vals = append(out.vals, v)
	}
	return out
}

func rawKey(a, t *value, k string) []byte {
	for _, v := range []*value{a, t} {
		if v != nil {
			for i, kk := range v.keys {
				if kk == k {
					return v.rkeys[i]
				}
			}
		}
	}
	r, _ := json.Marshal(k)
	return r
}

// keyOrder merges the key orders of both sides symmetrically: keys common
// to both keep their order (ours and theirs agree when they share a
// schema), and a key only one side has follows the common key it follows
// there; several such keys at one place sort by name.
func keyOrder(a, t *value) []string {
	if a == nil || t == nil {
		if a != nil {
			return a.keys
		}
		if t != nil {
			return t.keys
		}
		return nil
	}
	inA, inT := map[string]bool{}, map[string]bool{}
	for _, k := range a.keys {
		inA[k] = true
	}
	for _, k := range t.keys {
		inT[k] = true
	}
	var commonA, commonT []string
	for _, k := range a.keys {
		if inT[k] {
			commonA = append(commonA, k)
		}
	}
	for _, k := range t.keys {
		if inA[k] {
			commonT = append(commonT, k)
		}
	}
	common := commonA
	if strings.Join(commonA, "\x00") != strings.Join(commonT, "\x00") {
		common = append([]string(nil), commonA...)
		sort.Strings(common)
	}
	extras := map[string][]string{} // anchor (preceding common key) -> keys
	collect := func(keys []string, other map[string]bool) {
		anchor := ""
		for _, k := range keys {
			if other[k] {
				anchor = k
				continue
			}
			extras[anchor] = append(extras[anchor], k)
		}
	}
	collect(a.keys, inT)
	collect(t.keys, inA)
	var out []string
	emit := func(anchor string) {
		ks := extras[anchor]
		sort.Strings(ks)
		out = append(out, ks...)
	}
	emit("")
	for _, k := range common {
		out = append(out, k)
		emit(k)
	}
	return out
}

func records(v *value) bool {
	for _, e := range v.elems {
		if e.kind != '{' || e.id() == "" {
			return false
		}
	}
	return true
}

func strs(v *value) bool {
	for _, e := range v.elems {
		if e.kind != 's' || len(e.raw) == 0 || e.raw[0] != '"' {
			return false
		}
	}
	return true
}

// setMerge merges lists of strings as sets, three-way: a string both
// sides hold stays, one either side added comes, one either side removed
// from the base goes (an exchange forgotten on one branch must not come
// back through the other's copy of the list). Symmetric in a and t.
func setMerge(b, a, t *value) *value {
	in := func(v *value) map[string]bool {
		m := map[string]bool{}
		if v != nil {
			for _, e := range v.elems {
				m[e.str()] = true
			}
		}
		return m
	}
	inB, inA, inT := in(b), in(a), in(t)
	seen := map[string]*value{}
	for _, e := range append(append([]*value(nil), a.elems...), t.elems...) {
		s := e.str()
		if !(inA[s] && inT[s] || !inB[s]) {
			continue // removed by one side
		}
		if old, ok := seen[s]; !ok || larger(string(e.raw), string(old.raw)) {
			seen[s] = e
		}
	}
	out := &value{kind: '['}
	for _, e := range seen {
		out.elems = append(out.elems, e)
	}
	sort.Slice(out.elems, func(i, j int) bool { return out.elems[i].str() < out.elems[j].str() })
	return out
}

func byID(v *value) map[string]*value {
	m := map[string]*value{}
	if v == nil {
		return m
	}
	for _, e := range v.elems {
		m[e.id()] = e
	}
	return m
}

func (m *merger) records(b, a, t *value) *value {
	mb, ma, mt := byID(b), byID(a), byID(t)
	ids := map[string]bool{}
	for id := range ma {
		ids[id] = true
	}
	for id := range mt {
		ids[id] = true
	}
	out := &value{kind: '['}
	for id := range ids {
		rb, inB := mb[id]
		ra, inA := ma[id]
		rt, inT := mt[id]
		if inB && (!inA || !inT) {
			continue // deleted on one side: deleted
		}
		var v *value
		switch {
		case inA && inT:
			v = m.merge(rb, ra, rt, "", nil)
		case inA:
			v = ra
		default:
			v = rt
		}
		if v != nil {
			out.elems = append(out.elems, v)
		}
	}
	sort.Slice(out.elems, func(i, j int) bool { return out.elems[i].id() < out.elems[j].id() })
	return out
}

package consolidate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/internal/jsonscan"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/memdir"
)

// RecordAsk is what the Stop hook asks the agent for: its own record of
// one exchange, prefilled with what memkeep knows of it.
type RecordAsk struct {
	SessionID string
	// Exchange is memkeep's (subconscious) record of the exchange.
	Exchange string
	// Key identifies the exchange for "never ask twice": the session's
	// file stem and the exchange's first L1 line, which do not change as
	// the exchange grows.
	Key      string
	L1Range  [2]int
	Files    []string
	Commands []string
	// Concept is the concept memkeep proposes (its name).
	Concept string
	// Why says what made the exchange worth a record ("2 files edited",
	// "a failure, then a fix", "a rule the user stated", …).
	Why string
}

// worth says why an exchange is worth the agent's own record, or "" when
// it is not: edits, a failure followed by a fix, a rule the user stated,
// a correction, a decision. minEdits is the least number of changed files
// that counts on its own (the stop.min_edits setting).
func worth(e *l2.Exchange, minEdits int) string {
	var why []string
	if minEdits < 1 {
		minEdits = 1
	}
	if len(e.Files) >= minEdits {
		why = append(why, Plural(len(e.Files), "file")+" changed")
	}
	if e.Problem != "" && e.Fix != "" {
		why = append(why, "a failure, then a fix")
	}
	if e.Rule != "" {
		why = append(why, "a rule the user stated")
	}
	switch e.Type {
	case l2.TypeCorrection:
		why = append(why, "a correction")
	case l2.TypeDecision:
		why = append(why, "a decision")
	}
	return strings.Join(why, ", ")
}

// AskFor finds the exchange the Stop hook should ask the agent about: the
// session's newest exchange, when it is worth a record (worth) and no
// conscious record covers it yet. It returns nil when there is none.
func AskFor(l memdir.Layout, sessionID string, minEdits int) (*RecordAsk, error) {
	base, err := l2.BaseFor(l, sessionID)
	if err != nil {
		return nil, nil // no L1 yet: nothing to ask about
	}
	v, err := openView(l)
	if err != nil {
		return nil, err
	}
	defer v.saveIndex()
	s, err := v.session(base)
	if err != nil {
		return nil, err
	}
	var last *l2.Exchange
	for i := range s.Exchanges {
		e := &s.Exchanges[i]
		if e.Source == l2.Subconscious && (last == nil || e.L1Range[0] > last.L1Range[0]) {
			last = e
		}
	}
	if last == nil || recorded(s, last) {
		return nil, nil
	}
	why := worth(last, minEdits)
	if why == "" {
		return nil, nil
	}
	return newAsk(base, cmp.Or(s.SessionID, sessionID), last, why, v.concepts), nil
}

// newAsk is the request about last, the session's newest exchange, with
// the concept it is in or the one memkeep proposes.
func newAsk(base, sessionID string, last *l2.Exchange, why string, concepts *l3.File) *RecordAsk {
	ask := &RecordAsk{
		SessionID: sessionID, Exchange: last.ID, L1Range: last.L1Range,
		Files: last.Files, Commands: last.Commands, Why: why,
		Key: base + ":" + strconv.Itoa(last.L1Range[0]),
	}
	if c := concepts.Get(last.Concept); c != nil {
		ask.Concept = c.Name
	} else {
		ask.Concept = concepts.Propose(last).Name
	}
	return ask
}

// recorded reports whether a conscious record of the session is linked to
// e or covers its first L1 line.
func recorded(s *l2.File, e *l2.Exchange) bool {
	for _, c := range s.Exchanges {
		if c.Source != l2.Conscious {
			continue
		}
		if slices.Contains(c.Links, e.ID) || c.L1Range[0] > 0 && c.L1Range[0] <= e.L1Range[0] && e.L1Range[0] <= c.L1Range[1] {
			return true
		}
	}
	return false
}

// ErrNoTail means AskFromTail cannot tell from the L1 tail alone (no
// extraction state yet, or one that does not match the L1 file): the
// caller extracts first and asks AskFor.
var ErrNoTail = errors.New("no extraction state to read the L1 tail from")

// AskFromTail is AskFor without the session's L2 file: the exchange is
// extracted from the L1 lines after the last closed exchange (as Micro
// will extract it, with the same id), and only the L2 file's conscious
// records are read, to tell whether the agent recorded it already. Its
// cost follows the turn, not the session, so that a Stop can ask before
// the extraction is written (in the background). ErrNoTail when the
// state cannot be trusted.
func AskFromTail(l memdir.Layout, sessionID string, minEdits int) (*RecordAsk, error) {
	base, err := l2.BaseFor(l, sessionID)
	if err != nil {
		return nil, nil // no L1 yet: nothing to ask about
	}
	st := loadExtractState(l, base)
	if st == nil {
		return nil, ErrNoTail
	}
	data, _, release, err := fastfile.Map(l.L1File(base))
	if err != nil {
		return nil, ErrNoTail
	}
	defer release()
	if st.PrefixOff > int64(len(data)) || (st.PrefixOff > 0 && data[st.PrefixOff-1] != '\n') ||
		crc32.ChecksumIEEE(data[:st.PrefixOff]) != st.PrefixCRC {
		return nil, ErrNoTail
	}
	tail, _, _, err := l1.DecodeFrom(data, st.PrefixOff)
	if err != nil {
		return nil, ErrNoTail
	}
	var last *l2.Exchange
	xs := l2.ExtractFrom(tail, st.PrefixLines, base)
	for i := range xs {
		if last == nil || xs[i].L1Range[0] > last.L1Range[0] {
			last = &xs[i]
		}
	}
	if last == nil || last.Significance < l2.MinSignificance {
		return nil, nil
	}
	conscious, sid, err := consciousOf(l, base)
	if err != nil {
		return nil, err
	}
	if recorded(&l2.File{Exchanges: conscious}, last) {
		return nil, nil
	}
	why := worth(last, minEdits)
	if why == "" {
		return nil, nil
	}
	concepts, err := l3.Load(l.ConceptsFile())
	if err != nil {
		return nil, err
	}
	return newAsk(base, cmp.Or(sid, sessionID), last, why, concepts), nil
}

// consciousRecords reads only the conscious records of an L2 file, and
// its session id: the other records are skipped over, not decoded.
func consciousRecords(p string) (out []l2.Exchange, sessionID string, err error) {
	b, _, release, err := fastfile.Map(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer release()
	marker := []byte(`"source": "` + l2.Conscious + `"`)
	if !bytes.Contains(b, marker) {
		// No agent record (the usual case): a search, not a parse.
		return nil, headerString(b, "session_id"), nil
	}
	err = jsonscan.Members(b, func(key, val []byte) {
		switch string(key) {
		case "session_id":
			sessionID = jsonscan.String(val)
		case "exchanges":
			_ = jsonscan.Elements(val, func(el []byte) {
				if !bytes.Contains(el, marker) {
					return
				}
				var e l2.Exchange
				if l2.DecodeJSON(el, &e) == nil && e.Source == l2.Conscious {
					out = append(out, e)
				}
			})
		}
	})
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	return out, sessionID, nil
}

// headerString reads a string member from the first lines of an L2 file,
// where Encode writes the file's own members; "" when it is not there.
func headerString(b []byte, key string) string {
	head := b[:min(len(b), 1024)]
	i := bytes.Index(head, []byte(`"`+key+`": "`))
	if i < 0 {
		return ""
	}
	v := head[i+len(key)+5:]
	if j := bytes.IndexByte(v, '"'); j >= 0 {
		return string(v[:j])
	}
	return ""
}

// The conscious records of a session's L2 file are kept beside the
// extraction state, stamped with the file's metadata, each time memkeep
// writes the file: AskFromTail then reads a few hundred bytes instead of
// searching a long session's L2 file. A stamp that does not match (the
// file was written by other means: a merge, a pull) falls back to the
// search.
type consciousNote struct {
	Stamp     string        `json:"stamp"`
	SessionID string        `json:"session_id"`
	Records   []l2.Exchange `json:"records"`
}

func consciousPath(l memdir.Layout, base string) string {
	return filepath.Join(extractDir(l), base+".conscious")
}

// noteConscious records the conscious records of the L2 file just
// written at p. It is a cache: failing to write it costs a search.
func noteConscious(l memdir.Layout, base, p string, s *l2.File) {
	fi, err := os.Stat(p)
	if err != nil {
		return
	}
	n := consciousNote{Stamp: fastfile.Stamp(fi), SessionID: s.SessionID, Records: []l2.Exchange{}}
	for _, e := range s.Exchanges {
		if e.Source == l2.Conscious {
			n.Records = append(n.Records, l2.Exchange{ID: e.ID, Source: e.Source, Links: e.Links, L1Range: e.L1Range})
		}
	}
	b, err := json.Marshal(n)
	if err != nil {
		return
	}
	if os.MkdirAll(extractDir(l), 0o755) == nil {
		_ = atomicfile.WriteFile(consciousPath(l, base), b, 0o644)
	}
}

// consciousOf is the session's conscious records and session id, from the
// note when it matches the L2 file, else from the file.
func consciousOf(l memdir.Layout, base string) ([]l2.Exchange, string, error) {
	p := l.L2File(base)
	fi, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	if b, err := os.ReadFile(consciousPath(l, base)); err == nil {
		var n consciousNote
		if json.Unmarshal(b, &n) == nil && n.Stamp == fastfile.Stamp(fi) {
			return n.Records, n.SessionID, nil
		}
	}
	return consciousRecords(p)
}

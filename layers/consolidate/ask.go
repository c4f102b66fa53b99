package consolidate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/memkeep/memkeep/layers/l2"
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
	ask := &RecordAsk{
		SessionID: s.SessionID, Exchange: last.ID, L1Range: last.L1Range,
		Files: last.Files, Commands: last.Commands, Why: why,
		Key: base + ":" + strconv.Itoa(last.L1Range[0]),
	}
	if ask.SessionID == "" {
		ask.SessionID = sessionID
	}
	if c := v.concepts.Get(last.Concept); c != nil {
		ask.Concept = c.Name
	} else {
		ask.Concept = v.concepts.Propose(last).Name
	}
	return ask, nil
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

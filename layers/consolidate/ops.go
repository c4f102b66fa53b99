package consolidate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/scrub"
)

// locked runs fn on the memory loaded under the memory lock, waiting at
// most wait (LockWait when zero) for another memkeep process.
func locked[T any](l memdir.Layout, wait time.Duration, fn func(m *Memory) (T, error)) (T, error) {
	var zero T
	lk, err := Lock(l, cmpOr(wait, LockWait))
	if err != nil {
		return zero, err
	}
	defer lk.Unlock()
	m, err := Load(l)
	if err != nil {
		return zero, err
	}
	// A reviewer's edits of memory.md are carried into the memory before
	// anything else changes it.
	if m.digest, err = m.applyDigestEdits(time.Now()); err != nil {
		return zero, err
	}
	return fn(m)
}

// update runs fn on the loaded memory under the lock and saves what
// changed.
func update(l memdir.Layout, fn func(m *Memory) error) ([]string, error) {
	return locked(l, 0, func(m *Memory) ([]string, error) {
		if err := fn(m); err != nil {
			return nil, err
		}
		return m.Save()
	})
}

// ResolveSession finds the session a command means: the given id or stem,
// else the session whose L1 changed last (the one the agent is in).
func ResolveSession(l memdir.Layout, sessionID string) (string, error) {
	if sessionID != "" {
		return l2.BaseFor(l, sessionID)
	}
	return l2.Latest(l)
}

// AddL2 is `memkeep l2 add`: a conscious record for a session, validated
// (the range is required), verified against the session's L1, merged
// into a near-duplicate or added, and converged.
func AddL2(l memdir.Layout, sessionID string, in l2.Input, now time.Time) (l2.AddResult, error) {
	if err := in.Validate(true); err != nil {
		return l2.AddResult{}, err
	}
	return addConscious(l, sessionID, in, now)
}

// Conscious kinds of memkeep remember, learn and decide.
const (
	KindRemember = "remember"
	KindLearn    = "learn"
	KindDecide   = "decide"
)

// Remember is `memkeep remember|learn|decide TEXT [--why W] [--file F]`:
// an explicit memory from the agent or the user, tied to the session by
// its time rather than by L1 lines. A remembered "always …" or "never …"
// is also observed as a rule.
func Remember(l memdir.Layout, sessionID, kind, text, why string, files []string, now time.Time) (l2.AddResult, error) {
	in := l2.Input{Summary: text, Details: why, Files: files}
	switch kind {
	case KindRemember:
		in.Type, in.Tags = l2.TypeInsight, []string{"remember"}
	case KindLearn:
		in.Type, in.Tags = l2.TypeInsight, []string{"learned"}
	case KindDecide:
		in.Type, in.Tags = l2.TypeDecision, []string{"decision"}
	default:
		return l2.AddResult{}, fmt.Errorf("unknown kind %q: use remember, learn or decide", kind)
	}
	if err := in.Validate(false); err != nil {
		return l2.AddResult{}, err
	}
	return addConscious(l, sessionID, in, now)
}

// scrubInput scrubs what a person or an agent writes into memory as
// transcripts are scrubbed: no secret, no machine path. (The layers below
// store what they are given: this is the one place such text comes in.)
func scrubInput(l memdir.Layout, in l2.Input) l2.Input {
	text := func(s string) string { return scrub.Text(s, l.Root) }
	all := func(list []string, f func(string) string) []string {
		if list == nil {
			return nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = f(s)
		}
		return out
	}
	in.Summary, in.Details, in.Lines = text(in.Summary), text(in.Details), text(in.Lines)
	in.File = scrub.Path(in.File, l.Root)
	in.Files = all(in.Files, func(p string) string { return scrub.Path(p, l.Root) })
	in.Keywords, in.Tags = all(in.Keywords, text), all(in.Tags, text)
	in.Why, in.Decision, in.Concept = text(in.Why), text(in.Decision), text(in.Concept)
	in.Learned, in.Commands = all(in.Learned, text), all(in.Commands, text)
	return in
}

func addConscious(l memdir.Layout, sessionID string, in l2.Input, now time.Time) (l2.AddResult, error) {
	in = scrubInput(l, in)
	if sessionID == "" {
		sessionID = in.Session
	}
	base, err := ResolveSession(l, sessionID)
	if err != nil {
		return l2.AddResult{}, err
	}
	if in.Exchange != "" {
		// The Stop that asked for this record may have left the extraction
		// to its background run: memkeep's record of the exchange is made
		// here if that run has not made it yet.
		if _, err := Micro(l, base, Options{}); err != nil {
			return l2.AddResult{}, err
		}
	}
	var res l2.AddResult
	_, err = update(l, func(m *Memory) error {
		recs, err := readL1(l, base)
		if err != nil {
			return err
		}
		onDisk := func(f string) bool {
			_, err := os.Stat(filepath.Join(l.Root, filepath.FromSlash(f)))
			return err == nil
		}
		s := m.Session(base)
		rec, err := in.Split(recs)
		if err != nil {
			return err
		}
		if in.Exchange != "" {
			own := s.Find(in.Exchange)
			if own == nil || own.Source != l2.Subconscious {
				return &l2.ValidationError{Problems: []l2.FieldError{{Field: "exchange", Problem: fmt.Sprintf("%q is not memkeep's record of an exchange of this session: leave the id the request gave, or remove the field", in.Exchange)}}, Example: l2.ExampleRecord}
			}
			if rec.Exchange.Type == "" {
				// The agent's record is of the exchange memkeep typed: an
				// iteration, a correction, a failure and its fix.
				rec.Exchange.Type = own.Type
			}
		}
		for _, x := range append([]l2.Input{rec.Exchange}, rec.Facts...) {
			if err := x.Verify(recs, onDisk); err != nil {
				return err
			}
		}
		if n := len(s.Facts) + len(rec.Facts); len(rec.Facts) > 0 && n > l2.MaxFacts {
			return fmt.Errorf("%w: this session has %d facts and the record adds %d, over the %d kept per session: keep the ones a later session needs most", l2.ErrTooManyFacts, len(s.Facts), len(rec.Facts), l2.MaxFacts)
		}
		if res, err = s.Add(rec.Exchange, now); err != nil {
			return err
		}
		ids := []string{res.ID}
		for _, f := range rec.Facts {
			fr, err := s.Add(f, now)
			if err != nil {
				return err
			}
			ids = append(ids, fr.ID)
		}
		if rule, ok := l2.RuleStatement(in.Summary); ok {
			m.Facts.Observe(s.SessionID, rule, now)
		}
		if in.Concept != "" {
			if e := s.Find(res.ID); e != nil {
				ids = append(ids, e.Links...)
			}
			return m.assignNamed(s, ids, scrub.Text(in.Concept, l.Root))
		}
		return nil
	})
	return res, err
}

// assignNamed puts the records ids of session s into the concept the
// agent named: an existing concept by id or by a close name, or a new one.
func (m *Memory) assignNamed(s *l2.File, ids []string, name string) error {
	id := ""
	if m.Concepts.Get(name) != nil {
		id = name
	} else {
		c, err := m.Concepts.Create(name)
		var dup *l3.DuplicateError
		switch {
		case errors.As(err, &dup):
			id = dup.Existing.ID
		case err != nil:
			return &l2.ValidationError{Problems: []l2.FieldError{{Field: "concept", Problem: err.Error()}}, Example: l2.ExampleRecord}
		default:
			id = c.ID
		}
	}
	left := map[string]bool{} // the concepts the records leave
	for _, x := range ids {
		if e := s.Find(x); e != nil {
			if e.Concept != "" && e.Concept != id {
				left[e.Concept] = true
			}
			if err := m.Concepts.Assign(e, id); err != nil {
				return err
			}
		}
	}
	// A concept memkeep proposed for them and that nothing else is in
	// goes: the agent named a better one.
	m.Concepts.Concepts = slices.DeleteFunc(m.Concepts.Concepts, func(c l3.Concept) bool { return left[c.ID] && len(c.Exchanges) == 0 })
	byID, _ := m.Exchanges()
	m.Concepts.Refresh(byID)
	return nil
}

// AssignResult says what Assign did.
type AssignResult struct {
	Exchange string
	Concept  l3.Concept
	Created  bool
}

// Assign is `memkeep l3 assign EXCHANGE --concept ID | --new NAME`. A new
// name close to an existing concept is refused with an error that names
// the existing one (an *l3.DuplicateError).
func Assign(l memdir.Layout, exchangeID, conceptID, newName string) (AssignResult, error) {
	if (conceptID == "") == (newName == "") {
		return AssignResult{}, errors.New("give exactly one of --concept ID (an existing concept) or --new NAME (a new one)")
	}
	var res AssignResult
	_, err := update(l, func(m *Memory) error {
		byID, _ := m.Exchanges()
		e := byID[exchangeID]
		if e == nil {
			return fmt.Errorf("no L2 record %s: memkeep status lists the records of the session still without a concept", exchangeID)
		}
		id := conceptID
		if newName != "" {
			// Scrubbed before Create folds and slugs it: a folded key is
			// still the key, and the name reaches memory.md and commits.
			c, err := m.Concepts.Create(scrub.Text(newName, l.Root))
			if err != nil {
				return err
			}
			id, res.Created = c.ID, true
		}
		if err := m.Concepts.Assign(e, id); err != nil {
			return err
		}
		m.Concepts.Refresh(byID)
		res.Exchange, res.Concept = exchangeID, *m.Concepts.Get(id)
		return nil
	})
	return res, err
}

// AddRule is `memkeep l4 add-rule TEXT`; memory.md is rendered again.
func AddRule(l memdir.Layout, text string, now time.Time) (*l4.Rule, bool, error) {
	var r *l4.Rule
	var added bool
	_, err := update(l, func(m *Memory) error {
		var err error
		rr, a, err := m.Facts.AddRule(scrub.Text(text, l.Root), now)
		if err != nil {
			return err
		}
		cp := *rr
		r, added = &cp, a
		_, _, err = m.writeDigest()
		return err
	})
	return r, added, err
}

// Forget is `memkeep forget ID --reason R`: it removes a rule, solution,
// core-logic item, concept or L2 record, and keeps the removal with its
// reason in facts.json's history.
func Forget(l memdir.Layout, id, reason string, now time.Time) (l4.Forgotten, error) {
	reason = scrub.Text(reason, l.Root) // kept in facts.json's history
	var fg l4.Forgotten
	_, err := update(l, func(m *Memory) error {
		var err error
		switch {
		case strings.HasPrefix(id, "c-"):
			fg, err = m.forgetConcept(id, reason, now)
		case strings.HasPrefix(id, "x-"), strings.HasPrefix(id, "f-"):
			fg, err = m.forgetRecord(id, reason, now)
		default:
			fg, err = m.Facts.Forget(id, reason, now)
		}
		if err != nil {
			return err
		}
		_, _, err = m.writeDigest()
		return err
	})
	return fg, err
}

func (m *Memory) forgetConcept(id, reason string, now time.Time) (l4.Forgotten, error) {
	if strings.TrimSpace(reason) == "" {
		return l4.Forgotten{}, fmt.Errorf("forgetting %s needs a reason (--reason …): the history keeps it", id)
	}
	c := m.Concepts.Get(id)
	if c == nil {
		return l4.Forgotten{}, fmt.Errorf("%w: no concept %s", l4.ErrNotFound, id)
	}
	fg := l4.Forgotten{ID: id, Text: c.Name + ": " + c.Summary, Reason: reason, Time: l2.Timestamp(now)}
	byID, _ := m.Exchanges()
	for _, x := range c.Exchanges {
		if e := byID[x]; e != nil {
			e.Concept = ""
		}
	}
	var keep []l3.Concept
	for _, x := range m.Concepts.Concepts {
		if x.ID != id {
			keep = append(keep, x)
		}
	}
	m.Concepts.Concepts = keep
	m.Facts.Record(fg)
	return fg, nil
}

func (m *Memory) forgetRecord(id, reason string, now time.Time) (l4.Forgotten, error) {
	if strings.TrimSpace(reason) == "" {
		return l4.Forgotten{}, fmt.Errorf("forgetting %s needs a reason (--reason …): the history keeps it", id)
	}
	byID, owner := m.Exchanges()
	e := byID[id]
	if e == nil {
		return l4.Forgotten{}, fmt.Errorf("%w: no L2 record %s", l4.ErrNotFound, id)
	}
	fg := l4.Forgotten{ID: id, Text: e.Summary, Reason: reason, Time: l2.Timestamp(now)}
	s := owner[id]
	drop := func(list []l2.Exchange) []l2.Exchange {
		var out []l2.Exchange
		for _, x := range list {
			if x.ID != id {
				out = append(out, x)
			}
		}
		return out
	}
	s.Exchanges, s.Facts = drop(s.Exchanges), drop(s.Facts)
	// A subconscious record would come back from L1 on the next
	// extraction: the history entry is what keeps it out (Update skips
	// forgotten ids).
	m.Facts.Record(fg)
	m.Concepts.Refresh(func() map[string]*l2.Exchange { b, _ := m.Exchanges(); return b }())
	return fg, nil
}

// RecordPrompt keeps an explicit memory request of a user prompt
// ("remember …", "always …", "never …", "from now on …") as an L4 rule
// candidate, at once, and reports whether the prompt was one. The
// statement is keyed as reflection will key it, so it counts once.
func RecordPrompt(l memdir.Layout, sessionID, prompt string, now time.Time) ([]string, error) {
	// Scrubbed as L1 scrubs the prompt, so that reflection, which reads it
	// from L1, finds the same statement and counts it once.
	rules := l2.PromptRules(scrub.Text(prompt, l.Root))
	if len(rules) == 0 {
		return nil, nil
	}
	_, err := update(l, func(m *Memory) error {
		for _, rule := range rules {
			m.Facts.Observe(sessionID, rule, now)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rules, nil
}

package consolidate

import (
	"errors"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
)

// TestAgentsRecordOfAnExchange follows the Stop hook's request through
// the layers: Settle gives the exchange memkeep's concept, AskFor
// prefills the request, a record still holding a placeholder is refused
// with the field named, and the agent's record is linked to memkeep's,
// keeps its facts, moves the records to the concept it names (the
// proposal left empty goes) and speaks for the exchange; then nothing is
// asked about it again.
func TestAgentsRecordOfAnExchange(t *testing.T) {
	l := project(t)
	const sid = "abcd1234-0000-4000-8000-000000000000"
	if _, err := Micro(l, sid, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Settle(l, sid, Options{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := Pending(l, sid); !st.Done() {
		t.Fatalf("Settle left work for the agent: %+v", st.Layers)
	}
	ask, err := AskFor(l, sid, 1)
	if err != nil || ask == nil {
		t.Fatalf("AskFor = %+v, %v: an edit after a failing test is worth a record", ask, err)
	}
	if ask.SessionID != sid || ask.L1Range != [2]int{1, 6} || len(ask.Files) != 1 || ask.Files[0] != "auth/token.go" ||
		!strings.Contains(ask.Why, "a failure, then a fix") || ask.Concept == "" {
		t.Errorf("the request is not prefilled with what memkeep knows: %+v", ask)
	}
	proposed := ask.Concept

	in := l2.Input{Session: sid, Exchange: ask.Exchange, L1Range: ask.L1Range, Files: ask.Files,
		Summary: l2.Placeholders.Summary, Why: "Tokens expired after an hour and the handler checked too late",
		Keywords: []string{l2.Placeholders.Keywords}, Concept: "session-tokens"}
	_, err = AddL2(l, "", in, clock)
	var ve *l2.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "summary: still holds the placeholder") || !strings.Contains(err.Error(), "keywords[0]: still holds the placeholder") {
		t.Fatalf("a record with placeholders: %v, want both fields named", err)
	}

	in.Summary = "Login 401s: tokens are now refreshed in the middleware, before the handler"
	in.Keywords = []string{"auth", "401", "token refresh", "session expiry"}
	in.Learned = []string{"auth/token.go refreshes an expired token before the handler runs", "The middleware order matters for every auth check"}
	res, err := AddL2(l, "", in, clock)
	if err != nil {
		t.Fatal(err)
	}
	if res.Linked != ask.Exchange {
		t.Errorf("the agent's record is linked to %q, want memkeep's record %s", res.Linked, ask.Exchange)
	}
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Session(base)
	rec, own := s.Find(res.ID), s.Find(ask.Exchange)
	if rec.Source != l2.Conscious || !rec.Convergent || !own.Convergent || rec.Type != own.Type {
		t.Errorf("records: agent's %+v, memkeep's %+v", rec, own)
	}
	if !strings.HasPrefix(rec.Details, "Why: Tokens expired") {
		t.Errorf("the why is not kept: %q", rec.Details)
	}
	if len(s.Facts) != 2 || s.Facts[0].File != "auth/token.go" || s.Facts[1].File != "auth/token.go" {
		t.Errorf("learned facts: %+v, want two, both on auth/token.go (named, or the record's file)", s.Facts)
	}
	var names []string
	for _, c := range m.Concepts.Concepts {
		names = append(names, c.Name)
	}
	c := m.Concepts.Get(rec.Concept)
	if c == nil || c.Name != "session-tokens" || own.Concept != rec.Concept || !strings.HasPrefix(c.Summary, in.Summary) {
		t.Errorf("concept of the agent's record: %+v (memkeep's record in %s)", c, own.Concept)
	}
	if proposed != "session-tokens" && len(names) != 1 {
		t.Errorf("the proposed concept %q, now empty, was kept: %v", proposed, names)
	}
	if vs := l2.Voiced(s.Exchanges); len(vs) != 1 || vs[0].Summary != in.Summary || len(vs[0].Commands) == 0 {
		t.Errorf("readers see %+v, want the agent's record with memkeep's commands", vs)
	}
	if again, err := AskFor(l, sid, 1); again != nil || err != nil {
		t.Errorf("asked again about a recorded exchange: %+v, %v", again, err)
	}
}

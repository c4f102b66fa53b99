package consolidate

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l1"
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

// TestAskFromTailAgreesWithAskFor: the request a Stop makes from the L1
// tail alone, before the extraction is written, names the exchange and
// prefills it as AskFor does once it is; a recorded exchange is not asked
// about again.
func TestAskFromTailAgreesWithAskFor(t *testing.T) {
	l := project(t)
	const sid = "abcd1234-0000-4000-8000-000000000000"
	if _, err := AskFromTail(l, sid, 1); !errors.Is(err, ErrNoTail) {
		t.Fatalf("before any extraction: %v, want ErrNoTail", err)
	}
	if _, err := Micro(l, sid, Options{}); err != nil {
		t.Fatal(err)
	}
	same := func(a, b *RecordAsk) bool {
		return a != nil && b != nil && a.Exchange == b.Exchange && a.Key == b.Key && a.L1Range == b.L1Range &&
			a.Why == b.Why && a.SessionID == b.SessionID && strings.Join(a.Files, ",") == strings.Join(b.Files, ",") &&
			strings.Join(a.Commands, ",") == strings.Join(b.Commands, ",")
	}
	tail, err := AskFromTail(l, sid, 1)
	full, err2 := AskFor(l, sid, 1)
	if err != nil || err2 != nil || !same(tail, full) {
		t.Fatalf("from the tail %+v (%v), from L2 %+v (%v)", tail, err, full, err2)
	}

	// A new turn, not extracted yet.
	f, err := os.OpenFile(l.L1File(base), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(l1.Encode([]l1.Record{
		{TS: "2026-03-01T11:00:00.000Z", Kind: l1.KindPrompt, Text: "the cart total is wrong for two items"},
		{TS: "2026-03-01T11:01:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "cart/cart.go", Lines: "10-12", Diff: "+1 -1 for i := 0"},
		{TS: "2026-03-01T11:02:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./cart", Exit: intp(0)},
		{TS: "2026-03-01T11:03:00.000Z", Kind: l1.KindText, Text: "Fixed: the loop skipped the first price."},
	}))
	f.Close()
	tail, err = AskFromTail(l, sid, 1)
	if err != nil || tail == nil || tail.L1Range[0] != 7 || len(tail.Files) != 1 || tail.Files[0] != "cart/cart.go" {
		t.Fatalf("the new turn from the tail: %+v, %v", tail, err)
	}
	if _, err := Micro(l, sid, Options{}); err != nil {
		t.Fatal(err)
	}
	if full, err := AskFor(l, sid, 1); err != nil || !same(tail, full) {
		t.Fatalf("after extraction AskFor = %+v (%v), the tail said %+v", full, err, tail)
	}

	// Another turn; the agent records it before any extraction ran (the
	// Stop left it to its background run): the record still links
	// memkeep's, which the agent's command makes first.
	f, err = os.OpenFile(l.L1File(base), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(l1.Encode([]l1.Record{
		{TS: "2026-03-01T12:00:00.000Z", Kind: l1.KindPrompt, Text: "round the cart total half up"},
		{TS: "2026-03-01T12:01:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "cart/round.go", Lines: "3-9", Diff: "+4 -1 math.Round"},
		{TS: "2026-03-01T12:02:00.000Z", Kind: l1.KindText, Text: "Done: totals round half up."},
	}))
	f.Close()
	tail, err = AskFromTail(l, sid, 1)
	if err != nil || tail == nil || tail.L1Range[0] != 11 {
		t.Fatalf("the third turn from the tail: %+v, %v", tail, err)
	}
	in := l2.Input{Session: sid, Exchange: tail.Exchange, L1Range: tail.L1Range, Files: tail.Files,
		Summary: "Cart totals now round half up", Keywords: []string{"cart", "rounding"}}
	res, err := AddL2(l, "", in, clock)
	if err != nil || res.Linked != tail.Exchange {
		t.Fatalf("the agent's record before extraction: %+v, %v", res, err)
	}
	if again, err := AskFromTail(l, sid, 1); again != nil || err != nil {
		t.Fatalf("asked again about a recorded exchange: %+v, %v", again, err)
	}
}

package consolidate

import (
	"github.com/memkeep/memkeep/layers/recall"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/memdir"
)

func intp(i int) *int { return &i }

var clock = time.Date(2026, 3, 1, 10, 6, 0, 0, time.UTC)

const base = "2026-03-01_1000_abcd1234"

// project makes a work tree with one session's L1.
func project(t *testing.T) memdir.Layout {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := memdir.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := []l1.Record{
		{TS: "2026-03-01T10:00:00.000Z", Kind: l1.KindPrompt, Text: "login fails with 401 after an hour"},
		{TS: "2026-03-01T10:01:00.000Z", Kind: l1.KindTool, Tool: "Read", File: "auth/token.go", Lines: "1-80"},
		{TS: "2026-03-01T10:02:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(1), Res: "token expired"},
		{TS: "2026-03-01T10:03:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "auth/token.go", Lines: "40-52", Diff: "+6 -1 if tok.Expired() {"},
		{TS: "2026-03-01T10:04:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(0)},
		{TS: "2026-03-01T10:05:00.000Z", Kind: l1.KindText, Text: "I'll refresh tokens in the middleware because the handler runs too late."},
	}
	if err := os.MkdirAll(l.SessionsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.L1File(base), l1.Encode(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	return l
}

func layer(t *testing.T, st Status, name string) LayerStatus {
	t.Helper()
	for _, l := range st.Layers {
		if l.Layer == name {
			return l
		}
	}
	t.Fatalf("no layer %s in %+v", name, st)
	return LayerStatus{}
}

func TestStopFlow(t *testing.T) {
	l := project(t)
	st, err := Pending(l, "abcd1234-0000-4000-8000-000000000000")
	if err != nil {
		t.Fatal(err)
	}
	l2s := layer(t, st, "L2")
	if l2s.OK || !strings.Contains(l2s.Detail, "1-6") || l2s.Commands[0] != "memkeep consolidate --session abcd1234-0000-4000-8000-000000000000" ||
		!strings.Contains(l2s.Commands[1], "memkeep l2 add --session abcd1234-0000-4000-8000-000000000000 --range 1-6 --summary 'login fails with 401 after an hour'") {
		t.Errorf("L2 before extraction: %+v", l2s)
	}

	sum, err := Micro(l, "abcd1234-0000-4000-8000-000000000000", Options{})
	if err != nil || sum.Added != 1 {
		t.Fatalf("Micro = %+v, %v", sum, err)
	}
	st, _ = Pending(l, "abcd1234")
	if !layer(t, st, "L2").OK || layer(t, st, "L4").OK || layer(t, st, "memory.md").OK {
		t.Errorf("after Micro: %+v", st.Layers)
	}
	l3s := layer(t, st, "L3")
	if l3s.OK || len(l3s.Commands) != 1 || !strings.Contains(l3s.Commands[0], "memkeep l3 assign x-") || !strings.Contains(l3s.Commands[0], "--new ") {
		t.Fatalf("L3 after Micro: %+v", l3s)
	}
	// The agent runs the proposed command as it is.
	fields := strings.Fields(l3s.Commands[0])
	if _, err := Assign(l, fields[3], "", strings.Trim(fields[5], "'")); err != nil {
		t.Fatal(err)
	}
	if _, err := Reflect(l); err != nil {
		t.Fatal(err)
	}
	st, _ = Pending(l, "abcd1234")
	if !st.Done() {
		t.Fatalf("after assign and reflect, still pending: %+v", st.Layers)
	}

	// Nothing new: consolidation writes nothing.
	sum, err = Consolidate(l, Options{})
	if err != nil || sum.Changed() {
		t.Errorf("idle consolidation wrote %v (%v)", sum.Written, err)
	}
	sum, err = Consolidate(l, Options{Deep: true})
	if err != nil || sum.Changed() {
		t.Errorf("idle deep consolidation wrote %v (%v)", sum.Written, err)
	}

	// A conscious note made right after the exchange converges with it.
	res, err := Remember(l, "", KindLearn, "Expired tokens caused the 401s on login", "the handler checked too late", nil, clock)
	if err != nil || res.Linked == "" {
		t.Errorf("Remember = %+v, %v; want a link to the extracted exchange", res, err)
	}
	st, _ = Pending(l, "abcd1234")
	if layer(t, st, "L4").OK || layer(t, st, "L3").OK {
		t.Errorf("a new conscious record left L3/L4 complete: %+v", st.Layers)
	}
}

func TestRecordPromptAndForget(t *testing.T) {
	l := project(t)
	rules, err := RecordPrompt(l, "abcd1234-0000", "From now on, always run gofmt before committing. Then fix the test.", clock)
	if err != nil || len(rules) != 1 || rules[0] != "Always run gofmt before committing." {
		t.Fatalf("RecordPrompt = %q, %v", rules, err)
	}
	if rules, _ := RecordPrompt(l, "abcd1234-0000", "why does it always fail?", clock); len(rules) != 0 {
		t.Error("a question was taken for a rule")
	}
	m, _ := Load(l)
	if len(m.Facts.Rules) != 1 || m.Facts.Rules[0].Text != "Always run gofmt before committing." || !m.Facts.Rules[0].Promoted || m.Facts.Rules[0].Confidence != 1 {
		t.Fatalf("rules = %+v; want one rule, at once, confidence 1", m.Facts.Rules)
	}
	id := m.Facts.Rules[0].ID
	if _, err := Forget(l, id, "", clock); err == nil {
		t.Error("forget without a reason succeeded")
	}
	if _, err := Forget(l, id, "we use goimports now", clock); err != nil {
		t.Fatal(err)
	}
	m, _ = Load(l)
	if len(m.Facts.Rules) != 0 || len(m.Facts.Forgotten) != 1 || m.Facts.Forgotten[0].Reason != "we use goimports now" {
		t.Errorf("after forget: rules %+v, history %+v", m.Facts.Rules, m.Facts.Forgotten)
	}
	// A later statement of the opposite supersedes a rule.
	RecordPrompt(l, "abcd1234-0000", "Always squash commits before merging.", clock)
	RecordPrompt(l, "abcd1234-0000", "Never squash commits before merging.", clock.Add(time.Minute))
	m, _ = Load(l)
	var texts []string
	for _, r := range m.Facts.Rules {
		texts = append(texts, r.Text)
	}
	if len(texts) != 1 || texts[0] != "Never squash commits before merging." || !strings.Contains(m.Facts.Forgotten[len(m.Facts.Forgotten)-1].Reason, "superseded") {
		t.Errorf("after the contradiction: rules %q, history %+v", texts, m.Facts.Forgotten)
	}
	Forget(l, m.Facts.Rules[0].ID, "test done", clock)
	// The same statement, extracted from L1 later, does not bring it back.
	if _, err := Reflect(l); err != nil {
		t.Fatal(err)
	}
	rules, _ = RecordPrompt(l, "abcd1234-0000", "From now on, always run gofmt before committing.", clock)
	m, _ = Load(l)
	if len(rules) != 1 || len(m.Facts.Rules) != 0 {
		t.Errorf("forgotten rule came back: %+v", m.Facts.Rules)
	}
}

func TestContextBudgetAndRecall(t *testing.T) {
	l := project(t)
	if _, err := Consolidate(l, Options{Deep: true}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := AddRule(l, "Never log tokens, even redacted.", clock); err != nil {
		t.Fatal(err)
	}
	m, _ := Load(l)
	for _, budget := range []int{40, 120, 6000} {
		ctx, _, err := ContextWithSources(l, contextOpts(budget, []string{"auth/token.go"}))
		if err != nil || len(ctx) > budget {
			t.Errorf("budget %d: %d chars (%v)", budget, len(ctx), err)
		}
		if budget == 6000 && (!strings.Contains(ctx, "Never log tokens") || !strings.Contains(ctx, "login fails")) {
			t.Errorf("full context lacks the rule or the exchange:\n%s", ctx)
		}
	}
	// The consolidated memory is what recall finds: the rule, the exchange.
	if err := recall.Build(l); err != nil {
		t.Fatal(err)
	}
	ix, err := recall.Open(l, "")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	hits := ix.Search("why does login return 401 for expired tokens", recall.Options{Threshold: 0.3, Max: 3})
	if len(hits) == 0 {
		t.Fatal("recall finds nothing about the login failure")
	}
	if hits := ix.Search("render the dashboard chart colours", recall.Options{Threshold: 0.3, Max: 3}); len(hits) != 0 {
		t.Errorf("an unrelated query recalled %+v", hits)
	}
	_ = m
}

// TestArgumentDoorsAreScrubbed: a concept name and a forget reason are
// people's words reaching committed memory: their secrets are redacted
// before the name is folded and slugged (a lower-cased key is still the
// key) and before the reason is kept.
func TestArgumentDoorsAreScrubbed(t *testing.T) {
	l := project(t)
	if _, err := Micro(l, "abcd1234-0000-4000-8000-000000000000", Options{}); err != nil {
		t.Fatal(err)
	}
	m, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, s := range m.Sessions {
		for _, e := range s.Exchanges {
			id = e.ID
		}
	}
	if id == "" {
		t.Fatal("no exchange extracted")
	}
	const key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	res, err := Assign(l, id, "", "DD_API_KEY="+key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Forget(l, res.Concept.ID, "contains AKIAIOSFODNN7EXAMPLX and DD_API_KEY="+key, clock); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{l.ConceptsFile(), l.FactsFile(), l.DigestFile()} {
		b, _ := os.ReadFile(f)
		if s := strings.ToLower(string(b)); strings.Contains(s, key[:12]) || strings.Contains(s, "akiaiosfodnn7") {
			t.Errorf("%s keeps a secret given as an argument:\n%s", f, b)
		}
	}
}

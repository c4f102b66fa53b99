package l3

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l2/terms"
)

func TestCreateRefusesNearDuplicates(t *testing.T) {
	f := &File{}
	auth, err := f.Create("authentication")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Authentication", "auth", "authentications", "authenticaton"} {
		_, err := f.Create(name)
		var dup *DuplicateError
		if !errors.As(err, &dup) || dup.Existing.ID != auth.ID {
			t.Errorf("Create(%q) = %v, want a DuplicateError naming %s", name, err, auth.ID)
		}
	}
	if _, err := f.Create("session-sync"); err != nil {
		t.Errorf("a distinct name was refused: %v", err)
	}
	if ConceptID("Session Sync") != ConceptID("session-sync") {
		t.Error("the same name in another spelling gave another id")
	}
}

func TestProposeAndAssign(t *testing.T) {
	f := &File{}
	c, _ := f.Create("auth")
	e1 := &l2.Exchange{ID: "x-1", Summary: "Refresh expired tokens", Files: []string{"auth/token.go"}, Keywords: []string{"token", "expir"}}
	if err := f.Assign(e1, c.ID); err != nil {
		t.Fatal(err)
	}
	f.Refresh(map[string]*l2.Exchange{"x-1": e1})
	e2 := &l2.Exchange{ID: "x-2", Summary: "Token audience check", Files: []string{"auth/claims.go"}, Keywords: []string{"token", "audienc"}}
	if p := f.Propose(e2); p.ConceptID != c.ID || p.Score < ProposeThreshold {
		t.Errorf("Propose(similar) = %+v, want %s", p, c.ID)
	}
	e3 := &l2.Exchange{ID: "x-3", Summary: "Render the dashboard chart", Files: []string{"web/dashboard/chart.tsx"}}
	if p := f.Propose(e3); !p.New() || p.Name == "" {
		t.Errorf("Propose(unrelated) = %+v, want a new name", p)
	}
	if err := f.Assign(e2, "c-missing"); err == nil {
		t.Error("assigning to a missing concept succeeded")
	}
}

func TestSuggestNamePrefersTheFileWord(t *testing.T) {
	e := &l2.Exchange{Summary: "The cart total is wrong for two items: 100 + 250 gives 250.", Files: []string{"cart/cart.go"}}
	if got := SuggestName(e, nil); got != "cart" {
		t.Fatalf("got %q, want cart (a passing summary word is no part of a concept name)", got)
	}
	e = &l2.Exchange{Summary: "Tighten upload validation", Files: []string{"upload/validate.go", "upload/validate_test.go"}}
	if got := SuggestName(e, nil); got != "upload-validate" {
		t.Fatalf("got %q, want upload-validate", got)
	}
}

// TestConceptNamesAreAboutTheWork: a concept is never named after a
// folder every project has, a verb or adverb of how work is told, or a
// word found in most of the project's exchanges (its own name).
func TestConceptNamesAreAboutTheWork(t *testing.T) {
	e := &l2.Exchange{Summary: "Noted: I will always run go vet before calling a change done.", Files: nil}
	if got := SuggestName(e, nil); genericName[got] || got == "before" || got == "always" {
		t.Errorf("named %q after a word of how the work was told", got)
	}
	// A contraction typed without its apostrophe is a stop word too.
	for _, summary := range []string{"mix phx.server doesnt seem to start", "the server doesn’t start", "it isnt working, dont know why"} {
		if got := SuggestName(&l2.Exchange{Summary: summary}, nil); strings.Contains(got, "doesn") || strings.Contains(got, "isnt") || strings.Contains(got, "dont") || strings.Contains(got, "seem") {
			t.Errorf("%q named %q", summary, got)
		}
	}
	var all []*l2.Exchange
	for _, f := range []string{"lib/spotter/transcripts/renderer.ex", "lib/spotter/hooks/registry.ex", "lib/spotter_web/live/session_live.ex",
		"lib/spotter/otel/tracer.ex", "lib/spotter_web/live/dashboard_live.ex", "lib/spotter/review/annotation.ex",
		"lib/spotter/sync/ingest.ex", "lib/spotter/terminal/channel.ex"} {
		all = append(all, &l2.Exchange{Summary: "feat: work on spotter (spotter-a0y.1)", Files: []string{f}})
	}
	f := &File{Common: CommonWords(all)}
	if !f.Common[terms.Words("spotter")[0]] {
		t.Fatalf("the project's name, in every exchange, is not common: %v", f.Common)
	}
	if got := f.Propose(all[0]).Name; strings.Contains(got, "spotter") || strings.Contains(got, "lib") || !strings.Contains(got, "renderer") && !strings.Contains(got, "transcript") {
		t.Errorf("lib/spotter/transcripts/renderer.ex proposed %q, want a name from transcripts/renderer", got)
	}
}

// TestDocumentsNameNoConcept: an exchange that wrote a plan is named by
// what the plan is about, not "plan".
func TestDocumentsNameNoConcept(t *testing.T) {
	e := &l2.Exchange{Summary: "Plan the credo and dialyzer setup for the credo checks", Files: []string{"plan.md"}}
	if got := SuggestName(e, nil); strings.Contains(got, "plan") {
		t.Errorf("SuggestName = %q, named after the document", got)
	}
}

// TestProposeAmongResistsAMagnet: a concept that once took in a piece of
// other work (one tracing change among annotation work) draws a new
// exchange by how alike it is to its members, not by the union of their
// files and words: more tracing work starts a concept of its own, while
// more annotation work joins the annotation concept.
func TestProposeAmongResistsAMagnet(t *testing.T) {
	f := &File{}
	c, err := f.Create("annotations")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*l2.Exchange{}
	members := []*l2.Exchange{
		{ID: "x-1", Summary: "Add annotation lifecycle state", Files: []string{"lib/app/annotations/annotation.ex"}, Keywords: []string{"annotat", "lifecycl", "state"}},
		{ID: "x-2", Summary: "Annotation message references", Files: []string{"lib/app/annotations/annotation_ref.ex"}, Keywords: []string{"annotat", "messag", "refer"}},
		{ID: "x-3", Summary: "Close annotations from the review page", Files: []string{"lib/app/annotations/annotation.ex", "lib/app_web/review_live.ex"}, Keywords: []string{"annotat", "review", "close"}},
		{ID: "x-4", Summary: "Trace the review page's rendering", Files: []string{"lib/app/telemetry/tracer_setup.ex"}, Keywords: []string{"trace", "span", "tracer"}},
	}
	for _, m := range members {
		byID[m.ID] = m
		if err := f.Assign(m, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	tracing := &l2.Exchange{ID: "x-5", Summary: "Trace the job workers with spans", Files: []string{"lib/app/telemetry/tracer_setup.ex", "lib/app/telemetry/job_spans.ex"}, Keywords: []string{"trace", "span", "tracer"}}
	if p := f.Propose(tracing); p.New() {
		t.Logf("the union-based proposal no longer joins the magnet (score %.2f): the test's premise changed", p.Score)
	}
	if p := f.ProposeAmong(tracing, NewMembers(byID)); !p.New() {
		t.Errorf("tracing work joins %s (mean similarity %.2f); want a concept of its own", p.Name, p.Score)
	}
	more := &l2.Exchange{ID: "x-6", Summary: "Reopen closed annotations", Files: []string{"lib/app/annotations/annotation.ex"}, Keywords: []string{"annotat", "reopen", "state"}}
	if p := f.ProposeAmong(more, NewMembers(byID)); p.ConceptID != c.ID {
		t.Errorf("annotation work is proposed %q (%.2f), want the annotations concept", p.Name, p.Score)
	}
}

// BenchmarkProposeAmong is a proposal in a memory of 10,000 exchanges in
// 100 concepts: what consolidation pays per new exchange.
func BenchmarkProposeAmong(b *testing.B) {
	areas := []string{"auth", "billing", "cart", "search", "upload", "deploy", "api", "ui"}
	f := &File{}
	byID := map[string]*l2.Exchange{}
	for c := range 100 {
		area := areas[c%len(areas)]
		// Names far apart: a word per concept, not a number.
		con, err := f.Create(area + "-" + strings.Repeat(string(rune('a'+c%26)), 4) + strings.Repeat(string(rune('a'+c/26)), 4))
		if err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			x := &l2.Exchange{ID: fmt.Sprintf("x-%d-%d", c, i), Summary: fmt.Sprintf("Fix the %s handler edge case %d", area, i),
				Files: []string{fmt.Sprintf("%s/%s_%d.go", area, area, c)}, Keywords: []string{area, "handler", fmt.Sprintf("case%d", c)}}
			byID[x.ID] = x
			f.Assign(x, con.ID)
		}
	}
	m := NewMembers(byID)
	e := &l2.Exchange{ID: "x-new", Summary: "Fix the cart handler total", Files: []string{"cart/cart_2.go"}, Keywords: []string{"cart", "handler", "total"}}
	b.Run("average link", func(b *testing.B) {
		for range b.N {
			f.ProposeAmong(e, m)
		}
	})
	b.Run("union", func(b *testing.B) {
		for range b.N {
			f.Propose(e)
		}
	})
}

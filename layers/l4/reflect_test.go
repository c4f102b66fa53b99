package l4

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
)

type history struct {
	Sessions []struct {
		Base      string        `json:"base"`
		Exchanges []l2.Exchange `json:"exchanges"`
	} `json:"sessions"`
	Concepts []l3.Concept `json:"concepts"`
}

type expected struct {
	Rules []struct {
		Text           string `json:"text"`
		Sessions       int    `json:"sessions"`
		Promoted       bool   `json:"promoted"`
		Contradictions int    `json:"contradictions"`
		Review         bool   `json:"review"`
	} `json:"rules"`
	Superseded []string `json:"superseded"`
	Solutions  []struct {
		Problem  string `json:"problem"`
		Sessions int    `json:"sessions"`
	} `json:"solutions"`
	CoreLogic []struct {
		Concept  string `json:"concept"`
		Sessions int    `json:"sessions"`
	} `json:"core_logic"`
}

func loadJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

func scripted(t *testing.T) ([]*l2.File, *l3.File) {
	var h history
	loadJSON(t, "../../fixtures/reflection/history.json", &h)
	var sessions []*l2.File
	for _, s := range h.Sessions {
		f := &l2.File{L1: l2.L1Name(s.Base)}
		for _, e := range s.Exchanges {
			e.Source, e.Significance, e.Updated = l2.Subconscious, 0.9, e.Created
			e.SetTTL()
			f.Exchanges = append(f.Exchanges, e)
		}
		sessions = append(sessions, f)
	}
	return sessions, &l3.File{Concepts: h.Concepts}
}

// TestReflectScriptedHistory: a rule the user states is a rule at once;
// a later statement of the opposite supersedes it (the old rule
// forgotten, with the reason); a fix that recurs in three sessions
// becomes a solution — and nothing else.
func TestReflectScriptedHistory(t *testing.T) {
	sessions, concepts := scripted(t)
	var want expected
	loadJSON(t, "../../fixtures/reflection/expected.json", &want)

	f := &Facts{}
	rep := Reflect(f, sessions, concepts)
	if len(f.Rules) != len(want.Rules) {
		for _, r := range f.Rules {
			t.Logf("rule %q sessions=%v contradicted_by=%v", r.Text, r.Sessions, r.ContradictedBy)
		}
		t.Fatalf("got %d rules, want %d", len(f.Rules), len(want.Rules))
	}
	for _, w := range want.Rules {
		i := slices.IndexFunc(f.Rules, func(r Rule) bool { return r.Text == w.Text })
		if i < 0 {
			t.Errorf("no rule %q", w.Text)
			continue
		}
		r := f.Rules[i]
		if len(r.Sessions) != w.Sessions || r.Promoted != w.Promoted || r.Contradictions != w.Contradictions || r.Review != w.Review {
			t.Errorf("rule %q: sessions %d promoted %v contradictions %d review %v; want %d %v %d %v",
				w.Text, len(r.Sessions), r.Promoted, r.Contradictions, r.Review, w.Sessions, w.Promoted, w.Contradictions, w.Review)
		}
	}
	for _, text := range want.Superseded {
		i := slices.IndexFunc(f.Forgotten, func(fg Forgotten) bool { return fg.Text == text })
		if i < 0 || !strings.Contains(f.Forgotten[i].Reason, "superseded") {
			t.Errorf("the rule %q is not forgotten as superseded: %+v", text, f.Forgotten)
		}
	}
	if len(f.Solutions) != len(want.Solutions) {
		t.Fatalf("got %d solutions %+v, want %d", len(f.Solutions), f.Solutions, len(want.Solutions))
	}
	for i, w := range want.Solutions {
		if s := f.Solutions[i]; s.Problem != w.Problem || len(s.Sessions) != w.Sessions || len(s.Attempts) == 0 {
			t.Errorf("solution %+v; want problem %q in %d sessions with attempts", s, w.Problem, w.Sessions)
		}
	}
	if len(f.CoreLogic) != len(want.CoreLogic) {
		t.Fatalf("got %d core logic items %+v, want %d", len(f.CoreLogic), f.CoreLogic, len(want.CoreLogic))
	}
	for i, w := range want.CoreLogic {
		if k := f.CoreLogic[i]; k.Concept != w.Concept || len(k.Sessions) != w.Sessions {
			t.Errorf("core logic %+v; want concept %s in %d sessions", k, w.Concept, w.Sessions)
		}
	}
	if rep.RulesPromoted != 3 || rep.RulesFlagged != 0 || rep.SolutionsAdded != 1 || rep.CoreAdded != 1 {
		t.Errorf("report %+v: want 3 rules promoted, none flagged, 1 solution, 1 core logic", rep)
	}

	// Reflecting again over the same history changes nothing.
	first := f.Encode()
	rep2 := Reflect(f, sessions, concepts)
	if !bytes.Equal(first, f.Encode()) {
		t.Errorf("second reflection changed facts.json:\n%s\n---\n%s", first, f.Encode())
	}
	if rep2.Changes() != 0 {
		t.Errorf("second reflection reported changes: %+v", rep2)
	}
}

// TestObserveCountsOnce: the prompt hook's statement and the same
// statement found by extraction count once.
func TestObserveCountsOnce(t *testing.T) {
	f := &Facts{}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	f.Observe("aaaa0001-rest-of-id", "Always run gofmt before committing.", at)
	s := &l2.File{L1: "2026-03-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{{ID: "x-1", Rule: "Always run gofmt before committing.", Created: l2.Timestamp(at), Updated: l2.Timestamp(at)}}}
	Reflect(f, []*l2.File{s}, &l3.File{})
	if len(f.Rules) != 1 || len(f.Rules[0].Evidence) != 1 || len(f.Rules[0].Sessions) != 1 {
		t.Fatalf("rules after observe + reflect = %+v; want one rule with one statement", f.Rules)
	}
}

// TestExpiredRecordsStay: reflection learns from a record past its TTL and
// keeps it: age decides what is injected and how it ranks, never whether
// history exists.
func TestExpiredRecordsStay(t *testing.T) {
	old := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	e := l2.Exchange{ID: "x-1", Source: l2.Subconscious, Significance: 0.4, Rule: "Never push to main.", Created: l2.Timestamp(old), Updated: l2.Timestamp(old)}
	e.SetTTL()
	s := &l2.File{L1: "2026-01-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{e}}
	f := &Facts{}
	rep := Reflect(f, []*l2.File{s}, &l3.File{})
	if len(s.Exchanges) != 1 || rep.RulesAdded != 1 {
		t.Errorf("left %d exchanges, report %+v: want the 7-day record kept and its rule learned", len(s.Exchanges), rep)
	}
	if !s.Exchanges[0].Expired(old.AddDate(0, 0, 8)) {
		t.Errorf("the record is not expired 8 days after it was made")
	}
	if len(f.Rules) != 1 {
		t.Errorf("the expired record's rule was not learned first: %+v", f.Rules)
	}
}

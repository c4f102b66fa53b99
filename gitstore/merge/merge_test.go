package merge

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const base = `{
  "schema_version": 1,
  "rules": [
    {"id": "r-1", "text": "tabs", "confidence": 0.5, "contradictions": 1, "sessions": ["s1"], "x_future": {"k": [1, 2]}, "updated": "2026-01-01T00:00:00Z"},
    {"id": "r-2", "text": "vet", "confidence": 0.5, "contradictions": 0, "sessions": ["s1"], "updated": "2026-01-01T00:00:00Z"}
  ],
  "keywords": {"auth": ["c-1"]},
  "stats": {"exchanges": 10, "sessions": 2}
}`

func mustJSON(t *testing.T, b, a, c string) string {
	t.Helper()
	x, err := MergeJSON([]byte(b), []byte(a), []byte(c))
	if err != nil {
		t.Fatal(err)
	}
	y, err := MergeJSON([]byte(b), []byte(c), []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(y) {
		t.Fatalf("not symmetric:\n%s\n---\n%s", x, y)
	}
	return string(x)
}

func TestMergeJSONRules(t *testing.T) {
	ours := strings.NewReplacer(
		`"text": "tabs", "confidence": 0.5, "contradictions": 1, "sessions": ["s1"]`,
		`"text": "tabs only", "confidence": 0.7, "contradictions": 2, "sessions": ["s1", "s2"]`,
		`"updated": "2026-01-01T00:00:00Z"},
    {"id": "r-2"`, `"updated": "2026-01-02T00:00:00Z"},
    {"id": "r-2"`,
		`"exchanges": 10`, `"exchanges": 12`,
		`"auth": ["c-1"]`, `"auth": ["c-1", "c-2"]`,
	).Replace(base)
	theirs := strings.NewReplacer(
		`"text": "tabs", "confidence": 0.5, "contradictions": 1, "sessions": ["s1"]`,
		`"text": "spaces", "confidence": 0.6, "contradictions": 4, "sessions": ["s3", "s1"]`,
		`"updated": "2026-01-01T00:00:00Z"},
    {"id": "r-2"`, `"updated": "2026-01-03T00:00:00Z"},
    {"id": "r-2"`,
		`"exchanges": 10`, `"exchanges": 11`,
	).Replace(base)
	// theirs also deletes r-2 and adds r-3
	theirs = strings.Replace(theirs, `,
    {"id": "r-2", "text": "vet", "confidence": 0.5, "contradictions": 0, "sessions": ["s1"], "updated": "2026-01-01T00:00:00Z"}`,
		`,
    {"id": "r-3", "text": "new", "updated": "2026-01-03T00:00:00Z"}`, 1)
	got := mustJSON(t, base, ours, theirs)
	want := `{
  "schema_version": 1,
  "rules": [
    {
      "id": "r-1",
      "text": "spaces",
      "confidence": 0.7,
      "contradictions": 5,
      "sessions": [
        "s1",
        "s2",
        "s3"
      ],
      "x_future": {
        "k": [
          1,
          2
        ]
      },
      "updated": "2026-01-03T00:00:00Z"
    },
    {
      "id": "r-3",
      "text": "new",
      "updated": "2026-01-03T00:00:00Z"
    }
  ],
  "keywords": {
    "auth": [
      "c-1",
      "c-2"
    ]
  },
  "stats": {
    "exchanges": 13,
    "sessions": 2
  }
}
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestMergeStringListsThreeWay: a string one side removed from a list
// stays removed (a forgotten exchange must not come back through the
// other branch's copy of a concept's list), whichever side is ours.
func TestMergeStringListsThreeWay(t *testing.T) {
	base := `{"concepts": [{"id": "c-1", "exchanges": ["x-1", "x-2"]}]}`
	ours := `{"concepts": [{"id": "c-1", "exchanges": ["x-2"]}]}`
	theirs := `{"concepts": [{"id": "c-1", "exchanges": ["x-1", "x-2", "x-3"]}]}`
	want := "[\n        \"x-2\",\n        \"x-3\"\n      ]"
	for _, sides := range [][2]string{{ours, theirs}, {theirs, ours}} {
		if got := mustJSON(t, base, sides[0], sides[1]); !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant the list %s", got, want)
		}
	}
	// Without a base, the lists are joined.
	if got := mustJSON(t, "", ours, theirs); !strings.Contains(got, `"x-1"`) || !strings.Contains(got, `"x-3"`) {
		t.Errorf("lists without a base not joined:\n%s", got)
	}
}

func TestMergeJSONChangeVersusDelete(t *testing.T) {
	ours := strings.Replace(base, `"text": "vet"`, `"text": "vet always"`, 1)
	theirs := strings.Replace(base, `,
    {"id": "r-2", "text": "vet", "confidence": 0.5, "contradictions": 0, "sessions": ["s1"], "updated": "2026-01-01T00:00:00Z"}`, "", 1)
	if got := mustJSON(t, base, ours, theirs); strings.Contains(got, "r-2") {
		t.Fatalf("deleted record came back:\n%s", got)
	}
	// Both sides add the same new record differently, no base at all.
	a := `{"concepts": [{"id": "c-9", "name": "db", "updated": "2026-01-01T00:00:00Z"}]}`
	b := `{"concepts": [{"id": "c-9", "name": "database", "updated": "2026-01-01T00:00:00Z"}]}`
	if got := mustJSON(t, "", a, b); !strings.Contains(got, `"database"`) {
		t.Fatalf("tie not broken by the larger encoding:\n%s", got)
	}
	// Unknown key only on one side keeps its place after its neighbour.
	a = `{"a": 1, "new": true, "b": 2}`
	b = `{"a": 1, "b": 3, "z": 0}`
	if got := mustJSON(t, `{"a": 1, "b": 2}`, a, b); got != "{\n  \"a\": 1,\n  \"new\": true,\n  \"b\": 3,\n  \"z\": 0\n}\n" {
		t.Fatalf("key order:\n%s", got)
	}
}

func TestMergeJSONL(t *testing.T) {
	b := `{"id":"e-1","time":"2026-01-01T00:00:00Z"}
{"id":"e-2","time":"2026-01-01T01:00:00Z"}
`
	a := b + `{"id":"e-4","time":"2026-01-02T00:00:00Z"}
{"id":"e-3","time":"2026-01-01T05:00:00Z"}
`
	// theirs archived e-1 and added e-5 and (again) e-3
	c := `{"id":"e-2","time":"2026-01-01T01:00:00Z"}
{"id":"e-3","time":"2026-01-01T05:00:00Z"}
{"id":"e-5","time":"2026-01-01T03:00:00Z"}
`
	x, _ := MergeJSONL([]byte(b), []byte(a), []byte(c))
	y, _ := MergeJSONL([]byte(b), []byte(c), []byte(a))
	if string(x) != string(y) {
		t.Fatalf("not symmetric:\n%s\n%s", x, y)
	}
	want := `{"id":"e-2","time":"2026-01-01T01:00:00Z"}
{"id":"e-5","time":"2026-01-01T03:00:00Z"}
{"id":"e-3","time":"2026-01-01T05:00:00Z"}
{"id":"e-4","time":"2026-01-02T00:00:00Z"}
`
	if string(x) != want {
		t.Fatalf("got\n%s", x)
	}
	// L1: transcript order (off), identical lines once.
	l1b := `{"ts":"2026-01-01T00:00:05Z","k":"prompt","off":0}` + "\n"
	l1a := l1b + `{"ts":"2026-01-01T00:00:09Z","k":"text","off":100}` + "\n"
	l1c := l1b + `{"ts":"2026-01-01T00:00:01Z","k":"tool","off":50}` + "\n"
	got, _ := MergeFile(".claude/memory/sessions/x.l1.jsonl", []byte(l1b), []byte(l1a), []byte(l1c))
	if string(got) != l1b+`{"ts":"2026-01-01T00:00:01Z","k":"tool","off":50}`+"\n"+`{"ts":"2026-01-01T00:00:09Z","k":"text","off":100}`+"\n" {
		t.Fatalf("L1:\n%s", got)
	}
}

func TestRunMergeDriverExitCodes(t *testing.T) {
	dir := t.TempDir()
	w := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	o, a, b := w("o", `{"a":1}`), w("a", `{"a":2}`), w("b", `{"a":3}`)
	if code := RunMergeDriver(o, a, b, ".claude/memory/facts.json", nil); code != ExitClean {
		t.Fatalf("clean merge exit %d", code)
	}
	if got, _ := os.ReadFile(a); string(got) != "{\n  \"a\": 3\n}\n" {
		t.Fatalf("result %q", got)
	}
	a, b = w("a", "not json"), w("b", "{broken")
	if code := RunMergeDriver(o, a, b, ".claude/memory/facts.json", nil); code != ExitConflict {
		t.Fatalf("conflict exit %d", code)
	}
	if got, _ := os.ReadFile(a); !strings.HasPrefix(string(got), "<<<<<<< ours\nnot json\n") {
		t.Fatalf("markers %q", got)
	}
	if code := RunMergeDriver(filepath.Join(dir, "missing"), a, b, "x.json", nil); code <= 128 {
		t.Fatalf("crash exit %d", code)
	}
	// memory.md without a renderer: one side, the same in both directions.
	m1, m2 := MergeDigest("memory.md", []byte("b"), []byte("ours"), []byte("theirs!"), nil), MergeDigest("memory.md", []byte("b"), []byte("theirs!"), []byte("ours"), nil)
	if string(m1) != string(m2) {
		t.Fatal("digest pick depends on the side")
	}
}

// TestMergeJSONLKeepsEventsThatShareAnID: two clones minted the same
// random id for different events; the union keeps both.
func TestMergeJSONLKeepsEventsThatShareAnID(t *testing.T) {
	base := []byte(`{"schema_version":1,"id":"e-00000001","time":"2026-11-01T10:00:00.000Z","surface":"cli","type":"note","direction":"in","summary":"base"}` + "\n")
	a := append(append([]byte(nil), base...), []byte(`{"schema_version":1,"id":"e-0badc0de","time":"2026-11-02T10:00:00.000Z","surface":"cli","type":"note","direction":"in","summary":"ours"}`+"\n")...)
	b := append(append([]byte(nil), base...), []byte(`{"schema_version":1,"id":"e-0badc0de","time":"2026-11-03T11:00:00.000Z","surface":"cli","type":"note","direction":"in","summary":"theirs"}`+"\n")...)
	out, err := MergeJSONL(base, a, b)
	if err != nil {
		t.Fatal(err)
	}
	back, _ := MergeJSONL(base, b, a)
	if !bytes.Equal(out, back) {
		t.Fatal("result depends on which side is ours")
	}
	for _, want := range []string{`"summary":"base"`, `"summary":"ours"`, `"summary":"theirs"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("lost %s:\n%s", want, out)
		}
	}
	if n := bytes.Count(out, []byte("\n")); n != 3 {
		t.Errorf("want 3 lines, got %d:\n%s", n, out)
	}
}

// TestMergeRefusesDeepNestingFast: JSON nested far deeper than any memory
// file is a conflict for git to show, decided at once (16,000 levels took
// 7.6 s to merge and indent).
func TestMergeRefusesDeepNestingFast(t *testing.T) {
	deep := func(n int, leaf string) []byte {
		return []byte(`{"rules":` + strings.Repeat("[", n) + leaf + strings.Repeat("]", n) + `}`)
	}
	start := time.Now()
	_, err := MergeJSON([]byte(`{"rules":[]}`), deep(16000, "1"), deep(16000, "2"))
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("16,000 levels: %v, want a conflict naming the nesting", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("refusing took %v", took)
	}
	// Nesting within the bound still merges.
	if _, err := MergeJSON([]byte(`{"rules":[]}`), deep(100, "1"), deep(100, "2")); err != nil {
		t.Errorf("100 levels: %v", err)
	}
}

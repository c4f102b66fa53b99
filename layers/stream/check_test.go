package stream

import (
	"strings"
	"testing"
	"time"
)

func TestValidateCleanStream(t *testing.T) {
	l := newLayout(t)
	probs, err := Validate(l)
	if err != nil || probs != nil {
		t.Fatalf("empty stream: %v %v", probs, err)
	}
	mustAppend(t, l, t0, "prompt", "hello", func(e *Event) { e.Content = "hello \"there\"\n"; e.Metadata = map[string]string{"b": "2", "a": "1"} })
	mustAppend(t, l, t0.AddDate(0, 1, 0), "stop", "done")
	if probs, err := Validate(l); err != nil || probs != nil {
		t.Fatalf("clean stream: %v %v", probs, err)
	}
}

func TestValidateFindsPlantedProblems(t *testing.T) {
	l := newLayout(t)
	good := func(id, tm string) string {
		return `{"schema_version":1,"id":"` + id + `","time":"` + tm + `","surface":"cli","type":"note","direction":"in","summary":"ok"}` + "\n"
	}
	writeStream(t, l, "2026-03.jsonl",
		good("e-00000001", "2026-03-01T00:00:00.000Z"), // 1 fine
		"not json\n", // 2
		`{"schema_version":1,"id":"e-00000002","surface":"cli","type":"note","direction":"in","summary":""}`+"\n", // 3 no time
		good("e-00000003", "2026-03-02 10:00"),         // 4 bad time
		good("e-00000004", "2026-04-01T00:00:00.000Z"), // 5 wrong month
		good("e-00000001", "2026-03-01T00:00:00.000Z"), // 6 exact duplicate of 1
		good("e-00000001", "2026-03-05T00:00:00.000Z"), // 7 id collision
		`{"schema_version":1,"id":"e-00000005","time":"2026-03-03T00:00:00.000Z","surface":"cli","type":"Bad Type","direction":"up"}`+"\n", // 8
		"\n", // 9 blank
		`{"id":"e-00000006","schema_version":1,"time":"2026-03-03T00:00:00Z","surface":"cli","type":"note","direction":"in","summary":""}`+"\n", // 10 not canonical
		good("e-00000007", "2026-03-03T01:00:00.000+01:00"), // 11 not UTC
		`{"schema_version":2,"id":"e-00000008","time":"2026-03-03T00:00:00.000Z","surface":"cli","type":"note","direction":"in","summary":""}`+"\n", // 12
		`{"schema_version":1,"id":"e-0000`, // 13 torn, no newline
	)
	writeStream(t, l, "notes.jsonl", "x\n")
	writeStream(t, l, "archive/2026-01.jsonl", good("e-00000004", "2026-01-01T00:00:00.000Z"))

	probs, err := Validate(l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	f := ".claude/memory/stream/2026-03.jsonl"
	for _, want := range []string{
		".claude/memory/stream/notes.jsonl: not a stream file name",
		f + ":2: not a JSON event",
		f + `:3: missing field "time"`,
		f + `:4: bad time "2026-03-02 10:00"`,
		f + ":5: event of 2026-04 filed under 2026-03 (belongs in 2026-04.jsonl)",
		f + ":6: duplicate of the line at " + f + ":1 (same id e-00000001, same bytes)",
		f + ":7: id e-00000001 is also used by a different event at " + f + ":1",
		f + `:8: bad type "Bad Type"`,
		f + `:8: bad direction "up"`,
		f + `:8: missing field "summary"`,
		f + ":6: out of time order: 744h0m0s earlier than line 5",
		f + ":9: blank line",
		f + ":10: not in canonical form",
		f + `:11: time "2026-03-03T01:00:00.000+01:00" is not in UTC`,
		f + ":12: unsupported schema_version 2",
		f + ":13: not a JSON event",
		f + ":13: last line has no newline",
		f + ":5: id e-00000004 is also used by a different event at .claude/memory/stream/archive/2026-01.jsonl:1",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing problem %q", want)
		}
	}
	for _, p := range probs {
		if p.File == f && p.Line == 1 {
			t.Errorf("line 1 is fine, got %s", p)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", all)
	}
}

func TestAuditFindsSecretsAndSharedIDs(t *testing.T) {
	l := newLayout(t)
	tok := fakeToken()
	clean := mustAppend(t, l, t0, "prompt", "nothing secret here [REDACTED:github-token] already")
	// Lines written by hand (or by an older memkeep) bypass Append's redaction.
	leaked := Event{SchemaVersion: 1, ID: "e-0000aaaa", Time: t0.Add(time.Minute), Surface: "cli", Type: "note", Direction: "in",
		Summary: "fine", Content: "token " + tok, Metadata: map[string]string{"env": "GH=" + tok}}
	dup := clean
	dup.Time = t0.AddDate(0, 1, 0)
	writeStream(t, l, "2026-04.jsonl", string(Encode(dup))+"\n")
	writeStream(t, l, "archive/2026-01.jsonl", string(Encode(Event{SchemaVersion: 1, ID: "e-0000bbbb", Time: t0.AddDate(0, -2, 0), Surface: "cli", Type: "note", Direction: "in"}))+"\n")
	writeStream(t, l, "2026-02.jsonl", string(Encode(Event{SchemaVersion: 1, ID: "e-0000cccc", Time: t0.AddDate(0, -1, 0), Surface: "cli", Type: "note", Direction: "in"}))+"\n", string(Encode(leaked))+"\n")

	probs, err := Audit(l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
		if strings.Contains(p.String(), tok) {
			t.Errorf("audit printed the secret: %s", p)
		}
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		".claude/memory/stream/2026-02.jsonl:2: event e-0000aaaa: content holds a secret redaction would remove ([REDACTED",
		".claude/memory/stream/2026-02.jsonl:2: event e-0000aaaa: metadata.env holds a secret",
		".claude/memory/stream/2026-03.jsonl:1: id " + clean.ID + " also occurs in .claude/memory/stream/2026-04.jsonl:1",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing finding %q", want)
		}
	}
	if len(probs) != 3 {
		t.Errorf("want 3 findings, got:\n%s", all)
	}
}

func TestNewMarks(t *testing.T) {
	if newMarks("a", "a") != nil {
		t.Fatal("no change reported as a finding")
	}
	got := newMarks("x [REDACTED:aws] y", "x [REDACTED:aws] [REDACTED:aws] [REDACTED:jwt]")
	if strings.Join(got, ",") != "[REDACTED:aws],[REDACTED:jwt]" {
		t.Fatalf("got %q", got)
	}
	if got := newMarks("a <private>b</private>", "a "); len(got) != 1 || got[0] != "private text" {
		t.Fatalf("got %q", got)
	}
}

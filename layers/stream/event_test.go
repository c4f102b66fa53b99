package stream

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var t0 = time.Date(2026, 3, 14, 15, 4, 5, 123_000_000, time.UTC)

func TestEncodeIsByteStable(t *testing.T) {
	ev := Event{
		SchemaVersion: 1, ID: "e-0a1b2c3d", Time: t0, Surface: "claude-code", Type: "tool_use",
		Direction: "internal", Summary: `Bash: go test ./... <x> & "y"`, SessionID: "258c7280-ae70",
		Content:  "line1\nline2\t\\ \x01 \u2028",
		Metadata: map[string]string{"tool": "Bash", "exit": "1", "file": "a/b.go"},
	}
	want := `{"schema_version":1,"id":"e-0a1b2c3d","time":"2026-03-14T15:04:05.123Z","surface":"claude-code","type":"tool_use","direction":"internal","summary":"Bash: go test ./... <x> & \"y\"","session_id":"258c7280-ae70","content":"line1\nline2\t\\ \u0001 \u2028","metadata":{"exit":"1","file":"a/b.go","tool":"Bash"}}`
	for i := range 20 { // map order varies between runs; the bytes must not
		if got := string(Encode(ev)); got != want {
			t.Fatalf("run %d:\n got %s\nwant %s", i, got, want)
		}
	}
	back, err := Decode([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	if string(Encode(back)) != want {
		t.Fatalf("decode+encode changed the line:\n%s", Encode(back))
	}
	if back.Content != ev.Content || back.Metadata["file"] != "a/b.go" || !back.Time.Equal(t0) {
		t.Fatalf("round trip lost data: %+v", back)
	}
}

func TestEncodeOmitsEmptyOptionalFields(t *testing.T) {
	ev := Event{SchemaVersion: 1, ID: "e-00000000", Time: t0, Surface: "cli", Type: "note", Direction: "internal"}
	want := `{"schema_version":1,"id":"e-00000000","time":"2026-03-14T15:04:05.123Z","surface":"cli","type":"note","direction":"internal","summary":""}`
	if got := string(Encode(ev)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestEncodeReplacesInvalidUTF8(t *testing.T) {
	ev := Event{SchemaVersion: 1, ID: "e-00000000", Time: t0, Surface: "cli", Type: "note", Direction: "in", Summary: "a\xffb"}
	line := Encode(ev)
	if !utf8.Valid(line) {
		t.Fatalf("line is not UTF-8: %q", line)
	}
	back, err := Decode(line)
	if err != nil {
		t.Fatal(err)
	}
	if back.Summary != "a\ufffdb" {
		t.Fatalf("summary = %q", back.Summary)
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, line := range []string{
		``,
		`{"schema_version":1,"id":"e-0000`, // torn
		`[1,2]`,
		`{"schema_version":1,"time":"2026-03-14T15:04:05Z"}`,         // no id
		`{"schema_version":1,"id":"e-00000000"}`,                     // no time
		`{"schema_version":1,"id":"e-00000000","time":"yesterday"}`,  // bad time
		`{"id":"e-00000000","time":"2026-03-14T15:04:05Z","id":"x"}`, // duplicate key
	} {
		if _, err := Decode([]byte(line)); !errors.Is(err, ErrMalformed) {
			t.Errorf("Decode(%q) = %v, want ErrMalformed", line, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	base := Event{Surface: "cli", Type: "note", Direction: "internal"}
	ev, err := normalize(base, t0.Add(456*time.Microsecond), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.SchemaVersion != 1 || !validID(ev.ID) || !ev.Time.Equal(t0) {
		t.Fatalf("defaults not filled: %+v", ev)
	}

	bad := []struct {
		name string
		mod  func(*Event)
		want string
	}{
		{"surface", func(e *Event) { e.Surface = "" }, "surface"},
		{"type", func(e *Event) { e.Type = "Tool Use" }, "type"},
		{"direction", func(e *Event) { e.Direction = "sideways" }, "direction"},
		{"id", func(e *Event) { e.ID = "e-XYZ" }, "id"},
		{"version", func(e *Event) { e.SchemaVersion = 2 }, "schema_version"},
		{"meta key", func(e *Event) { e.Metadata = map[string]string{"": "x"} }, "metadata key"},
	}
	for _, c := range bad {
		ev := base
		c.mod(&ev)
		if _, err := normalize(ev, t0, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want mention of %q", c.name, err, c.want)
		}
	}
}

func TestNormalizeCapsText(t *testing.T) {
	ev := Event{Surface: "cli", Type: "note", Direction: "in",
		Summary:  "first\n\n  second   " + strings.Repeat("é", 500),
		Content:  strings.Repeat("ü", MaxContent), // 2 bytes each
		Metadata: map[string]string{"k": strings.Repeat("x", 5000)},
	}
	ev, err := normalize(ev, t0, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ev.Summary, "first second éé") || utf8.RuneCountInString(ev.Summary) != MaxSummary || !strings.HasSuffix(ev.Summary, "…") {
		t.Errorf("summary not folded and capped: %d chars, %q…", utf8.RuneCountInString(ev.Summary), ev.Summary[:20])
	}
	if len(ev.Content) > MaxContent || !utf8.ValidString(ev.Content) || !strings.Contains(ev.Content, "more bytes not kept") {
		t.Errorf("content: %d bytes, valid %v, tail %q", len(ev.Content), utf8.ValidString(ev.Content), ev.Content[len(ev.Content)-40:])
	}
	if len(ev.Metadata["k"]) > MaxMetaVal {
		t.Errorf("metadata value %d bytes", len(ev.Metadata["k"]))
	}
}

func TestNewIDIsRandom(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if !validID(id) {
			t.Fatalf("bad id %q", id)
		}
		seen[id] = true
	}
	if len(seen) < 999 { // one collision in 1000 draws of 32 bits is already unlikely (p≈1e-4)
		t.Fatalf("only %d distinct ids of 1000", len(seen))
	}
}

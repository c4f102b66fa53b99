package stream

import (
	"reflect"
	"testing"
	"time"
)

// slowDecode is Decode without the fast path.
func slowDecode(line []byte) (Event, bool) {
	ev, problems := decode(line, false)
	return ev, len(problems) == 0
}

func TestDecodeCanonicalAgreesOnEncodedEvents(t *testing.T) {
	evs := []Event{
		{SchemaVersion: 1, ID: "e-00000001", Time: t0, Surface: "cli", Type: "note", Direction: "in"},
		{SchemaVersion: 1, ID: "e-00000002", Time: t0, Surface: "claude-code", Type: "tool_use", Direction: "internal",
			Summary: "q\"b\\s/ \t\n\r\b\f \x00\x1f é 😀 \u2028\u2029", SessionID: "s", Content: "c\x7f",
			Metadata: map[string]string{"z": "", "a": "\"", "é": "😀"}},
		{SchemaVersion: 1, ID: "e-00000003", Time: t0, Surface: "cli", Type: "note", Direction: "in", Metadata: map[string]string{"k": "v"}},
	}
	for _, ev := range evs {
		line := Encode(ev)
		fast, ok := decodeCanonical(line)
		if !ok {
			t.Fatalf("fast path refused a canonical line: %s", line)
		}
		slow, ok := slowDecode(line)
		if !ok || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast and slow differ for %s:\n%#v\n%#v", line, fast, slow)
		}
	}
	for _, line := range []string{
		`{"schema_version":1,"id":"e-1","time":"2026-03-14T15:04:05Z","surface":"cli","type":"n","direction":"in","summary":"", "content":"x"}`,
		`{"schema_version":1,"id":"e-1","time":"2026-03-14T15:04:05Z","surface":"cli","type":"n","direction":"in","summary":"\ud83d\ude00"}`,
		`{"schema_version":1,"id":"e-1","time":"2026-03-14T15:04:05Z","surface":"cli","type":"n","direction":"in","summary":"","metadata":{"b":"1","a":"2"}}`,
		`{"schema_version":01,"id":"e-1","time":"2026-03-14T15:04:05Z","surface":"cli","type":"n","direction":"in","summary":""}`,
		`{"schema_version":1,"id":"","time":"2026-03-14T15:04:05Z","surface":"cli","type":"n","direction":"in","summary":""}`,
	} {
		if _, ok := decodeCanonical([]byte(line)); ok {
			t.Errorf("fast path took a line it should leave to the general decoder: %s", line)
		}
	}
}

// FuzzDecodeCanonical: whatever the fast path accepts, the general decoder
// accepts too, with the same event.
func FuzzDecodeCanonical(f *testing.F) {
	f.Add(string(Encode(Event{SchemaVersion: 1, ID: "e-0a1b2c3d", Time: t0, Surface: "claude-code", Type: "prompt", Direction: "in",
		Summary: "a \"b\" \\ \n", SessionID: "x", Content: "\u2028\x01", Metadata: map[string]string{"a": "1", "b": "é"}})))
	f.Add(`{"schema_version":-3,"id":"e-1","time":"2026-03-14T15:04:05+02:00","surface":"","type":"","direction":"","summary":"\u00e9\/","metadata":{}}`)
	f.Fuzz(func(t *testing.T, line string) {
		fast, ok := decodeCanonical([]byte(line))
		if !ok {
			return
		}
		slow, ok := slowDecode([]byte(line))
		if !ok {
			t.Fatalf("general decoder refused what the fast path took: %q", line)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("events differ for %q:\n%#v\n%#v", line, fast, slow)
		}
		if fast.Time.Location() != time.UTC {
			t.Fatal("time not in UTC")
		}
	})
}

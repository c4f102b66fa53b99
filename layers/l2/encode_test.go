package l2

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// v1Encode is how committed JSON files were written before: encoding/json
// with a two-space indent and HTML left unescaped.
func v1Encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TestEncodeMatchesEncodingJSON holds encodeJSON to encoding/json's bytes:
// committed files must not change form when memkeep is upgraded.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	// Invalid UTF-8 is left out: encoding/json writes it as "\ufffd",
	// this as the character itself. Memory text never holds it (L1
	// replaces it when refining), and a file read back holds the valid
	// character, which both write alike.
	odd := "tabs\tquotes\" <html> & a\u2028line\u2029sep \x01 ctrl \ufffd é 😀 \\ back"
	files := []any{
		&File{SchemaVersion: 1, SessionID: odd, L1: "x.l1.jsonl", Exchanges: []Exchange{
			{ID: "x-1", Summary: odd, Keywords: []string{"a", odd}, Significance: 0.3, L1Range: [2]int{1, 2}, TTLDays: 7},
			{ID: "x-2", Summary: "", Significance: 1e-7, Files: nil, Tags: []string{}},
			{ID: "x-3", Significance: 123456789012345678901234.0},
		}},
		&File{},
		struct {
			Name  string   `json:"name"`
			Words []string `json:"words"`
			Map   map[string]string
			Ptr   *int `json:"ptr,omitempty"`
		}{Name: odd},
		map[string]any{"b": 1.5, "a": []any{nil, true, 0.1, -0.0, 100}, odd: map[string]int{"z": 1, "y": 2}},
	}
	// And every L2 file of the real sessions, when they were imported here.
	if ms, _ := filepath.Glob("testdata/*.l2.json"); len(ms) > 0 {
		for _, m := range ms {
			b, _ := os.ReadFile(m)
			var f File
			if DecodeJSON(b, &f) == nil {
				files = append(files, &f)
			}
		}
	}
	for i, v := range files {
		if got, want := encodeJSON(v), v1Encode(v); !bytes.Equal(got, want) {
			t.Errorf("value %d: encodeJSON differs from encoding/json:\n got %s\nwant %s", i, got, want)
		}
	}
}

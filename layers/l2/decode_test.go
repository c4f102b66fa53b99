package l2

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Decode reads memory files with go-json-experiment; it must accept what
// encoding/json accepted and give the same File: hand-edited or merged
// files may have other cases in names, a name twice, or invalid UTF-8.
func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	full := (&File{SessionID: "s", L1: "a.l1.jsonl", Consolidated: 9, Exchanges: []Exchange{{
		ID: "x-1", Summary: "Fix the lock", Files: []string{"a.go"}, Keywords: []string{"lock"},
		L1Range: [2]int{1, 9}, Source: Subconscious, Significance: 0.5, Type: "iteration",
		Tags: []string{"fix"}, TTLDays: 30, Links: []string{}, Created: "2026-03-01T09:00:00Z",
	}}}).Encode()
	for name, in := range map[string]string{
		"as written":       string(full),
		"other case":       strings.Replace(string(full), `"session_id"`, `"Session_ID"`, 1),
		"name twice":       strings.Replace(string(full), `"l1":`, `"l1": "old.l1.jsonl", "l1":`, 1),
		"invalid UTF-8":    strings.Replace(string(full), "Fix the lock", "Fix the \xff lock", 1),
		"unknown member":   strings.Replace(string(full), `"l1":`, `"from_the_future": {"a": [1]}, "l1":`, 1),
		"null list":        strings.Replace(string(full), `"facts": []`, `"facts": null`, 1),
		"empty object":     `{}`,
		"schema only":      `{"schema_version": 1}`,
		"numbers as float": strings.Replace(string(full), `"consolidated": 9`, `"consolidated": 9.0`, 1),
	} {
		var want File
		werr := json.Unmarshal([]byte(in), &want)
		got, gerr := Decode("f.l2.json", []byte(in))
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: encoding/json err %v, Decode err %v", name, werr, gerr)
			continue
		}
		if werr == nil && !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: Decode gives\n%+v\nencoding/json gives\n%+v", name, *got, want)
		}
	}
	if _, err := Decode("f.l2.json", []byte(`{"exchanges": [`)); err == nil || !strings.Contains(err.Error(), "f.l2.json") {
		t.Errorf("truncated file: got %v, want an error naming the file", err)
	}
}

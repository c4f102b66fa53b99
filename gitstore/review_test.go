package gitstore

import (
	"reflect"
	"testing"
)

// TestAddedL2IsTheGenericReview: the L2 review reads only ids and titles,
// and lists what the generic comparison of whole records lists as added:
// the same ids, the same titles (a problem before a summary), in order.
func TestAddedL2IsTheGenericReview(t *testing.T) {
	old := []byte(`{"schema_version": 1, "session_id": "s", "exchanges": [
  {"id": "x-1", "summary": "Kept", "significance": 0.5, "files": ["a.go"]},
  {"id": "x-2", "summary": "Changed before", "links": []}
], "facts": [{"id": "f-1", "summary": "A fact", "file": "a.go"}]}`)
	cur := []byte(`{"schema_version": 1, "session_id": "s", "exchanges": [
  {"id": "x-1", "summary": "Kept", "significance": 0.5, "files": ["a.go"]},
  {"id": "x-2", "summary": "Changed after", "links": ["x-9"]},
  {"id": "x-4", "summary": "Fixed the upload", "problem": "upload failed with 502", "tags": ["fail-then-fix"]},
  {"id": "x-3", "summary": "  "},
  {"id": "x-3b", "summary": "A new one"}
], "facts": [{"id": "f-1", "summary": "A fact", "file": "a.go"}, {"id": "f-2", "summary": "Tokens refresh early", "file": "auth.go", "lines": "1-9"}]}`)
	for _, c := range []struct {
		name     string
		old, cur []byte
	}{{"grown", old, cur}, {"new file", nil, cur}, {"unreadable old", []byte("{oops"), cur}, {"unchanged", cur, cur}} {
		x, f := addedL2(c.old, c.cur)
		o, n := recordsOf(c.old), recordsOf(c.cur)
		wantX, wantF := compareRecords(o["exchanges"], n["exchanges"]).Added, compareRecords(o["facts"], n["facts"]).Added
		if !reflect.DeepEqual(x, wantX) || !reflect.DeepEqual(f, wantF) {
			t.Errorf("%s: added %v / %v, the generic review %v / %v", c.name, x, f, wantX, wantF)
		}
	}
}

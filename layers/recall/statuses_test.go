package recall

import "testing"

// TestStatuses: an HTTP status a question says an endpoint answered is
// held where memory writes the number beside a word of status; a number
// memory holds only as something else is no status.
func TestStatuses(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		edit("lib/report/tail_worker.ex", "+3 -0 @debounce_ms 500\n@batch_size 400"),
		bash("curl -i localhost:4000/api/report/missing", 0, "HTTP/1.1 404 Not Found"),
		say("The upload endpoint now answers 413 when the body is too big: put_status(conn, 413)."),
		prompt("login fails with 401 after an hour"),
		say("The 502s came from the proxy."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"What was the fix for the 500 the report endpoint threw when a project had no rows?", []string{"HTTP 500"}},
		{"why did the report endpoints start returning 500s?", []string{"HTTP 500"}},
		{"why did /api/report/missing return a 404?", nil},
		{"how did we handle the 413 Payload Too Large from the upload endpoint?", nil},
		{"why is the debounce 500 in the tail worker?", nil},
		{"why is the batch size 400 rows?", nil},
		{"where did we settle on the 400 limit?", nil},
		{"why did the report endpoint answer 403 Forbidden?", []string{"Forbidden", "HTTP 403"}},
		{"why does login return 401 for expired tokens?", nil},
		{"where did the 502s come from?", nil},
	})
}

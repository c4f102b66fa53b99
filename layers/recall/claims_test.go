package recall

import (
	"slices"
	"testing"
)

// TestDurations: the durations a text states, in the ways prose and code
// write them, and what only looks like one.
func TestDurations(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int64
	}{
		{"sweeps every 15s with a 90s TTL", []int64{15_000, 90_000}},
		{"a 2-second debounce, then 5 minutes", []int64{2_000, 300_000}},
		{"waits 500ms; times out after 24 hours or 1 day", []int64{500, 86_400_000, 86_400_000}},
		{"@debounce_ms 500 and ttl_seconds: 90", []int64{500, 90_000}},
		{"Process.send_after(self(), :sweep, :timer.seconds(15))", []int64{15_000}},
		{"timeout 15_000ms", []int64{15_000}},
		{"from ninety seconds to five minutes, a two-hour window", []int64{90_000, 300_000, 7_200_000}},
		// Not durations: status codes, a fraction, a letter apart, a
		// version, a number with no unit, a unit inside a word.
		{"returned 500s and 404s", nil},
		{"took 1.3 seconds", nil},
		{"tail -F 2 s", nil},
		{"v1.5m of users", nil},
		{"}, 2000)", nil},
		{"h264 and sha256sum, 3des", nil},
		{"5 messages in 2 sessions", nil},
		{"one more second, someone's hours, fives", nil},
	} {
		var got []int64
		for _, d := range durations(c.text) {
			got = append(got, d.ms)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("durations(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

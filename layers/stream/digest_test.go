package stream

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memkeep/memkeep/layers/memdir"
)

func TestReadBackwardMatchesForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var data []byte
		var want []string
		for i := range rng.IntN(12) {
			line := strings.Repeat(string(rune('a'+i)), rng.IntN(40))
			if line != "" {
				want = append(want, line)
			}
			data = append(data, line...)
			data = append(data, '\n')
		}
		if rng.IntN(3) == 0 { // a torn last line
			data = append(data, "torn"...)
			want = append(want, "torn")
		}
		var got []string
		chunk := 1 + rng.IntN(50)
		err := readBackward(bytes.NewReader(data), int64(len(data)), chunk, func(line []byte) bool {
			got = append(got, string(line))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Reverse(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d chunk %d data %q:\n got %q\nwant %q", round, chunk, data, got, want)
		}
	}
}

// session writes a small Claude Code session around now.
func session(t testing.TB, l memdir.Layout, start time.Time, sid string) {
	at := func(m int) time.Time { return start.Add(time.Duration(m) * time.Minute) }
	set := func(f func(*Event)) func(*Event) { return func(e *Event) { e.SessionID = sid; f(e) } }
	mustAppend(t, l, at(0), "session_start", "session startup", set(func(e *Event) { e.Direction = DirIn }))
	mustAppend(t, l, at(1), "prompt", "fix the flaky parser test", set(func(e *Event) { e.Direction = DirIn }))
	mustAppend(t, l, at(2), "tool_use", "Read parser.go", set(func(e *Event) { e.Metadata = map[string]string{"tool": "Read", "file": "parser.go"} }))
	mustAppend(t, l, at(3), "edit", "Edit parser.go", set(func(e *Event) { e.Metadata = map[string]string{"tool": "Edit", "file": "parser.go"} }))
	mustAppend(t, l, at(4), "tool_use", "Bash: go test ./...", set(func(e *Event) {
		e.Content = "go test ./..."
		e.Metadata = map[string]string{"tool": "Bash"}
	}))
	mustAppend(t, l, at(5), "edit", "Edit parser.go", set(func(e *Event) { e.Metadata = map[string]string{"tool": "Edit", "file": "parser.go"} }))
	mustAppend(t, l, at(6), "tool_use", "Bash: go test ./...", set(func(e *Event) {
		e.Content = "go test ./..."
		e.Metadata = map[string]string{"tool": "Bash"}
	}))
	mustAppend(t, l, at(7), "stop", "The flake came from map order; sorted the keys, tests pass.", set(func(e *Event) { e.Direction = DirOut }))
}

func TestHotDigest(t *testing.T) {
	l := newLayout(t)
	now := time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC) // early in the month: the window reaches into February
	session(t, l, now.Add(-3*time.Hour), "old11111-session")
	session(t, l, now.Add(-90*time.Minute), "feb22222-session") // 23:30 on February 28th
	session(t, l, now.Add(-20*time.Minute), "mar33333-session")
	mustAppend(t, l, now.Add(-5*time.Minute), "decision", "keep the stream append-only", func(e *Event) { e.Surface, e.SessionID = SurfaceCLI, "" })

	got := HotDigest(l, now, 2*time.Hour, 6000)
	for _, want := range []string{
		"## Recent activity (last 2h, times UTC, newest first)",
		"2 sessions, 2 prompts, 4 edits, 4 commands",
		"Prompts:\n- 00:41 [mar33333] fix the flaky parser test\n- 23:31 [feb22222] fix the flaky parser test\n",
		"Files edited:\n- parser.go (4 edits), last 00:45\n",
		"Commands:\n- 00:46 `go test ./...` (4×)\n",
		"Outcomes:\n- 00:47 [mar33333] The flake came from map order",
		"Other:\n- 00:55 decision: keep the stream append-only\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("digest lacks %q", want)
		}
	}
	if strings.Contains(got, "old11111") || strings.Contains(got, "Read parser.go") {
		t.Errorf("digest holds events outside the window or plain reads")
	}
	if t.Failed() {
		t.Logf("digest:\n%s", got)
	}
	if HotDigest(l, now.Add(24*time.Hour), 2*time.Hour, 6000) != "" {
		t.Error("digest of a quiet window is not empty")
	}
}

func TestHotDigestFitsBudget(t *testing.T) {
	l := newLayout(t)
	now := t0
	for i := range 40 {
		sid := fmt.Sprintf("%08x-s", i)
		mustAppend(t, l, now.Add(-time.Duration(200-i*4)*time.Minute), "prompt", sid+" "+strings.Repeat("ünïcode prompt ", 20), func(e *Event) { e.SessionID = sid })
		mustAppend(t, l, now.Add(-time.Duration(199-i*4)*time.Minute), "edit", "Edit", func(e *Event) { e.Metadata = map[string]string{"file": fmt.Sprintf("pkg/file%02d.go", i)} })
		mustAppend(t, l, now.Add(-time.Duration(198-i*4)*time.Minute), "tool_use", "Bash", func(e *Event) { e.Content = fmt.Sprintf("go test ./pkg/%d/...", i) })
		mustAppend(t, l, now.Add(-time.Duration(197-i*4)*time.Minute), "stop", strings.Repeat("done ", 40))
	}
	full := HotDigest(l, now, 6*time.Hour, 1<<20)
	if n := utf8.RuneCountInString(full); n < 3000 {
		t.Fatalf("unbounded digest only %d characters", n)
	}
	prev := len(full) + 1
	for _, budget := range []int{6000, 3000, 1500, 800, 400, 200, 120} {
		d := HotDigest(l, now, 6*time.Hour, budget)
		if n := utf8.RuneCountInString(d); n > budget || n == 0 {
			t.Errorf("budget %d: %d characters", budget, n)
		}
		if len(d) > prev {
			t.Errorf("budget %d: longer than with a larger budget", budget)
		}
		prev = len(d)
		if !strings.HasPrefix(d, "## Recent activity") {
			t.Errorf("budget %d: header dropped:\n%s", budget, d)
		}
	}
	// Prompts are kept longest: with room for little, the newest prompt is there.
	if d := HotDigest(l, now, 6*time.Hour, 800); !strings.Contains(d, "00000027-s") {
		t.Errorf("newest prompt missing from a small digest:\n%s", d)
	}
	if d := HotDigest(l, now, 6*time.Hour, 20); d != "" {
		t.Errorf("budget below the header: %q", d)
	}
}

func TestHotDigestSkipsTornTail(t *testing.T) {
	l := newLayout(t)
	now := t0
	mustAppend(t, l, now.Add(-time.Minute), "prompt", "survives")
	f, err := os.OpenFile(filepath.Join(l.StreamDir(), MonthFile(now)), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"schema_version":1,"id":"e-1`)
	f.Close()
	if d := HotDigest(l, now, time.Hour, 2000); !strings.Contains(d, "survives") {
		t.Fatalf("digest:\n%s", d)
	}
}

func TestHotDigestToleratesBackfilledEvents(t *testing.T) {
	l := newLayout(t)
	now := t0
	mustAppend(t, l, now.Add(-time.Minute), "prompt", "recent prompt")
	// A few events appended later with an explicit past time sit at the
	// tail; they must not hide what is before them.
	for i := range 10 {
		mustAppend(t, l, now.Add(-time.Duration(10+i)*time.Hour), "note", "backfilled")
	}
	d := HotDigest(l, now, time.Hour, 2000)
	if !strings.Contains(d, "recent prompt") || strings.Contains(d, "backfilled") {
		t.Fatalf("digest:\n%s", d)
	}
	probs, _ := Validate(l)
	if len(probs) != 10 || !strings.Contains(probs[0].Msg, "out of time order") {
		t.Fatalf("validate: %v", probs)
	}
}

// writeBigStream fills the current month's file with size bytes of
// realistic events spread over the month before now, the last ones
// within the digest window.
func writeBigStream(tb testing.TB, l memdir.Layout, now time.Time, size int) {
	tb.Helper()
	path := filepath.Join(l.StreamDir(), MonthFile(now))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	kinds := []Event{
		{Type: "prompt", Direction: DirIn, Summary: "make the parser accept trailing commas in arrays and objects"},
		{Type: "tool_use", Direction: DirInternal, Summary: "Read layers/l1/parse.go", Metadata: map[string]string{"tool": "Read", "file": "layers/l1/parse.go"}},
		{Type: "edit", Direction: DirInternal, Summary: "Edit layers/l1/parse.go", Metadata: map[string]string{"tool": "Edit", "file": "layers/l1/parse.go"}},
		{Type: "tool_use", Direction: DirInternal, Summary: "Bash: go test ./layers/l1/...", Content: "go test ./layers/l1/... -run TestParse -count=1", Metadata: map[string]string{"tool": "Bash"}},
		{Type: "stop", Direction: DirOut, Summary: "Trailing commas are accepted now; added tests for arrays, objects and nested cases.", Content: strings.Repeat("Trailing commas are accepted now. ", 12)},
	}
	start := monthStart(now)
	span := now.Sub(start)
	// Events are evenly spaced; count them first so the last is at now.
	var probe int
	for i := range kinds {
		kinds[i].SchemaVersion, kinds[i].Surface, kinds[i].SessionID = 1, SurfaceClaudeCode, "258c7280-ae70-4798-800f-63464d01a85d"
		kinds[i].ID = "e-00000000"
		probe += len(Encode(kinds[i])) + 1
	}
	n := size / (probe / len(kinds))
	for i := range n {
		ev := kinds[i%len(kinds)]
		ev.ID = fmt.Sprintf("e-%08x", i)
		ev.Time = start.Add(time.Duration(float64(span) * float64(i+1) / float64(n)))
		buf.Write(Encode(ev))
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func TestHotDigestOnBigStreamIsFast(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB")
	}
	l := newLayout(t)
	now := time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC)
	writeBigStream(t, l, now, 50<<20)
	start := time.Now()
	d := HotDigest(l, now, 6*time.Hour, 4000)
	took := time.Since(start)
	if !strings.Contains(d, "make the parser accept trailing commas") || utf8.RuneCountInString(d) > 4000 {
		t.Fatalf("digest:\n%s", d)
	}
	// Generous for a shared CI machine; the benchmark gives the figure.
	if took > 200*time.Millisecond {
		t.Fatalf("HotDigest took %s on a 50 MB stream", took)
	}
}

func BenchmarkHotDigest50MB(b *testing.B) {
	l := newLayout(b)
	now := time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC)
	writeBigStream(b, l, now, 50<<20)
	b.ReportAllocs()
	for b.Loop() {
		if HotDigest(l, now, 6*time.Hour, 6000) == "" {
			b.Fatal("empty digest")
		}
	}
}

package stream

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
)

// The multi-process test re-executes the test binary; TestMain turns such
// a child into an appender.
const childEnv = "MEMKEEP_STREAM_TEST_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(childAppend(spec))
	}
	os.Exit(m.Run())
}

// childAppend appends N events to the project at ROOT; spec is "ROOT|N|TAG".
func childAppend(spec string) int {
	parts := strings.Split(spec, "|")
	n, _ := strconv.Atoi(parts[1])
	l, err := memdir.Find(parts[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range n {
		_, err := Append(l, Event{Surface: "cli", Type: "tool_use", Direction: DirInternal,
			Summary: fmt.Sprintf("%s %d", parts[2], i), Content: strings.Repeat(parts[2], 300+i%7*500)})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func TestAppendRoundTrip(t *testing.T) {
	l := newLayout(t)
	in := Event{Time: t0, Surface: SurfaceClaudeCode, Type: "prompt", Direction: DirIn,
		Summary: "fix the parser", SessionID: "258c7280-ae70", Content: "fix the parser\nplease",
		Metadata: map[string]string{"turn": "3"}}
	got, err := Append(l, in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.StreamDir(), "2026-03.jsonl")
	lines := readLines(t, path)
	if len(lines) != 2 || lines[1] != "" {
		t.Fatalf("want one line, got %q", lines)
	}
	if lines[0] != string(Encode(got))+"\n" {
		t.Fatalf("file line %q\nis not Encode(returned event) %q", lines[0], Encode(got))
	}
	back, err := Decode([]byte(strings.TrimSuffix(lines[0], "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != got.ID || back.Content != in.Content || back.SessionID != in.SessionID || !back.Time.Equal(t0) || back.Metadata["turn"] != "3" {
		t.Fatalf("read back %+v\nwant like %+v", back, got)
	}

	// Events go to the file of their own month.
	mustAppend(t, l, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), "note", "april")
	if _, err := os.Stat(filepath.Join(l.StreamDir(), "2026-04.jsonl")); err != nil {
		t.Fatal(err)
	}
}

func TestAppendRedacts(t *testing.T) {
	l := newLayout(t)
	tok := fakeToken()
	ev := mustAppend(t, l, t0, "tool_use", "export GH="+tok, func(e *Event) {
		e.Content = "curl -H 'Authorization: token " + tok + "'"
		e.Metadata = map[string]string{"cmd": "GH=" + tok}
	})
	b, err := os.ReadFile(filepath.Join(l.StreamDir(), "2026-03.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), tok) || strings.Contains(ev.Content, tok) {
		t.Fatalf("token written to the stream:\n%s", b)
	}
	if !strings.Contains(string(b), "[REDACTED") {
		t.Fatalf("no redaction mark:\n%s", b)
	}
}

// TestAppendCutsTornLastLine: the stub a crash left is cut before the
// next event is written, so it is neither glued to it nor committed.
func TestAppendCutsTornLastLine(t *testing.T) {
	l := newLayout(t)
	first := mustAppend(t, l, t0, "prompt", "before the crash")
	path := filepath.Join(l.StreamDir(), "2026-03.jsonl")
	// A crash mid-write leaves a line without its end.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"schema_version":1,"id":"e-deadbeef","time":"2026-03-14T15:`)
	f.Close()

	after := mustAppend(t, l, t0.Add(time.Second), "prompt", "after the crash")
	lines := readLines(t, path)
	if len(lines) != 3 || lines[1] != string(Encode(after))+"\n" {
		t.Fatalf("the torn line was not cut before the new event:\n%q", lines)
	}
	evs, bad, err := Query(l, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 || len(evs) != 2 || evs[0].ID != after.ID || evs[1].ID != first.ID {
		t.Fatalf("query: %d events, %d malformed; want both events and nothing malformed", len(evs), bad)
	}
	// A healthy file gets no blank line.
	mustAppend(t, l, t0.Add(2*time.Second), "prompt", "again")
	for i, line := range readLines(t, path) {
		if line == "\n" {
			t.Fatalf("blank line %d", i+1)
		}
	}
}

// checkWholeLines asserts that a stream file holds exactly want valid,
// distinct events and nothing else.
func checkWholeLines(t *testing.T, l memdir.Layout, want int) {
	t.Helper()
	probs, err := Validate(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
	st, err := ReadStats(l)
	if err != nil {
		t.Fatal(err)
	}
	if st.Events != want || st.Malformed != 0 {
		t.Fatalf("%d events and %d malformed lines, want %d and 0", st.Events, st.Malformed, want)
	}
}

// TestAppendLeavesALineBeingWritten: a writer that could not have the
// lock is copying its line while a locked Append looks at the file; the
// growing line is not taken for a crash's and cut. The other writer copies
// a part of its line each time Append waits for the line to settle, so the
// test does not hang on the machine's timing.
func TestAppendLeavesALineBeingWritten(t *testing.T) {
	l := newLayout(t)
	mustAppend(t, l, t0, "prompt", "first")
	path := filepath.Join(l.StreamDir(), "2026-03.jsonl")
	other := Encode(Event{SchemaVersion: SchemaVersion, ID: "e-0123abcd", Time: t0.Add(time.Second), Surface: "cli", Type: "prompt", Direction: DirInternal, Summary: "written without the lock"})
	other = append(other, '\n')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(other[:10])
	rest := other[10:]
	waits := 0
	settle = func(time.Duration) {
		waits++
		n := min(len(rest), 16)
		f.Write(rest[:n])
		rest = rest[n:]
	}
	defer func() { settle = time.Sleep }()
	mustAppend(t, l, t0.Add(2*time.Second), "prompt", "third")
	if waits < 2 || len(rest) != 0 {
		t.Fatalf("Append waited %d times and left %d bytes of the other line unwritten: it did not wait for the line", waits, len(rest))
	}
	checkWholeLines(t, l, 3)
}

func TestConcurrentAppendGoroutines(t *testing.T) {
	l := newLayout(t)
	const workers, each = 8, 100
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				// Sizes from 300 B to 8 KiB cross page boundaries.
				_, err := Append(l, Event{Surface: "cli", Type: "tool_use", Direction: DirInternal,
					Summary: fmt.Sprintf("w%d i%d", w, i), Content: strings.Repeat(string(rune('a'+w)), 300+i%17*470)})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkWholeLines(t, l, workers*each)
}

func TestConcurrentAppendProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	l := newLayout(t)
	const procs, each = 4, 150
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d|%c", childEnv, l.Root, each, 'A'+p))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	checkWholeLines(t, l, procs*each)
}

func TestAppendErrors(t *testing.T) {
	l := newLayout(t)
	if _, err := Append(l, Event{Surface: "cli", Type: "note"}); err == nil || !strings.Contains(err.Error(), "direction") {
		t.Fatalf("missing direction: err = %v", err)
	}
	// The stream folder cannot be created: a file is in the way.
	if err := os.MkdirAll(l.MemoryDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.StreamDir(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Append(l, Event{Surface: "cli", Type: "note", Direction: DirIn})
	if err == nil || !strings.Contains(err.Error(), "stream") {
		t.Fatalf("err = %v", err)
	}
}

func BenchmarkAppend(b *testing.B) {
	l := newLayout(b)
	ev := Event{Surface: SurfaceClaudeCode, Type: "tool_use", Direction: DirInternal,
		Summary: "Bash: go test ./layers/stream/...", SessionID: "258c7280-ae70-4798-800f-63464d01a85d",
		Content: "cd /work/main && go test ./layers/stream/... -run TestAppend -count=1", Metadata: map[string]string{"tool": "Bash"}}
	if _, err := Append(l, ev); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Append(l, ev); err != nil {
			b.Fatal(err)
		}
	}
}

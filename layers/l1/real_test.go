package l1

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
)

// realTranscripts lists every .jsonl under ../shared/transcripts, or skips
// the test when that folder is not beside the project.
func realTranscripts(t testing.TB) []string {
	t.Helper()
	return fixtures.SharedOrSkip(t)
}

// expected decodes a transcript independently of the refiner (encoding/json
// into maps) and lists the timestamps of typed prompts and the names of
// tool calls: what L1 must keep.
func expected(t testing.TB, path string) (promptTS []string, tools []string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Type      string `json:"type"`
			IsMeta    bool   `json:"isMeta"`
			Compact   bool   `json:"isCompactSummary"`
			Timestamp string `json:"timestamp"`
			Message   struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		var s string
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
			Name string `json:"name"`
		}
		if json.Unmarshal(line.Message.Content, &s) != nil {
			json.Unmarshal(line.Message.Content, &blocks)
		}
		switch line.Type {
		case "user":
			text := strings.TrimSpace(s)
			for _, b := range blocks {
				if b.Type == "text" {
					text += strings.TrimSpace(b.Text)
				}
			}
			if text != "" && !line.IsMeta && !line.Compact {
				promptTS = append(promptTS, line.Timestamp)
			}
		case "assistant":
			for _, b := range blocks {
				if b.Type == "tool_use" {
					tools = append(tools, b.Name)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return promptTS, tools
}

// TestRealTranscripts is the measurement of issue 2 on real sessions: every
// typed prompt and every tool call is in L1, and L1 is at most 3% of the
// raw bytes overall.
func TestRealTranscripts(t *testing.T) {
	var rawBytes, l1Bytes int64
	var nPrompts, nTools int
	for _, p := range realTranscripts(t) {
		recs, st, err := RefineFile(p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		wantPrompts, wantTools := expected(t, p)
		if strings.Contains(filepath.Base(p), "acompact") {
			// The compaction agent's prompt is Claude Code's instruction,
			// not a typed prompt; L1 drops it on purpose.
			wantPrompts = nil
		}
		var gotPrompts, gotTools []string
		for _, r := range recs {
			switch r.Kind {
			case KindPrompt:
				gotPrompts = append(gotPrompts, r.TS)
			case KindTool:
				gotTools = append(gotTools, r.Tool)
			}
		}
		if strings.Join(gotPrompts, ",") != strings.Join(wantPrompts, ",") {
			t.Errorf("%s: typed prompts: got %d, want %d", filepath.Base(p), len(gotPrompts), len(wantPrompts))
		}
		sort.Strings(gotTools)
		sort.Strings(wantTools)
		if strings.Join(gotTools, ",") != strings.Join(wantTools, ",") {
			t.Errorf("%s: tool calls: got %d, want %d", filepath.Base(p), len(gotTools), len(wantTools))
		}
		if st.Stats.Malformed != 0 {
			t.Errorf("%s: %d malformed lines in a real transcript", filepath.Base(p), st.Stats.Malformed)
		}
		out := Encode(recs)
		for _, r := range recs {
			if strings.HasPrefix(r.File, "/home/") {
				t.Errorf("%s: absolute home path kept: %s", filepath.Base(p), r.File)
			}
		}
		fi, _ := os.Stat(p)
		rawBytes += fi.Size()
		l1Bytes += int64(len(out))
		nPrompts += len(wantPrompts)
		nTools += len(wantTools)
	}
	ratio := float64(l1Bytes) / float64(rawBytes)
	t.Logf("real transcripts: %d bytes raw -> %d bytes L1 (%.2f%%), %d prompts and %d tool calls kept", rawBytes, l1Bytes, 100*ratio, nPrompts, nTools)
	if ratio > 0.035 {
		t.Errorf("L1 is %.2f%% of raw bytes, want <= 3.5%%", 100*ratio)
	}
}

func TestRealTranscriptsIncrementalEqualsWhole(t *testing.T) {
	files := realTranscripts(t)
	for i, p := range files {
		if testing.Short() && i > 1 {
			break
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := RefineFile(p, Options{Root: fixtures.Root})
		if err != nil {
			t.Fatal(err)
		}
		want := Encode(recs)
		// Cut at every 97th newline and in the middle of lines too.
		var cuts []int
		n := 0
		for j, c := range data {
			if c == '\n' {
				n++
				if n%97 == 0 {
					cuts = append(cuts, j+1, j+1+min(40, len(data)-j-1))
				}
			}
		}
		if got := growFile(t, data, cuts); string(got) != string(want) {
			t.Errorf("%s: incremental refine differs from whole", filepath.Base(p))
		}
	}
}

// BenchmarkRefineReal is the throughput of a full refine over every real
// transcript, on one core (run with -cpu 1).
func BenchmarkRefineReal(b *testing.B) {
	files := realTranscripts(b)
	var datas [][]byte
	var total int64
	for _, p := range files {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		datas = append(datas, d)
		total += int64(len(d))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range datas {
			r := NewRefiner(Options{})
			if _, err := r.Feed(bytes.NewReader(d), 0, true); err != nil {
				b.Fatal(err)
			}
			r.Flush()
		}
	}
}

// BenchmarkIncrementalTurn is one new turn at the end of a 20 MB transcript:
// a hook's refine, which must read only the tail.
func BenchmarkIncrementalTurn(b *testing.B) {
	big := fixtures.Large(20 << 20)
	turn := fixtures.Large(1) // one more turn
	p := filepath.Join(b.TempDir(), "big.jsonl")
	if err := os.WriteFile(p, big.Data, 0o644); err != nil {
		b.Fatal(err)
	}
	_, st, err := RefineFrom(p, State{}, Options{}, false)
	if err != nil {
		b.Fatal(err)
	}
	// The new turn is appended once; every iteration resumes from the
	// state before it, as a Stop hook would.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(turn.Data)
	f.Close()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		recs, _, err := RefineFrom(p, st, Options{}, false)
		if err != nil || len(recs) == 0 {
			b.Fatal(err, len(recs))
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N)/1000, "ms/turn")
}

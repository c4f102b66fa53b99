package redact

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestRealTranscripts runs String over every raw line of the real
// transcripts shared beside the project (JSON, escapes, code, logs): it
// must keep its invariants, and, since those sessions hold no live
// secrets, change almost nothing. The few values it does redact there are
// thinking signatures and a Phoenix secret_key_base, both rightly.
func TestRealTranscripts(t *testing.T) {
	files := realTranscripts(t)
	if len(files) == 0 {
		t.Skip("no real transcripts in ../../../shared/transcripts")
	}
	lines, changed := 0, 0
	kinds := map[string]int{}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Text()
			lines++
			out := String(line)
			if out == line {
				continue
			}
			changed++
			if again := String(out); again != out {
				t.Errorf("%s: not idempotent on line %d", path, lines)
			}
			for rest := out; ; {
				i := strings.Index(rest, "[REDACTED:")
				if i < 0 {
					break
				}
				rest = rest[i+len("[REDACTED:"):]
				kinds[rest[:strings.IndexByte(rest, ']')]]++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	t.Logf("%d files, %d lines, %d changed: %v", len(files), lines, changed, kinds)
	if changed*200 > lines {
		t.Errorf("%d of %d lines changed: more than 0.5%%, look for false positives", changed, lines)
	}
}

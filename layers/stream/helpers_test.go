package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
)

// newLayout makes an empty project with a .git folder in a temp dir.
func newLayout(t testing.TB) memdir.Layout {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := memdir.Find(root)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// mustAppend appends an event at a given time.
func mustAppend(t testing.TB, l memdir.Layout, at time.Time, typ, summary string, mod ...func(*Event)) Event {
	t.Helper()
	ev := Event{Time: at, Surface: SurfaceClaudeCode, Type: typ, Direction: DirInternal, Summary: summary, SessionID: "sess-aaaa-1111"}
	for _, m := range mod {
		m(&ev)
	}
	out, err := Append(l, ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeStream writes a stream file by hand, for planting problems.
func writeStream(t testing.TB, l memdir.Layout, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(l.StreamDir(), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeToken assembles a GitHub-token-shaped string at run time so that no
// secret-looking literal sits in the repository.
func fakeToken() string {
	return strings.Join([]string{"ghp", "Q8s2kLmQ9xV4tY7wZ1aB3cD5eF6gH0iJ2kL7"}, "_")
}

func readLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(b), "\n")
}

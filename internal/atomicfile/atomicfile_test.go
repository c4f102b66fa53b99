package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWriteFileReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.txt")
	if err := WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("got %q, %v", b, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory in the way of the target makes the rename fail.
	target := filepath.Join(dir, "d")
	os.MkdirAll(filepath.Join(target, "x"), 0o755)
	if err := WriteFile(target, []byte("new"), 0o644); err == nil {
		t.Fatal("expected an error writing over a non-empty directory")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "f.txt" && e.Name() != "d" {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

// BenchmarkWriteFile is WriteFile of a 60 KB file (an L2 file's size),
// against the same write with an fsync before the rename: the cost
// WriteFile leaves out. Run with
//
//	go test ./internal/atomicfile -run '^$' -bench WriteFile
func BenchmarkWriteFile(b *testing.B) {
	dir := b.TempDir()
	data := make([]byte, 60<<10)
	p := filepath.Join(dir, "x.l2.json")
	b.Run("rename", func(b *testing.B) {
		for b.Loop() {
			if err := WriteFile(p, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fsync+rename", func(b *testing.B) {
		for b.Loop() {
			f, err := os.CreateTemp(dir, ".x-")
			if err != nil {
				b.Fatal(err)
			}
			f.Write(data)
			f.Sync()
			f.Close()
			if err := os.Rename(f.Name(), p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestWriteOutputKeepsWhatIsNoRegularFile: an output that is a FIFO (as
// /dev/null or a terminal, it is no regular file) is written in place and
// stays what it was; without a reader the write fails instead of waiting.
func TestWriteOutputKeepsWhatIsNoRegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(fifo, []byte("x\n"), 0o644); err == nil {
		t.Error("writing a FIFO nobody reads succeeded; want an error, not a wait")
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	var err error
	for range 100 { // until the reader has opened its end
		if err = WriteOutput(fifo, []byte("records\n"), 0o644); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "records\n" {
		t.Errorf("reader got %q", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	if err := WriteOutput(t.TempDir(), nil, 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory as output: %v", err)
	}
}

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
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

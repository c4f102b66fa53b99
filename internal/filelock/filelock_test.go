package filelock

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestAcquireExcludesAndReleases(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state", "x.lock")
	a, err := Acquire(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(p, 5*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("second lock while held: got %v, want ErrTimeout", err)
	}
	a.Unlock()
	b, err := Acquire(p, 0)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	b.Unlock()
}

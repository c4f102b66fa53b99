//go:build unix

package fastfile

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

var sink byte // keeps the read below from being optimised away

// TestMapTruncatedIsAPanicNotACrash holds Map's promise: a mapped file cut
// short by another process faults on the lost pages, and with
// SetPanicOnFault (as the hooks run) that is a panic a caller recovers.
func TestMapTruncatedIsAPanicNotACrash(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 4*mapMin), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _, release, err := Map(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	recovered := func() (r any) {
		defer func() { r = recover() }()
		sink = data[len(data)-1]
		return nil
	}()
	if recovered == nil {
		t.Fatal("reading a truncated mapping did not fault; Map must not have mapped the file")
	}
}

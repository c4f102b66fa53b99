package repo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestFsyncFollowsCoreFsync(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	for _, tc := range []struct {
		cfg        string
		index, ref bool
	}{
		{"", false, false},
		{"[core]\n\tfsync = committed\n", false, true},
		{"[core]\n\tfsync = all,-index\n", false, true},
		{"[core]\n\tfsync = added\n", true, true},
		{"[core]\n\tfsync = index\n", true, false},
	} {
		os.WriteFile(filepath.Join(dir, "config"), []byte(tc.cfg), 0o644)
		i, r := LoadConfig(dir, dir).Fsync()
		if i != tc.index || r != tc.ref {
			t.Errorf("%q: index %v ref %v", tc.cfg, i, r)
		}
	}
}

func TestReadRefPackedAndLoose(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "refs", "heads"), 0o755)
	a := "1111111111111111111111111111111111111111"
	b := "2222222222222222222222222222222222222222"
	os.WriteFile(filepath.Join(dir, "packed-refs"), []byte("# pack-refs with: peeled fully-peeled sorted \n"+
		a+" refs/heads/main\n"+b+" refs/heads/xmain\n^"+b+"\n"), 0o644)
	r := &Repo{GitDir: dir, CommonDir: dir, Config: &Config{}}
	h, ok, err := r.ReadRef("refs/heads/main")
	if err != nil || !ok || h != plumbing.NewHash(a) {
		t.Fatalf("packed: %s %v %v", h, ok, err)
	}
	os.WriteFile(filepath.Join(dir, "refs", "heads", "main"), []byte(b+"\n"), 0o644)
	if h, _, _ := r.ReadRef("refs/heads/main"); h != plumbing.NewHash(b) {
		t.Fatal("loose ref does not shadow packed-refs")
	}
	if _, ok, err := r.ReadRef("refs/heads/ain"); ok || err != nil {
		t.Fatal("suffix match in packed-refs")
	}
}

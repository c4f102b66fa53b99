package gitindex

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestRoundTripGitIndexes parses indexes written by git (versions 2, 3 and
// 4, with a cache tree, an intent-to-add entry and long shared prefixes)
// and re-encodes them byte for byte.
func TestRoundTripGitIndexes(t *testing.T) {
	for _, v := range []string{"2", "3", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			dir := t.TempDir()
			git(t, dir, "init", "-q")
			for i := 0; i < 30; i++ {
				p := filepath.Join(dir, "a", fmt.Sprintf("dir%02d", i%4), fmt.Sprintf("file-with-a-long-name-%02d.txt", i))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(p), 0o644)
			}
			git(t, dir, "add", ".")
			git(t, dir, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qm", "x")
			if v == "3" {
				os.WriteFile(filepath.Join(dir, "ita.txt"), nil, 0o644)
				git(t, dir, "add", "-N", "ita.txt")
			}
			git(t, dir, "update-index", "--index-version", v)
			b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			ix, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ix.Version) != v || len(ix.Entries) < 30 {
				t.Fatalf("version %d, %d entries", ix.Version, len(ix.Entries))
			}
			if got := ix.Bytes(); !bytes.Equal(got, b) {
				t.Fatalf("re-encoding differs (%d vs %d bytes)", len(got), len(b))
			}
			if v == "3" {
				e, ok := ix.Find("ita.txt")
				if !ok || !e.IntentToAdd() {
					t.Fatal("intent-to-add flag lost")
				}
			}
		})
	}
}

func TestVarint(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 129, 16383, 16384, 1 << 20} {
		var b bytes.Buffer
		putVarint(&b, n)
		got, m, err := varint(b.Bytes())
		if err != nil || got != n || m != b.Len() {
			t.Fatalf("%d: got %d (%d bytes, %v)", n, got, m, err)
		}
	}
}

func TestInvalidateTree(t *testing.T) {
	var b bytes.Buffer
	h := bytes.Repeat([]byte{1}, 20)
	root := &treeNode{name: "", count: 3, hash: h, children: []*treeNode{
		{name: ".claude", count: 2, hash: h, children: []*treeNode{
			{name: "memory", count: 1, hash: h, children: []*treeNode{{name: "sessions", count: 1, hash: h}}},
		}},
		{name: "src", count: 1, hash: h},
	}}
	writeTree(&b, root)
	out, err := invalidateTree(b.Bytes(), ".claude/memory")
	if err != nil {
		t.Fatal(err)
	}
	n, rest, err := readTree(out)
	if err != nil || len(rest) != 0 {
		t.Fatal(err)
	}
	mem := n.children[0].children[0]
	if n.count != -1 || n.children[0].count != -1 || mem.count != -1 || mem.children[0].count != -1 {
		t.Fatal("path not invalidated")
	}
	if n.children[1].count != 1 || !bytes.Equal(n.children[1].hash, h) {
		t.Fatal("sibling cache entry lost")
	}
}

func TestRequiredExtensionRefused(t *testing.T) {
	ix := &Index{Version: 2, Exts: []Extension{{Sig: "link", Data: nil}}}
	if ix.Unsupported() == nil || ix.PrepareRewrite(".claude/memory") == nil {
		t.Fatal("split index accepted")
	}
	ix = &Index{Version: 2, Exts: []Extension{{Sig: "UNTR"}, {Sig: "EOIE"}, {Sig: "REUC", Data: []byte("x")}}}
	if err := ix.PrepareRewrite("a"); err != nil || len(ix.Exts) != 1 || ix.Exts[0].Sig != "REUC" {
		t.Fatalf("%v %v", err, ix.Exts)
	}
}

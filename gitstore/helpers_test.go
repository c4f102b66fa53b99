package gitstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/gitstore/merge"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/memdir"
)

// TestMain isolates git from the machine's configuration and lets the test
// binary act as a child process: a concurrent committer, a crashing
// committer, or the merge driver git calls during `git merge`.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} {
		os.Unsetenv(k)
	}
	switch os.Getenv("GITSTORE_TEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "merge-driver":
		a := os.Args[len(os.Args)-4:]
		r := testRender
		if os.Getenv("GITSTORE_TEST_RENDER") == "markdown" {
			r = consolidate.RenderFiles
		}
		os.Exit(merge.RunMergeDriver(a[0], a[1], a[2], a[3], r))
	case "commit":
		os.Exit(childCommit())
	case "go-git":
		if err := goGitCommit("."); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// childCommit writes one memory file named by GITSTORE_TEST_FILE and
// commits, retrying deferred commits like consolidations would.
func childCommit() int {
	l, err := memdir.Find(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if at := os.Getenv("GITSTORE_TEST_CRASH_AT"); at != "" {
		testHook = func(step string) error {
			if step == at {
				os.Exit(3) // die without cleaning up, like kill -9
			}
			return nil
		}
	}
	if f := os.Getenv("GITSTORE_TEST_FILE"); f != "" {
		p := filepath.Join(l.MemoryDir(), filepath.FromSlash(f))
		if err := atomicfile.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	res, err := Commit(l, Options{Trailers: []Trailer{{"Memkeep-Session", os.Getenv("GITSTORE_TEST_FILE")}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "commit:", err)
		return 1
	}
	fmt.Println(res.Status, res.Commit, res.Reason)
	return 0
}

func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_EDITOR=true", "GIT_MERGE_AUTOEDIT=no")
	return cmd
}

// git runs the git CLI, the referee of every test, and fails on error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := gitCmd(dir, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// gitOK runs git and reports success without failing the test.
func gitOK(dir string, args ...string) (string, bool) {
	out, err := gitCmd(dir, args...).CombinedOutput()
	return string(out), err == nil
}

// write writes a file of the repository at root. A memory file is written
// where memkeep writes it, in the shadow under the git dir (the work tree
// gets it in memkeep's commit); writeWork writes the work tree's copy, as
// a person editing it would.
func write(t testing.TB, root, rel, data string) {
	t.Helper()
	writeWork(t, root, shadowPath(t, root, rel), data)
}

// shadowPath maps a memory path to its place in the shadow, relative to
// root; other paths are returned as they are.
func shadowPath(t testing.TB, root, rel string) string {
	t.Helper()
	sub, ok := strings.CutPrefix(rel, memdir.MemoryRel+"/")
	if !ok {
		return rel
	}
	l, err := memdir.Find(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := filepath.Rel(root, filepath.Join(l.MemoryDir(), filepath.FromSlash(sub)))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(p)
}

func writeWork(t testing.TB, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRepo makes a repository with a first commit of a few project files
// and a .claude/settings.json that memory commits must keep.
func newRepo(t testing.TB) memdir.Layout {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Test User")
	git(t, dir, "config", "user.email", "test@example.com")
	write(t, dir, "README.md", "hello\n")
	write(t, dir, "src/a.go", "package a\n")
	write(t, dir, "src/b.go", "package a\n\nvar B = 1\n")
	write(t, dir, ".claude/settings.json", "{}\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "initial")
	l, err := memdir.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// userChanges leaves the work tree with a staged modification, a staged
// new file, an unstaged modification and an untracked file.
func userChanges(t testing.TB, dir string) {
	t.Helper()
	write(t, dir, "README.md", "hello\nstaged line\n")
	write(t, dir, "src/new.go", "package a // staged new file\n")
	git(t, dir, "add", "README.md", "src/new.go")
	write(t, dir, "src/b.go", "package a\n\nvar B = 2 // unstaged\n")
	write(t, dir, "notes.txt", "untracked\n")
}

const factsV1 = `{
  "schema_version": 1,
  "rules": [
    {
      "id": "r-00000001",
      "text": "always run go vet",
      "confidence": 0.9,
      "contradictions": 0,
      "updated": "2026-01-01T00:00:00Z"
    }
  ]
}
`

const conceptsV1 = `{
  "schema_version": 1,
  "concepts": [
    {
      "id": "c-0000000a",
      "name": "auth",
      "summary": "login flow",
      "exchanges": ["x-00000001"],
      "updated": "2026-01-01T00:00:00Z"
    }
  ]
}
`

// l2JSON is an L2 file holding exchanges ids.
func l2JSON(ids ...string) string {
	var ex []string
	for _, id := range ids {
		ex = append(ex, fmt.Sprintf(`{"id": %q, "summary": "did %s", "updated": "2026-01-01T00:00:00Z"}`, id, id))
	}
	return `{"schema_version": 1, "session_id": "s", "exchanges": [` + strings.Join(ex, ", ") + `], "facts": []}` + "\n"
}

// writeMemory writes a small memory folder.
func writeMemory(t testing.TB, root string) { writeMemoryWith(t, root, write) }

// writeMemoryWith writes the memory of writeMemory with w (writeWork puts
// it in the work tree, as for git's own commit of the same files).
func writeMemoryWith(t testing.TB, root string, write func(testing.TB, string, string, string)) {
	write(t, root, ".claude/memory/facts.json", factsV1)
	write(t, root, ".claude/memory/concepts.json", conceptsV1)
	write(t, root, ".claude/memory/sessions/2026-01-01_1200_aaaaaaaa.l2.json", l2JSON("x-00000001", "x-00000002"))
	write(t, root, ".claude/memory/sessions/2026-01-01_1200_aaaaaaaa.l1.jsonl", `{"ts":"2026-01-01T12:00:00Z","k":"prompt","off":0,"text":"hi"}`+"\n")
	write(t, root, ".claude/memory/memory.md", "# Memory\n")
}

// withoutMemory drops status lines about the memory folder.
func withoutMemory(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if line != "" && !strings.Contains(line, ".claude/memory") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

func fsck(t testing.TB, dir string) {
	t.Helper()
	out, ok := gitOK(dir, "fsck", "--strict", "--no-progress")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		// Dangling objects are what an interrupted git command leaves too;
		// gc prunes them. Anything else is corruption.
		if line != "" && !strings.HasPrefix(line, "dangling ") {
			ok = false
		}
	}
	if !ok {
		t.Fatalf("git fsck --strict: %s", out)
	}
}

func mustCommit(t testing.TB, l memdir.Layout, o Options) Result {
	t.Helper()
	res, err := Commit(l, o)
	if err != nil {
		t.Fatalf("Commit: %v (%+v)", err, res)
	}
	return res
}

func layoutOf(t testing.TB, dir string) memdir.Layout {
	t.Helper()
	l, err := memdir.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// layoutNoRepo is a layout whose git dir does not exist.
func layoutNoRepo(t testing.TB) memdir.Layout {
	d := t.TempDir()
	return memdir.Layout{Root: d, GitDir: filepath.Join(d, ".git"), CommonDir: filepath.Join(d, ".git")}
}

// childCmd re-executes the test binary as a committing child process.
func childCmd(t testing.TB, dir string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GITSTORE_TEST_CHILD=commit"), env...)
	return cmd
}

// testRender stands in for the render package: a digest that lists rule
// texts and concept names, enough to see it was made from merged JSON.
func testRender(facts, concepts []byte, sessions map[string][]byte) ([]byte, error) {
	var f struct{ Rules []struct{ Text string } }
	var c struct {
		Concepts []struct{ Name, Summary string }
	}
	if err := json.Unmarshal(facts, &f); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(concepts, &c); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("# Memory\n")
	for _, r := range f.Rules {
		b.WriteString("- rule: " + r.Text + "\n")
	}
	for _, x := range c.Concepts {
		b.WriteString("- concept: " + x.Name + ": " + x.Summary + "\n")
	}
	bases := make([]string, 0, len(sessions))
	for base := range sessions {
		bases = append(bases, base)
	}
	sort.Strings(bases)
	for _, base := range bases {
		var s struct{ Exchanges []struct{ ID string } }
		if sessions[base] != nil {
			if err := json.Unmarshal(sessions[base], &s); err != nil {
				return nil, err
			}
		}
		fmt.Fprintf(&b, "- session: %s (%d exchanges)\n", base, len(s.Exchanges))
	}
	return []byte(b.String()), nil
}

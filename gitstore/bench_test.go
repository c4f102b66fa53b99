package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memkeep/memkeep/internal/proctime"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Benchmarks and measurements run on generated repositories: N tracked
// files in folders of 100, a memory folder with a few sessions, and a
// short history, either loose or after `git gc`. Sizes come from
// MEMKEEP_BENCH_FILES (default 20000); they are built once per run.
//
//	go test ./gitstore -run '^$' -bench Commit -benchtime 20x
//	MEMKEEP_BENCH=1 go test ./gitstore -run TestMeasureCommitProcess -v
//	MEMKEEP_BENCH=1 MEMKEEP_BENCH_FILES=100000 go test ./gitstore -run TestMeasureCommitProcess -v
//
// MEMKEEP_BENCH_BIN names a binary that runs one Commit in its working
// directory (e.g. a throwaway main calling gitstore.Commit, or memkeep
// commit) to time alongside.

func benchFiles() int {
	if n, err := strconv.Atoi(os.Getenv("MEMKEEP_BENCH_FILES")); err == nil && n > 0 {
		return n
	}
	return 20000
}

// genRepo builds a repository of n files; gc packs it.
func genRepo(tb testing.TB, n int, gc bool) memdir.Layout {
	tb.Helper()
	dir := tb.TempDir()
	git(tb, dir, "init", "-q", "-b", "main")
	git(tb, dir, "config", "user.name", "Bench")
	git(tb, dir, "config", "user.email", "bench@example.com")
	git(tb, dir, "config", "gc.auto", "0") // no background gc in the middle of a measurement
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, "src", fmt.Sprintf("d%04d", i/100), fmt.Sprintf("f%03d.go", i%100))
		if i%100 == 0 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		os.WriteFile(p, []byte(fmt.Sprintf("package d\n\nconst F%d = %d\n", i, i)), 0o644)
	}
	write(tb, dir, ".claude/settings.json", "{}\n")
	writeMemory(tb, dir)
	for s := 0; s < 20; s++ {
		write(tb, dir, fmt.Sprintf(".claude/memory/sessions/2026-01-%02d_1200_%08x.l2.json", s+1, s), l2JSON(fmt.Sprintf("x-%08x", s)))
	}
	write(tb, dir, ".claude/memory/stream/2026-01.jsonl", `{"id":"e-00000000","time":"2026-01-01T00:00:00Z"}`+"\n")
	git(tb, dir, "add", "-A")
	git(tb, dir, "commit", "-q", "-m", "generated")
	write(tb, dir, "src/d0000/f000.go", "package d // edited\n")
	git(tb, dir, "commit", "-q", "-am", "second")
	if gc {
		git(tb, dir, "gc", "-q")
	}
	git(tb, dir, "status", "-s") // let git refresh and write its index once
	return layoutOf(tb, dir)
}

var benchSeq int

func appendTB(tb testing.TB, root, rel, data string) {
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		tb.Fatal(err)
	}
	f.WriteString(data)
	f.Close()
}

func event(tb testing.TB, root string) {
	benchSeq++
	appendTB(tb, root, ".claude/memory/stream/2026-01.jsonl", fmt.Sprintf(`{"id":"e-%08x","time":"2026-01-02T00:00:00Z"}`+"\n", benchSeq))
}

func BenchmarkCommit(b *testing.B) {
	n := benchFiles()
	for _, gc := range []bool{false, true} {
		name := fmt.Sprintf("files=%d/loose", n)
		if gc {
			name = fmt.Sprintf("files=%d/gc", n)
		}
		l := genRepo(b, n, gc)
		b.Run(name+"/memkeep", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				event(b, l.Root)
				b.StartTimer()
				res, err := Commit(l, Options{})
				if err != nil || res.Status != Committed {
					b.Fatalf("%+v %v", res, err)
				}
			}
		})
		b.Run(name+"/git-cli", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				event(b, l.Root)
				b.StartTimer()
				if out, err := exec.Command("sh", "-c", "cd '"+l.Root+"' && git add .claude/memory && git commit -q -m memory").CombinedOutput(); err != nil {
					b.Fatalf("%v %s", err, out)
				}
			}
		})
		b.Run(name+"/go-git", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				event(b, l.Root)
				b.StartTimer()
				if err := goGitCommit(l.Root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// goGitCommit is the straightforward go-git way: Worktree.Add + Commit.
func goGitCommit(root string) error {
	r, err := gogit.PlainOpen(root)
	if err != nil {
		return err
	}
	w, err := r.Worktree()
	if err != nil {
		return err
	}
	if _, err := w.Add(".claude/memory"); err != nil {
		return err
	}
	_, err = w.Commit("memory", &gogit.CommitOptions{Author: &object.Signature{Name: "Bench", Email: "bench@example.com", When: time.Now()}})
	return err
}

// TestMeasureCommitProcess measures whole-process wall time of a small
// memory commit (this test binary re-executed as the committer, so process
// start is included) against the git CLI and go-git doing the same, on
// loose and packed repositories, with `true` as the floor.
func TestMeasureCommitProcess(t *testing.T) {
	if os.Getenv("MEMKEEP_BENCH") == "" {
		t.Skip("set MEMKEEP_BENCH=1 (and MEMKEEP_BENCH_FILES) to measure")
	}
	n := benchFiles()
	runs := 15
	if r, err := strconv.Atoi(os.Getenv("MEMKEEP_BENCH_RUNS")); err == nil && r > 0 {
		runs = r
	}
	for _, gc := range []bool{false, true} {
		l := genRepo(t, n, gc)
		exe, _ := os.Executable()
		before := func() error { event(t, l.Root); return nil }
		env := append(os.Environ(), "GITSTORE_TEST_CHILD=commit")
		measure := func(r proctime.Run) time.Duration {
			r.Before = before
			ds, err := proctime.Sample(r, 2, runs)
			if err != nil {
				t.Fatal(err)
			}
			return proctime.Median(ds)
		}
		floor := measure(proctime.Run{Path: "true"})
		ours := measure(proctime.Run{Path: exe, Args: []string{"-test.run=^$"}, Dir: l.Root, Env: env})
		cli := measure(proctime.Run{Path: "sh", Args: []string{"-c", "git add .claude/memory && git commit -q -m memory"}, Dir: l.Root})
		gg := measure(proctime.Run{Path: exe, Args: []string{"-test.run=^$"}, Dir: l.Root, Env: append(os.Environ(), "GITSTORE_TEST_CHILD=go-git")})
		if bin := os.Getenv("MEMKEEP_BENCH_BIN"); bin != "" {
			// a small main that only calls Commit: the binary's own start-up
			// instead of the test binary's
			b := measure(proctime.Run{Path: bin, Dir: l.Root})
			t.Logf("MEMKEEP_BENCH_BIN %s: %s (git CLI %.1fx slower)", bin, proctime.Ms(b), float64(cli)/float64(b))
		}
		kind := "loose"
		if gc {
			kind = "after git gc"
		}
		t.Logf("%d files, %s: memkeep %s | git add+commit %s (%.1fx) | go-git Add+Commit %s (%.1fx) | floor `true` %s",
			n, kind, proctime.Ms(ours), proctime.Ms(cli), float64(cli)/float64(ours), proctime.Ms(gg), float64(gg)/float64(ours), proctime.Ms(floor))
		if s := git(t, l.Root, "status", "--porcelain"); s != "" {
			t.Fatalf("not clean after the runs: %q", s)
		}
		fsck(t, l.Root)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// faultProject is a git project with memkeep set up and one commit, for
// the tests that kill memkeep part way.
type faultProject struct {
	t          *testing.T
	bin, dir   string
	transcript string
}

func newFaultProject(t *testing.T, dir string) *faultProject {
	t.Helper()
	p := &faultProject{t: t, bin: memkeepBinary(t), dir: dir, transcript: filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")}
	p.git("init", "-q")
	p.run("", nil, "init", "--local")
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "init")
	return p
}

func (p *faultProject) git(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// run runs memkeep with MEMKEEP_FAULT=fault (none when empty) and stdin;
// it reports whether the process was killed.
func (p *faultProject) run(fault string, stdin []byte, args ...string) (killed bool) {
	p.t.Helper()
	cmd := exec.Command(p.bin, args...)
	cmd.Dir = p.dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "MEMKEEP_FAULT="+fault, "MEMKEEP_NO_SPAWN=1", "CLAUDE_PROJECT_DIR=", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return true
		}
	}
	if err != nil && !strings.HasPrefix(args[0], "commit") {
		p.t.Fatalf("memkeep %v: %v\n%s", args, err, out)
	}
	return false
}

func (p *faultProject) hook(fault, event string, fields map[string]any) bool {
	in := map[string]any{"session_id": "11111111-2222-4333-8444-555555555555", "cwd": p.dir, "hook_event_name": event, "transcript_path": p.transcript}
	for k, v := range fields {
		in[k] = v
	}
	b, _ := json.Marshal(in)
	return p.run(fault, b, "hook", event)
}

// l1 is the session's L1 file, read whole.
func (p *faultProject) l1() string {
	p.t.Helper()
	files, _ := filepath.Glob(filepath.Join(p.dir, ".git/memkeep/memory/sessions/*.l1.jsonl"))
	if len(files) != 1 {
		p.t.Fatalf("L1 files: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	return string(b)
}

// TestKillDuringL1AppendLosesAndDuplicatesNothing kills the Stop hook at
// each step of an L1 append, for real (SIGKILL), and shows that the next
// run leaves the L1 file exactly as an uninterrupted refinement writes it:
// no record lost, none twice.
func TestKillDuringL1AppendLosesAndDuplicatesNothing(t *testing.T) {
	src, err := os.ReadFile("../../fixtures/transcripts/v2.1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	half := bytes.Join(lines[:len(lines)/2], nil)

	clean := newFaultProject(t, t.TempDir())
	os.WriteFile(clean.transcript, src, 0o644)
	clean.hook("", "SessionEnd", nil)
	want := clean.l1()

	for _, step := range []string{"l1-append", "l1-state"} {
		t.Run(step, func(t *testing.T) {
			p := newFaultProject(t, t.TempDir())
			os.WriteFile(p.transcript, half, 0o644)
			p.hook("", "Stop", nil)
			os.WriteFile(p.transcript, src, 0o644)
			if !p.hook(step, "Stop", nil) {
				t.Fatalf("MEMKEEP_FAULT=%s did not kill the hook", step)
			}
			p.hook("", "SessionEnd", nil)
			if got := p.l1(); got != want {
				t.Errorf("L1 after a kill at %s differs from an uninterrupted run: %d lines, want %d", step, strings.Count(got, "\n"), strings.Count(want, "\n"))
			}
		})
	}
}

// TestKillDuringStreamAppend kills PostToolUse at the stream append, for
// real: the killed hook's event is not written, and every other is, once,
// on a whole line.
func TestKillDuringStreamAppend(t *testing.T) {
	p := newFaultProject(t, t.TempDir())
	for i := range 6 {
		fault := ""
		if i%2 == 1 {
			fault = "stream-append"
		}
		killed := p.hook(fault, "PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": fmt.Sprintf("make step%d", i)}})
		if killed != (fault != "") {
			t.Fatalf("hook %d: killed %v with MEMKEEP_FAULT=%q", i, killed, fault)
		}
	}
	files, _ := filepath.Glob(filepath.Join(p.dir, ".git/memkeep/memory/stream/*.jsonl"))
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
	}
	for i := range 6 {
		n := 0
		for _, line := range bytes.Split(all, []byte("\n")) {
			if bytes.Contains(line, []byte(fmt.Sprintf("make step%d", i))) {
				n++
			}
		}
		if want := 1 - i%2; n != want {
			t.Errorf("step%d: %d events, want %d", i, n, want)
		}
	}
	for _, line := range bytes.Split(bytes.TrimSuffix(all, []byte("\n")), []byte("\n")) {
		if !json.Valid(line) {
			t.Errorf("torn line %q", line)
		}
	}
}

// TestRevertedL1IsReadAgain: when the user takes memory away (a reset
// that drops memkeep's commit), memkeep's copy follows HEAD and loses the
// L1 lines with it; the next run notices and refines again what the file
// lost, from the transcript.
func TestRevertedL1IsReadAgain(t *testing.T) {
	src, err := os.ReadFile("../../fixtures/transcripts/v2.1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	p := newFaultProject(t, t.TempDir())
	os.WriteFile(p.transcript, bytes.Join(lines[:len(lines)/3], nil), 0o644)
	p.hook("", "Stop", nil)
	p.run("", nil, "commit")
	os.WriteFile(p.transcript, src, 0o644)
	p.hook("", "Stop", nil)
	p.run("", nil, "commit")
	grown := p.l1()
	if got := p.git("show", "HEAD~1:.claude/memory/.gitattributes"); got == "" {
		t.Fatal("HEAD~1 is not the setup commit")
	}
	p.git("reset", "-q", "--hard", "HEAD~1")
	p.hook("", "SessionEnd", nil)
	if got := p.l1(); !strings.HasPrefix(got, grown) && got != grown {
		t.Errorf("after a revert the L1 file is not whole again:\n%s\nwant it to hold:\n%s", got, grown)
	}
}

// TestKillDuringCommit kills `memkeep commit` at every step, for real, and
// shows that the next commit completes: the memory is committed once,
// the user's git works, and git fsck --strict finds nothing.
func TestKillDuringCommit(t *testing.T) {
	steps := []string{"lock-index", "read-index", "write-blobs", "write-trees", "write-index-lock", "write-commit", "write-reflog", "update-ref"}
	for _, step := range steps {
		t.Run(step, func(t *testing.T) {
			p := newFaultProject(t, t.TempDir())
			os.WriteFile(filepath.Join(p.dir, "user.txt"), []byte("staged work\n"), 0o644)
			p.git("add", "user.txt")
			// A rule stated in a prompt: memory that waits for the commit.
			p.hook("", "UserPromptSubmit", map[string]any{"prompt": "Always run make lint before committing"})
			if !p.run("commit-"+step, nil, "commit") {
				t.Fatalf("MEMKEEP_FAULT=commit-%s did not kill the commit", step)
			}
			p.run("", nil, "commit")
			if st := p.git("status", "--porcelain"); !strings.Contains(st, "A  user.txt") || strings.Contains(st, ".claude/memory") {
				t.Errorf("status after the recovered commit:\n%s", st)
			}
			if n := strings.Count(p.git("log", "--format=%s"), "memory"); n != 1 {
				t.Errorf("%d memory commits, want 1:\n%s", n, p.git("log", "--format=%s"))
			}
			if out := p.git("fsck", "--strict"); strings.Contains(out, "error") {
				t.Errorf("git fsck --strict: %s", out)
			}
			if _, err := os.Stat(filepath.Join(p.dir, ".git", "index.lock")); err == nil {
				t.Error("index.lock left behind")
			}
			p.git("commit", "-q", "-m", "the user's commit")
		})
	}
}

// TestSigtermDuringCommitReleasesLocks: a commit stopped by SIGTERM while
// it holds index.lock removes it before exiting.
func TestSigtermDuringCommitReleasesLocks(t *testing.T) {
	p := newFaultProject(t, t.TempDir())
	p.hook("", "UserPromptSubmit", map[string]any{"prompt": "Never edit files under generated/"})
	cmd := exec.Command(p.bin, "commit")
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "MEMKEEP_FAULT=commit-write-index-lock:hang")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(p.dir, ".git", "index.lock")
	for i := 0; ; i++ {
		if _, err := os.Stat(lock); err == nil {
			break
		}
		if i > 500 {
			cmd.Process.Kill()
			t.Fatal("the commit never took index.lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if _, err := os.Stat(lock); err == nil {
		t.Fatal("index.lock survived SIGTERM")
	}
	p.git("status")
}

// TestFullDiskLeavesNoTornLine runs hooks on a file system that fills up
// (a 2 MiB tmpfs; skipped where mounting one is not allowed): appends
// that fail leave no partial line, and what is committed once room is
// made again holds only whole events.
func TestFullDiskLeavesNoTornLine(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	p := newFaultProject(t, mnt)
	// A stream file with a part-filled last page, which a write at a full
	// disk can still fill part way.
	p.hook("", "PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "make"}})
	filler := filepath.Join(mnt, "filler")
	f, _ := os.Create(filler)
	f.Write(make([]byte, 8<<20)) // fails when the disk is full: that is the point
	f.Close()
	// Events of many sizes, so that some write meets the end of the
	// disk part way through its line.
	for i := range 40 {
		big := strings.Repeat("output line ", 10+i*i*7%250)
		p.hook("", "PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": fmt.Sprintf("step %d; %s", i, big)}})
		if i == 20 {
			os.Truncate(filler, 0) // room again
		}
	}
	stream, _ := filepath.Glob(filepath.Join(mnt, ".git/memkeep/memory/stream/*.jsonl"))
	events := 0
	for _, s := range stream {
		b, _ := os.ReadFile(s)
		for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			events++
			if !json.Valid(line) {
				t.Errorf("%s line %d is torn: %.80q", s, i+1, line)
			}
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Errorf("%s ends in a torn line", s)
		}
	}
	t.Logf("%d of 41 events written", events)
	if events < 5 || events >= 41 {
		t.Errorf("%d of 41 events written: want some appends to have met the full disk and the later ones to succeed", events)
	}
	p.run("", nil, "commit")
	if out := p.git("fsck", "--strict"); strings.Contains(out, "error") {
		t.Errorf("git fsck --strict: %s", out)
	}
}

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/internal/claudetest"
)

// checkNoErrorShownToModel fails when anything the model was sent reads
// like a hook failure or carries memkeep's own problem report (which is a
// systemMessage, for the user only).
func checkNoErrorShownToModel(t *testing.T, p *project) {
	t.Helper()
	for _, s := range []string{"hook error", "blocking error", "Hook error", "non-blocking", "memkeep doctor", "hooks.log"} {
		if r := p.Server.FindRequest(s); r != nil {
			t.Errorf("a request to the model contains %q:\n%.2000s", s, r.LastUserText())
		}
	}
}

// systemMessages are the systemMessage texts of a transcript's hook runs
// (hook_system_message attachments), in order.
func systemMessages(t *testing.T, transcript string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(readTranscript(t, transcript), "\n") {
		const key = `"type":"hook_system_message","content":"`
		i := strings.Index(line, key)
		if i < 0 {
			continue
		}
		rest := line[i+len(key):]
		if j := strings.Index(rest, `","`); j >= 0 {
			rest = rest[:j]
		}
		out = append(out, rest)
	}
	return out
}

// Scenario 5a: memory files memkeep cannot read never fail the session:
// every hook exits 0 with JSON, the model sees no hook error, the problem
// is logged in hooks.log and told to the user once, the broken file is
// not silently replaced, and SessionEnd's work stays owed rather than
// lost. Two breakages of the memory memkeep reads (its copy under .git,
// which a crash, a full disk or a person's stray edit can damage):
// facts.json that is not JSON, and a directory where concepts.json should be.
func TestBrokenMemoryFilesNeverFailTheSession(t *testing.T) {
	start := time.Now()
	var times []time.Duration
	for _, tc := range []struct {
		name    string
		file    string // the broken file, under .git/memkeep/memory
		breakIt func(p *project)
		check   func(p *project) error
	}{
		{
			name: "invalid-json", file: "facts.json",
			breakIt: func(p *project) { p.WriteFile(".git/memkeep/memory/facts.json", []byte(brokenFacts)) },
			check: func(p *project) error {
				if got := p.readFile(".git/memkeep/memory/facts.json"); got != brokenFacts {
					return fmt.Errorf("the unreadable facts.json was replaced (its content may have been memory):\n%s", got)
				}
				return nil
			},
		},
		{
			name: "directory-for-file", file: "concepts.json",
			breakIt: func(p *project) {
				if err := os.MkdirAll(p.path(".git/memkeep/memory/concepts.json/oops"), 0o755); err != nil {
					p.t.Fatal(err)
				}
			},
			check: func(p *project) error {
				if fi, err := os.Stat(p.path(".git/memkeep/memory/concepts.json/oops")); err != nil || !fi.IsDir() {
					return fmt.Errorf("the concepts.json directory was removed or replaced: %v", err)
				}
				return nil
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t, "memkeep-broken")
			tc.breakIt(p)
			res, took := p.run("Write notes about the upload")
			times = append(times, took)
			requireSuccess(t, res)
			if p.waitBackground(15 * time.Second) {
				t.Errorf("SessionEnd's consolidation was dropped although it could not run (no deferred marker left)")
			}
			if !strings.HasPrefix(res.Result, "Done") {
				t.Errorf("result = %q, want the agent's own end of turn", res.Result)
			}
			if got := p.readFile("notes/broken.md"); !strings.Contains(got, "Written while") {
				t.Errorf("the agent's Write did not happen: %q", got)
			}
			checkHooksClean(t, res.TranscriptPath)
			checkNoErrorShownToModel(t, p)

			log := p.hooksLog()
			t.Logf("hooks.log:\n%s", log)
			if !strings.Contains(log, tc.file) {
				t.Errorf("hooks.log does not record the unreadable %s", tc.file)
			}
			msgs := systemMessages(t, res.TranscriptPath)
			t.Logf("systemMessages shown to the user: %q", msgs)
			seen := map[string]bool{}
			about := 0
			for _, m := range msgs {
				if seen[m] {
					t.Errorf("the same problem was shown to the user twice: %q", m)
				}
				seen[m] = true
				if strings.Contains(m, tc.file) {
					about++
				}
			}
			if about == 0 {
				t.Errorf("the user was never told memkeep cannot read %s (systemMessages: %q)", tc.file, msgs)
			}
			if err := tc.check(p); err != nil {
				t.Error(err)
			}
			// The session's L1 is still recorded: a broken L3/L4 file must
			// not stop what does not depend on it.
			if l1, _ := globOne(p, ".claude/memory/sessions/*.l1.jsonl"); l1 == "" {
				t.Errorf("no L1 file for the session")
			}
			p.fsck()
		})
	}
	logTimes(t, start, times...)
}

const brokenFacts = "{\"schema_version\": 1, \"rules\": [ this is not JSON\n"

// Scenario 5b: git's index.lock held by someone else (a git command in
// progress) never fails the session and is never taken away; the memory
// commit waits (recorded under .git/memkeep/); once the lock is gone the
// next session commits the deferred memory, memory files only, the user's
// work untouched.
func TestHeldIndexLockDefersTheCommit(t *testing.T) {
	start := time.Now()
	p := newProject(t, "memkeep-stop-loop")
	base := p.userWork()
	before := p.snapshot()
	const lockContent = "held by another git process\n"
	p.WriteFile(".git/index.lock", []byte(lockContent))

	res1, took1 := p.run("Add a retry helper for the flaky upload and write notes about it")
	requireSuccess(t, res1)
	p.waitBackground(15 * time.Second)
	checkHooksClean(t, res1.TranscriptPath)
	checkNoErrorShownToModel(t, p)

	if got := p.readFile(".git/index.lock"); got != lockContent {
		t.Fatalf("memkeep touched git's index.lock: %q", got)
	}
	if head := p.Git("rev-parse", "HEAD"); head != base {
		t.Errorf("a commit was made while index.lock was held: %s", p.Git("log", "--oneline", base+"..HEAD"))
	}
	// The deferral is recorded under the git dir, with the reason.
	log := p.hooksLog()
	pending := p.readFile(".git/memkeep/commit-pending.json")
	t.Logf("hooks.log:\n%s\ncommit-pending.json:\n%s", log, pending)
	if !strings.Contains(log+pending, "index.lock") {
		t.Errorf("nothing under .git/memkeep/ records that the commit waits for index.lock")
	}
	if !strings.Contains(log, "index.lock") {
		t.Logf("NOTE: hooks.log does not mention index.lock (the deferral is only in commit-pending.json)")
	}
	if l2, _ := globOne(p, ".git/memkeep/memory/sessions/*.l2.json"); l2 == "" {
		t.Errorf("no L2 file for session 1: the memory waiting for the commit is missing")
	}
	// Only the setup memkeep init left for the person to commit shows.
	if ms := p.memoryStatus(); len(ms) != 1 || ms[0] != "?? .claude/memory/.gitattributes" {
		t.Errorf("the memory waiting for the commit shows in git status: %q", ms)
	}

	// The lock goes away (the git command finished); the next session
	// commits what waited.
	if err := os.Remove(p.path(".git/index.lock")); err != nil {
		t.Fatal(err)
	}
	p.SetScript(claudetest.LoadScenario(t, "memkeep-next-session"))
	res2, took2 := p.run("What did we do last time?")
	requireSuccess(t, res2)
	if !p.waitBackground(15 * time.Second) {
		t.Errorf("the background consolidation did not finish")
	}
	checkHooksClean(t, res2.TranscriptPath)
	commits := p.checkMemoryCommits(base)
	if len(commits) > 0 {
		l2, _ := globOne(p, ".claude/memory/sessions/*.l2.json")
		rel := strings.TrimPrefix(l2, p.Dir+"/")
		if out := p.Git("ls-tree", "--name-only", "HEAD", "--", rel); out != rel {
			t.Errorf("session 1's L2 (%s) is not in HEAD after the deferred commit", rel)
		}
		msg := p.Git("log", "--format=%B", base+"..HEAD")
		if !strings.Contains(msg, res1.SessionID) {
			t.Errorf("the deferred commit does not name session 1 (%s) in its trailers:\n%s", res1.SessionID, msg)
		}
	}
	p.checkUserWork(before, " M lib/util.go", "?? notes/upload-retry.md")
	if ms := p.memoryStatus(); len(ms) > 0 {
		t.Errorf("memory files not clean in git status after the deferred commit: %q", ms)
	}
	if _, err := os.Stat(p.path(".git/memkeep/commit-pending.json")); err == nil {
		t.Errorf("commit-pending.json is still there after the commit landed")
	}
	p.fsck()
	logTimes(t, start, took1, took2)
}

// globOne returns the first file matching a pattern under the project.
func globOne(p *project, pattern string) (string, error) {
	m, err := filepath.Glob(p.path(pattern))
	if err != nil || len(m) == 0 {
		return "", err
	}
	return m[0], nil
}

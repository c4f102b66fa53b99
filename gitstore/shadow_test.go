package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/gitstore/merge"
	"github.com/memkeep/memkeep/layers/consolidate"
)

// memStatus is `git status --porcelain` for the memory folder only.
func memStatus(t testing.TB, dir string) string {
	t.Helper()
	return git(t, dir, "status", "--porcelain", "--untracked-files=all", "--", ".claude/memory")
}

func readWork(t testing.TB, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMemoryWaitsOutsideTheWorkTree: what memkeep writes between commits
// never shows in git status, so stash, rebase and pull work while hooks
// fire; its commit writes the files, their index entries and the branch
// together, leaving the memory folder clean.
func TestMemoryWaitsOutsideTheWorkTree(t *testing.T) {
	l := newRepo(t)
	writeMemory(t, l.Root)
	mustCommit(t, l, Options{})
	if s := memStatus(t, l.Root); s != "" {
		t.Fatalf("memory not clean after the commit:\n%s", s)
	}
	if got := readWork(t, l.Root, ".claude/memory/facts.json"); got != factsV1 {
		t.Fatalf("the commit did not write the work tree: %q", got)
	}

	// A session goes on: memory changes, the user works with git.
	write(t, l.Root, ".claude/memory/sessions/2026-01-02_0900_bbbbbbbb.l2.json", l2JSON("x-0000000b"))
	appendShadow(t, l.Root, ".claude/memory/sessions/2026-01-01_1200_aaaaaaaa.l1.jsonl", `{"ts":"2026-01-01T12:01:00Z","k":"text","off":1,"text":"more"}`+"\n")
	if s := memStatus(t, l.Root); s != "" {
		t.Fatalf("pending memory shows in git status:\n%s", s)
	}
	write(t, l.Root, "src/a.go", "package a\n\n// changed\n")
	git(t, l.Root, "stash")
	git(t, l.Root, "stash", "pop")
	git(t, l.Root, "commit", "-q", "-am", "user work")
	git(t, l.Root, "checkout", "-q", "-b", "topic", "HEAD~1")
	write(t, l.Root, "src/b.go", "package a\n\nvar B = 2\n")
	git(t, l.Root, "commit", "-q", "-am", "topic work")
	if out, ok := gitOK(l.Root, "rebase", "main"); !ok {
		t.Fatalf("git rebase with memory pending: %s", out)
	}

	res := mustCommit(t, layoutOf(t, l.Root), Options{})
	if res.Status != Committed {
		t.Fatalf("%+v", res)
	}
	if s := git(t, l.Root, "status", "--porcelain", "--untracked-files=all"); s != "" {
		t.Fatalf("status after the memory commit:\n%s", s)
	}
	if got := git(t, l.Root, "show", "HEAD:.claude/memory/sessions/2026-01-01_1200_aaaaaaaa.l1.jsonl"); !strings.Contains(got, `"more"`) {
		t.Fatalf("the pending L1 line was not committed:\n%s", got)
	}
	if got := readWork(t, l.Root, ".claude/memory/sessions/2026-01-02_0900_bbbbbbbb.l2.json"); got != l2JSON("x-0000000b") {
		t.Fatalf("work tree: %q", got)
	}
	fsck(t, l.Root)
}

func appendShadow(t testing.TB, root, rel, data string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(shadowPath(t, root, rel))), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

// TestPersonsEditIsNeverOverwritten: a memory file a person changed in the
// work tree (or an untracked file where memkeep would write one) is held:
// the memory commit records HEAD's version of it, leaves the file and its
// index entry alone, and commits the rest. Once the person commits the
// edit, memkeep merges it with its own change to the same file.
func TestPersonsEditIsNeverOverwritten(t *testing.T) {
	l := newRepo(t)
	writeMemory(t, l.Root)
	mustCommit(t, l, Options{})

	edited := strings.Replace(factsV1, "always run go vet", "always run go vet -all", 1)
	writeWork(t, l.Root, ".claude/memory/facts.json", edited)
	writeWork(t, l.Root, ".claude/memory/sessions/notes.txt", "mine\n")
	write(t, l.Root, ".claude/memory/sessions/notes.txt", "memkeep's\n")
	write(t, l.Root, ".claude/memory/facts.json", strings.Replace(factsV1, "    }\n  ]", `    },
    {
      "id": "r-00000002",
      "text": "never edit generated files",
      "confidence": 1,
      "contradictions": 0,
      "updated": "2026-01-02T00:00:00Z"
    }
  ]`, 1))
	write(t, l.Root, ".claude/memory/memory.md", "# Memory\nnewer\n")

	res := mustCommit(t, l, Options{})
	if res.Status != Committed {
		t.Fatalf("%+v", res)
	}
	if got := readWork(t, l.Root, ".claude/memory/facts.json"); got != edited {
		t.Fatalf("the person's edit was overwritten:\n%s", got)
	}
	if got := readWork(t, l.Root, ".claude/memory/sessions/notes.txt"); got != "mine\n" {
		t.Fatalf("an untracked file was overwritten: %q", got)
	}
	if got := git(t, l.Root, "show", "HEAD:.claude/memory/facts.json"); got != factsV1 {
		t.Fatalf("the commit recorded a held file:\n%s", got)
	}
	if got := git(t, l.Root, "show", "HEAD:.claude/memory/memory.md"); got != "# Memory\nnewer\n" {
		t.Fatalf("the rest was not committed: %q", got)
	}
	if s := memStatus(t, l.Root); s != " M .claude/memory/facts.json\n?? .claude/memory/sessions/notes.txt\n" {
		t.Fatalf("status:\n%s", s)
	}

	// The person commits the edit; memkeep merges both changes.
	os.Remove(filepath.Join(l.Root, ".claude/memory/sessions/notes.txt"))
	git(t, l.Root, "commit", "-q", "-am", "reword a rule")
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	shadow, err := os.ReadFile(l.FactsFile())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(shadow), "go vet -all") || !strings.Contains(string(shadow), "r-00000002") {
		t.Fatalf("the person's commit and memkeep's change were not merged:\n%s", shadow)
	}
	res = mustCommit(t, l, Options{})
	if res.Status != Committed || !strings.Contains(git(t, l.Root, "show", "HEAD:.claude/memory/facts.json"), "r-00000002") {
		t.Fatalf("%+v", res)
	}
	if s := memStatus(t, l.Root); s != "" {
		t.Fatalf("status:\n%s", s)
	}
}

// TestSyncFollowsCheckoutAndPull: memory that comes into HEAD by a pull or
// a checkout of another branch is merged into what memkeep holds, and what
// it had not committed yet is kept.
func TestSyncFollowsCheckoutAndPull(t *testing.T) {
	up := newRepo(t)
	writeMemory(t, up.Root)
	mustCommit(t, up, Options{})
	clone := t.TempDir()
	git(t, up.Root, "clone", "-q", up.Root, clone)
	git(t, clone, "config", "user.name", "Clone User")
	git(t, clone, "config", "user.email", "clone@example.com")
	cl := layoutOf(t, clone)

	// Upstream remembers a session; the clone has one of its own pending.
	write(t, up.Root, ".claude/memory/sessions/2026-02-01_1000_upupupup.l2.json", l2JSON("x-000000u1"))
	mustCommit(t, up, Options{})
	if err := Sync(cl); err != nil {
		t.Fatal(err)
	}
	write(t, clone, ".claude/memory/sessions/2026-02-02_1000_clclclcl.l2.json", l2JSON("x-000000c1"))
	if out, ok := gitOK(clone, "pull", "-q", "--rebase"); !ok {
		t.Fatalf("git pull --rebase with memory pending: %s", out)
	}
	if err := Sync(cl); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"2026-02-01_1000_upupupup.l2.json", "2026-02-02_1000_clclclcl.l2.json"} {
		if _, err := os.Stat(filepath.Join(cl.SessionsDir(), name)); err != nil {
			t.Fatalf("%s missing after the pull: %v", name, err)
		}
	}
	res := mustCommit(t, cl, Options{})
	if res.Status != Committed || !strings.Contains(res.Subject, "exchange") {
		t.Fatalf("%+v", res)
	}
	if files := git(t, clone, "ls-tree", "-r", "--name-only", "HEAD", ".claude/memory/sessions"); strings.Count(files, "\n") != 4 {
		t.Fatalf("sessions after the commit:\n%s", files)
	}

	// A branch without the upstream session: the checkout takes it away,
	// what is pending stays.
	git(t, clone, "checkout", "-q", "-b", "old", "HEAD~2")
	git(t, clone, "checkout", "-q", "-b", "work")
	write(t, clone, ".claude/memory/sessions/2026-02-03_1000_wkwkwkwk.l2.json", l2JSON("x-000000w1"))
	if err := Sync(cl); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cl.SessionsDir(), "2026-02-01_1000_upupupup.l2.json")); err == nil {
		t.Fatal("a session of another branch stayed after the checkout")
	}
	if _, err := os.Stat(filepath.Join(cl.SessionsDir(), "2026-02-03_1000_wkwkwkwk.l2.json")); err != nil {
		t.Fatal("pending memory was lost in the checkout")
	}
}

// TestDigestEditIsTakenIn: a person's edit of memory.md in the work tree
// reaches the copy memkeep reads, where the consolidation carries it into
// the memory files.
func TestDigestEditIsTakenIn(t *testing.T) {
	l := newRepo(t)
	writeMemory(t, l.Root)
	mustCommit(t, l, Options{})
	writeWork(t, l.Root, ".claude/memory/memory.md", "# Memory\n- rule: a new rule\n")
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(l.DigestFile()); string(b) != "# Memory\n- rule: a new rule\n" {
		t.Fatalf("memory.md edit not taken in: %q", b)
	}
}

// TestUserCommitWithEditorOpenSucceeds: while a person's `git commit` waits
// on its editor (git holds no lock then), a memory commit waits too, so
// that the person's commit is not refused for a branch that moved; once it
// is done, the memory commit lands on top of it.
func TestUserCommitWithEditorOpenSucceeds(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("no /proc: git processes cannot be seen here")
	}
	l := newRepo(t)
	writeMemory(t, l.Root)
	mustCommit(t, l, Options{})
	write(t, l.Root, ".claude/memory/sessions/2026-01-05_0900_eeeeeeee.l2.json", l2JSON("x-000000e1"))

	gate := filepath.Join(t.TempDir(), "editor-may-close")
	opened := filepath.Join(t.TempDir(), "editor-opened")
	editor := filepath.Join(t.TempDir(), "editor.sh")
	script := "#!/bin/sh\n: > '" + opened + "'\nwhile [ ! -e '" + gate + "' ]; do sleep 0.02; done\necho 'the user commit' > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	writeWork(t, l.Root, "src/a.go", "package a\n\n// edited\n")
	git(t, l.Root, "add", "src/a.go")
	cmd := gitCmd(l.Root, "commit")
	cmd.Env = append(cmd.Env, "GIT_EDITOR="+editor)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(opened); err == nil {
			break
		}
		if i > 500 {
			t.Fatal("the editor never opened")
		}
		time.Sleep(10 * time.Millisecond)
	}
	res, err := Commit(l, Options{})
	if err != nil || res.Status != Deferred || !strings.Contains(res.Reason, "git commit") {
		t.Errorf("memory commit with the editor open: %+v %v; want deferred, naming git commit", res, err)
	}
	os.WriteFile(gate, nil, 0o644)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the user's commit failed: %v\n%s", err, out.String())
	}
	if got := git(t, l.Root, "log", "-1", "--format=%s"); got != "the user commit\n" {
		t.Fatalf("HEAD is %q", got)
	}
	if res := mustCommit(t, l, Options{}); res.Status != Committed {
		t.Fatalf("after the user's commit: %+v", res)
	}
	if got := git(t, l.Root, "log", "-2", "--format=%s"); !strings.HasPrefix(got, "memory:") || !strings.HasSuffix(got, "the user commit\n") {
		t.Fatalf("history:\n%s", got)
	}
	fsck(t, l.Root)
}

// TestEventsAloneMakeNoCommit: a commit memkeep makes on its own (Auto)
// never records stream events alone; they go with the next commit that
// carries memory, whose subject says what a reviewer wants to know.
func TestEventsAloneMakeNoCommit(t *testing.T) {
	l := newRepo(t)
	write(t, l.Root, ".claude/memory/stream/2026-01.jsonl", `{"id":"e-00000001","time":"2026-01-01T10:00:00Z","summary":"one"}`+"\n")
	head := git(t, l.Root, "rev-parse", "HEAD")
	res := mustCommit(t, l, Options{Auto: true})
	if res.Status != Waiting || git(t, l.Root, "rev-parse", "HEAD") != head {
		t.Fatalf("events alone: %+v", res)
	}
	if s := memStatus(t, l.Root); s != "" {
		t.Fatalf("status:\n%s", s)
	}
	writeMemory(t, l.Root)
	res = mustCommit(t, l, Options{Auto: true})
	if res.Status != Committed || res.Subject != `memory: rule "always run go vet", 2 exchanges on auth` {
		t.Fatalf("with memory: %+v", res)
	}
	if got := git(t, l.Root, "show", "HEAD:.claude/memory/stream/2026-01.jsonl"); !strings.Contains(got, "e-00000001") {
		t.Fatalf("the waiting events were not committed with the memory:\n%s", got)
	}
	if body := git(t, l.Root, "log", "-1", "--format=%b"); !strings.Contains(body, "+1 event") {
		t.Fatalf("the counts are not in the body:\n%s", body)
	}
}

// TestBisectWithMemoryPending: while the user bisects (HEAD detached,
// moving at each step), memory waits in memkeep's copy: the steps work,
// nothing is committed, and the memory lands once the bisect is over.
func TestBisectWithMemoryPending(t *testing.T) {
	l := newRepo(t)
	for i := range 4 {
		writeWork(t, l.Root, "src/a.go", fmt.Sprintf("package a\n\n// step %d\n", i))
		git(t, l.Root, "commit", "-q", "-am", fmt.Sprintf("step %d", i))
	}
	writeMemory(t, l.Root)
	git(t, l.Root, "bisect", "start", "HEAD", "HEAD~4")
	for _, verdict := range []string{"good", "bad"} {
		if res, err := Commit(l, Options{}); err != nil || res.Status != Deferred {
			t.Fatalf("commit while bisecting: %+v %v", res, err)
		}
		if s := memStatus(t, l.Root); s != "" {
			t.Fatalf("status while bisecting:\n%s", s)
		}
		if out, ok := gitOK(l.Root, "bisect", verdict); !ok {
			t.Fatalf("git bisect %s: %s", verdict, out)
		}
	}
	git(t, l.Root, "bisect", "reset")
	if res := mustCommit(t, l, Options{}); res.Status != Committed {
		t.Fatalf("after the bisect: %+v", res)
	}
	if s := memStatus(t, l.Root); s != "" {
		t.Fatalf("status:\n%s", s)
	}
}

// TestPulledDigestEditSurvivesPendingMemory: a reviewer's edit of
// memory.md that comes with a pull, while memkeep's copy holds a newer
// rendering of its own, is kept: the copy takes HEAD's memory.md, and
// HEAD's own rendering becomes what the edit is read against.
func TestPulledDigestEditSurvivesPendingMemory(t *testing.T) {
	defer func(r merge.Renderer) { DigestRenderer = r }(DigestRenderer)
	DigestRenderer = func(facts, concepts []byte, sessions map[string][]byte) ([]byte, error) {
		return []byte(fmt.Sprintf("# Memory\n%d sessions\n", len(sessions))), nil
	}
	l := newRepo(t)
	writeMemory(t, l.Root)
	write(t, l.Root, ".claude/memory/memory.md", "# Memory\n1 sessions\n")
	mustCommit(t, l, Options{})
	// memkeep renders again for a pending session...
	write(t, l.Root, ".claude/memory/sessions/2026-01-02_0900_bbbbbbbb.l2.json", l2JSON("x-0000000b"))
	write(t, l.Root, ".claude/memory/memory.md", "# Memory\n2 sessions\n")
	// ...while a reviewer's edit lands in HEAD (here: committed by hand).
	writeWork(t, l.Root, ".claude/memory/memory.md", "# Memory\n1 sessions\n- rule: Always run make lint.\n")
	git(t, l.Root, "commit", "-q", "-am", "review: a rule")
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(l.DigestFile()); string(b) != "# Memory\n1 sessions\n- rule: Always run make lint.\n" {
		t.Fatalf("the reviewer's memory.md was not taken: %q", b)
	}
	if b, _ := os.ReadFile(l.RenderedDigest()); string(b) != "# Memory\n1 sessions\n" {
		t.Fatalf("the edit is not read against HEAD's own rendering: %q", b)
	}
	// A pull whose memory.md is as its files render (another clone's
	// session): memkeep's own rendering stays, to be redone from the merge.
	write(t, l.Root, ".claude/memory/memory.md", "# Memory\n2 sessions\n")
	mustCommit(t, l, Options{})
	write(t, l.Root, ".claude/memory/memory.md", "# Memory\n2 sessions\npending\n")
	writeWork(t, l.Root, ".claude/memory/sessions/2026-01-03_0900_cccccccc.l2.json", l2JSON("x-0000000c"))
	writeWork(t, l.Root, ".claude/memory/memory.md", "# Memory\n3 sessions\n")
	git(t, l.Root, "add", ".claude/memory")
	git(t, l.Root, "commit", "-q", "-m", "another clone's session")
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(l.DigestFile()); string(b) != "# Memory\n2 sessions\npending\n" {
		t.Fatalf("memkeep's rendering was replaced by one without an edit: %q", b)
	}
}

// TestPulledDigestEditMeetsPendingEdit: memkeep's copy holds a person's
// edit of memory.md (taken in from the work tree, not read back yet) when
// a reviewer's edit lands in HEAD: both are kept, made in the rendering
// of the merged memory, and the next consolidation carries both.
func TestPulledDigestEditMeetsPendingEdit(t *testing.T) {
	defer func(r merge.Renderer) { DigestRenderer = r }(DigestRenderer)
	DigestRenderer = consolidate.RenderFiles
	l := newRepo(t)
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	var ids []string
	for _, text := range []string{"Run gofmt before committing.", "Never log tokens, even redacted."} {
		r, _, err := consolidate.AddRule(l, text, now)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	mustCommit(t, l, Options{})
	committed := readWork(t, l.Root, ".claude/memory/memory.md")

	// A person's edit in the work tree, taken into memkeep's copy...
	writeWork(t, l.Root, ".claude/memory/memory.md", strings.Replace(committed, "- Run gofmt before committing.", "- Run gofmt and go vet before committing.", 1))
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	git(t, l.Root, "checkout", "--", ".claude/memory/memory.md")
	// ...while a reviewer's deletion lands in HEAD.
	var keep []string
	for _, line := range strings.SplitAfter(committed, "\n") {
		if !strings.Contains(line, "`"+ids[1]+"`") {
			keep = append(keep, line)
		}
	}
	writeWork(t, l.Root, ".claude/memory/memory.md", strings.Join(keep, ""))
	git(t, l.Root, "commit", "-q", "-am", "review: a rule deleted")
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(l.DigestFile())
	if md := string(b); !strings.Contains(md, "- Run gofmt and go vet before committing.") || strings.Contains(md, "`"+ids[1]+"`") {
		t.Fatalf("memory.md after Sync lacks an edit:\n%s", md)
	}

	facts := consolidateEdits(t, l, 2)
	if len(facts.Rules) != 1 || facts.Rules[0].ID != ids[0] || facts.Rules[0].Text != "Run gofmt and go vet before committing." {
		t.Errorf("rules after the consolidation: %+v", facts.Rules)
	}
}

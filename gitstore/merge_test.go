package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/consolidate"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

const mergeFactsBase = `{
  "schema_version": 1,
  "rules": [
    {
      "id": "r-00000001",
      "text": "always run go vet",
      "confidence": 0.8,
      "contradictions": 1,
      "updated": "2026-01-01T00:00:00Z"
    },
    {
      "id": "r-00000002",
      "text": "use tabs",
      "confidence": 0.5,
      "contradictions": 0,
      "updated": "2026-01-01T00:00:00Z"
    }
  ],
  "stats": {
    "exchanges": 2,
    "sessions": 1
  }
}
`

// TestMergeDriverMergeAndRebase: two branches both consolidated memory (new
// sessions and events, the same concept changed on both, a rule added on
// one and deleted on the other); git merge in both directions and git
// rebase go through without conflict, lose nothing, and give the same bytes.
func TestMergeDriverMergeAndRebase(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	exe, _ := os.Executable()
	if err := InstallMergeDriver(l, exe); err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "config", "merge.memkeep.driver"); got != exe+" merge-driver %O %A %B %P\n" {
		t.Fatalf("driver %q", got)
	}
	t.Setenv("GITSTORE_TEST_CHILD", "merge-driver") // inherited by git, then by the driver
	write(t, dir, ".claude/memory/.gitattributes", string(GitAttributes()))
	write(t, dir, ".claude/memory/facts.json", mergeFactsBase)
	write(t, dir, ".claude/memory/concepts.json", conceptsV1)
	write(t, dir, ".claude/memory/stream/2026-01.jsonl", `{"id":"e-00000001","time":"2026-01-01T10:00:00Z","summary":"base"}`+"\n")
	write(t, dir, ".claude/memory/memory.md", "# Memory\nbase\n")
	mustCommit(t, l, Options{})

	branch := func(name string, edit func()) {
		git(t, dir, "checkout", "-q", "-b", name, "main")
		// memkeep follows the checkout before it writes (a hook's Sync)
		if err := Sync(layoutOf(t, dir)); err != nil {
			t.Fatal(err)
		}
		edit()
		if res := mustCommit(t, layoutOf(t, dir), Options{}); res.Status != Committed {
			t.Fatalf("%s: %+v", name, res)
		}
	}
	branch("a", func() {
		write(t, dir, ".claude/memory/sessions/2026-01-02_1000_aaaaaaaa.l2.json", l2JSON("x-0000000a"))
		write(t, dir, ".claude/memory/sessions/2026-01-02_1000_aaaaaaaa.l1.jsonl", `{"ts":"2026-01-02T10:00:00Z","k":"prompt","off":0,"text":"a"}`+"\n")
		appendFile(t, dir, ".claude/memory/stream/2026-01.jsonl", `{"id":"e-0000000a","time":"2026-01-02T10:00:00Z","summary":"a"}`+"\n")
		write(t, dir, ".claude/memory/concepts.json", strings.NewReplacer(
			`"login flow"`, `"login flow with OAuth"`,
			`"updated": "2026-01-01T00:00:00Z"`, `"updated": "2026-01-03T00:00:00Z"`,
			`["x-00000001"]`, `["x-00000001", "x-0000000a"]`).Replace(conceptsV1))
		write(t, dir, ".claude/memory/facts.json", strings.Replace(mergeFactsBase, `"contradictions": 1,`, `"contradictions": 2,`, 1))
		write(t, dir, ".claude/memory/memory.md", "# Memory\nfrom a\n")
	})
	branch("b", func() {
		write(t, dir, ".claude/memory/sessions/2026-01-02_0900_bbbbbbbb.l2.json", l2JSON("x-0000000b"))
		appendFile(t, dir, ".claude/memory/stream/2026-01.jsonl", `{"id":"e-0000000b","time":"2026-01-02T09:00:00Z","summary":"b"}`+"\n")
		write(t, dir, ".claude/memory/concepts.json", strings.NewReplacer(
			`"login flow"`, `"login"`,
			`"updated": "2026-01-01T00:00:00Z"`, `"updated": "2026-01-02T00:00:00Z"`,
			`["x-00000001"]`, `["x-00000001", "x-0000000b"]`).Replace(conceptsV1))
		f := strings.Replace(mergeFactsBase, `"contradictions": 1,`, `"contradictions": 3,`, 1)
		f = f[:strings.Index(f, `,
    {
      "id": "r-00000002"`)] + "\n  ],\n" + f[strings.Index(f, `  "stats"`):]
		write(t, dir, ".claude/memory/facts.json", f)
		write(t, dir, ".claude/memory/memory.md", "# Memory\nfrom b\n")
	})

	merged := map[string]string{}
	for _, way := range [][2]string{{"a", "b"}, {"b", "a"}} {
		name := "m-" + way[0]
		git(t, dir, "checkout", "-q", "-b", name, way[0])
		if out, ok := gitOK(dir, "merge", "--no-edit", way[1]); !ok {
			t.Fatalf("git merge %s into %s: %s", way[1], way[0], out)
		}
		merged[name] = strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:.claude/memory"))
	}
	git(t, dir, "checkout", "-q", "-b", "r-b", "b")
	if out, ok := gitOK(dir, "rebase", "a"); !ok {
		t.Fatalf("git rebase: %s", out)
	}
	merged["rebase"] = strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:.claude/memory"))
	if merged["m-a"] != merged["m-b"] || merged["m-a"] != merged["rebase"] {
		for _, ref := range []string{"m-a", "m-b", "r-b"} {
			t.Log(ref, git(t, dir, "show", ref+":.claude/memory/concepts.json"), git(t, dir, "show", ref+":.claude/memory/memory.md"))
		}
		t.Fatalf("merge results differ by direction: %v", merged)
	}

	show := func(p string) string { return git(t, dir, "show", "m-a:.claude/memory/"+p) }
	facts := show("facts.json")
	if !strings.Contains(facts, "r-00000001") || strings.Contains(facts, "r-00000002") || !strings.Contains(facts, `"contradictions": 4`) {
		t.Fatalf("facts.json:\n%s", facts)
	}
	concepts := show("concepts.json")
	for _, want := range []string{`"login flow with OAuth"`, `"x-0000000a"`, `"x-0000000b"`, `"2026-01-03T00:00:00Z"`} {
		if !strings.Contains(concepts, want) {
			t.Fatalf("concepts.json lacks %s:\n%s", want, concepts)
		}
	}
	stream := show("stream/2026-01.jsonl")
	if strings.Count(stream, "\n") != 3 || strings.Index(stream, "e-0000000b") > strings.Index(stream, "e-0000000a") {
		t.Fatalf("stream:\n%s", stream)
	}
	files := git(t, dir, "ls-tree", "-r", "--name-only", "m-a", ".claude/memory/sessions")
	if strings.Count(files, "\n") != 3 {
		t.Fatalf("sessions: %s", files)
	}
	// Rendered from the merged files, the sessions of both sides included.
	if md := show("memory.md"); md != "# Memory\n- rule: always run go vet\n- concept: auth: login flow with OAuth\n"+
		"- session: 2026-01-02_0900_bbbbbbbb (1 exchanges)\n- session: 2026-01-02_1000_aaaaaaaa (1 exchanges)\n" {
		t.Fatalf("memory.md not rendered from the merged JSON:\n%s", md)
	}
	fsck(t, dir)

	if err := UninstallMergeDriver(l); err != nil {
		t.Fatal(err)
	}
	if _, ok := gitOK(dir, "config", "merge.memkeep.driver"); ok {
		t.Fatal("driver still configured")
	}
	if git(t, dir, "config", "user.name") != "Test User\n" {
		t.Fatal("uninstall damaged the config")
	}
}

func appendFile(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(shadowPath(t, root, rel)))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(data)
	f.Close()
}

func TestDriverCommandQuoting(t *testing.T) {
	l := newRepo(t)
	cmd := "/opt/my tools/mem'keep"
	if err := InstallMergeDriver(l, cmd); err != nil {
		t.Fatal(err)
	}
	if err := InstallMergeDriver(l, cmd); err != nil { // idempotent
		t.Fatal(err)
	}
	got := git(t, l.Root, "config", "--get-all", "merge.memkeep.driver")
	if got != `'/opt/my tools/mem'\''keep' merge-driver %O %A %B %P`+"\n" {
		t.Fatalf("driver %q", got)
	}
}

// newMergeRepo is a repository with memkeep's merge driver installed,
// run by git as this test binary (GITSTORE_TEST_CHILD, inherited by git,
// then by the driver).
func newMergeRepo(t *testing.T) memdir.Layout {
	t.Helper()
	l := newRepo(t)
	exe, _ := os.Executable()
	if err := InstallMergeDriver(l, exe); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITSTORE_TEST_CHILD", "merge-driver")
	return l
}

// consolidateEdits consolidates and checks that n edits of memory.md were
// carried in; it gives the rules after.
func consolidateEdits(t *testing.T, l memdir.Layout, n int) *l4.Facts {
	t.Helper()
	sum, err := consolidate.Consolidate(l, consolidate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.DigestEdits.Applied) != n {
		t.Errorf("edits applied: %+v, want %d", sum.DigestEdits, n)
	}
	facts, err := l4.Load(l.FactsFile())
	if err != nil {
		t.Fatal(err)
	}
	return facts
}

// TestMergeKeepsAReviewersDigestEdit: a reviewer's edit of memory.md on
// one branch survives a merge with a branch where memkeep rendered
// memory.md again: the edited memory.md is the result, and the edited
// side's own rendering is what the next consolidation reads the edit
// against.
func TestMergeKeepsAReviewersDigestEdit(t *testing.T) {
	l := newMergeRepo(t)
	dir := l.Root
	sessions := map[string][]byte{"2026-01-01_1200_aaaaaaaa": []byte(l2JSON("x-00000001"))}
	rendered := func() string {
		b, err := testRender([]byte(factsV1), []byte(conceptsV1), sessions)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write(t, dir, ".claude/memory/.gitattributes", string(GitAttributes()))
	write(t, dir, ".claude/memory/facts.json", factsV1)
	write(t, dir, ".claude/memory/concepts.json", conceptsV1)
	write(t, dir, ".claude/memory/sessions/2026-01-01_1200_aaaaaaaa.l2.json", l2JSON("x-00000001"))
	base := rendered()
	write(t, dir, ".claude/memory/memory.md", base)
	mustCommit(t, l, Options{})

	git(t, dir, "checkout", "-q", "-b", "review")
	edited := base + "- rule: Always run make lint.\n"
	writeWork(t, dir, ".claude/memory/memory.md", edited)
	git(t, dir, "commit", "-q", "-am", "review: a rule")

	git(t, dir, "checkout", "-q", "main")
	if err := Sync(layoutOf(t, dir)); err != nil {
		t.Fatal(err)
	}
	sessions["2026-01-02_0900_bbbbbbbb"] = []byte(l2JSON("x-0000000b"))
	write(t, dir, ".claude/memory/sessions/2026-01-02_0900_bbbbbbbb.l2.json", l2JSON("x-0000000b"))
	write(t, dir, ".claude/memory/memory.md", rendered())
	mustCommit(t, layoutOf(t, dir), Options{})

	if out, ok := gitOK(dir, "merge", "--no-edit", "review"); !ok {
		t.Fatalf("git merge: %s", out)
	}
	if got := git(t, dir, "show", "HEAD:.claude/memory/memory.md"); got != edited {
		t.Fatalf("the reviewer's edit was lost in the merge:\n%s", got)
	}
	if b, _ := os.ReadFile(layoutOf(t, dir).RenderedDigest()); string(b) != base {
		t.Fatalf("the edit is not read against the edited side's rendering: %q", b)
	}
}

// TestMergeKeepsBothSidesDigestEdits: a reviewer rewords a rule on one
// branch and another deletes a rule on a second branch, where memkeep also
// added a rule; merging one into the other keeps both edits in memory.md,
// made in the rendering of the merged memory (so the added rule is there
// too), and the next consolidation carries both into facts.json.
func TestMergeKeepsBothSidesDigestEdits(t *testing.T) {
	l := newMergeRepo(t)
	dir := l.Root
	t.Setenv("GITSTORE_TEST_RENDER", "markdown")
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	addRule := func(text string) string {
		t.Helper()
		r, _, err := consolidate.AddRule(layoutOf(t, dir), text, now)
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	write(t, dir, ".claude/memory/.gitattributes", string(GitAttributes()))
	a, b := addRule("Run gofmt before committing."), addRule("Never log tokens, even redacted.")
	mustCommit(t, l, Options{})
	edit := func(branch string, f func(md string) string) {
		t.Helper()
		md := readWork(t, dir, ".claude/memory/memory.md")
		edited := f(md)
		if edited == md {
			t.Fatalf("the %s edit did not apply:\n%s", branch, md)
		}
		writeWork(t, dir, ".claude/memory/memory.md", edited)
		git(t, dir, "commit", "-q", "-am", "review on "+branch)
	}

	git(t, dir, "checkout", "-q", "-b", "x")
	edit("x", func(md string) string {
		return strings.Replace(md, "- Run gofmt before committing.", "- Run gofmt and go vet before committing.", 1)
	})
	git(t, dir, "checkout", "-q", "-b", "y", "main")
	if err := Sync(layoutOf(t, dir)); err != nil {
		t.Fatal(err)
	}
	c := addRule("Keep commits small.")
	mustCommit(t, layoutOf(t, dir), Options{})
	edit("y", func(md string) string {
		var keep []string
		for _, line := range strings.SplitAfter(md, "\n") {
			if !strings.Contains(line, "`"+b+"`") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "")
	})

	git(t, dir, "checkout", "-q", "x")
	if out, ok := gitOK(dir, "merge", "--no-edit", "y"); !ok {
		t.Fatalf("git merge: %s", out)
	}
	md := git(t, dir, "show", "HEAD:.claude/memory/memory.md")
	if !strings.Contains(md, "- Run gofmt and go vet before committing.") || strings.Contains(md, "`"+b+"`") || !strings.Contains(md, "`"+c+"`") || strings.Contains(md, "<<<<<<<") {
		t.Fatalf("memory.md after the merge lacks an edit or the merged memory:\n%s", md)
	}
	against, _ := os.ReadFile(l.RenderedDigest())
	edits, unmapped := render.ReadEdits([]byte(md), against)
	if len(edits) != 2 || len(unmapped) != 0 {
		t.Fatalf("memory.md is not read as the two edits against the copy: %+v %+v\n%s", edits, unmapped, against)
	}

	l = layoutOf(t, dir)
	if err := Sync(l); err != nil {
		t.Fatal(err)
	}
	facts := consolidateEdits(t, l, 2)
	texts := map[string]string{}
	for _, r := range facts.Rules {
		texts[r.ID] = r.Text
	}
	if texts[a] != "Run gofmt and go vet before committing." || texts[c] != "Keep commits small." {
		t.Errorf("rules after the consolidation: %v", texts)
	}
	if _, ok := texts[b]; ok {
		t.Errorf("the rule deleted on y is still a rule: %v", texts)
	}
	b2, _ := os.ReadFile(l.DigestFile())
	if md = string(b2); !strings.Contains(md, "- Run gofmt and go vet before committing. *(") || strings.Contains(md, "Never log tokens") {
		t.Errorf("memory.md rendered after the consolidation:\n%s", md)
	}
}

package gitstore

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLogAndDiff(t *testing.T) {
	l := newRepo(t)
	dir := l.Root
	writeMemory(t, dir)
	first := mustCommit(t, l, Options{Trailers: []Trailer{{"Memkeep-Session", "s-one"}}})
	write(t, dir, "src/a.go", "package a // user work\n")
	git(t, dir, "commit", "-qam", "user commit")
	write(t, dir, ".claude/memory/facts.json", strings.Replace(factsV1, "always run go vet", "always run go vet and staticcheck", 1))
	write(t, dir, ".claude/memory/sessions/2026-01-03_0800_cccccccc.l2.json", l2JSON("x-000000c1", "x-000000c2", "x-000000c3"))
	second := mustCommit(t, l, Options{Trailers: []Trailer{{"Memkeep-Session", "s-two"}}})

	log, err := Log(l, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 || log[0].Hash != second.Commit || log[1].Hash != first.Commit {
		t.Fatalf("log %+v", log)
	}
	if log[0].Subject != `memory: rule "always run go vet and staticcheck" updated, 3 exchanges` || log[0].Sessions[0] != "s-two" {
		t.Fatalf("entry %+v", log[0])
	}

	rv, err := Diff(l, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if rv.To != second.Commit || len(rv.Rules.Changed) != 1 || len(rv.Exchanges) != 3 || rv.Sessions[0] != "2026-01-03_0800_cccccccc" {
		t.Fatalf("diff %+v", rv)
	}
	md := rv.Markdown()
	for _, want := range []string{"### Rules", "**Changed** always run go vet and staticcheck (`r-00000001`)", "### Exchanges added (3)", "`2026-01-03_0800_cccccccc`"} {
		if !strings.Contains(md, want) {
			t.Fatalf("markdown lacks %q:\n%s", want, md)
		}
	}
	js, _ := rv.JSON()
	var back Review
	if err := json.Unmarshal(js, &back); err != nil || back.To != rv.To {
		t.Fatalf("json: %v\n%s", err, js)
	}

	// Ranges: A..B with branch names, HEAD~N and short hashes.
	from, to := ParseRange(first.Commit[:7] + "..main")
	rv, err = Diff(l, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if rv.From != first.Commit || len(rv.Exchanges) != 3 {
		t.Fatalf("range diff %+v", rv)
	}
	rv, err = Diff(l, "HEAD~2", "HEAD")
	if err != nil || len(rv.Rules.Changed) != 1 {
		t.Fatalf("HEAD~2..HEAD %+v %v", rv, err)
	}
	// From the root: everything is added.
	from, to = ParseRange(first.Commit)
	rv, err = Diff(l, from, to)
	if err != nil || len(rv.Concepts.Added) != 1 || len(rv.Rules.Added) != 1 {
		t.Fatalf("first commit %+v %v", rv, err)
	}
	if _, err := Diff(l, "nope", "HEAD"); err == nil {
		t.Fatal("unknown revision accepted")
	}
}

// TestLogInAShallowClone: the boundary commit of a shallow clone is read
// as a root, as git log does, instead of failing on its missing parent.
func TestLogInAShallowClone(t *testing.T) {
	l := newRepo(t)
	writeMemory(t, l.Root)
	mustCommit(t, l, Options{})
	git(t, l.Root, "commit", "-q", "--allow-empty", "-m", "user work")
	write(t, l.Root, ".claude/memory/sessions/2026-01-03_0800_cccccccc.l2.json", l2JSON("x-000000c1"))
	mustCommit(t, l, Options{})
	clone := t.TempDir()
	git(t, l.Root, "clone", "-q", "--depth", "2", "file://"+l.Root, clone)
	log, err := Log(layoutOf(t, clone), 10)
	if err != nil || len(log) == 0 {
		t.Fatalf("log in a shallow clone: %+v %v", log, err)
	}
}

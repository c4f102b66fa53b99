package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the memkeep binary in-process as the
// command `memkeep`.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memkeep": func() { os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command acceptance tests in testdata/script: one
// scenario per txtar file, with real git where a scenario needs it.
func TestScripts(t *testing.T) {
	fixtures, _ := filepath.Abs("../../fixtures/transcripts")
	shared, _ := filepath.Abs("../../../shared/transcripts")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("SHARED", shared)
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("GIT_AUTHOR_NAME", "Test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "Test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// claude-transcript SRC PROJECT [NAME] copies SRC to where
			// Claude Code keeps the transcripts of PROJECT under $HOME.
			"claude-transcript": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 {
					ts.Fatalf("usage: claude-transcript SRC PROJECT [NAME]")
				}
				project, _ := filepath.Abs(ts.MkAbs(args[1]))
				project, _ = filepath.EvalSymlinks(project)
				dir := filepath.Join(ts.Getenv("HOME"), ".claude", "projects", regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(project, "-"))
				name := filepath.Base(args[0])
				if len(args) > 2 {
					name = args[2]
				}
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				dst := filepath.Join(dir, name)
				ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
				ts.Check(os.WriteFile(dst, data, 0o644))
			},
		},
	})
}

// TestReviewWorkflowRunsTheTestedCommand: the example pull-request
// workflow runs exactly the command review.txtar tests.
func TestReviewWorkflowRunsTheTestedCommand(t *testing.T) {
	const cmd = `memkeep diff "origin/$BASE_REF...HEAD"`
	for _, f := range []string{"../../docs/workflows/memory-review.yml", "testdata/script/review.txtar"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), cmd) {
			t.Errorf("%s does not run %s", f, cmd)
		}
	}
}

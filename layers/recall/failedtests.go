package recall

import (
	"slices"
	"strings"
)

// Tests that failed. A question may say a test failed: "why did
// review_context_controller_test.exs fail on its first run",
// "what made subagent_live_test.exs fail the first time". Memory that saw
// it fail ran it in a command that failed, or tells of its failure beside
// its name; memory whose runs of it all passed never saw it fail (three
// never-happened questions of never43 and never44 say a test failed that
// passed at its first run; the answerable questions that say a test
// failed or broke name project_review_live_test.exs, whose runs failed).

// testFailVerbs say that a test failed.
var testFailVerbs = []string{"fail", "failed", "failing", "fails", "broke", "crashed", "errored"}

// failReach is how many words apart a test's name and a verb of failing
// may be ("what made subagent_live_test.exs fail").
const failReach = 4

// failedTests gives the tests a question's fields say failed: a test's
// file (subagent_live_test.exs, highlight.test.js) or module
// (ReviewContextControllerTest) within failReach words of a verb of
// failing that no word just before denies, each as memory names it (its
// file's name, lower case).
func failedTests(fields []string) []string {
	var out []string
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		if !slices.Contains(testFailVerbs, w) || denied(fields, i, keepNegReach) {
			continue
		}
		for j := max(0, i-failReach); j < min(len(fields), i+failReach+1); j++ {
			if name, ok := testName(codeWord(fields[j])); ok && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// testName gives the name memory knows a test by, when w names one: a
// test file's name, or a test module's in snake_case.
func testName(w string) (string, bool) {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	base := strings.ToLower(lastPathPart(w))
	switch {
	case fileName(base) && (strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_")):
		return base, true
	case moduleName(w) && (strings.HasSuffix(w, "Test") || strings.HasSuffix(w, "Tests")):
		return snakeOf(w), true
	}
	return "", false
}

// holdsTestFailed reports whether memory saw the test fail: a shell
// command running it that failed (not a git add of it), or a record
// telling of a failure within countSpan words of its name; or cannot
// tell: a test memory never names, or names in more than claimScan
// records.
func (ix *Index) holdsTestFailed(name string, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(name, tok))
	if term == "" || ix.df(term) > claimScan {
		return true
	}
	named := false
	for at, d := range ix.docsHolding(term) {
		if d.Layer != layerL1 {
			continue
		}
		f, _ := ix.l1Record(at, d)
		text := strings.ToLower(f.text + " " + f.cmd + " " + f.res + " " + f.diff)
		if !strings.Contains(text, name) {
			continue
		}
		named = true
		if f.tool == "Bash" && f.failed && runsTest(strings.ToLower(f.cmd), name) {
			return true
		}
		ws := countWords(text)
		for i, w := range ws {
			if !strings.Contains(w, name) {
				continue
			}
			for j := max(0, i-countSpan); j < min(len(ws), i+countSpan+1); j++ {
				if tellsFailure(ws, j) {
					return true
				}
			}
		}
	}
	return !named
}

// tellsFailure reports whether ws[j] tells of a failure: a word of
// failing, not a count of none ("0 failures"). An error is not a test's
// failure: "created subagent_live_test.exs, fixed multiple compile errors
// along the way" tells of the code's.
func tellsFailure(ws []string, j int) bool {
	w := ws[j]
	if !slices.Contains(testFailVerbs, w) && w != "failure" && w != "failures" {
		return false
	}
	return j == 0 || ws[j-1] != "0" && ws[j-1] != "no" && ws[j-1] != "zero" && ws[j-1] != "without"
}

// runsTest reports whether a shell command runs the test named: a
// command of it whose program or subcommand runs tests (mix test, npx
// vitest, pytest) names it.
func runsTest(cmd, name string) bool {
	for _, part := range commandParts(cmd) {
		args := commandWords(part)
		if len(args) < 2 || !strings.Contains(part, name) {
			continue
		}
		for _, a := range args[:2] {
			if strings.Contains(a, "test") || strings.Contains(a, "jest") || strings.Contains(a, "rspec") {
				return true
			}
		}
	}
	return false
}

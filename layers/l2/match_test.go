package l2

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/l1"
)

// The regular expressions the hand-written matchers replace: the oracle
// they must agree with, on every string.
const (
	commitExpr      = `(^|&&|;|\n)\s*git commit\b`
	testExpr        = `\b(test|pytest|jest|vitest|rspec|ctest)\b`
	decisionExpr    = `(?i)\b(i'll|i will|we'll|we will|let's|decided|decide to|chose|choosing|going with|opt(ed)? for|prefer|switch(ed)? to|instead of|rather than)\b`
	reasonExpr      = `(?i)\b(because|since|so that|to avoid|instead of|rather than|trade-?off)\b`
	insightExpr     = `(?i)\b(turns out|root cause|the problem (was|is)|the issue (was|is)|the reason|known (bug|issue)|this means|the cause)\b`
	tagExpr         = `<[^>]{1,80}>`
	commitMsgExpr   = `(?s)-m\s+(?:"\$\(cat <<'?"?EOF'?"?\s*\n(.*?)(?:\n|$)|"([^"\n]*)|'([^'\n]*))`
	ruleMarkersExpr = `(?i)\b(from now on|going forward|in the future|remember (to|that)|make sure (to|you) always|(you|we) (should|must) (always|never)|(you|we) (always|never))\b`
	ruleStartExpr   = `(?i)^(please\s+)?(always|never|don't ever|do not ever|don't|do not)\b`
	ruleStripExpr   = `(?i)^(please\s*,?\s*|from now on\s*,?\s*|going forward\s*,?\s*|in the future\s*,?\s*|remember\s+(that\s+)?|note that\s+|and\s+)+`
)

var (
	oracleCommit     = regexp.MustCompile(commitExpr)
	oracleTag        = regexp.MustCompile(tagExpr)
	oracleCommitMsg  = regexp.MustCompile(commitMsgExpr)
	oracleRuleStart  = regexp.MustCompile(ruleStartExpr)
	oracleRuleStrip  = regexp.MustCompile(ruleStripExpr)
	oraclePhraseSets = []struct {
		name string
		re   *regexp.Regexp
		set  *phraseSet
	}{
		{"testWords", regexp.MustCompile(testExpr), &testWords},
		{"decisionWords", regexp.MustCompile(decisionExpr), &decisionWords},
		{"reasonWords", regexp.MustCompile(reasonExpr), &reasonWords},
		{"insightWords", regexp.MustCompile(insightExpr), &insightWords},
		{"ruleMarkerWords", regexp.MustCompile(ruleMarkersExpr), &ruleMarkerWords},
	}
)

// disagreement describes where a matcher differs from its regexp on s, or
// returns "". Every phrase set is compared on both MatchString and
// FindStringIndex (start and end), whatever extraction uses of it.
func disagreement(s string) string {
	var d []string
	for _, c := range oraclePhraseSets {
		want := c.re.FindStringIndex(s)
		i, j := c.set.index(s)
		if want == nil && i >= 0 || want != nil && (want[0] != i || want[1] != j) {
			d = append(d, fmt.Sprintf("%s.index = %d, %d; regexp %v", c.name, i, j, want))
		}
		if got, want := c.set.match(s), c.re.MatchString(s); got != want {
			d = append(d, fmt.Sprintf("%s.match = %v; regexp %v", c.name, got, want))
		}
	}
	if got, want := gitCommitIn(s), oracleCommit.MatchString(s); got != want {
		d = append(d, fmt.Sprintf("gitCommitIn = %v; regexp %v", got, want))
	}
	if got, want := ruleStarts(s), oracleRuleStart.MatchString(s); got != want {
		d = append(d, fmt.Sprintf("ruleStarts = %v; regexp %v", got, want))
	}
	if got, want := stripRuleLead(s), oracleRuleStrip.ReplaceAllString(s, ""); got != want {
		d = append(d, fmt.Sprintf("stripRuleLead = %q; regexp %q", got, want))
	}
	if got, want := stripTags(s), oracleTag.ReplaceAllString(s, " "); got != want {
		d = append(d, fmt.Sprintf("stripTags = %q; regexp %q", got, want))
	}
	got, ok := commitMessage(s)
	if m := oracleCommitMsg.FindStringSubmatch(s); (m != nil) != ok || m != nil && strings.Join(m[1:], "") != got {
		d = append(d, fmt.Sprintf("commitMessage = %q, %v; regexp %q", got, ok, m))
	}
	return strings.Join(d, "\n")
}

// TestMatchersAgreeOnRealTranscripts runs every matcher over every prompt,
// assistant text, tool result and Bash command of the real transcripts, as
// a whole, by sentence and by first line, as extraction passes them.
func TestMatchersAgreeOnRealTranscripts(t *testing.T) {
	files := fixtures.SharedOrSkip(t)
	seen := map[string]bool{}
	var records, compared, failed int
	check := func(s string) {
		if s == "" || seen[s] {
			return
		}
		seen[s] = true
		compared++
		if d := disagreement(s); d != "" {
			if failed++; failed <= 10 {
				t.Errorf("on %q:\n%s", Truncate(s, 300), d)
			}
		}
	}
	for _, f := range files {
		recs, _, err := l1.RefineFile(f, l1.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			records++
			for _, s := range []string{r.Text, cleanPrompt(r.Text), r.Cmd, commandLine(r.Cmd), r.Res} {
				check(s)
				for _, sent := range sentences(s) {
					check(sent)
				}
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d strings disagree", failed, compared)
	}
	if compared < 1000 {
		t.Errorf("only %d strings compared; the transcripts should give thousands", compared)
	}
	t.Logf("%d transcripts, %d L1 records, %d distinct strings compared", len(files), records, compared)
}

// Pieces of generated strings: the phrases and their near misses, word
// characters that defeat \b, runes that fold to ASCII letters under (?i),
// separators, tags and commit messages.
var matchPieces = []string{
	// phrases and near misses
	"i'll", "i will", "we'll", "we will", "let's", "decided", "decide to", "decide", "chose", "choosing", "choose",
	"going with", "opted for", "opt for", "opt", "optfor", "prefer", "preferred", "switched to", "switch to", "switch",
	"instead of", "rather than", "rather", "because", "since", "so that", "to avoid", "trade-off", "tradeoff",
	"trade--off", "trade", "off", "trade-", "turns out", "root cause", "the problem was", "the problem is",
	"the problem", "the issue was", "the issue is", "the issue", "the reason", "reasons", "known bug", "known issue",
	"known", "this means", "the cause", "the", "from now on", "going forward", "in the future", "remember to",
	"remember that", "remember", "make sure to always", "make sure you always", "make sure", "you should always",
	"we must never", "you always", "we never", "you", "we", "should", "must", "always", "never", "don't ever",
	"do not ever", "don't", "do not", "dont", "please", "please,", "note that", "note", "and", "that", "thats",
	"test", "pytest", "jest", "vitest", "rspec", "ctest", "attest", "test_", "test9", "_test", "tests", "go test",
	"git commit", "git commit -m", "git commits", "git  commit", "git", "commit", "git add . && git commit",
	// word characters, separators, white space
	"a", "Z", "9", "_", "x", "'", "’", "-", "--", " ", "  ", ",", ".", "!", "?", ";", "&&", "&", "&&&", "|", "\n", "\t",
	"\f", "\r", "\v", "\u00a0", "\u2028",
	// runes next to phrases, and those (?i) folds to k and s
	"é", "ß", "İ", "ı", "\u212A", "\u017F", "Ǆ", "\xff", "\xe2\x84", "\xc5", "\ufffd",
	// tags
	"<", ">", "<>", "<a>", "<command-name>", "</command-name>", "<<", ">>", "<\n>",
	// commit messages
	"-m", "-m ", "-m\t", "-m\n", "-m '", "-m \"", "\"", "$(cat <<", "\"$(cat <<", "\"$(cat <<'EOF'", "\"$(cat <<EOF",
	"\"$(cat <<\"EOF\"", "\"$(cat <<'\"EOF\"'", "<<'EOF'", "EOF", "'EOF'", "EOF\n", "\n)\"", "-m \"$(cat <<'EOF'\n",
}

// genMatchCase builds a string from random pieces, in random case, with k
// and s sometimes written as the runes that fold to them.
func genMatchCase(rng *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rng.IntN(12); n > 0; n-- {
		switch rng.IntN(20) {
		case 0: // a tag near the 80-rune limit, in runes of 1 to 4 bytes or invalid bytes
			runes := []string{"a", "é", "€", "𝄞", "\xff", "\n", "<"}
			b.WriteByte('<')
			r := runes[rng.IntN(len(runes))]
			b.WriteString(strings.Repeat(r, 77+rng.IntN(6)))
			if rng.IntN(4) > 0 {
				b.WriteByte('>')
			}
			continue
		case 1: // a random rune
			b.WriteRune(rune(rng.IntN(0x3000)))
			continue
		case 2: // git commit after one of the separators that start a command, or a near miss
			b.WriteString([]string{"", "&&", ";", "\n", "&", "|", "x"}[rng.IntN(7)])
			b.WriteString([]string{"", " ", "\t", " \v", "\n "}[rng.IntN(5)])
			b.WriteString([]string{"git commit", "git commit", "git commits", "git  commit"}[rng.IntN(4)])
			continue
		}
		p := matchPieces[rng.IntN(len(matchPieces))]
		for _, r := range p {
			switch {
			case r == 'k' && rng.IntN(6) == 0:
				r = '\u212A'
			case r == 's' && rng.IntN(6) == 0:
				r = '\u017F'
			case 'a' <= r && r <= 'z' && rng.IntN(4) == 0:
				r -= 'a' - 'A'
			}
			if r == utf8.RuneError {
				b.WriteString(p) // keep invalid UTF-8 as it is
				break
			}
			b.WriteRune(r)
		}
		if rng.IntN(3) > 0 {
			b.WriteString([]string{" ", " ", "\n", "", ""}[rng.IntN(5)])
		}
	}
	return b.String()
}

// tricky strings, each the subject of a choice in a matcher.
var matchCases = []string{
	"", "test", "attest", "test_", "test9", "_test", "go test ./...", "npx jest", "pytest -x", "my-test",
	"I'll use it because", "i'llx because", "xi'll", "I'LL do it since", "trade-off", "tradeoff", "trade--off",
	"the trade-offs", "Turns out it was", "the problem is", "the problem isn't", "THE ISSUE WAS", "x\u212Anown issue",
	" \u212Anown issue", "\u212Anown bug", "known bug\u212A", "the problem i\u017F", "the problem i\u017Fx",
	"the problem i\u017F ", "this mean\u017F", "é known bug", "known bugé", "ßknown bug", "the reason\n",
	"root cause: x. the cause", "the cause the reason", "we always", "we alwaysx", "you should never do",
	"remember to", "Remember that x", "git commit -m x", "x && git commit", "x&&git commit", "x ;  git commit",
	"x\n\t git commit", "x\v git commit", "x & git commit", "git committed", "git commit_", "echo git commit",
	"&&&git commit", "git commit\u00e9", "<a>", "<>", "<<a>", "<a<b>c>", "<\n>", "<" + strings.Repeat("é", 80) + ">",
	"<" + strings.Repeat("é", 81) + ">", "<" + strings.Repeat("\xff", 80) + ">", "<" + strings.Repeat("\xff", 81) + ">",
	"<" + strings.Repeat("𝄞", 80) + ">", "<" + strings.Repeat("x", 400), "<command-name>/x</command-name> hi",
	"please always run it", "please,always", "Please  , always", "please\talways", "pleasealways", "pleased to",
	"plea\u017Fe always", "please never", "please please always", "don't ever", "do not", "don'tx", "alway\u017F",
	"please, from now on, remember that and note that it is", "remember thats", "remember that", "rememberthat x",
	"and and x", "and", "and ", "From Now On, use x", "in the future,, x", "note thatx",
	`git commit -m "fix: x"`, `git commit -m 'fix: x'`, `git commit -m "fix` + "\nmore\"", `-m ""`, `-m '' -m "x"`,
	`-mx -m "y"`, "-m\n\"y\"", `-m`, `-m `, "git commit -m \"$(cat <<'EOF'\nfix: x\n\nbody\nEOF\n)\"",
	"-m \"$(cat <<EOF\n\n  fix: y\nEOF", "-m \"$(cat <<\"EOF\"  \t\n\r\n sub", "-m \"$(cat <<'EOF'x\nfix",
	"-m \"$(cat <<'EOF'", "-m \"$(cat <<'EOF'\n", "-m \"$(cat <<'\"EOF'\"\nsub\n", "-m \"$(cat <<\"'EOF\nsub",
}

func TestMatchersAgreeOnTrickyStrings(t *testing.T) {
	for _, s := range matchCases {
		if d := disagreement(s); d != "" {
			t.Errorf("on %q:\n%s", s, d)
		}
	}
}

// TestMatchersAgreeOnGenerated compares the matchers with the regexps on
// many random mixes of phrases, near misses and boundaries (fixed seed).
func TestMatchersAgreeOnGenerated(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	failed := 0
	hits := map[string]int{} // how often each expression matched: the cases must exercise them all
	for range n {
		s := genMatchCase(rng)
		if d := disagreement(s); d != "" {
			if failed++; failed <= 10 {
				t.Errorf("on %q:\n%s", s, d)
			}
		}
		for _, c := range oraclePhraseSets {
			if c.re.MatchString(s) {
				hits[c.name]++
			}
		}
		for name, re := range map[string]*regexp.Regexp{"commit": oracleCommit, "ruleStart": oracleRuleStart, "ruleStrip": oracleRuleStrip, "tag": oracleTag} {
			if re.MatchString(s) {
				hits[name]++
			}
		}
		if m := oracleCommitMsg.FindStringSubmatchIndex(s); m != nil {
			for g := 1; g <= 3; g++ {
				if m[2*g] >= 0 {
					hits[fmt.Sprintf("commitMsg group %d", g)]++
				}
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d generated strings disagree", failed, n)
	}
	t.Logf("%d generated strings; matches by expression: %v", n, hits)
	if len(hits) != len(oraclePhraseSets)+4+3 {
		t.Errorf("some expressions never matched a generated string: %v", hits)
	}
	for name, h := range hits {
		if h < n/200 {
			t.Errorf("%s matched only %d of %d generated strings", name, h, n)
		}
	}
}

// FuzzMatchers compares the matchers with the regexps on any string.
func FuzzMatchers(f *testing.F) {
	for _, s := range matchCases {
		f.Add(s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		f.Add(genMatchCase(rng))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := disagreement(s); d != "" {
			t.Errorf("on %q:\n%s", s, d)
		}
	})
}

// A Stop hook's extraction, as the matchers see it: one prompt, one
// assistant message, a test run and a commit.
var (
	benchPrompt = "<command-message>review</command-message> <command-name>/review</command-name> Please look at the lock " +
		"in the consolidation step. From now on, always run gofmt before committing."
	benchText = strings.Repeat("I read the consolidation code and the lock it takes around the state file. "+
		"The writer holds it while it renames the temporary file, and the reader retries when it finds none. ", 6) +
		"Turns out the reader gave up after one try, so a Stop hook racing a consolidation lost its update. " +
		"I'll retry three times with a short sleep because the rename is quick, rather than block on the lock."
	benchCmds = []string{"go test ./layers/...", "git add -A && git commit -m \"$(cat <<'EOF'\nconsolidate: retry the state read\n\nCo-Authored-By: x\nEOF\n)\""}
)

// runMatchers does what extraction does with the matchers on the bench
// exchange, and returns something that depends on every result.
func runMatchers() int {
	n := 0
	p := stripTags(benchPrompt)
	for _, s := range sentences(p) {
		if ruleStarts(s) || ruleMarkerWords.match(s) {
			n += len(stripRuleLead(s))
		}
	}
	for _, s := range sentences(benchText) {
		if decisionWords.match(s) && reasonWords.match(s) {
			n++
		}
	}
	i, _ := insightWords.index(benchText)
	n += i
	for _, c := range benchCmds {
		if testWords.match(commandLine(c)) {
			n++
		}
		if gitCommitIn(c) {
			m, _ := commitMessage(c)
			n += len(m)
		}
	}
	return n
}

// runRegexps is runMatchers with the regexps, compiled as a fresh process
// compiles them: once, on first use.
func runRegexps() int {
	tag, ruleStart, ruleMarkers, ruleStrip := regexp.MustCompile(tagExpr), regexp.MustCompile(ruleStartExpr), regexp.MustCompile(ruleMarkersExpr), regexp.MustCompile(ruleStripExpr)
	decision, reason, insight := regexp.MustCompile(decisionExpr), regexp.MustCompile(reasonExpr), regexp.MustCompile(insightExpr)
	test, commit, commitMsg := regexp.MustCompile(testExpr), regexp.MustCompile(commitExpr), regexp.MustCompile(commitMsgExpr)
	n := 0
	p := tag.ReplaceAllString(benchPrompt, " ")
	for _, s := range sentences(p) {
		if ruleStart.MatchString(s) || ruleMarkers.MatchString(s) {
			n += len(ruleStrip.ReplaceAllString(s, ""))
		}
	}
	for _, s := range sentences(benchText) {
		if decision.MatchString(s) && reason.MatchString(s) {
			n++
		}
	}
	if loc := insight.FindStringIndex(benchText); loc != nil {
		n += loc[0]
	}
	for _, c := range benchCmds {
		if test.MatchString(commandLine(c)) {
			n++
		}
		if commit.MatchString(c) {
			m := commitMsg.FindStringSubmatch(c)
			n += len(strings.Join(m[1:], ""))
		}
	}
	return n
}

func TestBenchExchangeAgrees(t *testing.T) {
	if a, b := runMatchers(), runRegexps(); a != b {
		t.Fatalf("matchers give %d, regexps %d", a, b)
	}
}

// BenchmarkColdRegexps is the matching of one Stop hook as it was: each
// process compiles the regexps for its one extraction.
func BenchmarkColdRegexps(b *testing.B) {
	for b.Loop() {
		runRegexps()
	}
}

// BenchmarkColdMatchers is the same work with the matchers, which need no
// start-up.
func BenchmarkColdMatchers(b *testing.B) {
	for b.Loop() {
		runMatchers()
	}
}

// BenchmarkCompileRegexps is the compilation alone.
func BenchmarkCompileRegexps(b *testing.B) {
	exprs := []string{commitExpr, testExpr, decisionExpr, reasonExpr, insightExpr, tagExpr, commitMsgExpr, ruleMarkersExpr, ruleStartExpr, ruleStripExpr}
	for b.Loop() {
		for _, e := range exprs {
			regexp.MustCompile(e)
		}
	}
}

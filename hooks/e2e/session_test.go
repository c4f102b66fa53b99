package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/internal/claudetest"
)

// systemText is the text of a request's system-role messages, where
// Claude Code 2.1.330 puts SessionStart and UserPromptSubmit context.
func systemText(r *claudetest.Request) string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "system" {
			parts = append(parts, m.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// firstAgentRequestAfter is the first tools-bearing request of the run
// that started after n agent requests.
func firstAgentRequestAfter(t *testing.T, p *project, n int) *claudetest.Request {
	t.Helper()
	agent := p.Server.AgentRequests()
	if len(agent) <= n {
		t.Fatalf("the run sent no agent request")
	}
	return agent[n]
}

// Scenario 2: a second session starts with what the first one put in
// memory: the server's first request of the new session carries the
// SessionStart context, and it names the first session's work.
func TestSecondSessionGetsContext(t *testing.T) {
	start := time.Now()
	p := newProject(t, "memkeep-stop-loop")
	p.userWork()
	res1, took1 := p.run("Add a retry helper for the flaky upload and write notes about it")
	requireSuccess(t, res1)
	if !p.waitBackground(15 * time.Second) {
		t.Errorf("the background consolidation SessionEnd started did not finish")
	}
	// The concept the agent named ("upload-retry", or memkeep's proposal
	// of the same words, which it joins), summarised in its words, with
	// the files.
	if st := p.readFile(".claude/memory/concepts.json"); !regexp.MustCompile(`"name": "(upload-retry|retry-upload)"`).MatchString(st) || !strings.Contains(st, agentSentence) || !strings.Contains(st, "lib/util.go") {
		t.Errorf("session 1 left no concept about its work named as the agent named it:\n%s", st)
	}

	// What `memkeep context` prints now is what SessionStart must inject.
	want := strings.TrimRight(p.memkeep("context"), "\n")
	t.Logf("memkeep context before session 2 (%d characters):\n%s", len(want), want)

	p.SetScript(claudetest.LoadScenario(t, "memkeep-next-session"))
	n := len(p.Server.AgentRequests())
	res2, took2 := p.run("What did we do last time?")
	requireSuccess(t, res2)
	if res2.SessionID == res1.SessionID {
		t.Fatalf("the second run continued session 1")
	}
	first := firstAgentRequestAfter(t, p, n)
	sys := systemText(first)
	i := strings.Index(sys, claudetest.SessionStartContextLabel)
	if i < 0 {
		t.Fatalf("no SessionStart context in the first request of session 2:\n%.3000s", sys)
	}
	got := sys[i+len(claudetest.SessionStartContextLabel):]
	t.Logf("SessionStart context as the model saw it:\n%.3000s", got)
	for _, s := range []string{"flaky upload", "lib/util.go"} {
		if !strings.Contains(got, s) {
			t.Errorf("the SessionStart context does not mention %q from session 1", s)
		}
	}
	// The agent's own record of session 1 speaks in the next session.
	if !strings.Contains(got, agentSentence) {
		t.Errorf("the SessionStart context does not carry the agent's record %q", agentSentence)
	}
	// It opens with session 1's handoff: the request, its outcome (the
	// answer, not the memory bookkeeping after it), and what was left
	// unfinished (the files edited and not committed).
	for _, s := range []string{"## Where we left off", "The request: Add a retry helper for the flaky upload", "Outcome: Added the Retry helper and the upload notes.", "edited, not committed: lib/util.go, notes/upload-retry.md"} {
		if !strings.Contains(got, s) {
			t.Errorf("the SessionStart context lacks session 1's handoff %q", s)
		}
	}
	if strings.Contains(got, "["+res2.SessionID[:8]+"]") {
		t.Errorf("the SessionStart context describes the session just starting")
	}
	// The hot digest of recent events already counts session 2's own
	// start when the hook renders it; the memory above it must be the
	// same text `memkeep context` prints.
	const hot = "## Recent activity"
	if mem, _, ok := strings.Cut(want, hot); !ok || !strings.HasPrefix(got, mem+hot) {
		t.Errorf("the SessionStart context is not what `memkeep context` printed:\nhook:\n%.2000s\ncontext:\n%.2000s", got, want)
	}
	if len(want) > 6000 {
		t.Errorf("memkeep context is %d characters, over the default budget of 6000", len(want))
	}
	checkHooksClean(t, res2.TranscriptPath)
	if log := p.hooksLog(); log != "" {
		t.Errorf("hooks.log records problems:\n%s", log)
	}
	logTimes(t, start, took1, took2)
}

// facts is the part of facts.json the tests read.
type facts struct {
	Rules []struct {
		ID         string   `json:"id"`
		Text       string   `json:"text"`
		Source     string   `json:"source"`
		Sessions   []string `json:"sessions"`
		Promoted   bool     `json:"promoted"`
		Confidence float64  `json:"confidence"`
	} `json:"rules"`
}

func readFacts(t *testing.T, data string) facts {
	t.Helper()
	var f facts
	if err := json.Unmarshal([]byte(data), &f); err != nil {
		t.Fatalf("facts.json: %v\n%s", err, data)
	}
	return f
}

// Scenario 3: "From now on always run the linter before committing"
// becomes an L4 rule in facts.json at once (UserPromptSubmit),
// the model is told so, the rule is committed, and the next session
// starts with it.
func TestRuleFromPrompt(t *testing.T) {
	start := time.Now()
	p := newProject(t, "memkeep-rule")
	base := p.Git("rev-parse", "HEAD")
	res, took1 := p.run("From now on always run the linter before committing")
	requireSuccess(t, res)
	if !p.waitBackground(15 * time.Second) {
		t.Errorf("the background consolidation SessionEnd started did not finish")
	}

	data := p.readFile(".claude/memory/facts.json")
	f := readFacts(t, data)
	var found bool
	for _, r := range f.Rules {
		if !strings.Contains(strings.ToLower(r.Text), "linter") {
			continue
		}
		found = true
		t.Logf("rule %s: %q source=%s sessions=%v promoted=%v", r.ID, r.Text, r.Source, r.Sessions, r.Promoted)
		if r.Source != "user" {
			t.Errorf("rule source = %q, want user", r.Source)
		}
		if !r.Promoted || r.Confidence != 1 {
			t.Errorf("a rule the user stated is not a rule at once: promoted %v, confidence %v", r.Promoted, r.Confidence)
		}
		if len(r.Sessions) != 1 || !strings.HasPrefix(res.SessionID, r.Sessions[0]) {
			t.Errorf("rule sessions = %v, want the session %s", r.Sessions, res.SessionID)
		}
		if !strings.HasPrefix(r.ID, "r-") {
			t.Errorf("rule id %q lacks the r- prefix", r.ID)
		}
	}
	if !found {
		t.Fatalf("no rule about the linter in facts.json:\n%s", data)
	}
	// The model was told, in the prompt's context.
	first := p.Server.AgentRequests()[0]
	if !strings.Contains(systemText(first), claudetest.UserPromptSubmitContextLabel) ||
		!strings.Contains(systemText(first), "a rule at once") {
		t.Errorf("the model was not told that the prompt was recorded as a rule:\n%.3000s", systemText(first))
	}
	checkHooksClean(t, res.TranscriptPath)

	// The rule is in a memory commit (SessionEnd's consolidation).
	p.checkMemoryCommits(base)
	if committed := p.Git("show", "HEAD:.claude/memory/facts.json"); !strings.Contains(committed, "linter") {
		t.Errorf("the rule is not committed: HEAD's facts.json:\n%s", committed)
	}

	// The next session starts with the rule, marked as a candidate.
	p.SetScript(claudetest.LoadScenario(t, "memkeep-next-session"))
	n := len(p.Server.AgentRequests())
	res2, took2 := p.run("Commit the change")
	requireSuccess(t, res2)
	sys := systemText(firstAgentRequestAfter(t, p, n))
	if !strings.Contains(sys, claudetest.SessionStartContextLabel) || !strings.Contains(sys, "linter") {
		t.Errorf("the next session's context lacks the linter rule:\n%.3000s", sys)
	}
	if log := p.hooksLog(); log != "" {
		t.Errorf("hooks.log records problems:\n%s", log)
	}
	if _, err := os.Stat(res2.TranscriptPath); err != nil {
		t.Errorf("transcript of session 2: %v", err)
	}
	logTimes(t, start, took1, took2)
}

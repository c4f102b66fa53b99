package l2

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memkeep/memkeep/layers/l1"
)

func intp(i int) *int { return &i }

// session is a small hand-written L1: one request that read and edited
// auth/token.go and ran the tests twice.
var session = []l1.Record{
	{TS: "2026-03-01T10:00:00.000Z", Kind: l1.KindPrompt, Text: "login fails with 401 after an hour"},
	{TS: "2026-03-01T10:01:00.000Z", Kind: l1.KindTool, Tool: "Read", File: "auth/token.go", Lines: "1-80"},
	{TS: "2026-03-01T10:02:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(1), Res: "token expired"},
	{TS: "2026-03-01T10:03:00.000Z", Kind: l1.KindTool, Tool: "Edit", File: "auth/token.go", Lines: "40-52", Diff: "+6 -1 if tok.Expired() {"},
	{TS: "2026-03-01T10:04:00.000Z", Kind: l1.KindTool, Tool: "Bash", Cmd: "go test ./auth", Exit: intp(0)},
	{TS: "2026-03-01T10:05:00.000Z", Kind: l1.KindText, Text: "I'll refresh tokens in the middleware because the handler runs too late."},
}

func TestValidateNamesFieldAndShowsExample(t *testing.T) {
	sig := 1.5
	in := Input{Summary: "", Type: "bugfix", Significance: &sig, L1Range: [2]int{5, 2}, Files: []string{"/abs/path.go"}}
	err := in.Validate(true)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate = %v, want a ValidationError", err)
	}
	msg := err.Error()
	for _, want := range []string{"summary: is empty", `type: "bugfix" is not one of`, "significance: 1.5 is outside", "l1_range: [5, 2]", `files[0]: "/abs/path.go"`, "A valid record looks like", `"l1_range": [12, 40]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if err := (&Input{Summary: "ok", L1Range: [2]int{1, 2}}).Validate(true); err != nil {
		t.Errorf("valid input refused: %v", err)
	}
	if err := (&Input{Summary: "no range"}).Validate(true); err == nil || !strings.Contains(err.Error(), "l1_range: is missing") {
		t.Errorf("missing range not reported: %v", err)
	}
}

func TestVerifyAgainstL1(t *testing.T) {
	ok := Input{Summary: "Refresh expired tokens", Files: []string{"auth/token.go"}, L1Range: [2]int{1, 6}}
	if err := ok.Verify(session, nil); err != nil {
		t.Fatalf("a record true to L1 was refused: %v", err)
	}
	bad := Input{Summary: "x", Files: []string{"auth/session.go"}, L1Range: [2]int{1, 9}}
	err := bad.Verify(session, nil)
	if err == nil || !strings.Contains(err.Error(), `files[0]: "auth/session.go" is not a file this session read or changed (it touched auth/token.go)`) ||
		!strings.Contains(err.Error(), "ends after the session's L1, which has 6 lines") {
		t.Errorf("Verify = %v", err)
	}
	fact := Input{Kind: "fact", Summary: "Tokens expire after an hour", File: "auth/token.go", Lines: "200-210", L1Range: [2]int{1, 6}}
	if err := fact.Verify(session, nil); err == nil || !strings.Contains(err.Error(), "200-210 of auth/token.go were not read or changed") {
		t.Errorf("fact with unseen lines: %v", err)
	}
	fact.Lines = "45-47"
	if err := fact.Verify(session, nil); err != nil {
		t.Errorf("fact with seen lines refused: %v", err)
	}
}

func TestAddMergesNearDuplicatesAndCapsFacts(t *testing.T) {
	f := &File{L1: "2026-03-01_1000_abcd1234.l1.jsonl"}
	f.Update(session, f.Base(), UpdateOptions{})
	now := time.Date(2026, 3, 1, 10, 6, 0, 0, time.UTC)
	r1, err := f.Add(Input{Summary: "Expired tokens caused the 401 on login", Files: []string{"auth/token.go"}, L1Range: [2]int{1, 6}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Linked == "" {
		t.Errorf("conscious record did not converge with the extracted exchange: %+v", f.Exchanges)
	}
	r2, err := f.Add(Input{Summary: "Expired tokens caused the 401 on login page", Details: "refresh in middleware", L1Range: [2]int{1, 6}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !r2.Merged || r2.ID != r1.ID {
		t.Errorf("near-duplicate was added as %+v, want merged into %s", r2, r1.ID)
	}
	if got := f.Find(r1.ID).Details; got != "refresh in middleware" {
		t.Errorf("merged details = %q", got)
	}
	topics := []string{"Tokens expire after sixty minutes", "Refresh happens in middleware", "The signing key rotates weekly",
		"Clock skew tolerance is thirty seconds", "Audience claim must match the host", "Revoked tokens live in redis",
		"Login rate limit is five per minute", "Sessions use secure cookies", "Passwords hash with argon2",
		"OAuth state is stored server side", "Logout clears every device"}
	for i := range MaxFacts {
		in := Input{Kind: "fact", Summary: topics[i], File: "auth/token.go", Lines: "40-52"}
		if _, err := f.Add(in, now); err != nil {
			t.Fatalf("fact %d: %v", i, err)
		}
	}
	_, err = f.Add(Input{Kind: "fact", Summary: topics[MaxFacts], File: "auth/token.go"}, now)
	if !errors.Is(err, ErrTooManyFacts) {
		t.Errorf("eleventh fact: %v, want ErrTooManyFacts", err)
	}
}

func TestUpdateIsStableAndKeepsAttachments(t *testing.T) {
	f := &File{L1: "2026-03-01_1000_abcd1234.l1.jsonl"}
	res := f.Update(session, f.Base(), UpdateOptions{})
	if res.Added != 1 || len(f.Exchanges) != 1 || f.Consolidated != 6 {
		t.Fatalf("first update: %+v, %d exchanges, consolidated %d", res, len(f.Exchanges), f.Consolidated)
	}
	e := f.Exchanges[0]
	// base 0.2 + failure then fix 0.25 + decision with reason 0.2 + one
	// file changed 0.1
	if e.Type != TypeIteration || e.Problem == "" || !strings.Contains(e.Fix, "auth/token.go") || e.Significance != 0.75 || e.TTLDays != 30 {
		t.Errorf("exchange: type %s sig %v ttl %d problem %q fix %q; want an iteration of 0.75, 30 days\n%s", e.Type, e.Significance, e.TTLDays, e.Problem, e.Fix, e.Details)
	}
	f.Exchanges[0].Concept = "c-auth"
	before := f.Encode()
	res = f.Update(session, f.Base(), UpdateOptions{})
	if res.Changes() != 0 || string(f.Encode()) != string(before) || f.Exchanges[0].Concept != "c-auth" {
		t.Errorf("second update changed things: %+v", res)
	}
}

func TestRuleStatement(t *testing.T) {
	cases := map[string]string{
		"From now on, always run gofmt before committing.":                           "Always run gofmt before committing.",
		"fix the bug. Never push to main without a review!":                          "Never push to main without a review.",
		"remember that the API is versioned under /v2":                               "The API is versioned under /v2.",
		"it always fails on CI":                                                      "",
		"please don't touch the generated files in gen/":                             "Don't touch the generated files in gen/.",
		"<command-name>/clear</command-name> always":                                 "",
		"when the build broke in files we never touched, what did I tell you to do?": "",
		"never push to main, ok?":                                                    "Never push to main, ok.",
	}
	for in, want := range cases {
		got := strings.Join(PromptRules(in), " | ")
		if got != want {
			t.Errorf("PromptRules(%q) = %q; want %q", in, got, want)
		}
	}
	// Two rules in one prompt are two rules.
	two := PromptRules("From now on always run make lint before committing. And remember: never edit files under generated/.")
	if strings.Join(two, " | ") != "Always run make lint before committing. | Never edit files under generated/." {
		t.Errorf("two rules in one prompt: %q", two)
	}
	if !Negative("Never push to main.") || Negative("Always run gofmt.") {
		t.Error("Negative polarity wrong")
	}
	// A pasted configuration is cut: its head says what the rule is about.
	rs := PromptRules("From now on always use this logging config: " + strings.Repeat("level: debug ", 900))
	long, ok := "", len(rs) == 1
	if ok {
		long = rs[0]
	}
	if !ok || len(long) > maxRule+len("…") || !strings.HasPrefix(long, "Always use this logging config: level: debug") || !strings.HasSuffix(long, "…") {
		t.Errorf("a 12 KB rule gave %d bytes: %.80q", len(long), long)
	}
}

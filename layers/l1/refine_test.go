package l1

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/scrub"
)

var update = flag.Bool("update", false, "rewrite the golden L1 files in testdata/")

func refineBytes(t testing.TB, data []byte, root string) ([]Record, State) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, st, err := RefineFile(p, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return recs, st
}

func prompts(recs []Record) []string {
	var out []string
	for _, r := range recs {
		if r.Kind == KindPrompt {
			out = append(out, r.Text)
		}
	}
	return out
}

func count(recs []Record, kind string) int {
	n := 0
	for _, r := range recs {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

func TestFixturesKeepEveryPromptAndToolCall(t *testing.T) {
	all := append(fixtures.Benign(), fixtures.Secrets(), fixtures.HugeLine(5<<20))
	for _, f := range all {
		t.Run(f.Name, func(t *testing.T) {
			recs, st := refineBytes(t, f.Data, fixtures.Root)
			if f.Prompts != nil {
				if got := prompts(recs); strings.Join(got, "\x00") != strings.Join(f.Prompts, "\x00") {
					t.Errorf("prompts:\n got %q\nwant %q", got, f.Prompts)
				}
			}
			if got := count(recs, KindTool); got != f.ToolCalls {
				t.Errorf("tool records: got %d, want %d", got, f.ToolCalls)
			}
			if st.Stats.Malformed != f.Malformed {
				t.Errorf("malformed lines: got %d, want %d", st.Stats.Malformed, f.Malformed)
			}
			out := Encode(recs)
			for _, s := range f.Secrets {
				if bytes.Contains(out, []byte(s)) {
					t.Errorf("secret %q survived refinement", s)
				}
			}
			if bytes.Contains(out, []byte(fixtures.Root)) {
				t.Errorf("absolute project path in L1:\n%s", out)
			}
		})
	}
}

// TestGolden pins the exact L1 bytes of the version fixtures, so a format
// change shows up as a reviewable diff of testdata/ (-update rewrites it).
func TestGolden(t *testing.T) {
	for _, f := range append(fixtures.Benign(), fixtures.Secrets()) {
		recs, _ := refineBytes(t, f.Data, fixtures.Root)
		got := Encode(recs)
		p := filepath.Join("testdata", f.Name+".l1.jsonl")
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(p, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (run `go test ./layers/l1 -update`)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: L1 differs from golden file %s (run with -update if the change is intended):\n%s", f.Name, p, got)
		}
	}
}

func TestToolRecordsCarryTargets(t *testing.T) {
	recs, _ := refineBytes(t, fixtures.V20().Data, fixtures.Root)
	var tools []Record
	for _, r := range recs {
		if r.Kind == KindTool {
			tools = append(tools, r)
		}
	}
	want := []struct{ tool, file, lines, pat, diffPrefix string }{
		{"Grep", "scripts", "", "def deploy", ""},
		{"Glob", "", "", "scripts/**/*.sh", ""},
		{"Read", "scripts/deploy.py", "10-49", "", ""},
		{"MultiEdit", "scripts/deploy.py", "10-33", "", "+4 -1 def deploy(env, dry_run=False):"},
		{"Write", "docs/deploy.md", "1-3", "", "+3 -0 # Deploy"},
	}
	if len(tools) != len(want) {
		t.Fatalf("got %d tool records, want %d: %+v", len(tools), len(want), tools)
	}
	for i, w := range want {
		g := tools[i]
		if g.Tool != w.tool || g.File != w.file || g.Lines != w.lines || g.Pat != w.pat || !strings.HasPrefix(g.Diff, w.diffPrefix) {
			t.Errorf("tool %d: got %+v, want %+v", i, g, w)
		}
	}

	recs, _ = refineBytes(t, fixtures.V21().Data, fixtures.Root)
	bash := toolRecords(recs, "Bash")
	if len(bash) != 3 {
		t.Fatalf("want 3 Bash records, got %+v", bash)
	}
	if bash[0].Exit == nil || *bash[0].Exit != 1 || !bash[0].Err || !strings.Contains(bash[0].Res, "FAIL: TestParse") {
		t.Errorf("failing command: got %+v", bash[0])
	}
	if bash[0].Cmd != "cd . && go test ./..." {
		t.Errorf("command not made repo-relative: %q", bash[0].Cmd)
	}
	if bash[1].Exit == nil || *bash[1].Exit != 0 || bash[1].Err {
		t.Errorf("passing command: got %+v", bash[1])
	}
	if bash[2].Cmd != "sleep 100" || bash[2].Exit != nil || bash[2].Res != "" {
		t.Errorf("interrupted command without result: got %+v", bash[2])
	}
}

func TestAssistantLinesOfOneMessageAreJoined(t *testing.T) {
	b := fixtures.NewBuilder("2.1.39", "s", fixtures.Root)
	b.Prompt("explain")
	b.Assistant("msg_1", fixtures.Thinking("hmm"), fixtures.Text("First part."), fixtures.Text("Second part."))
	b.Assistant("msg_2", fixtures.Text("Another message."))
	recs, _ := refineBytes(t, b.Bytes(), fixtures.Root)
	var texts []string
	for _, r := range recs {
		if r.Kind == KindText {
			texts = append(texts, r.Text)
		}
	}
	want := []string{"First part.\n\nSecond part.", "Another message."}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", texts, want)
	}
	for _, r := range recs {
		if strings.Contains(r.Text, "hmm") {
			t.Fatal("thinking leaked into L1")
		}
	}
}

func TestCompactionAndSubagentAreMarked(t *testing.T) {
	recs, _ := refineBytes(t, fixtures.V20().Data, fixtures.Root)
	if count(recs, KindCompact) != 1 {
		t.Errorf("want one compact record, got %d", count(recs, KindCompact))
	}
	recs, _ = refineBytes(t, fixtures.Subagent().Data, fixtures.Root)
	for _, r := range recs {
		if r.Agent != "a7b1c2d" {
			t.Errorf("subagent record not marked: %+v", r)
		}
	}
}

// growFile refines data as a transcript that grows in the given pieces,
// resuming from the saved state each time, and returns the L1 bytes.
func growFile(t testing.TB, data []byte, cuts []int) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "grow.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Record
	var st State
	prev := 0
	for i, c := range append(cuts, len(data)) {
		if _, err := f.Write(data[prev:c]); err != nil {
			t.Fatal(err)
		}
		prev = c
		final := i == len(cuts)
		// Round-trip the state through JSON, as hooks store it on disk.
		b, _ := json.Marshal(st)
		st = State{}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		recs, next, err := RefineFrom(p, st, Options{Root: fixtures.Root}, final)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recs...)
		st = next
	}
	return Encode(out)
}

func randomCuts(rng *rand.Rand, n, size int) []int {
	cuts := make([]int, n)
	for i := range cuts {
		cuts[i] = rng.Intn(size + 1)
	}
	sortInts(cuts)
	return cuts
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func TestIncrementalEqualsWhole(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, f := range append(fixtures.Benign(), fixtures.Secrets(), fixtures.HugeLine(200<<10)) {
		recs, _ := refineBytes(t, f.Data, fixtures.Root)
		whole := Encode(recs)
		for trial := 0; trial < 20; trial++ {
			cuts := randomCuts(rng, 1+rng.Intn(12), len(f.Data))
			if got := growFile(t, f.Data, cuts); !bytes.Equal(got, whole) {
				t.Fatalf("%s: increments at %v differ from a whole refine:\n got %s\nwant %s", f.Name, cuts, got, whole)
			}
		}
	}
}

func TestPartialLastLineIsLeftForLater(t *testing.T) {
	f := fixtures.Truncated()
	p := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(p, f.Data, 0o644)
	recs, st, err := RefineFrom(p, State{}, Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	complete := int64(bytes.LastIndexByte(f.Data, '\n') + 1)
	if st.Offset != complete || len(recs) != 1 {
		t.Fatalf("offset %d (want %d), %d records (want 1)", st.Offset, complete, len(recs))
	}
	// Claude Code finishes the line; the next call picks it up.
	fh, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`tten"},"timestamp":"2026-02-10T23:00:00.000Z"}` + "\n")
	fh.Close()
	recs, _, err = RefineFrom(p, st, Options{}, false)
	if err != nil || len(recs) != 1 || recs[0].Text != "still being written" {
		t.Fatalf("got %+v, %v", recs, err)
	}
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := RefineFile(filepath.Join(dir, "missing.jsonl"), Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
	if _, _, err := RefineFile(dir, Options{}); !errors.Is(err, ErrNotTranscript) {
		t.Errorf("directory: got %v", err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", "/dev/null"} {
		done := make(chan error, 1)
		go func() { _, _, err := RefineFile(p, Options{}); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotTranscript) || !strings.Contains(err.Error(), p) {
				t.Errorf("%s: got %v, want ErrNotTranscript naming the path", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("refining %s hangs", p)
		}
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if recs, st, err := RefineFile(empty, Options{}); err != nil || len(recs) != 0 || st.Stats.Lines != 0 {
		t.Errorf("empty file: %v %v %+v", recs, err, st.Stats)
	}
	garbage := filepath.Join(dir, "garbage.bin")
	rng := rand.New(rand.NewSource(7))
	buf := make([]byte, 1<<20)
	rng.Read(buf)
	os.WriteFile(garbage, buf, 0o644)
	if _, st, err := RefineFile(garbage, Options{}); err != nil || st.Stats.Malformed == 0 {
		t.Errorf("binary garbage: %v %+v", err, st.Stats)
	}
}

// TestByteOrderMark: a transcript saved with a UTF-8 byte order mark keeps
// its first line.
func TestByteOrderMark(t *testing.T) {
	f := fixtures.V21()
	want, _ := refineBytes(t, f.Data, fixtures.Root)
	got, st := refineBytes(t, append([]byte("\xef\xbb\xbf"), f.Data...), fixtures.Root)
	if st.Stats.Malformed != 0 || len(got) != len(want) || prompts(got)[0] != prompts(want)[0] {
		t.Errorf("with a BOM: %d records (want %d), %d malformed lines, prompts %q", len(got), len(want), st.Stats.Malformed, prompts(got))
	}
}

func TestFiftyMegabyteLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100 MB")
	}
	f := fixtures.HugeLine(50 << 20)
	recs, st := refineBytes(t, f.Data, fixtures.Root)
	if got := prompts(recs); len(got) != 2 || count(recs, KindTool) != 1 {
		t.Fatalf("prompts %q, tools %d, stats %+v", got, count(recs, KindTool), st.Stats)
	}
}

func TestOversizeLineIsSkippedAndCounted(t *testing.T) {
	b := fixtures.NewBuilder("2.1.39", "s", fixtures.Root)
	b.Prompt("before")
	b.Raw(`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", MaxLine+10) + `"}}`)
	b.Prompt("after")
	recs, st := refineBytes(t, b.Bytes(), fixtures.Root)
	if got := prompts(recs); len(got) != 2 || got[0] != "before" || got[1] != "after" || st.Stats.Oversize != 1 {
		t.Fatalf("%d prompts, oversize %d; want before, after and 1 oversize line", len(got), st.Stats.Oversize)
	}
}

func TestUnknownLineTypesAreCounted(t *testing.T) {
	_, st := refineBytes(t, fixtures.V21().Data, fixtures.Root)
	if st.Stats.Skipped["telemetry-blob"] != 1 || st.Stats.Skipped["progress"] != 4 || st.Stats.Skipped["system"] != 2 {
		t.Fatalf("skipped: %+v", st.Stats.Skipped)
	}
}

func TestPrivateTextIsDropped(t *testing.T) {
	recs, _ := refineBytes(t, fixtures.Secrets().Data, fixtures.Root)
	out := Encode(recs)
	if bytes.Contains(out, []byte("Elm Street")) || !bytes.Contains(out, []byte("[REDACTED:")) {
		t.Fatalf("private text or redaction marks wrong:\n%s", out)
	}
}

// TestCutTextsKeepNoPartOfASecret: tool texts are cut to length after
// they are redacted, and the cut never keeps part of a secret, even when
// redaction shrank what came before it (a private key became one mark),
// and an edit's summary line never shows a private key's body.
func TestCutTextsKeepNoPartOfASecret(t *testing.T) {
	r := NewRefiner(Options{Root: "/work/p"})
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat(strings.Repeat("A", 64)+"\n", 140) + "-----END RSA PRIVATE KEY-----\n"
	tok := "ghp_Zq8RtY2mW4nB6vC1xK9pL3sD7fG5hJ0aQwEr"
	limit := 4*maxCmd + scrub.SecretSpan
	pre := "cat > id_rsa <<'EOF'\n" + key + "EOF\necho "
	// Tokens straddling the edge of what is cleaned, at every offset
	// around it.
	for shift := -45; shift <= 5; shift++ {
		cmd := pre + strings.Repeat("y", limit+shift-len(pre)-1) + " " + tok + " >> notes"
		if got := r.cleanCut(cmd, maxCmd); strings.Contains(got, "ghp_Zq8") {
			t.Fatalf("shift %d: cleanCut keeps part of a GitHub token: %q", shift, got[strings.Index(got, "ghp_"):])
		}
	}
	// One short text with a token past the cut length: redacted, then cut.
	if got := r.cleanCut("export GITHUB_TOKEN="+tok+" && make", 30); strings.Contains(got, "ghp_Zq8") {
		t.Errorf("cut before redaction: %q", got)
	}

	old := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----"
	nw := "-----BEGIN OPENSSH PRIVATE KEY-----\nQyNTUxOQAAACDx9Kq3hQ7mZ2pR8vW1nT6yL4cJ0sF5gH9aE3bD2kM7uAAAAJgTq8pXE6vK\n-----END OPENSSH PRIVATE KEY-----"
	for _, d := range []string{
		r.diffSummary(old, nw),
		r.diffSummary(old+strings.Repeat("\nx", maxDiffClean), nw+strings.Repeat("\nx", maxDiffClean)),
	} {
		if strings.Contains(d, "QyNTUxOQ") || strings.Contains(d, "b3BlbnNza") {
			t.Errorf("an edit's summary shows a private key's body: %.80q", d)
		}
	}
	if d := r.diffSummary("if x {", "if x != nil {"); d != "+1 -1 if x != nil {" {
		t.Errorf("an ordinary edit: %q", d)
	}
	// A new file's opening comment marker says nothing of it; the line
	// after it does.
	if d := r.diffSummary("", "/**\n * Tests for the code highlighter\n */\nimport hljs"); d != "+4 -0 * Tests for the code highlighter\nimport hljs" {
		t.Errorf("a new file opening with a comment: %q", d)
	}
	if d := r.diffSummary("a\n}", "a\n},\n}"); d != "+1 -0 }," {
		t.Errorf("an edit adding only punctuation: %q", d)
	}
}

// TestDiffSummaryKeepsTheChangedLines: an edit keeps its first changed
// lines, so that the value it set or the function it declared is in
// memory; a secret on any of them is redacted, and a text too long to
// clean whole shows its first line only.
func TestDiffSummaryKeepsTheChangedLines(t *testing.T) {
	r := NewRefiner(Options{Root: "/home/u/proj"})
	module := "defmodule Store do\n  use GenServer\n\n  @default_ttl_seconds 120\n  @table :review_tokens\n  end\n"
	if d := r.diffSummary("", module); d != "+6 -0 defmodule Store do\nuse GenServer\n@default_ttl_seconds 120\n@table :review_tokens" {
		t.Errorf("a new module (a lone end says nothing): %q", d)
	}
	// An edit that wraps a pipeline and adds a helper below it: the
	// room goes to the helper's lines before the moved ones, and the
	// lines keep the edit's order.
	before := "def enqueue(hashes, session) do\n  %{\n    hashes: hashes,\n    session_id: session.id,\n    cwd: session.cwd\n  }\n  |> EnrichCommits.new()\n  |> Oban.insert()\nend\n"
	after := "def enqueue(hashes, session) do\n  args =\n    %{\n      hashes: hashes,\n      session_id: session.id,\n      cwd: session.cwd\n    }\n    |> maybe_add_trace_id()\n\n  args\n  |> EnrichCommits.new()\n  |> Oban.insert()\nend\n\ndefp maybe_add_trace_id(args) do\n  case Otel.current_trace_id() do\n    nil -> args\n    trace_id -> Map.put(args, :otel_trace_id, trace_id)\n  end\nend\n"
	if d := r.diffSummary(before, after); d != "+18 -7 args =\nhashes: hashes,\nsession_id: session.id,\n|> maybe_add_trace_id()\nargs\ndefp maybe_add_trace_id(args) do\ncase Otel.current_trace_id() do\nnil -> args\ntrace_id -> Map.put(args, :otel_trace_id, trace_id)" {
		t.Errorf("moved lines before the new: %q", d)
	}
	// A list one item per line gets the room after the options below it.
	upsert := "create :upsert do\n  accept [\n    :uuid,\n    :parent_uuid,\n    :message_id,\n    :type,\n    :role,\n    :content,\n    :timestamp,\n    :session_id\n  ]\n\n  upsert? true\n  upsert_identity :unique_session_uuid\n  upsert_fields [:content, :type, :role]\nend\n"
	if d := r.diffSummary("", upsert); d != "+16 -0 create :upsert do\naccept [\n:uuid,\n:parent_uuid,\n:message_id,\n:session_id\nupsert? true\nupsert_identity :unique_session_uuid\nupsert_fields [:content, :type, :role]" {
		t.Errorf("list items before the options: %q", d)
	}
	if d := r.diffSummary("a\n@limit 20\n@max 5\nb", "a\nb"); d != "+0 -2 -@limit 20\n-@max 5" {
		t.Errorf("lines only removed: %q", d)
	}
	var long []string
	for i := range 40 {
		long = append(long, fmt.Sprintf("line %d %s", i, strings.Repeat("x", 120)))
	}
	d := r.diffSummary("", strings.Join(long, "\n"))
	lines := strings.Split(d, "\n")
	if len(lines) > 1+maxDiffMore || len(d) > maxDiffLn+maxDiffBytes+2*maxDiffMore+16 {
		t.Errorf("a long write keeps %d lines, %d bytes", len(lines), len(d))
	}
	for _, l := range lines {
		if len(l) > maxDiffLn+16 {
			t.Errorf("a changed line kept whole: %d bytes", len(l))
		}
	}
	secret := "config :app,\n  region: \"eu\",\n  api_key: \"sk-ant-api03-Zq8wP4kX2mR7vN1bT6yH3jL9sD5fG0aQ\""
	if d := r.diffSummary("", secret); strings.Contains(d, "Zq8wP4kX") || !strings.Contains(d, "REDACTED") {
		t.Errorf("a key on a later line: %q", d)
	}
	huge := "first line\n" + secret + strings.Repeat("\nx", maxDiffClean)
	if d := r.diffSummary("", huge); strings.Contains(d, "\n") || strings.Contains(d, "Zq8wP4kX") {
		t.Errorf("a text too long to clean whole: %.120q", d)
	}
}

// TestDeveloperSecretsNeverReachL1: credentials typed the way developers
// type them (flags, headers, webhook URLs, token-printing commands,
// base64, a wrapped line, prose) leave no part in L1.
func TestDeveloperSecretsNeverReachL1(t *testing.T) {
	fx := fixtures.DeveloperSecrets()
	recs, _ := refineBytes(t, fx.Data, fixtures.Root)
	out := string(Encode(recs))
	for _, sec := range fx.Secrets {
		for i := 0; i+8 <= len(sec); i++ {
			if strings.Contains(out, sec[i:i+8]) {
				t.Errorf("part %q of a planted secret reached L1", sec[i:i+8])
				break
			}
		}
	}
	if n := strings.Count(out, "[REDACTED:"); n < len(fx.Secrets)-2 {
		t.Errorf("only %d redaction marks for %d planted secrets:\n%s", n, len(fx.Secrets), out)
	}
}

// TestPathsRelativeToTheSessionsOwnRoot: a session recorded in another
// checkout (or on another machine) and imported here keeps its paths
// relative to its own project root, not home-relative; a session started
// in a subfolder of this project stays relative to this project.
func TestPathsRelativeToTheSessionsOwnRoot(t *testing.T) {
	b := fixtures.NewBuilder("2.1.330", "12121212-aaaa-4bbb-8ccc-000000000012", "/home/alice/shop/inv-old")
	b.Prompt("Add a Slack notifier in /home/alice/shop/inv-old/inv/notify.py")
	b.Assistant("msg_p_1", fixtures.ToolUse("toolu_p_1", "Edit", map[string]any{"file_path": "/home/alice/shop/inv-old/inv/notify.py", "old_string": "a", "new_string": "b"}))
	b.ToolResult("toolu_p_1", "updated", false, nil)
	recs, _ := refineBytes(t, b.Bytes(), "/work/repo")
	out := string(Encode(recs))
	if !strings.Contains(out, `"file":"inv/notify.py"`) || !strings.Contains(out, "notifier in inv/notify.py") {
		t.Errorf("paths not relative to the session's own root:\n%s", out)
	}
	if strings.Contains(out, "~/shop") || strings.Contains(out, "alice") {
		t.Errorf("a machine path survived:\n%s", out)
	}
	// Started in a subfolder of this project: relative to the project.
	b = fixtures.NewBuilder("2.1.330", "13131313-aaaa-4bbb-8ccc-000000000013", "/work/repo/services/api")
	b.Assistant("msg_p_2", fixtures.ToolUse("toolu_p_2", "Edit", map[string]any{"file_path": "/work/repo/services/api/main.go", "old_string": "a", "new_string": "b"}))
	b.ToolResult("toolu_p_2", "updated", false, nil)
	recs, _ = refineBytes(t, b.Bytes(), "/work/repo")
	if out := string(Encode(recs)); !strings.Contains(out, `"file":"services/api/main.go"`) {
		t.Errorf("a session started in a subfolder lost the folder:\n%s", out)
	}
}

// TestErrorIsToldByWhatItIntroduces: an error whose first line ends in a
// colon keeps the lines it introduces, within the error's room; an error
// whose first line says nothing failed keeps the first line that does;
// an error's other first lines, and a success, keep their first line
// only.
func TestErrorIsToldByWhatItIntroduces(t *testing.T) {
	r := NewRefiner(Options{})
	for _, c := range []struct {
		res   string
		isErr bool
		want  string
	}{
		{"The following paths are ignored by one of your .gitignore files:\npriv/static/assets\nhint: Use -f if you really want to add them.\n", true,
			"The following paths are ignored by one of your .gitignore files: priv/static/assets hint: Use -f if you really want to add them."},
		{"FAIL: TestParse\nexpected 1, got 2\n", true, "FAIL: TestParse"},
		// A failed command's progress gives way to its error.
		{"Compiling 4 files (.ex)\nGenerated spotter app\n\n     error: undefined function get/2 (expected X to define it)\n     │\n", true,
			"error: undefined function get/2 (expected X to define it)"},
		{"Compiling 4 files (.ex)\nGenerated spotter app\n", true, "Compiling 4 files (.ex)"},
		{"Compiling 4 files (.ex)\nerror: boom\n", false, "Compiling 4 files (.ex)"},
		{"Listing files:\na.go\nb.go\n", false, "Listing files:"},
	} {
		if got := r.short(c.res, c.isErr); got != c.want {
			t.Errorf("short(%q, %v) = %q, want %q", c.res, c.isErr, got, c.want)
		}
	}
	// The error line taken from deep in the output is cleaned of
	// secrets as a first line is.
	if got := r.short("Compiling 2 files\nerror: push refused for ghp_abcdefghijklmnopqrstuvwxyz0123456789\n", true); strings.Contains(got, "ghp_abcdefghij") || !strings.Contains(got, "[REDACTED:") {
		t.Errorf("a secret in an error line: %q", got)
	}
	if got := r.short("error:\n\n"+strings.Repeat("x", 300), true); !strings.HasPrefix(got, "error: xxx") || len(got) > maxRes+len("…") {
		t.Errorf("a long error: %d bytes %q; want the introduced line, cut at %d", len(got), got, maxRes)
	}
}

// TestRunKeepsItsTally: a test run keeps its tally, the count of what
// failed, after its first line or its first failure line, in the words
// of the runners that print one; output with no tally keeps its line
// alone.
func TestRunKeepsItsTally(t *testing.T) {
	r := NewRefiner(Options{})
	trace := strings.Repeat("     (spotter 0.1.0) lib/spotter_web/endpoint.ex:1: SpotterWeb.Endpoint.call/2\n", 20)
	for _, c := range []struct {
		res   string
		isErr bool
		want  string
	}{
		{"  1) test posts a commit event (SpotterWeb.HooksControllerTest)\n     ** (FunctionClauseError) no function clause matching in SpotterWeb.OtelTraceHelpers.with_span/3\n" + trace + "\n......\nFinished in 1.9 seconds (0.4s async, 1.5s sync)\n14 doctests, 297 tests, 11 failures\n", true,
			"** (FunctionClauseError) no function clause matching in SpotterWeb.OtelTraceHelpers.with_span/3 … 14 doctests, 297 tests, 11 failures"},
		// Output cut to its tail keeps the tally as its failure line.
		{"  1) test posts a commit event (SpotterWeb.HooksControllerTest)\n" + trace + "\n......\n14 doctests, 297 tests, 11 failures\n", true,
			"14 doctests, 297 tests, 11 failures"},
		{"FAIL src/highlight.test.js\n  ● highlights elixir\n\nTests:       2 failed, 10 passed, 12 total\nTime:        1.2 s\n", true,
			"FAIL src/highlight.test.js … Tests: 2 failed, 10 passed, 12 total"},
		{"FAILED tests/test_sync.py::test_twice - AssertionError\n========= 1 failed, 41 passed in 0.52s =========\n", true,
			"FAILED tests/test_sync.py::test_twice - AssertionError … 1 failed, 41 passed in 0.52s"},
		// The tally is the failure line: kept once.
		{"Compiling 2 files\n3 tests, 1 failure\n", true, "3 tests, 1 failure"},
		// A run that exits 0 (piped through tail, or passing) keeps its
		// tally too; an error with no tally keeps its line alone.
		{"Running ExUnit with seed: 1\n297 tests, 0 failures\n", false, "Running ExUnit with seed: 1 … 297 tests, 0 failures"},
		{"  1) test posts a commit event\n" + trace + "14 doctests, 297 tests, 11 failures\n", false, "1) test posts a commit event … 14 doctests, 297 tests, 11 failures"},
		{"error: could not compile dependency :ash\n1 error generated\n", true, "error: could not compile dependency :ash"},
	} {
		if got := r.short(c.res, c.isErr); got != c.want {
			t.Errorf("short(%q…, %v) = %q, want %q", c.res[:min(len(c.res), 40)], c.isErr, got, c.want)
		}
	}
}

// TestUsersAnswersAreKept: the user's answer to AskUserQuestion is the
// user's own words, often a decision: L1 keeps it whole before its
// question, with the options offered, where another tool's result keeps a
// line; a secret typed in an answer is redacted as anywhere else.
func TestUsersAnswersAreKept(t *testing.T) {
	question := "Pre-commit hook blocks on pre-existing dialyzer/credo issues in waiting_summary.ex (not our code). How should we proceed?"
	answer := "main was clean; fix the issues, and keep the hook: we want every commit checked by credo and dialyzer as before, even when the issues are older than this branch"
	b := fixtures.NewBuilder("2.1.39", "s", fixtures.Root)
	b.Prompt("commit it")
	b.Assistant("msg_1", fixtures.ToolUse("toolu_1", "AskUserQuestion", map[string]any{"questions": []any{map[string]any{
		"question": question, "header": "Commit", "multiSelect": false,
		"options": []any{
			map[string]any{"label": "Skip hook (--no-verify)", "description": "Commit with --no-verify"},
			map[string]any{"label": "Fix pre-existing issues", "description": "Fix them first"},
		},
	}}}))
	b.ToolResult("toolu_1", `User has answered your questions: "`+question+`"="`+answer+`". You can now continue with the user's answers in mind.`, false,
		map[string]any{"questions": []any{map[string]any{"question": question}}, "answers": map[string]any{question: answer}})
	b.Assistant("msg_2", fixtures.ToolUse("toolu_2", "AskUserQuestion", map[string]any{"questions": []any{map[string]any{"question": "Which token?", "options": []any{}}}}))
	b.ToolResult("toolu_2", "", false, map[string]any{"answers": map[string]any{"Which token?": "use ghp_abcdefghijklmnopqrstuvwxyz0123456789"}})
	recs, _ := refineBytes(t, b.Bytes(), fixtures.Root)
	asks := toolRecords(recs, "AskUserQuestion")
	if len(asks) != 2 {
		t.Fatalf("want 2 AskUserQuestion records, got %+v", recs)
	}
	if want := `"` + answer + `" (asked: "` + question + `")`; asks[0].Res != want {
		t.Errorf("answer: got %q, want %q", asks[0].Res, want)
	}
	if want := "options: Skip hook (--no-verify); Fix pre-existing issues"; asks[0].Arg != want {
		t.Errorf("options: got %q, want %q", asks[0].Arg, want)
	}
	if strings.Contains(asks[1].Res, "ghp_abcdefghij") || !strings.Contains(asks[1].Res, "[REDACTED:") {
		t.Errorf("a secret in an answer: %q", asks[1].Res)
	}
}

// TestHelpersModelIsKept: a helper agent's call keeps its type, the model
// the call chose for it, and its description; a call that chose none
// keeps the two.
func TestHelpersModelIsKept(t *testing.T) {
	b := fixtures.NewBuilder("2.1.39", "s", fixtures.Root)
	b.Prompt("plan the linting beads")
	b.Assistant("msg_1", fixtures.ToolUse("toolu_1", "Task", map[string]any{"description": "Draft beads for linting setup", "subagent_type": "Plan", "model": "haiku", "prompt": "Draft bead content"}))
	b.ToolResult("toolu_1", "Drafted three beads.", false, nil)
	b.Assistant("msg_2", fixtures.ToolUse("toolu_2", "Task", map[string]any{"description": "find parse callers", "subagent_type": "Explore", "prompt": "Find callers"}))
	b.ToolResult("toolu_2", "Two callers.", false, nil)
	recs, _ := refineBytes(t, b.Bytes(), fixtures.Root)
	tasks := toolRecords(recs, "Task")
	if len(tasks) != 2 {
		t.Fatalf("want 2 Task records, got %+v", recs)
	}
	for i, want := range []string{"Plan (haiku): Draft beads for linting setup", "Explore: find parse callers"} {
		if tasks[i].Arg != want {
			t.Errorf("Task %d: arg %q, want %q", i, tasks[i].Arg, want)
		}
	}
}

// TestPipedCrashIsKept: a command piped through head or tail exits 0
// whatever crashed; its record keeps the first line that says the program
// stopped, after its first line, and a piped command that crashed nowhere,
// or one not piped, keeps its first line alone.
func TestPipedCrashIsKept(t *testing.T) {
	out := "==> file_system\nCompiling 3 files (.ex)\nGenerated spotter app\n** (Mix) Could not start application opentelemetry: exited in: :opentelemetry_app.start(:normal, [])\n    ** (EXIT) an exception was raised:\n"
	b := fixtures.NewBuilder("2.1.39", "s", fixtures.Root)
	b.Prompt("run the tests")
	for i, c := range []struct{ cmd, out string }{
		{"mix test 2>&1 | head -100", out},
		{"mix test 2>&1 | tail -5", "Compiling 3 files (.ex)\nthe test handles error: input\n297 tests, 0 failures\n"},
		{"mix compile 2>&1 && ls", "==> file_system\nerror: pretend\n"},
		{"mix compile 2>&1 | tail -3", "Compiling 2 files (.ex)\n    error: undefined function foo/0\n"},
		{"mix compile 2>&1 || true", "==> file_system\n** (CompileError) boom\n"},
	} {
		id := "toolu_" + strconv.Itoa(i)
		b.Assistant("msg_"+strconv.Itoa(i), fixtures.ToolUse(id, "Bash", map[string]any{"command": c.cmd}))
		b.ToolResult(id, c.out, false, nil)
	}
	recs, _ := refineBytes(t, b.Bytes(), fixtures.Root)
	runs := toolRecords(recs, "Bash")
	if len(runs) != 5 {
		t.Fatalf("want 5 Bash records, got %+v", recs)
	}
	for i, want := range []string{
		"==> file_system … ** (Mix) Could not start application opentelemetry: exited in: :opentelemetry_app.start(:normal, [])",
		"Compiling 3 files (.ex) … 297 tests, 0 failures",
		"==> file_system",
		"Compiling 2 files (.ex) … error: undefined function foo/0",
		"==> file_system",
	} {
		if runs[i].Res != want {
			t.Errorf("%s: got %q, want %q", runs[i].Cmd, runs[i].Res, want)
		}
	}
}

// toolRecords gives the records of recs that are calls of tool.
func toolRecords(recs []Record, tool string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Tool == tool {
			out = append(out, r)
		}
	}
	return out
}

// TestCompactionKeepsErrorsAndUserMessages: a long compaction summary
// keeps its head and, past it, its sections of the errors met and of the
// user's messages, each to its own room, and no other section.
func TestCompactionKeepsErrorsAndUserMessages(t *testing.T) {
	analysis := "This session is being continued from a previous conversation.\n\nAnalysis:\n" + strings.Repeat("Let me walk through the work in order. ", 120)
	summary := "\n\nSummary:\n1. Primary Request and Intent:\n   Implement the report epic.\n" +
		"3. Files and Code Sections:\n   - lib/report.ex: " + strings.Repeat("code ", 200) + "\n" +
		"4. Errors and fixes:\n   - **Report test: sandbox isolation (Report not found)**: fixed with shared mode.\n   - **Credo warning**: pattern match instead of length/1.\n" +
		"5. Problem Solving:\n   Solved everything by thinking hard.\n" +
		"6. All user messages:\n   - \"Implement the report epic\"\n   - \"check again\"\n" +
		"7. Pending Tasks:\n   - none\n"
	got := compactText(analysis + summary)
	for _, want := range []string{"This session is being continued", "4. Errors and fixes:", "(Report not found)", "pattern match instead of length/1.", "6. All user messages:", `"check again"`} {
		if !strings.Contains(got, want) {
			t.Errorf("compactText lost %q", want)
		}
	}
	for _, not := range []string{"Solved everything", "Pending Tasks", "Files and Code Sections"} {
		if strings.Contains(got, not) {
			t.Errorf("compactText kept %.40q…", not)
		}
	}
	// A letter whose lower case is longer does not shift the sections.
	if got := compactText(strings.Repeat("İ", 3000) + summary); !strings.Contains(got, "(Report not found)") || !strings.Contains(got, `"check again"`) {
		t.Errorf("compactText after wide letters lost a section: %q", got[len(got)-200:])
	}
	if short := "Analysis:\nshort summary\n4. Errors and fixes:\n - none"; compactText(short) != short {
		t.Errorf("a short summary is kept whole: %q", compactText(short))
	}
	if len(got) > maxCompact+2*(maxCompactSection+2) {
		t.Errorf("compactText kept %d bytes", len(got))
	}
}

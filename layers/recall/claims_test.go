package recall

import (
	"slices"
	"testing"
)

// TestDurations: the durations a text states, in the ways prose and code
// write them, and what only looks like one.
func TestDurations(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int64
	}{
		{"sweeps every 15s with a 90s TTL", []int64{15_000, 90_000}},
		{"a 2-second debounce, then 5 minutes", []int64{2_000, 300_000}},
		{"waits 500ms; times out after 24 hours or 1 day", []int64{500, 86_400_000, 86_400_000}},
		{"@debounce_ms 500 and ttl_seconds: 90", []int64{500, 90_000}},
		{"Process.send_after(self(), :sweep, :timer.seconds(15))", []int64{15_000}},
		{"timeout 15_000ms", []int64{15_000}},
		{"from ninety seconds to five minutes, a two-hour window", []int64{90_000, 300_000, 7_200_000}},
		{"waits two full seconds, then 90 whole minutes", []int64{2_000, 5_400_000}},
		// Not durations: status codes, a fraction, a letter apart, a
		// version, a number with no unit, a unit inside a word.
		{"returned 500s and 404s", nil},
		{"took 1.3 seconds", nil},
		{"tail -F 2 s", nil},
		{"v1.5m of users", nil},
		{"}, 2000)", nil},
		{"h264 and sha256sum, 3des", nil},
		{"5 messages in 2 sessions", nil},
		{"it sweeps once a minute, and polls every second", []int64{60_000, 1_000}},
		{"a minute later, every 15s, an hour", []int64{15_000}},
		// "For a" a unit of a minute or longer is a span; "for a second
		// time" is no duration.
		{"valid for a whole day, kept for an hour", []int64{86_400_000, 3_600_000}},
		{"retried for a second time", nil},
		{"one more second, someone's hours, fives", nil},
	} {
		var got []int64
		for _, d := range durations(c.text) {
			got = append(got, d.ms)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("durations(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestCounts: the counts a question states, by what they count or the
// setting given them, and the numbers that count nothing.
func TestCounts(t *testing.T) {
	tok := newTokenizer()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"why collapse after 25 lines and cut at 800 characters?", []string{"25 lines", "800 characters"}},
		{"we bumped the queue's concurrency to 50, with 20 result rows", []string{"concurrency 50", "20 result rows"}},
		{"`@default_visible_lines` set to 20, `max_tokens: 1024`", []string{"@default_visible_lines 20", "max_tokens 1024"}},
		{"a 25-line cap; the server listens on port 4000", []string{"25 line", "port 4000"}},
		{"why is `@debounce_ms` in `TranscriptTailWorker` set to 2000?", []string{"@debounce_ms 2000"}},
		{"why @default_visible_lines in TranscriptRenderer ended up at 25", []string{"@default_visible_lines 25"}},
		// Not counts: one digit, a number in a name, an id, a number of
		// nothing counted, a fenced paste.
		{"why reject more than 200 commit hashes?", []string{"200 commit hashes"}},
		{"4 messages instead of 2", nil},
		{"a TTL of 10 minutes seems long", nil},
		{"subagent_live.ex:25 lines, v1.20 rows", nil},
		{"the migration for messages (20260212165422)", nil},
		{"in 2026 we had 30 of them", nil},
		{"```\nexpected 12 rows, got 10\n```", nil},
	} {
		var got []string
		for _, n := range counts(countWords(withoutFences(c.text)), tok) {
			got = append(got, n.text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("counts(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestQuotedErrors: what a question quotes, and which quotes are errors
// (quoted as printed) rather than labels or phrases (quoted loosely).
func TestQuotedErrors(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{`why "database is locked" and “too many open files”?`, []string{"database is locked", "too many open files"}},
		{"what printed `curl: (28) Operation timed out` and 'Maximum call stack size exceeded'?", []string{"Maximum call stack size exceeded", "curl: (28) Operation timed out"}},
		{"couldn't the page's 'Show more' button work? it's fine", []string{"Show more"}},
		{"a fence ```\n** (KeyError) \"boom\" failed\n``` quotes nothing, nor an open one ```\n'x' failed", nil},
	} {
		if got := quoted(c.q); !slices.Equal(got, c.want) {
			t.Errorf("quoted(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	for q, want := range map[string]bool{
		"database is locked":                true,
		"Could not resolve":                 true,
		"** (KeyError) key :x":              true,
		"terror of the night":               false,
		"the terror error":                  true,
		"Show N more lines":                 false,
		"Open conversation":                 false,
		"is beyond a symbolic link":         false,
		"tail: inotify resources exhausted": true,
	} {
		if got := failureWords(q); got != want {
			t.Errorf("failureWords(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestQuotedCommandRun: a command a question quotes and says ran is held
// where a shell command memory ran opens with its program and argument;
// held only in prose, or inside another command's text, it never ran.
func TestQuotedCommandRun(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		bash(`bd create --title="Install tools" --description="Install via mix igniter.install, then run mix quality"`, 0, ""),
		say("Next: mix igniter.install credo, then mix quality."),
		bash("cd assets && MIX_ENV=test mix ledger.check --all", 0, "ok"),
		bash("node assets/build.js 2>&1", 1, "Could not resolve"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"What did `mix igniter.install credo` print when we ran it?", []string{"mix igniter.install run"}},
		{"What did `mix ledger.check --all` print when we ran it?", nil},
		{"Why did `node assets/build.js` fail when we ran it?", nil},
		// A command quoted without a word of running is not judged here.
		{"Is `mix igniter.install credo` the way to add credo?", nil},
		// What the command runs in its turn is no run of it.
		{"Did the `mix igniter.install credo` task planned for the tools ever exist, and what does it run?", nil},
		{"What did `mix igniter.install credo` print when it ran?", []string{"mix igniter.install run"}},
	})
}

// TestRemovedFragment: a name a question quotes inside a fragment of code
// ("the `if report_record` check") went out of a changed line, whose new
// text alone L1 keeps: held where memory holds the fragment, judged as a
// name taken out otherwise.
func TestRemovedFragment(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("The `if report_record` guard can never be false. Let me simplify:"),
		say("Unless it is set, report_record is skipped."),
		bash("mix report_record --all", 0, "ok"),
		edit("lib/ledger_web/live/ledger_live.ex", "+1 -1 ledger_cwd = report_record.cwd"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we drop the `if report_record` check in ledger_live.ex?", nil},
		{"Why did we drop the `unless report_record` check in ledger_live.ex?", []string{"unless report_record", "report_record removed"}},
		{"Why did we drop report_record from the ledger view?", []string{"report_record removed"}},
		// A quoted command is no fragment of code.
		{"Why did we drop `mix report_record --all` from the ledger view?", []string{"report_record removed"}},
	})
}

// TestUnknownTasks: a task of an epic that memory never writes was never
// made, though memory writes the epic and its other tasks; one memory
// writes is held.
func TestUnknownTasks(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		bash("bd dep add ledger-q7x.2 ledger-q7x.1", 0, "✓ Added dependency: ledger-q7x.2 depends on ledger-q7x.1"),
		say("Epic ledger-q7x: set up the report tools."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"What did ledger-q7x.2 set up for the report?", nil},
		{"Why did ledger-q7x.2's tools need the report?", nil},
		{"Why did the epic ledger-q7x get a third task, ledger-q7x.3, for the report?", []string{"ledger-q7x.3"}},
		{"What did ledger-q7x.12 set up for the report?", []string{"ledger-q7x.12"}},
		{"What did ledger-q7x.3's report set up?", []string{"ledger-q7x.3"}},
		{"What did ledger-zz9.1 set up for the report?", []string{"ledger-zz9.1"}},
	})
}

// TestCommandWords: a part of a shell command is read from its program
// on, past the variables set for it and the programs that only run it.
func TestCommandWords(t *testing.T) {
	for _, c := range []struct {
		part string
		want []string
	}{
		{"mv scripts/x.sh priv/scripts/", []string{"mv", "scripts/x.sh", "priv/scripts/"}},
		{" MIX_ENV=test mix test a_test.exs", []string{"mix", "test", "a_test.exs"}},
		{"sudo rm -f x.ex", []string{"rm", "-f", "x.ex"}},
		{"env FOO=1 BAR=2 mix run", []string{"mix", "run"}},
	} {
		if got := commandWords(c.part); !slices.Equal(got, c.want) {
			t.Errorf("commandWords(%q) = %q, want %q", c.part, got, c.want)
		}
	}
}

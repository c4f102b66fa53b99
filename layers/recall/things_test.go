package recall

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestThingsFormat holds things.txt to its rules: lower-case terms of at
// most three words, none twice, and none of the words every programming
// conversation uses (a question naming them names nothing in particular).
func TestThingsFormat(t *testing.T) {
	seen := map[string]bool{}
	generic := []string{"file", "test", "function", "code", "error", "change", "fix", "run", "bug", "server", "script", "request", "message", "page", "user", "session", "log"}
	talk := []string{"call", "record", "status", "read", "list", "data", "tool", "use", "output", "result", "line", "view", "check", "build", "start", "end"}
	for i, line := range strings.Split(thingsText, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line != strings.ToLower(strings.TrimSpace(line)) || strings.Contains(line, "  ") {
			t.Errorf("line %d: %q is not one lower-case term", i+1, line)
		}
		if n := len(strings.Fields(line)); n > maxThingWords {
			t.Errorf("line %d: %q has %d words, at most %d", i+1, line, n, maxThingWords)
		}
		if seen[line] {
			t.Errorf("line %d: %q twice", i+1, line)
		}
		seen[line] = true
		if slices.Contains(generic, line) {
			t.Errorf("line %d: %q is a word of every conversation, not a thing", i+1, line)
		}
		// Nor a phrase of them: "function calling" stems to what "the
		// function called" does, "session recording" to "which session
		// recorded".
		if words := strings.Fields(line); len(words) > 1 && !slices.ContainsFunc(words, func(w string) bool {
			return !slices.ContainsFunc(append(generic, talk...), func(g string) bool { return w == g || w == g+"s" || w == g+"ing" || w == g+"ed" })
		}) {
			t.Errorf("line %d: %q is a phrase of programming talk, not a thing", i+1, line)
		}
	}
}

// TestUnknownThings: a question naming a thing memory never saw is told
// apart from one naming what memory holds, in its words or a synonym's,
// and from one whose unknown words are plain prose.
func TestUnknownThings(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("ReportWorker debounces its writes and calls LookupCache.fetch on every flush."),
		say("CheckerChannel wraps each join in a span and a metric."),
		say("EnrichLookups runs as an Oban job."),
		say("We render the transcript view with a theme switch and cache session lookups in ETS."),
		say("The hook ingestion endpoint validates its token; the mode is dark red on errors."),
		say("The build script checks the type of every checker report."),
		say("Run the build script from the shell."),
		say("The heatmap page draws the session lookups by hour."),
		say("The dashboard shows each live session."),
		say("Run mix ecto.migrate before the session lookups test; Lookup.fetch reads the cache."),
		say("The app.js bundle opens a socket to the endpoint; the checker actions push the report to github."),
		say("POST /api/hooks/session-end stops the lookups; the pre-commit check runs before the compaction."),
		say("The checker report has a priority."),
		say("The checker reports a BadMapError; its key error list is in lookup_at_start.ex."),
		say("We use Phoenix for the checker; mix format runs before the build script."),
		say("with_span/2 wraps the report in its own span; it was resolved at the build."),
		say("Set `@max_lookups 10` and `[:session, :lookup]` as its key."),
		say("The dashboard live view renders the checker report."),
		say("The build script failed: Could not resolve the report module."),
		say("The report tokens are kept with the session_id of each lookup."),
		say("The registry sweeps every 15s with a 90 second TTL; @debounce_ms 500 and :timer.minutes(2) for the report."),
		say("The report shows at most 40 lines; its pool size is 12, and it listens on port 4100."),
		say("The layout links priv/static/assets/report.css."),
		say("Dialyzer's docs show @dialyzer {:nowarn_function, lookup: 1} for a false warning."),
		say("The plan names a ReportEnd event for the checker."),
		say(`Added the "Open report" button to the dashboard.`),
		say("Moved the script to priv/scripts/build_report.sh; lib/report/checker_view.ex renders it."),
		bash("rm lib/report/old_report.ex", 0, ""),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "lib/report/lookup_parser.ex"},
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "deps/phoenix/lib/live_view.ex"},
		edit("lib/report/checker_view.ex", "+2 -0 def render(assigns) do\n@limit 20"),
		bash(`git commit -m "docs: note the build" -- docs/build_notes.md 2>&1 && git add docs/build_notes.md`, 0, ""),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "docs/build_notes.md"},
		say("The build sends its report to [REDACTED_EMAIL] on failure."),
		say("Do not keep the checker notes in markdown files."),
		say("The checker report is exported as CSV."),
		say("CheckerCache keeps the checker's results for the dashboard."),
		say("OpenTelemetry spans time the checker's build."),
		edit("lib/report/checker_view.ex", "+0 -2 -def handle_lookup(params) do\n-end"),
		say("The dashboard had no use for LookupTimer, so we removed the LookupTimer module."),
		say("ReportMailer sends the weekly digest."),
		say("DigestQueue keeps the pending digests."))...)
	m.l1("2026-02-12_1000_bbbb2222", false, append(filler(3),
		say("Summary of the session: ReportWorker was built first, with its tests, its supervisor and its configuration; "+
			"then came the dashboard's live view, the checker's lookups by hour, the session list and its filters, "+
			"the build script's checks, the report's layout and styles, the heatmap's colours, the error pages, the "+
			"settings screen and the docs, and at the end SummaryBuilder."))...)
	ix := m.open()
	wantUnknown(t, ix, []unknownCase{
		{"How did we set up the redis cache for session lookups?", []string{"redis"}},
		{"How did we implement the dark mode toggle for the transcript view?", []string{"dark mode"}},
		{"Why does dark mode for the transcript view look washed out?", []string{"dark mode"}},
		{"Which file do the two views screen share for their lookups?", nil},
		{"How did we add screen sharing to the transcript view?", []string{"screen sharing"}},
		{"How did we add rate limiting to the hook ingestion endpoint?", []string{"rate limiting"}},
		{"How did we implement pinning sessions to the top of the dashboard?", []string{"pinning sessions"}},
		{"Where is the flag that keeps a session pinned to the top?", []string{"pinned top"}},
		{"Where can we pin a checker note to the session lookups?", nil},
		{"Where do we cache session lookups?", nil},
		// Plain prose memory never saw is how questions in other words
		// are asked.
		{"Which little program validates the token, whatever it's called?", nil},
		// A capitalised name is Unknown's: named as a whole.
		{"Where is the Redis cache configured?", []string{"Redis"}},
		{"Why did we move the session lookups from ETS to MySQL?", []string{"MySQL"}},
		// An identifier is known by its words side by side (the session
		// lookups), not by its words apart: a rename that never happened
		// is not known for words memory holds elsewhere.
		{"What did the checker report in SessionLookups?", nil},
		{"Why did we rename the session lookups to LookupSessionCache?", []string{"LookupSessionCache"}},
		{"Why did we port the session lookups to TypeScript?", []string{"TypeScript"}},
		// A plain word that names a thing only in some uses.
		{"Why did we rewrite the transcript view in react?", []string{"react"}},
		{"How does the undo logic of the transcript view work?", []string{"undo"}},
		{"How does the transcript view react when a session lookup fails?", nil},
		{"How did we undo the theme switch?", nil},
		{"How did we let users undo deleting a session lookup?", []string{"undo"}},
		{"How did we implement undo for closed session lookups?", []string{"undo"}},
		{"How did we implement the reopen action for closed session lookups?", []string{"reopen"}},
		{"Why does the checker reopen the session lookups?", nil},
		// A test runner, a web framework or a database's command whose
		// name is a plain word.
		{"Which bats tests cover the build script?", []string{"bats"}},
		// A name of two words is seen written as one.
		{"Where is the heat map of session lookups drawn?", nil},
		{"When do we run vacuum on the session lookups?", []string{"vacuum"}},
		{"Where is the flask app that serves the transcript view?", []string{"flask"}},
		{"How did we package the build script with burrito?", []string{"burrito"}},
		{"Which tests cover the build script?", nil},
		{"Which checker report mentions bats?", nil},
		// A product is not seen through the plain words grouped with it
		// (eslint: check, style).
		{"Where did we configure eslint for the build script?", []string{"eslint"}},
		// An operating system's facility is a thing too: a question
		// about the inotify watcher of a project that never had one
		// matched a dependency's name in a build's output.
		{"What inotify watcher did we set up to pick up transcript view changes?", []string{"inotify"}},
		{"Why did the build fail with a 'Could not resolve' error on the endpoint?", nil},
		// An acronym of programming's words is judged as they are; a
		// letter is no name.
		{"Which CLI command checks every type checker report?", nil},
		{"Where does tail -F read the transcript view from?", nil},
		// A product named with a suffix is known only as itself; code
		// is known by its parts; a listed name in capitals is judged
		// whole.
		{"How did we wire Vue.js into the transcript view?", []string{"Vue.js"}},
		{"Why does the endpoint use Socket.IO for the report?", []string{"Socket.IO"}},
		{"What does app.js open at the endpoint?", nil},
		{"Where does main.ts open the endpoint?", []string{"main.ts"}},
		{"Does the build script run the checker and/or the shell?", nil},
		{"What's the TL;DR of the build script's checker report, FYI?", nil},
		{"Which GitHub Actions workflow runs the build script?", []string{"GitHub Actions"}},
		// A product's own camelCase spelling of a listed name (Phoenix
		// LiveDashboard) is that thing, though memory knows its words;
		// code made of them is not.
		{"Where is LiveDashboard mounted in the endpoint?", []string{"LiveDashboard"}},
		{"What does LiveSession show on the dashboard?", nil},
		// A listed name whose stems are a phrase of programming talk
		// ("function calling": the function called) is no name.
		{"The function I called to check the build script turned out not to exist. What replaced it?", nil},
		{"Which session recorded the status of the build script?", nil},
		// A command or a member is named by its last part: a product's
		// command memory never ran is unknown, though the product is known.
		{"When we ran mix ecto.rollback on the session lookups, what broke?", []string{"ecto.rollback"}},
		{"What did mix ecto.migrate print for the session lookups?", nil},
		{"Why does Lookup.fetch read the cache?", nil},
		{"Why does Lookup.evict_stale drop the cache?", []string{"Lookup.evict_stale"}},
		// A snake_case name is one identifier: known when memory holds
		// its words side by side, not merely its last.
		{"Which limit does lookup_report put on the endpoint?", []string{"lookup_report"}},
		{"What does build_script check?", nil},
		// So is a name in capitals joined by underscores, a listed thing
		// among its words or not, and a header's name; a capitalised
		// word hyphened to prose is prose.
		{"Is it GITHUB_SHELL or some flag that points the build script elsewhere?", []string{"GITHUB_SHELL"}},
		{"What does the X-Report-Shell header carry?", []string{"X-Report-Shell"}},
		{"What does the X-Session-Lookups header carry?", nil},
		{"Why was the ETS-cached lookup slow?", nil},
		// Words written with a sigil side by side are one piece of code.
		{"Which checker report tests did we mark @tag :skip?", []string{"@tag :skip"}},
		{"Which tests did we tag as :slow?", []string{"slow"}},
		// A word is a listed name's only when it is written as that name
		// or an inflection of it, not when it merely stems alike: "local"
		// is no locale, "embedded" no embedding, "authored" no
		// authorization, "guide" no guid.
		{"Which local folder does the build script write to?", nil},
		{"How is the checker report embedded in the dashboard?", nil},
		{"Who authored the build script?", nil},
		{"Is there a guide to the build script?", nil},
		{"How did we add localization to the transcript view?", []string{"localization"}},
		{"Which locales does the transcript view support?", []string{"locales"}},
		// The verb names what a listed doing does.
		{"Why did we encrypt the checker report?", []string{"encrypt"}},
		{"When did we start encrypting the session lookups?", []string{"encrypting"}},
		{"Why did we virtualize the checker report's rows?", []string{"virtualize"}},
		{"How did we shard the session lookups?", []string{"shard"}},
		// A practice of version control is a thing.
		{"When we rebased the build script's branch, what conflicted?", []string{"rebased"}},
		// So is an event of version control or release: what was
		// reverted, rolled back or downgraded, when memory never says so.
		{"Which commit reverted the theme switch?", []string{"reverted"}},
		{"Why did we roll back the session lookups?", []string{"roll back"}},
		{"When did we downgrade the heatmap page?", []string{"downgrade"}},
		{"Which flaky test did the build script skip?", []string{"flaky test"}},
		{"Where is the theme toggle of the transcript view?", []string{"theme toggle"}},
		// A path or a member is named by its last segment, whole: a
		// segment of several words needs them side by side, not merely
		// its last word.
		{"What does Lookup.purge_stale_lookups/1 do with the cache?", []string{"Lookup.purge_stale_lookups/1"}},
		{"What does Lookup.fetch/2 return?", nil},
		{"Which script posts to /api/hooks/pre-flight?", []string{"api/hooks/pre-flight"}},
		{"Which script posts to /api/hooks/session-end?", nil},
		// A word in backticks is code, however it is written.
		{"What caused the `eflood` crash in the build script?", []string{"eflood"}},
		{"What caused the crash (`zorbfile`) in the build script?", []string{"zorbfile"}},
		{"Why does the build script run `shell-report` first?", []string{"shell-report"}},
		{"Why does the build script run `pre-commit` first?", nil},
		// A word of code is written as it is, not seen through its
		// thesaurus group; in prose it may be.
		{"What values does the `urgency` field of the checker report take?", []string{"urgency"}},
		{"What is the urgency of the checker report?", nil},
		{"Which checker report did `mix shell-report --all` print?", []string{"shell-report"}},
		// A backtick left open, or a fence around pasted code, makes no
		// code of the words after it: a pasted snippet's local names are
		// no question about things.
		{"Why did `the build script fail on the zorblax step?", nil},
		{"Why does the build script fail here? ```\nlet zorblax = quux\n```", nil},
		// Words written as alternatives are words each; a compound's
		// first word counts when it is a listed thing.
		{"What ChromeDriver/Wallaby setup does the checker report need?", []string{"ChromeDriver/Wallaby"}},
		{"Why is the checker report green/red?", nil},
		// However many, unless memory holds a path opening as they do.
		{"Where do the shared report/lookup/session-hour markup pieces live?", nil},
		{"Where do the shared report/lookup/Zorblax markup pieces live?", []string{"report/lookup/Zorblax"}},
		{"Why is priv/static/zorblax in the layout?", []string{"priv/static/zorblax"}},
		// A file's path from a folder memory holds paths under is held
		// whole; a part of one is judged by its file's name.
		{"What does priv/static/assets/report.css style?", nil},
		{"What does priv/static/css/report.css style?", []string{"priv/static/css/report.css"}},
		{"What does static/assets/report.css style?", nil},
		{"Why is the checker report MessagePack-encoded?", []string{"MessagePack-encoded"}},
		{"Why is the checker report Haiku-styled?", nil},
		// A name memory knows, named with its kind, is that name: "the
		// Phoenix framework" is Phoenix, though "phoenix framework" is
		// a listed thing memory never holds side by side.
		{"How does the Phoenix framework's checker run?", nil},
		{"Which Sentry SDK reports the checker's errors?", []string{"Sentry", "SDK", "Sentry SDK"}},
		// A snake_case name of one word and a function word is known
		// only as written, or opening a name memory holds whole.
		{"Which migration added the resolved_at column to the report?", []string{"resolved_at"}},
		{"What does with_span do to the report?", nil},
		{"Where is lookup_at read?", []string{"lookup_at"}}, // lookup_at_start is another name
		// An exception's name is quoted as printed, not known by its
		// words in prose; so is one at the end of a member.
		{"What raised the KeyError in the checker report?", []string{"KeyError"}},
		{"What raised the BadMapError in the checker report?", nil},
		{"Why did Lookup.NoLookupError crash the report?", []string{"Lookup.NoLookupError"}},
		// A product the thesaurus groups with the words of what it does
		// (prettier: format) is not known through them.
		{"What Prettier config does the build script use?", []string{"Prettier"}},
		// Code quoted in several words is known as written, side by side.
		{"Why is it `@max_lookups 20`?", []string{"@max_lookups 20"}},
		{"Why is it `@max_lookups 10`?", nil},
		{"Why is the key `[:lookup, :session]` now?", []string{":lookup, :session"}},
		{"Why is the key `[:session, :lookup]`?", nil},
		// An atom or an attribute is known as written, not as the word
		// alone (memory holds checker, never :checker).
		{"Why is the key `[:session, :checker]` now?", []string{"checker"}},
		{"Why did we set the store to :checker?", []string{"checker"}},
		// A rename's new name is known only as written.
		{"Where does DashboardLive render the checker report?", nil},
		{"Why did we rename the checker report's view to DashboardLive?", []string{"DashboardLive"}},
		{"Why was `Lookup` renamed into `DashboardLive`?", []string{"DashboardLive"}},
		// So is one written with hyphens, ending its phrase; a word that
		// tells what kind of name is none.
		{"Why did we rename the checker folder to session-checker?", []string{"session-checker"}},
		{"Why did we rename the lookups to a session-checker style?", nil},
		// And so is what a swap, a switch or a replacement gave, and
		// what was chosen instead of something else.
		{"Why did we swap the session lookups out for ReportTokens?", []string{"ReportTokens"}},
		{"Where are the ReportTokens kept?", nil},
		{"Why did we keep the lookups in a SessionLookup table instead of ETS?", []string{"SessionLookup"}},
		// (Memory never tells of ETS dropped either: it holds session
		// lookups cached in ETS.)
		{"Why did we drop ETS in favor of a session_lookups registry?", []string{"session_lookups", "ETS removed"}},
		{"Where is the session_lookups registry?", nil},
		{"Why did we drop ETS in favor of the session lookups?", []string{"ETS removed"}},
		{"Why did we keep ReportWorker instead of the dashboard?", nil},
		{"Why did we switch the checker to SessionLookups?", []string{"SessionLookups"}},
		{"Where do SessionLookups come from?", nil},
		// An error quoted is quoted as printed: memory that saw it holds
		// its words side by side. Other quotes may be loose.
		{`Why did the build script fail with "could not resolve"?`, nil},
		{"Why did the build script fail with `could not resolve`?", nil},
		{`Why did the build script fail with "database disk image is malformed"?`, []string{"database disk image is malformed"}},
		{"Why did the build script fail with `the report module timed out`?", []string{"the report module timed out"}},
		{`Why does the checker report say "fresh lookups ready"?`, nil},
		{"Why did the build script fail with 'could not resolve' again?", nil},
		{"Why did the build script hit 'report stack size exceeded'? It couldn't go on.", []string{"report stack size exceeded"}},
		// A quote the question says was printed, a warning, is quoted
		// as printed whatever its words; an error's paraphrase in
		// quotes is judged by its words of failure.
		{"Why did the build script print the warning 'report module is deprecated here'?", []string{"report module is deprecated here"}},
		{"Why did the build script print 'Could not resolve the report module'?", nil},
		{"Why did the build die with an 'expected a lookup' error?", nil},
		// An error's message quoted whole, four words or more, is quoted
		// as printed.
		{"Why did the build die with a 'lookup table is gone' error?", []string{"lookup table is gone"}},
		{"How did we fix the 'report module deprecated here' failure?", []string{"report module deprecated here"}},
		{"How did we fix the 'checker report has a priority' failure?", nil},
		{"Why did the checker fail with 'lookup is not defined'?", []string{"lookup is not defined"}},
		// A test is named by what it checks, told loosely: its words
		// of failure are not output quoted as printed.
		{"why did the 'report twice, no duplicate lookups' test fail?", nil},
		{"why did test 'report twice, no duplicate lookups' fail?", nil},
		{"why did the build print 'report twice, no duplicate lookups'?", []string{"report twice, no duplicate lookups"}},
		{"Why couldn't the build script's 'report' step fail? It's the shell's.", nil},
		// A table or a column is named as the schema writes it, not by
		// its words in prose.
		{"Which migration created the report_tokens table?", []string{"report_tokens"}},
		{"What does the `session_id` column of the lookups hold?", nil},
		{"Where are the report_tokens kept?", nil},
		// A duration stated is one memory holds, however written.
		{"Why does the registry's TTL last 90 seconds?", nil},
		{"Why does the registry sweep every 15 seconds?", nil},
		{"Why is the report's debounce 500ms?", nil},
		{"Why a 2-minute wait for the report?", nil},
		{"Why did we raise the registry's TTL from 90 seconds to 5 minutes?", []string{"5 minutes"}},
		{"Why did we pick a 2-second debounce for the report?", []string{"2-second"}},
		// "500s" after "return" is statuses, not a duration: judged as
		// one, and this memory holds no status.
		{"Why does the endpoint return 500s?", []string{"HTTP 500"}},
		// And of what it times, when both say: the 15s is a sweep's,
		// the 90 seconds a TTL's; the 2 minutes, untold, may be a wait's.
		{"Why does the report's request use a 15-second timeout?", []string{"15-second"}},
		{"Why a 90-second debounce for the report?", []string{"90-second"}},
		{"Why is the sweep interval 15s?", nil},
		// So is a count: a number with what it counts, or the setting
		// given it.
		{"Why does the report show 40 lines?", nil},
		{"Why does the report show only 25 lines?", []string{"25 lines"}},
		{"Why does the report show 40 rows?", nil},
		// So is a count raised or lowered to a number.
		{"Why did we raise the number of lines the report shows before its expand button to 25?", []string{"25 lines"}},
		{"Why did we raise the report's visible lines to 40?", nil},
		{"Why did we pick 25 as the number of lines the report shows?", []string{"25 lines"}},
		{"Why did we pick 40 as the number of lines the report shows?", nil},
		{"Why did we move the report's lines to 25?", nil},
		{"Why does the report keep 40 sessions?", []string{"40 sessions"}},
		{"Why is the pool size 12?", nil},
		{"Why did we raise the pool size to 30?", []string{"size 30"}},
		{"Why does the report listen on port 4100?", nil},
		{"Why did we move the report to port 4200?", []string{"port 4200"}},
		{"Why is `@max_lookups` set to 10?", nil},
		{"Why is `@max_lookups` set to 20?", []string{"@max_lookups 20"}},
		{"What is at lookup_at_start.ex:25 and in 25 of them?", nil},
		// A number after "line" is a place in a file, no count.
		{"What was the `@max_lookups` warning in report.ex line 41 about?", nil},
		{"Why is `@max_lookups` set to 41?", []string{"@max_lookups 41"}},
		{"Why 7 lines?", nil},
		// A listed thing is one as written, not by its stem: author is
		// authorization's.
		{"Which checker fills in the author/report line?", nil},
		{"Which checker adds authorization/report checks?", []string{"authorization/report"}},
		{"What does RedisLookup.fetch return?", []string{"RedisLookup.fetch"}},
		// A label of the interface is quoted as it reads on screen; a
		// phrase in lower case is quoted loosely.
		{"What does the 'Open report' button do?", nil},
		{"Which route serves the 'Download report' button?", []string{"Download report"}},
		{"Which route serves the \"Report open\" button?", []string{"Report open"}},
		{"Where is the button to 'download the report'?", nil},
		// A word quoted alone is a word written: held in some form, or
		// never written; a stop word or code in backticks is not judged.
		{"Why did reports get a third 'dormant' state?", []string{"dormant"}},
		{"Why is the 'when' clause of the report slow?", nil},
		{"Why do reports show an 'opened' note?", nil},
		{"Why is a `when` clause in the report's lookup?", nil},
		// A move is held where memory holds the thing under its new
		// folder, not the folder and the thing apart.
		{"Why did we move build_report.sh into priv/scripts/?", nil},
		{"When build_report.sh got moved to lib/report/, what broke?", []string{"build_report.sh in lib/report/"}},
		{"Why was CheckerView moved under lib/report?", nil},
		{"Why did we move CheckerView into priv/scripts/?", []string{"CheckerView in priv/scripts/"}},
		// So is a thing said to be put, to live or to end up there.
		{"Why did we put build_report.sh in priv/scripts?", nil},
		{"Why does build_report.sh live under lib/report/?", []string{"build_report.sh in lib/report/"}},
		{"Why did build_report.sh end up under lib/report/?", []string{"build_report.sh in lib/report/"}},
		// A route is held by its path up to its first parameter.
		{"What does GET /api/hooks/session-end return?", nil},
		{"What does GET /api/lookups/:id/report return?", []string{"api/lookups/:id/report"}},
		// A proposal states what it proposes, which memory cannot hold
		// yet: its claims are not judged, its names are.
		{"Should we move build_report.sh into lib/report/?", nil},
		{"Can we show only 25 lines in the report?", nil},
		{"Can we cache the report in Redis with a 15-second timeout?", []string{"Redis"}},
		// A prompt that tells what happens now is no question about the
		// past.
		{"the report's request now fails after a 15-second timeout", nil},
		{`the build script now fails with "database disk image is malformed"`, nil},
		// A fenced paste is what the user sees now, whatever it says.
		{"Why does the report print this?\n```\nrequest failed after a 15-second timeout\n```", nil},
		{"remind me why the report's request has a 15-second timeout", []string{"15-second"}},
		// So is a file's deletion: its name beside a word of deleting.
		{"After we deleted checker_view.ex, where did its rendering go?", []string{"checker_view.ex deleted"}},
		{"Why did old_report.ex get removed?", nil},
		// A change to a file is held where memory holds an edit of it
		// or a command rewriting it, not where it was only read; a
		// module is its file, and a dependency's file is not judged.
		{"What did we change in lib/report/lookup_parser.ex for the report?", []string{"lib/report/lookup_parser.ex changed"}},
		{"What did we change in LookupParser so the report loads?", []string{"LookupParser changed"}},
		{"What did we change in checker_view.ex for the report?", nil},
		{"What did we change in build_report.sh for the report?", []string{"build_report.sh changed"}},
		{"Why did we refactor CheckerView?", nil},
		{"What did we add to docs/build_notes.md?", nil},
		{"In lib/report/lookup_parser.ex we added a clause; what does it log?", []string{"lib/report/lookup_parser.ex changed"}},
		{"In checker_view.ex we added a clause; what does it render?", nil},
		{"When LookupParser was switched over to the cache, what changed?", []string{"LookupParser changed"}},
		{"How did we switch LookupParser over to the cache?", []string{"LookupParser changed"}},
		{"Did anyone ever fix lookup_parser.ex for the report?", []string{"lookup_parser.ex changed"}},
		{"how did we extend lookup_parser.ex so it also tracks the last lookup?", []string{"lookup_parser.ex changed"}},
		{"When we reworked LookupParser, what did the report lose?", []string{"LookupParser changed"}},
		{"how did we extend checker_view.ex for the report?", nil},
		{"We added a catch-all clause for malformed lookup payloads in lib/report/lookup_parser.ex, right?", []string{"lib/report/lookup_parser.ex changed"}},
		{"Which tests did we add to LiveView for the report?", nil},
		// A setting is named a few words before its value, and a
		// frequency in words is a duration.
		{"Why did `@max_lookups` in Report end up at 20?", []string{"@max_lookups 20"}},
		{"Why did `@max_lookups` in Report end up at 10?", nil},
		{"Why does the registry sweep once a minute?", []string{"a minute"}},
		// Two parts of the code said to work together are held where
		// memory holds them in one record or a few lines apart.
		{"Why does ReportWorker call CheckerCache after each flush?", []string{"ReportWorker with CheckerCache"}},
		{"Where does ReportWorker call LookupCache.fetch?", nil},
		{"Do ReportWorker and CheckerCache share a supervisor?", nil},
		{"How does ReportWorker emit OpenTelemetry spans on each flush?", []string{"ReportWorker with OpenTelemetry", "ReportWorker with span"}},
		{"Why does ReportWorker write its results to CheckerCache?", []string{"ReportWorker with CheckerCache"}},
		{"How does ReportWorker clear out CheckerCache entries?", []string{"ReportWorker with CheckerCache"}},
		// One run as another over a third is held where the two are
		// named together.
		{"Why do we run ReportWorker as Oban jobs rather than tasks?", []string{"ReportWorker with Oban"}},
		{"Why do we run EnrichLookups as an Oban job rather than a Task?", nil},
		{"How does ReportWorker include CheckerCache results in its flush?", []string{"ReportWorker with CheckerCache"}},
		// A span is linked to what emits it, asked first or not.
		{"What span names does ReportWorker emit on each flush?", []string{"span with ReportWorker"}},
		{"what span name wraps each flush in ReportWorker?", []string{"span with ReportWorker"}},
		{"Which span does CheckerChannel emit on join?", nil},
		{"Why does CheckerChannel emit a metric on join?", nil},
		{"Which clause of ReportWorker picks up the CheckerCache broadcasts?", []string{"ReportWorker with CheckerCache"}},
		{"How does ReportWorker handle LookupCache.fetch errors?", nil},
		{"How does ReportWorker report its timing to LookupCache.fetch?", nil},
		// Not where two records side by side name one each, nor where
		// one long record names the two far apart.
		{"How does ReportMailer push to DigestQueue?", []string{"ReportMailer with DigestQueue"}},
		{"Where does ReportWorker enqueue CheckerCache jobs?", []string{"ReportWorker with CheckerCache"}},
		{"How does ReportWorker create OpenTelemetry spans?", []string{"ReportWorker with OpenTelemetry", "ReportWorker with span"}},
		{"Why does the ReportMailer test use plain DigestQueue instead of CheckerCache?", []string{"ReportMailer with DigestQueue"}},
		// What a name is used instead of is not said to be used.
		{"Why does ReportWorker use LookupCache.fetch instead of CheckerCache?", nil},
		{"How does ReportWorker use CheckerCache?", []string{"ReportWorker with CheckerCache"}},
		{"How does ReportWorker call SummaryBuilder?", []string{"ReportWorker with SummaryBuilder"}},
		{"When we moved ReportMailer onto the shared DigestQueue, what changed in its mount?", []string{"ReportMailer with DigestQueue"}},
		// A name said to be taken out is held where memory holds it
		// beside a word of removing, or in a line an edit took out.
		{"Why did we drop ReportWorker from the dashboard?", []string{"ReportWorker removed"}},
		{"when we ripped CheckerCache back out, what broke?", []string{"CheckerCache removed"}},
		{"Why did we decide to back CheckerCache out of the dashboard?", []string{"CheckerCache removed"}},
		{"Why did we pull ReportWorker out of the supervisor?", []string{"ReportWorker removed"}},
		{"When did we take CheckerCache over to the new dashboard?", nil},
		{"Where do we pull CheckerCache results for the dashboard?", nil},
		{"Why did we remove the LookupTimer from the dashboard?", nil},
		{"Why did we delete the handle_lookup we had written?", nil},
		{"Where does ReportWorker drop stale lookups?", nil},
		// What a question says was added to a file is held where an
		// edit of the file holds its words.
		{"Why did we add a reopen clause to checker_view.ex?", []string{"reopen added to checker_view.ex", "reopen"}},
		{"show me the :reopen clause we added to checker_view.ex", []string{"reopen", "reopen added to checker_view.ex"}},
		{"show me the @limit we added to checker_view.ex", nil},
		{"When we added the @limit to checker_view.ex, what was it?", nil},
		{"We added a render function to lib/report/checker_view.ex, right?", nil},
		// What was registered under an event is what was added, a
		// file's name among its words.
		{"Why did we register build_report.sh under the ReportEnd event in lib/report/checker_view.ex?", []string{"build_report.sh reportend added to lib/report/checker_view.ex"}},
		{"Which script did we register in checker_view.ex for the report?", nil},
		{"Why was build_report.sh wired to the ReportEnd event in lib/report/checker_view.ex?", []string{"reportend added to lib/report/checker_view.ex", "build_report.sh with ReportEnd"}},
		{"Why was build_report.sh wired to the render event in lib/report/checker_view.ex?", nil},
		{"build_report.sh — which report hook event is it registered under in checker_view.ex?", nil},
		// What a thing was switched to in a file was added to it.
		{"Why did we switch the lookup limit in checker_view.ex from the render over to the ReportEnd event?", []string{"reportend added to checker_view.ex"}},
		{"Why did we move the lookup limit from render to @limit in checker_view.ex?", nil},
		{"Why didn't we move the lookup limit from render to ReportEnd in checker_view.ex?", nil},
		{"Why did we move the lookup limit from render to ReportEnd, then look in checker_view.ex?", nil},
		// A module is its file, and what the addition was for is
		// named in it too.
		{"What render clause did we add to CheckerView for the old_report links?", []string{"render old_report added to CheckerView"}},
		{"What render clause did we add to CheckerView for the handle_lookup calls?", nil},
		// So is what a fix was made with.
		{"We silenced the lookup warning with @dialyzer {:nowarn_function, ...} in checker_view.ex, right?", []string{"dialyzer nowarn_function added to checker_view.ex"}},
		{"The lookup warning in checker_view.ex — we fixed it with a nowarn attribute, right?", []string{"nowarn added to checker_view.ex"}},
		{"The lookup warning in checker_view.ex — we fixed it with the @limit, right?", nil},
		{"we fixed the lookups with a limit in checker_view.ex?", nil},
		// "With" of another verb, the one not taken, is not the fix's.
		{"In checker_view.ex, why did we fix the lookups instead of committing with a nowarn attribute?", nil},
		// A module told in its words is its file; a command said to be
		// run is held where memory holds its program and subcommand
		// side by side.
		{"What did we change in the lookup parser for the report?", []string{"lookup parser changed"}},
		{"What did we change in the checker view for the report?", nil},
		{"When we ran mix xref graph on the report, what did it show?", []string{"mix xref"}},
		{"When we ran mix ecto.migrate before the lookups test, what failed?", nil},
		// A program's subcommand says it ran, with no verb of running;
		// "git" in prose is followed by none.
		{"What PR number did gh pr create give back for the report?", []string{"PR", "gh pr"}},
		{"What did git stash keep of the report?", []string{"git stash"}},
		{"What message did git commit get for the build notes?", nil},
		{"Why did git refuse the report?", nil},
		// After a determiner the subcommand is a noun, a thing of the
		// program's: no run of it.
		{"What's the git remote the report is pushed to?", nil},
		{"What did git remote print for the report?", []string{"git remote"}},
		{"Why did I ask you to squash the report commits into one?", []string{"squash the report commits into one said by the user", "squash"}},
		{"Which migration blew up on the staging box?", []string{"staging box"}},
		// A redaction mark's words are no mention: memory never told of
		// an email.
		{"Does the build send an email on failure?", []string{"email"}},
		// A file is named as written, whole or at the end of a path.
		{"What does lookup_at_start.ex hold?", nil},
		{"Which layout links report.css?", nil},
		{"Why did we split report.css into lookup.css and checker.css?", []string{"lookup.css", "checker.css"}},
		// A thing exported as a format is held where memory holds the
		// format with the exporting, not the format alone.
		{"How did we build the button that exports the checker notes as a markdown file?", []string{"markdown export"}},
		{"Where do we let users download the checker notes as markdown?", []string{"markdown download"}},
		{"Which module exports the checker report as CSV?", nil},
		{"Which checker notes are kept in markdown files?", nil},
		{"Which exporter writes the checker notes as markdown?", nil},
		// Saved or dumped, the format is said of a file.
		{"How does the button that saves the checker notes out to a markdown file work?", []string{"markdown save"}},
		{"Where do we dump the checker notes into a markdown file?", []string{"markdown dump"}},
		{"Which module saves the checker report as CSV?", nil},
		{"Why did we save the checker notes as markdown?", nil},
	})
}

// TestChangeOfAFileNamedByACommonWord: a file whose name and extension
// hundreds of records hold (report, ex) is judged by its path as
// written, which memory's tool records name whole.
func TestChangeOfAFileNamedByACommonWord(t *testing.T) {
	m := newMemory(t)
	recs := filler(3)
	for i := range 140 {
		recs = append(recs, say(fmt.Sprintf("The checker report %d lists the session lookups of lib/checker/part%d.ex.", i, i)))
	}
	recs = append(recs, map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Read", "file": "lib/checker/report.ex"},
		edit("lib/checker/lookup.ex", "+1 -0 def report(lookups), do: lookups"))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	wantUnknown(t, m.open(), []unknownCase{
		{"What did we add to lib/checker/report.ex for the lookups?", []string{"lib/checker/report.ex changed"}},
		{"What did we add to lib/checker/lookup.ex for the report?", nil},
	})
}

// TestConnectionWithACommonName: two parts of the code said to work
// together, one of them named in hundreds of records, are judged by the
// records of the other.
func TestConnectionWithACommonName(t *testing.T) {
	m := newMemory(t)
	recs := filler(3)
	for i := range 140 {
		recs = append(recs, say(fmt.Sprintf("ReportRenderer draws row %d of the checker report.", i)))
	}
	recs = append(recs, say("ContextBuilder formats the open notes as one string."),
		say("DigestQueue hands each digest through ReportRenderer before it is sent."),
		say("ReportArchive writes each finished report to SQLite."),
		say("ContextRegistry keeps the open notes in ETS."))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How does ContextRegistry persist the open notes to SQLite across restarts?", []string{"ContextRegistry with SQLite"}},
		{"How does ReportArchive persist the finished reports to SQLite?", nil},
		{"How does ContextBuilder run the notes through ReportRenderer?", []string{"ContextBuilder with ReportRenderer"}},
		{"How does DigestQueue pass the digests through ReportRenderer?", nil},
		{"How does ContextBuilder format the open notes?", nil},
	})
}

// TestSwitches: a question saying something went from one thing to
// another is held where memory names the two in one record; a name
// written as code by its sigil is judged as written.
func TestSwitches(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The report tokens stay in ETS, minted per request."),
		say("SQLite resets the checker's tables when the lookups run."),
		say("We moved the lookup cache from ETS to Postgres, since it must survive a restart."),
		edit("lib/report/checker.ex", "+1 -0 update :close, accept: []"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we move the report tokens from ETS into a SQLite table?", []string{"ETS with SQLite"}},
		{"When did we move the report tokens out of ETS and into SQLite?", []string{"ETS with SQLite"}},
		{"Why did we change the report tokens to live in SQLite instead of ETS?", []string{"ETS with SQLite"}},
		{"Why did we move the report tokens off ETS and into a SQLite-backed resource?", []string{"ETS with SQLite"}},
		{"Why did we move the lookup cache off ETS onto Postgres?", nil},
		{"How do we switch off ETS for the checker?", nil},
		{"Why did we persist the report tokens to SQLite instead of keeping them in ETS?", []string{"ETS with SQLite"}},
		{"Why do we keep the lookup cache in Postgres instead of ETS?", nil},
		{"Why does the checker use SQLite instead of ETS?", nil},
		{"Why did we swap ETS for SQLite?", []string{"ETS with SQLite"}},
		{"Why did we move the lookup cache from ETS to Postgres?", nil},
		{"Why did we swap ETS for Postgres in the lookup cache?", nil},
		{"Why is the lookup cache in Postgres rather than ETS?", nil},
		{"When did we add a :reopen action to the checker?", []string{"reopen"}},
		{"Where is the :close action of the checker?", nil},
		// An atom in backticks is written with its sigil all the same.
		{"Why was the `:close` action of the checker renamed to `:report`?", []string{"report"}},
		{"Where is the `:close` action of the checker?", nil},
	})
}

// TestRemovalsOfToolsAndPushes: a tool or a library said to be taken out
// is held where memory holds it beside a word of removing, however many
// records name it, and a Write's bullet is no line taken out; a branch
// said to be pushed is held where a record of the push names it.
func TestRemovalsOfToolsAndPushes(t *testing.T) {
	m := newMemory(t)
	recs := filler(3)
	for i := range 140 {
		recs = append(recs, say(fmt.Sprintf("credo flagged line %d of ReportLive on feature-b2.", i)))
	}
	recs = append(recs,
		say("We removed sobelow from the checks, since it flagged nothing."),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Write", "file": "README.md", "diff": "+2 -0 ## Checks\n- **dialyzer** for type checking"},
		edit("lib/report_live.ex", "+0 -2 -def handle_lookup(x), do: x"),
		bash("git push --set-upstream origin feature-a1 2>&1", 0, "branch 'feature-a1' set up to track 'origin/feature-a1'."),
		bash(`git commit -m "feat: lookup caching (feature-a1.2)"`, 0, ""),
		say("Listing: feature-b2 adds the checker tracing"),
		say("The lookup table already exists when the test restarts it, so each test names its own."))
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we drop credo from the checks?", []string{"credo removed"}},
		{"why'd we take credo --strict out of the checks", []string{"credo removed"}},
		{"Why did we drop sobelow from the checks?", nil},
		{"When did we drop dialyzer from the checks?", []string{"dialyzer removed"}},
		{"Why was the handle_lookup removed from ReportLive?", nil},
		{"What did git print when we pushed the feature-a1 branch?", nil},
		{"What did git print when we pushed the feature-b2 branch?", []string{"git push with feature-b2"}},
		// A branch told by its work is one pushed on a line with its words.
		{"What did git print when we pushed the lookup caching branch?", nil},
		{"What did git print when we pushed the checker tracing branch?", []string{"checker tracing branch pushed"}},
		// Told the other way round: the branch was pushed. Memory never
		// names a pull request, nor a PR.
		{"What pull-request link did git print when the checker tracing branch was pushed?", []string{"checker tracing branch pushed", "pull request"}},
		{"What did git print when feature-b2 was pushed?", []string{"git push with feature-b2"}},
		{"What did git print when feature-a1 got pushed?", nil},
		{"which remote branch did the feature-b2 lookup commits get pushed to?", []string{"git push with feature-b2"}},
		{"did the feature-a1 lookup commits get pushed?", nil},
		{"What did git print when the lookup caching branch was pushed?", nil},
		{"Why did the first push of each new worktree branch fail?", nil},
		{"In which sessions did pushing fail because the branch had no upstream?", nil},
		{"How did we fix the 'table already exists' crash in the lookups?", nil},
		{"How did we fix the 'index already exists' crash in the lookups?", []string{"index already exists"}},
	})
}

// TestPathsAndModulePaths: a path is known by the file it ends in, not
// its folders; a module's path of plain words, or a module's function,
// by its words side by side; a script said to source another, or a
// module to subscribe to a topic, is held where memory holds them
// together.
func TestPathsAndModulePaths(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		edit("assets/js/app.js", "+3 -0 Hooks.ReportSelection = {"),
		say("Spotter.Report.Session keeps one row per lookup."),
		say("The supervisor restarts the lookup task when it dies."),
		edit("scripts/report_start.sh", "+2 -0 source \"$(dirname \"$0\")/lib/trace_ctx.sh\""),
		edit("scripts/report_end.sh", "+1 -0 curl -s -X POST \"$URL\""),
		say("lib/trace_ctx.sh builds the traceparent header."),
		say("The report test calls Sandbox.checkout before each case."),
		say("ReportLive subscribes to report_topic:<id> on mount."),
		say("DigestQueue keeps the digests."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Which commit moved the ReportSelection hook into assets/js/hooks/report_selection.js?", []string{"assets/js/hooks/report_selection.js"}},
		{"What does the ReportSelection hook in assets/js/app.js do?", nil},
		{"Why did we replace the lookup task with a plain Task.Supervisor?", []string{"Task.Supervisor"}},
		{"What does Report.Session keep?", nil},
		{"Why does scripts/report_start.sh source lib/trace_ctx.sh?", nil},
		{"Why does scripts/report_end.sh source lib/trace_ctx.sh?", []string{"scripts/report_end.sh with lib/trace_ctx.sh"}},
		// A module's function is known by the two side by side, not by
		// its plain word.
		{"Where did the report test call Sandbox.allow/3?", []string{"Sandbox.allow/3"}},
		{"Where did the report test call Sandbox.checkout/1?", nil},
		{"We fixed the report test with Sandbox.allow on the view's pid, right?", []string{"Sandbox.allow"}},
		{"Where does Ecto.Adapters.SQL.Sandbox.checkout run in the report test?", nil},
		{"Which module does Application.start call first?", nil},
		// A topic is named with its parameter.
		{"How does ReportLive subscribe to report_topic:<id>?", nil},
		{"How does DigestQueue subscribe to report_topic:<id>?", []string{"DigestQueue with report_topic"}},
	})
}

// TestFlagsForWork: a command said to run with a flag for a branch or a
// bead is held where a session naming the work ran a command with the
// flag (the command's, when the question names it), not where the flag
// is only told of.
func TestFlagsForWork(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Working on report-ab1: the lookups."),
		bash("git commit --no-verify -m 'feat: lookups for the report and …", 1, "Pre-commit validation failed"),
		bash("mix compile --force 2>&1", 0, "Compiling 12 files (.ex)"),
		edit("priv/static/report.css", "+2 -0 --report-bg: #f8fafc; .report { background: var(--report-row); }"))...)
	m.l1("2026-02-12_1000_bbbb2222", false, append(filler(5),
		say("Working on report-cd2. The hook blocks; use --no-verify to skip it, or fix the checks."),
		bash("git commit -m 'feat: digests (report-cd2)'", 0, "[report-cd2 1a2b3c4] feat: digests"))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we end up committing report-cd2 with --no-verify?", []string{"report-cd2 with --no-verify"}},
		{"Why did the report-ab1 commit with --no-verify still fail?", nil},
		{"Which commits needed --no-verify?", nil},
		{"Why did we push report-ab1 with --frobnicate?", []string{"report-ab1 with --frobnicate"}},
		// A stylesheet's custom property, declared or used, is no flag.
		{"Which stylesheet defines the --report-bg token in report-ab1?", nil},
		{"Where is the --report-row colour used in report-ab1?", nil},
		// A flag denied is no claim that it ran (fresh71's "why did we
		// fix those files instead of committing with --no-verify"), but
		// a denial in another sentence says nothing of it.
		{"On report-cd2 the hook choked. Why did we fix the checks instead of committing with --no-verify?", nil},
		{"Why didn't we commit report-cd2 with --no-verify?", nil},
		{"Why didn't we just commit the whole report-cd2 work with --no-verify?", nil},
		{"Never again. Committed report-cd2 with --no-verify, why?", []string{"report-cd2 with --no-verify"}},
		{"We never liked skipping hooks. Why did we commit report-cd2 with --no-verify?", []string{"report-cd2 with --no-verify"}},
		// A flag after its command is that command's.
		{"Why did report-ab1 need mix compile --force?", nil},
		{"What got overwritten when we did git push --force on report-ab1?", []string{"git push", "report-ab1 with --force"}},
		// A flag of no work is judged over all memory by the verb of
		// git's before it; a flag asked for, or quoted in a command
		// whole, is not judged here.
		{"Why did we have to push --force after amending?", []string{"push with --force"}},
		{"Why was the branch pushed with --force?", []string{"push with --force"}},
		{"why did the commit go through with --no-verify?", nil},
		{"why did we decide to push with --force-with-lease?", []string{"push with --force-with-lease"}},
		{"was it safe to push with --force there?", nil},
		{"Why did pushing fail. Was --force needed?", nil},
		{"Why did we commit the lookups --amend?", []string{"commit with --amend"}},
		{"Why did we commit the lookups of the report --amend?", nil},
	})
}

// TestToolRunsAndThemeSwitches: a tool said to run, or to flag
// something, is held where a command or its output names it, not where
// prose or a web search does; alternatives that together are a listed
// thing ("light/dark", "between light and dark") name it; a page said to
// show a module's data is linked to it.
func TestToolRunsAndThemeSwitches(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "WebSearch", "arg": "sobelow install phoenix", "res": "Web search results"},
		say("Sobelow is a security scanner we could add later."),
		bash("git commit -m 'report'", 1, "Pre-commit validation failed: [CREDO] 2 issues"),
		say("The report page uses a light theme with dark code blocks."),
		say("ReportListLive renders the lookups."),
		say("DigestQueue keeps the digests."),
		bash(`bd create --title="Audit the deps" --description="Runs mix deps.audit in the hook"`, 0, "✓ Created issue: report-x1"),
		bash("mix ecto.migrate 2>&1", 0, "[info] Migrations already up"))...)
	wantUnknown(t, m.open(), []unknownCase{
		// A mix task ran where a command runs it, not where one only
		// names it.
		{"what did mix deps.audit flag?", []string{"mix deps.audit run"}},
		{"what did mix ecto.migrate warn about?", nil},
		// So is a subcommand of the beads tracker, with no verb of
		// running.
		{"why did we have to bd reopen report-x1?", []string{"bd reopen"}},
		{"what did bd create print for the audit?", nil},
		{"What did the Sobelow security scan flag in the report?", []string{"Sobelow run"}},
		{"Did we ever run sobelow on the report?", []string{"sobelow run"}},
		{"Why did we look up sobelow?", nil},
		{"What did credo complain about in the report commit?", nil},
		{"When did we add a light/dark switch to the report page?", []string{"light/dark"}},
		{"Did we ever let users flip the report page between light and dark colours?", []string{"light dark", "flip report page"}},
		{"Which colours do the light theme and the dark code blocks use?", nil},
		{"How does the report list page show the digests from DigestQueue?", []string{"report list with DigestQueue"}},
		{"How does the report list page show the lookups?", nil},
	})
}

// TestFailureWithAnError: a part of the code said to fail with an error
// is held where memory holds the two together.
func TestFailureWithAnError(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash("mix test test/report_live_test.exs", 1, "** (ArgumentError) expected selector \".badge\" to return a single element"),
		say("ReportWorker keeps its lookups in ETS."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did ReportWorker crash with an ArgumentError on restart?", []string{"ReportWorker with ArgumentError"}},
		{"Why did the ReportLive test fail with an ArgumentError?", nil},
		{"Why did ReportWorker fail the ReportLive test?", nil},
	})
}

// TestConnectionsToldInWords: a module told in its words is judged as
// its name: words whose join is the name, or, said of a page, begins it.
func TestConnectionsToldInWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("ReportWorker debounces its writes and calls LookupCache.fetch on every flush."),
		say("DigestQueue keeps the pending digests."),
		say("UserSettingsLive renders the settings form and subscribes to digest_topic."),
		say("The hookEventName field says which event fired."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How does the report worker call DigestQueue?", []string{"report worker with DigestQueue"}},
		{"How does the report worker call LookupCache.fetch?", nil},
		{"How does the user settings page subscribe to digest_topic?", nil},
		{"How does the user settings page call DigestQueue?", []string{"user settings with DigestQueue"}},
		// A verb's -s form is one after its subject, a noun after
		// another word.
		{"How did ReportWorker change the tool calls for DigestQueue?", nil},
		{"Since when does ReportWorker say it calls DigestQueue?", []string{"ReportWorker with DigestQueue"}},
		// The name of one told of many.
		{"How do the report workers call DigestQueue?", []string{"report workers with DigestQueue"}},
		{"How do the report workers call LookupCache.fetch?", nil},
		// Words that only begin a name are it only said of a page.
		{"Which hook event calls DigestQueue?", nil},
	})
}

// TestEventsSeenInOtherWords: an event of version control is seen where
// memory tells of it in another word of its kind, of one word or two.
func TestEventsSeenInOtherWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The heatmap page broke the checker report, so I reverted it."))...)
	ix := m.open()
	wantUnknown(t, ix, []unknownCase{
		{"Which commit reverted the heatmap page?", nil},
		{"Why did we roll back the heatmap page?", nil},
		{"When did we do a rollback of the heatmap page?", nil},
		{"Which flaky test did the heatmap page break?", []string{"flaky test"}},
	})
}

// unknownCase is a question and the names Unknown should give for it.
type unknownCase struct {
	q    string
	want []string
}

// wantUnknown checks the names Unknown gives for each question.
func wantUnknown(t *testing.T, ix *Index, cases []unknownCase) {
	t.Helper()
	for _, c := range cases {
		if got := ix.Unknown(c.q); !slices.Equal(got, c.want) {
			t.Errorf("Unknown(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// TestIsThing: every name of things.stems is found by its binary search,
// and neither a part of one nor a name run on.
func TestIsThing(t *testing.T) {
	n := 0
	for line := range strings.SplitSeq(strings.TrimSuffix(thingsStems, "\n"), "\n") {
		line, _, _ = strings.Cut(line, "\t")
		n++
		if !isThing(line) {
			t.Errorf("isThing(%q) = false", line)
		}
		if len(line) > 3 && !strings.Contains(thingsStems, "\n"+line[:len(line)-1]+"\t") && isThing(line[:len(line)-1]) {
			t.Errorf("isThing(%q) = true for a part of %q", line[:len(line)-1], line)
		}
		if isThing(line + "zz") {
			t.Errorf("isThing(%q) = true", line+"zz")
		}
	}
	if n < 2000 {
		t.Errorf("%d names in things.stems, want the list of about 2,200", n)
	}
}

// TestUnknownJudgesAPastedListingInBoundedTime: a prompt that pastes a
// listing of names is no question about them; the prompt hook judges its
// first maxJudged names, and a name written again once.
func TestUnknownJudgesAPastedListingInBoundedTime(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5), say("The session lookups are cached."))...)
	ix := m.open()
	var b strings.Builder
	for i := range 3 * maxJudged {
		fmt.Fprintf(&b, "Lookup.purge_stale_%d/1 Zorblax Zorblax ", i)
	}
	got := ix.Unknown(b.String())
	if len(got) != maxJudged {
		t.Errorf("Unknown judged %d names of a listing of %d, want the first %d", len(got), 3*maxJudged+1, maxJudged)
	}
	if n := slices.Index(got, "Zorblax"); n != 1 || slices.Index(got[n+1:], "Zorblax") >= 0 {
		t.Errorf("a name written again: %q", got[:min(4, len(got))])
	}
}

// TestSearchedForAndFeatureVerbs: a name memory holds only as what a
// search looked for was never seen (one printed by the search, or opening
// a longer name memory holds, was); a feature verb names its feature in
// whatever form, a plain word that names a tool after its use without its
// everyday thesaurus group; a search's tally, a range of lines or a word of
// the count's group a sentence away holds no count.
func TestSearchedForAndFeatureVerbs(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash(`grep -n "ignore_warnings\|dialyzer" mix.exs`, 0, `89:      quality: ["credo", "dialyzer"]`),
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "Grep", "pat": "skip_lookup", "res": "No matches found"},
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "Grep", "pat": "css|esbuild|tailwind", "res": "No matches found"},
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "Grep", "pat": "ReportViewTest", "res": "No matches found"},
		bash(`rg -n "report_cache" lib`, 0, "lib/report.ex:4: @report_cache :report_cache"),
		bash(`grep -rn "pane_list" lib | head`, 0, "lib/pane_list_live.ex:1"),
		bash(`find assets/css -name "*.css"`, 1, "find: ‘/home/u/report/assets/css’: No such file or directory"),
		bash(`find priv/static/css priv/static/old -name "*.css"`, 1, "priv/static/css/report.css\nfind: ‘priv/static/old’: No such file or directory"),
		say("The report page lists open notes; a note can be closed with the close action."),
		say("Added a retry_count column to the report."),
		map[string]any{"ts": "2026-02-11T10:00:04Z", "k": "tool", "tool": "Grep", "pat": "visible", "res": "20 lines"},
		say("highlightCode (lines 20-27) colours the blocks."),
		say("The sync takes the 20 most recent sessions per directory, its main entry points."),
		say("Long results now show 10 lines before the expand control."),
		say("Now let me add tests to report_view_test.exs and also check if there's a report_list_test.exs."),
		say("Let me see whether report_rows_test.exs covers the rows. It does: report_rows_test.exs has three cases."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How did adding ignore_warnings to mix.exs silence dialyzer?", []string{"ignore_warnings"}},
		// Or as what the agent said it would look for.
		{"What does report_list_test.exs check?", []string{"report_list_test.exs"}},
		{"What does report_view_test.exs check?", nil},
		{"What does report_rows_test.exs check?", nil},
		{"Where do we call skip_lookup in the report?", []string{"skip_lookup"}},
		// So is a listed thing, however written; a name of the
		// project's code searched for is the code searched.
		{"which tailwind classes colour the report rows?", []string{"tailwind"}},
		{"Where did we put the Tailwind classes for the report?", []string{"Tailwind"}},
		{"Which report test imports ReportViewTest?", nil},
		{"Where is report_cache set?", nil},
		// A search that says the path it was given is not there never
		// saw it; one that listed it did.
		{"Which file under assets/css/ styles the report rows?", []string{"assets/css"}},
		{"Which file under priv/static/css/ styles the report rows?", nil},
		{"Which module is pane_list_live?", nil},
		{"How do I reopen a note after it was closed on the report page?", []string{"reopen"}},
		{"How did we implement reopening closed notes?", []string{"reopening"}},
		{"How is retry_count shown on the report page?", nil},
		{"How are notes closed on the report page?", nil},
		{"remind me how reopening a closed note works on the report page", []string{"reopening"}},
		{"Why do long results collapse after 20 visible lines?", []string{"20 visible lines"}},
		{"Why do long results show 10 lines before the expand control?", nil},
		{"Why do long results show 10 entries before the expand control?", nil},
		{"Did we run prettier over the report page?", []string{"prettier"}},
		{"The report page looks prettier now; which notes did we close?", nil},
		{"Which formatter did we run over the report?", nil},
	})
}

// TestStorageChosen: a place a question says something was chosen to be
// kept in, over another, is held where memory writes its words side by
// side as written, not apart nor with a word between.
func TestStorageChosen(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		edit("lib/report/lookup_ref.ex", "+4 -0 sqlite do\ntable \"lookup_refs\""),
		say("The lookups are kept in an ETS table; the refs have a JSON column for their options."),
		say("We store each ref as a row in its own table, with an array of ids."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we store the lookup ids as a JSON array column on reports instead of a separate table?", []string{"json array column stored in"}},
		{"Why did we persist the lookups in a SQLite table instead of keeping them in memory?", []string{"sqlite table stored in"}},
		{"Why do we keep the lookups in an ETS table rather than in the database?", nil},
		{"Why do the refs keep their options as a JSON column instead of fields of their own?", nil},
		{"Why do we keep the lookups in memory instead of saving them in the database?", nil},
		{"Where do we store the lookups as a JSON array column?", nil},
	})
}

// TestChangeToPlainWordsNeverWritten: a way of doing (polling) a change
// is said to have given that memory never writes in any form tells of a
// change that never happened; one memory writes, or another word of the
// result, does not.
func TestChangeToPlainWordsNeverWritten(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The report worker follows the file with tail -F through a port."),
		say("The renderer now emits the database row id for each line, streamed to the page."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we switch the report worker from tail -F over to polling?", []string{"polling"}},
		{"Why did we swap the port out for a polling adapter?", []string{"polling"}},
		{"Why did we switch the renderer to emit the database row id?", nil},
		{"Why did we switch the report worker to a port?", nil},
		{"How does the report worker poll the file?", nil},
		{"Why did we switch the renderer to streaming?", nil},
		{"The script turned out to be missing; what did we switch it to?", nil},
	})
}

// TestErrorsToldInWords: an error a question tells in words, its verb and
// the name it failed on, is held where output printed them side by side,
// not where memory names the thing elsewhere.
func TestErrorsToldInWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The esbuild bundler builds assets/js."),
		bash("node assets/build.js", 1, `✘ [ERROR] Could not resolve "js/report.js"`),
		edit("assets/js/report.js", `+1 -0 import core from "charts.js/lib/core"`))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"why couldn't esbuild resolve js/report.js?", nil},
		{"node assets/build.js failed: could not resolve `js/report.js`. What was wrong?", nil},
		{"esbuild couldn't resolve `charts.js/lib/core` after the install; what did we change?", []string{"resolve charts.js/lib/core"}},
		{"Why was the bundler unable to load charts.js/lib/core?", []string{"load charts.js/lib/core"}},
		{"what couldn't the bundler resolve?", nil},
	})
}

// TestErrorsNamedByTheirWords: an error named by its words hyphenated
// into one, before a word of failure or after "rejected as", is held
// where memory holds those words side by side.
func TestErrorsNamedByTheirWords(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash("git push", 128, "fatal: The current branch report-ab1 has no upstream branch."),
		bash("mix phx.server", 1, "** (RuntimeError) could not start: address already in use"),
		say("The report view is a one-off, hand-written page."),
		say("Non-blocking pushes are fast and go forward."),
		say("The port was set in config; it was already used by the report."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"When we pushed report-ab1, why did git reject it as non-fast-forward?", []string{"non fast forward"}},
		{"When we pushed report-ab1, why was it refused as non-fast-forward?", []string{"non fast forward"}},
		{"Why was the report-ab1 push a non-fast-forward?", nil},
		{"what did the port-already-in-use error say?", []string{"port already in use"}},
		{"what did the port-already-in-use, error say?", nil},
		{"why did the report see a port-used error?", nil},
		{"what did the no-upstream-branch error say when we pushed report-ab1?", nil},
		{"what did the address-already-in-use error say?", nil},
		// A quoted crash is held by the exception it names, whose
		// message memory may have cut; one memory never holds is not.
		{"What caused `** (RuntimeError) could not bind the port twice` in the report?", nil},
		{"What caused `** (ArgumentError) could not bind the port twice` in the report?", []string{"ArgumentError"}},
		// A quote that leaves text out is held part by part.
		{`"RuntimeError ... address already in use" on the report, why?`, nil},
		{`"RuntimeError … address already in use" on the report, why?`, nil},
		{`"RuntimeError … port bound twice" on the report, why?`, []string{"RuntimeError … port bound twice"}},
		// Words run together that tell no failure are not judged.
		{"why is the report view a one-off-hand-written page?", nil},
		{"why was the no-upstream-branch push a problem?", nil},
		{"why was the port-already-used setup slow?", nil},
	})
	ix := m.open()
	if !ix.holdsException("** (RuntimeError) anything") || ix.holdsException("** (ArgumentError) anything") || ix.holdsException("could not start") {
		t.Error("holdsException: held is the exception memory holds, named in parentheses, and no other")
	}
}

// TestWorkPriorities: a bead's priority is held where the command that
// filed it or a listing of it gives that priority; a bead memory never
// gives a priority is not judged.
func TestWorkPriorities(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash(`bd create --title="lookups drop the report ids" --type=bug --priority=3`, 0, "✓ Created issue: report-abc.5"),
		bash("bd list --status=open", 0, "○ report-abc.6 · Add lookup docs and a runbook for the report [● P1 · OPEN]"),
		say("Closed report-abc.7 after the lookups passed."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why was report-abc.5 filed as a P1 bug?", []string{"report-abc.5 at P1"}},
		{"why was report-abc.5 filed at priority 3?", nil},
		{"why is report-abc.6 a P1?", nil},
		{"why is report-abc.6 at priority-2?", []string{"report-abc.6 at P2"}},
		{"why was report-abc.7 a P1?", nil},
	})
}

// TestEnvironmentVariables: a question asking which environment variable
// sets something of a named part of the code is held where a record that
// names the part holds a variable near it, or opens with it (the file's
// own edit); a part memory names only apart from any variable never had
// one, and a question naming no part is not judged.
func TestEnvironmentVariables(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		edit("lib/report/token_store.ex", "+30 -0 defmodule Report.TokenStore do\n@ttl_seconds 120\ndef put(token), do: :ets.insert(@table, {token, now()})"),
		edit("lib/report/otel.ex", "+20 -0 defmodule Report.Otel do\n"+strings.Repeat("# setup step\n", 30)+`if System.get_env("REPORT_OTEL_ENABLED", "true") == "false" do`),
		say("The LookupWorker reads REPORT_LOOKUP_LIMIT at start, 50 by default."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Which env var overrides the 120 second TTL in TokenStore?", []string{"an environment variable of TokenStore"}},
		{"what environment variable turns off the tracing set up in otel.ex?", nil},
		{"which env var caps the LookupWorker's lookups?", nil},
		{"which environment variable tunes how long the report tokens live?", nil},
		{"what does TokenStore keep its tokens in?", nil},
	})
}

// TestWorkAbout: what a question says a bead was about is held where the
// command that filed it names it, or near the bead elsewhere; a module or
// a field memory never names with the bead was not what it was about.
func TestWorkAbout(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash(`bd create --title="load_lookups drops report_id, breaking the report links" --type=bug --description="ReportLive.load_lookups/1 maps rows into plain maps but omits the report_id field.`+strings.Repeat(" The links then point nowhere.", 10)+`"`, 0, "✓ Created issue: report-abc.5"),
		say("Committed the LookupRenderer change for report-abc.2, which threads rows by row_key."),
		edit("lib/report/csv_parser.ex", "+3 -1 def parse(line)"),
		say("The JSON export is report-abc.9."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"report-abc.5 was the bug where load_lookups dropped report_id — was it fixed?", nil},
		{"report-abc.5 was the bug where ReportLive dropped `report_id` when loading rows. Did that get fixed?", nil},
		{"report-abc.5 was about csv_parser.ex dropping report_id while parsing - which function lost it?", []string{"report-abc.5 about csv_parser.ex"}},
		{"The bug we filed as report-abc.2 — LookupRenderer losing row_key so threading broke — what was the fix?", nil},
		{"The bug we filed as report-abc.5 — LookupRenderer losing row_key — what was the fix?", []string{"report-abc.5 about LookupRenderer", "report-abc.5 about row_key"}},
		// A question after the dash asks of the bead, telling nothing
		// of it.
		{"report-abc.5 - how long does a LookupRenderer row stay cached?", nil},
		{"report-abc.5 - why does LookupRenderer drop row_key?", []string{"report-abc.5 about LookupRenderer", "report-abc.5 about row_key", "row_key removed"}},
		{"what did report-abc.9 add, where did csv_parser.ex come in?", nil},
		{"report-abc.9 is the task where csv_parser.ex got its JSON export, right?", []string{"report-abc.9 about csv_parser.ex"}},
		{"what was report-abc.5 about?", nil},
		{"is report-abc.5 still open? the bug where load_lookups drops the cwd field", []string{"report-abc.5 about cwd"}},
		{"is report-abc.5 still open? the bug where load_lookups drops the same field twice", nil},
	})
}

// TestChangeResultWrittenBeyondOutput: what a change gave is something
// someone wrote; a library memory saw only in a command's output (a
// dependency compiled) was never swapped in.
func TestChangeResultWrittenBeyondOutput(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		bash("mix test 2>&1", 0, "==> file_watch"+strings.Repeat("\nCompiling 3 files (.ex)", 2)),
		edit("lib/report/tail_worker.ex", "+5 -2 {:ok, pid} = FileTail.start_link(dirs: [dir])\n# poll_timer removed"),
		say("Switched the tail worker to FileTail so it no longer polls."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we swap the polling tail for a file_watch watcher in the tail worker?", []string{"file_watch"}},
		{"Why did we swap the polling tail for FileTail in the tail worker?", nil},
	})
}

// TestForcedPushTold: a push told by overwriting the remote is held where
// memory ran git push with a flag of forcing (or a forced refspec), not
// where every push was plain.
func TestForcedPushTold(t *testing.T) {
	plain := bash("git checkout -f report-ab1 && git push origin report-ab1", 0, "   1a2b..3c4d  report-ab1 -> report-ab1")
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5), plain)...)
	wantUnknown(t, m.open(), []unknownCase{
		{"After the amend, why did we have to overwrite the remote branch history?", []string{"a forced push"}},
		{"why did the push clobber origin?", []string{"a forced push"}},
		// Denied, no remote, or the remote too far to be what was
		// overwritten.
		{"why didn't we overwrite the remote history?", nil},
		{"why did the commit rewrite the branch history?", nil},
		{"why did we overwrite the local copy of the branch that tracks the remote?", nil},
	})
	for _, cmd := range []string{"git push --force-with-lease origin report-ab1", "cd app && git push -f origin report-ab1", "git push origin +report-ab1"} {
		forced := newMemory(t)
		forced.l1("2026-02-11_1000_aaaa1111", false, append(filler(5), plain, bash(cmd, 0, ""))...)
		wantUnknown(t, forced.open(), []unknownCase{
			{"After the amend, why did we have to overwrite the remote branch history?", nil},
		})
	}
}

// TestFailureKinds: a kind of failure (a deadlock, a race condition, lock
// contention) is a thing, seen only where memory names it: three sets
// asked how the SQLite lock contention or a deadlock was fixed, which
// memory never tells.
func TestFailureKinds(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Two workers wrote the same rows; the tests hit a race condition on the ledger lock."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How did we fix the deadlock in the ledger store?", []string{"deadlock"}},
		{"how did we get rid of the lock-contention errors in the ledger tests?", []string{"lock contention"}},
		{"What race condition did the ledger tests hit?", nil},
	})
}

package recall

import (
	"strings"
	"testing"
)

// snippetsOf weighs every term of words the same, as the query's terms
// are given to the snippets.
func snippetsOf(words string) *snippets {
	tok := newTokenizer()
	m := map[string]float64{}
	tok.each(words, func(t string) { m[t] = 1 })
	return newSnippetsOf(m, tok)
}

// TestFocusShowsTheStretchThatAnswers: a long commit message whose answer
// lies past its first line is shown by its start and that stretch; one
// that answers at its start is cut as before.
func TestFocusShowsTheStretchThatAnswers(t *testing.T) {
	msg := `git commit -m "feat: instrument hook controllers with trace correlation and error spans` +
		strings.Repeat(" - wire the span helpers into every controller and keep the attributes stable", 4) +
		` - put_trace_response_header/1 adds the x-spotter-trace-id response header to every hook reply"`
	got := snippetsOf("which response header carries the trace id").focus(msg, 200)
	if !strings.HasPrefix(got, "git commit -m") || !strings.Contains(got, "x-spotter-trace-id") {
		t.Errorf("focus gave %q: want the start and the header it names", got)
	}
	if len(got) > 210 {
		t.Errorf("focus gave %d bytes, want about 200", len(got))
	}
	got = snippetsOf("instrument hook controllers").focus(msg, 200)
	if want := cut(msg, 200); got != want {
		t.Errorf("an answer at the start: focus gave %q, want %q", got, want)
	}
}

// TestCommandEchoedByItsOutput: a command whose output only repeats it
// (bd close --reason) is shown with room for its own end, where the
// question's words are, not cut to make room for the echo.
func TestCommandEchoedByItsOutput(t *testing.T) {
	reason := "Enriched TranscriptRenderer with metadata fields (kind, tool_use_id, thread_key, subagent_ref, code_language, render_mode), relative path normalization via to_relative_path"
	f := l1Fields{kind: "tool", tool: "Bash", cmd: `bd close spotter-fum.1 --reason="` + reason + `"`, res: "✓ Closed spotter-fum.1: " + reason}
	got := snippetsOf("how were relative paths normalised in the transcript renderer").record(f)
	if !strings.Contains(got, "to_relative_path") {
		t.Errorf("record gave %q: want the command's end, to_relative_path", got)
	}
	f.res = "error: no issue spotter-fum.1 in this database"
	if got := snippetsOf("why did closing spotter-fum.1 fail").record(f); !strings.Contains(got, "→ error: no issue") {
		t.Errorf("record gave %q: want the output that says something else", got)
	}
}

// TestBestSentencesShowsWhatTheFirstLacks: an epic whose title matches the
// question is shown with the sentence holding the question's other words;
// an ellipsis inside a sentence does not end it.
func TestSentencesShowWhatTheFirstLacks(t *testing.T) {
	text := "### Epic: Setup Code Quality Tools (Credo, Dialyxir, mix_audit)\n" +
		"**Description:** Add the three tools to mix.exs and a mix quality alias.\n" +
		"**Rabbit Holes:** PLT building is slow on the first run.\n" +
		"**No-Gos:** No CI/CD integration yet."
	got := snippetsOf("What rabbit holes were written into the Setup Code Quality Tools epic?").sentences(text)
	if !strings.Contains(got, "Setup Code Quality Tools") || !strings.Contains(got, "PLT building is slow") {
		t.Errorf("sentences gave %q: want the title and the rabbit holes", got)
	}
	text = "The auto-generated migration uses `ALTER TABLE ... ALTER COLUMN ... NOT NULL without default`, which SQLite rejects. Let me rewrite it."
	got = snippetsOf("why did the migration fail on sqlite").sentences(text)
	if !strings.Contains(got, "NOT NULL without default") {
		t.Errorf("sentences gave %q: the sentence was split at its ellipsis", got)
	}
}

// TestHeadingIsShownWithWhatItHeads: a sentence chosen for the words of
// a heading shows the lines under it, where the answer is.
func TestHeadingIsShownWithWhatItHeads(t *testing.T) {
	text := "### Epic: Setup Code Quality Tools (Credo, Dialyxir)\n\n**Description:** add the checks.\n\n" +
		strings.Repeat("> - GIVEN the tools WHEN the alias runs THEN every check executes\n", 4) +
		"> ## Rabbit Holes\n> - Dialyzer PLT building is slow on first run\n> ## No-gos\n> - No CI integration yet\n"
	got := snippetsOf("what rabbit holes were written into the code quality tools epic").sentences(text)
	if !strings.Contains(got, "Rabbit Holes") || !strings.Contains(got, "PLT building is slow") {
		t.Errorf("sentences gave %q: want the heading with what it heads", got)
	}
	for s, want := range map[string]bool{"## Rabbit Holes": true, "> ## No-gos": true, "**gqc.7 — Launch review**": true, "The fix:": true, "A plain sentence.": false, "**Bold** start only": false} {
		if introduces(s) != want {
			t.Errorf("introduces(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestWhereIsAnsweredByTheFileItNames: asked where, a long list of what
// was done is shown by its line naming the file, though another line
// holds more of the question's words; asked how, by the words.
func TestWhereIsAnsweredByTheFileItNames(t *testing.T) {
	text := "- Modified the annotation schema: notes now link to the chat messages they were made on, with a source, nullable coordinates and a state that is open until the review closes it\n" +
		"- Created annotation_message_ref.ex for the notes' message links\n" +
		"- Updated the session page to save and highlight selections"
	q := "Which file defines the record that links notes to the chat messages they were made on?"
	sn := snippetsOf(q)
	sn.intent.place = true
	if got := sn.sentences(text); !strings.Contains(got, "annotation_message_ref.ex") {
		t.Errorf("asked where, sentences gave %q: want the line naming the file", got)
	}
	if got := snippetsOf(q).sentences(text); !strings.HasPrefix(got, "- Modified the annotation schema") || strings.Contains(got, "annotation_message_ref.ex") {
		t.Errorf("not asked where, sentences gave %q: want the line holding most words alone", got)
	}
	for s, want := range map[string]bool{"Created annotation_message_ref.ex": true, "see lib/app/router.ex": true, "the `mix.exs` deps": true, "version 1.2 shipped": false, "e.g. the tail": false} {
		if namesFile(s) != want {
			t.Errorf("namesFile(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestFailureQuestionsShowTheErrorsWords: asked what error came up, a
// long summary is shown by the sentence quoting the error, not only by
// the one that says an error was fixed; a sentence that only names an
// error does not quote one.
func TestFailureQuestionsShowTheErrorsWords(t *testing.T) {
	text := "Still need to:\n- Fix the compile error in transcript_components.ex\n- Update the session template\n" +
		"Done so far:\n- Added expand controls with \"Show N more lines\" buttons to transcript_components.ex\n" +
		"- Added new attrs: all_rendered_lines, expanded_tool_groups\n" +
		"- **Current compile error**: `cannot invoke remote function Access.get/2 inside a guard` at line 171"
	q := "What compile error showed up in transcript_components.ex while adding the expand controls?"
	sn := snippetsOf(q)
	sn.intent = intentOf(q)
	if got := sn.sentences(text); !strings.Contains(got, "Access.get/2 inside a guard") {
		t.Errorf("sentences gave %q: want the error's words", got)
	}
	for s, want := range map[string]bool{
		"- Fix the compile error in transcript_components.ex":          false,
		"the build failed with `** (CompileError) undefined function`": true,
		"Error: missing lazy_html dependency":                          true,
		`it printed "could not start application opentelemetry"`:       true,
		"`mix test` passed again":                                      false,
	} {
		if quotesFailure(s) != want {
			t.Errorf("quotesFailure(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestFurtherOfACall: a call's record offers the sentences of its
// command and the changed lines its snippet had no room for, when they
// hold the question's words.
func TestFurtherOfACall(t *testing.T) {
	msg := `git add lib/app/review_live.ex lib/app/router.ex test/app/review_live_test.exs && git commit -m "feat: add project-level review page` +
		strings.Repeat(". Shows the open annotations of every session with their source badges and message counts", 3) +
		`. The new ProjectReviewLive page is mounted at /projects/:project_id/review from the dashboard."`
	f := l1Fields{kind: "tool", tool: "Bash", cmd: msg}
	sn := snippetsOf("which page shows the open annotations with their source badges and message counts, and where is it mounted")
	shown := sn.record(f)
	if strings.Contains(shown, "/projects/:project_id/review") {
		t.Fatalf("the snippet shows the route already, so this tests nothing: %q", shown)
	}
	if got := strings.Join(sn.further(f, shown), "\n"); !strings.Contains(got, "/projects/:project_id/review") {
		t.Errorf("further gave %q: want the commit message's sentence naming the route", got)
	}
	f = l1Fields{kind: "tool", tool: "Edit", file: "config/test.exs", diff: "+3 -1 import Config\nconfig :app, AppWeb.Endpoint, server: false, sandbox: true\nconfig :app, :sandbox_mode, :shared\nconfig :logger, level: :warning"}
	sn = snippetsOf("how was the sandbox mode set for the endpoint tests")
	shown = sn.record(f)
	if strings.Contains(shown, ":sandbox_mode, :shared") {
		t.Fatalf("the snippet shows the changed line already, so this tests nothing: %q", shown)
	}
	if got := strings.Join(sn.further(f, shown), "\n"); !strings.Contains(got, ":sandbox_mode, :shared") {
		t.Errorf("further gave %q: want the other changed line on the sandbox mode", got)
	}
	// git's output repeats the commit's subject: it is given once.
	f = l1Fields{kind: "tool", tool: "Bash",
		cmd: "git add lib/app/review_live.ex lib/app/router.ex test/app/review_live_test.exs config/test.exs mix.exs mix.lock && git commit -m \"$(cat <<'EOF'\nfeat: add the project review page for open notes\n\nThe review page lists every open note of the project with its source badge.\nEOF\n)\"",
		res: "[main 1a2b3c4] feat: add the project review page for open notes\n 6 files changed, 210 insertions(+)"}
	sn = snippetsOf("which commit added the project review page for open notes, and what does the page list")
	further := sn.further(f, "Bash $ git add lib/app/review_live.ex")
	if n := strings.Count(strings.Join(further, "\n"), "add the project review page"); n != 1 {
		t.Errorf("further gives the commit's subject %d times, want once: %q", n, further)
	}
}

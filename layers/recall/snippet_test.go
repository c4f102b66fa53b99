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

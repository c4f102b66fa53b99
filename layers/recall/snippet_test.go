package recall

import (
	"strings"
	"testing"
)

// weights gives every term of words the same weight, as the query's
// terms are given to the snippets.
func weights(words string) map[string]float64 {
	tok := newTokenizer()
	m := map[string]float64{}
	tok.each(words, func(t string) { m[t] = 1 })
	return m
}

// TestFocusShowsTheStretchThatAnswers: a long commit message whose answer
// lies past its first line is shown by its start and that stretch; one
// that answers at its start is cut as before.
func TestFocusShowsTheStretchThatAnswers(t *testing.T) {
	msg := `git commit -m "feat: instrument hook controllers with trace correlation and error spans` +
		strings.Repeat(" - wire the span helpers into every controller and keep the attributes stable", 4) +
		` - put_trace_response_header/1 adds the x-spotter-trace-id response header to every hook reply"`
	got := focus(msg, 200, weights("which response header carries the trace id"))
	if !strings.HasPrefix(got, "git commit -m") || !strings.Contains(got, "x-spotter-trace-id") {
		t.Errorf("focus gave %q: want the start and the header it names", got)
	}
	if len(got) > 210 {
		t.Errorf("focus gave %d bytes, want about 200", len(got))
	}
	got = focus(msg, 200, weights("instrument hook controllers"))
	if want := cut(msg, 200); got != want {
		t.Errorf("an answer at the start: focus gave %q, want %q", got, want)
	}
}

// TestBestSentencesShowsWhatTheFirstLacks: an epic whose title matches the
// question is shown with the sentence holding the question's other words;
// an ellipsis inside a sentence does not end it.
func TestBestSentencesShowsWhatTheFirstLacks(t *testing.T) {
	text := "### Epic: Setup Code Quality Tools (Credo, Dialyxir, mix_audit)\n" +
		"**Description:** Add the three tools to mix.exs and a mix quality alias.\n" +
		"**Rabbit Holes:** PLT building is slow on the first run.\n" +
		"**No-Gos:** No CI/CD integration yet."
	got := bestSentences(text, weights("What rabbit holes were written into the Setup Code Quality Tools epic?"))
	if !strings.Contains(got, "Setup Code Quality Tools") || !strings.Contains(got, "PLT building is slow") {
		t.Errorf("bestSentences gave %q: want the title and the rabbit holes", got)
	}
	text = "The auto-generated migration uses `ALTER TABLE ... ALTER COLUMN ... NOT NULL without default`, which SQLite rejects. Let me rewrite it."
	got = bestSentences(text, weights("why did the migration fail on sqlite"))
	if !strings.Contains(got, "NOT NULL without default") {
		t.Errorf("bestSentences gave %q: the sentence was split at its ellipsis", got)
	}
}

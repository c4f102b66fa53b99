package recall

import (
	"slices"
	"strings"
)

// What the user said. A question may put words in the user's mouth:
// "when the user told us to commit the dov work with --no-verify",
// "when I asked 'did you push?'". What the user said is in memory as it
// was said: in a prompt, or in an answer to the agent's question
// (AskUserQuestion). A flag, a quote, a path or a piece of code the
// question says the user said, and which no prompt or answer holds, was
// never said: the agent offered --no-verify, the user answered "fix the
// issues" (four sets asked why or when the user told us to commit with
// --no-verify). So with what a question says the agent asked the user
// ("when you asked me whether the debounce should be 500ms or 1s"): it is
// in the agent's question or in a text of its that asks one. Only such
// written things (and quantities) are judged; a question that tells the
// user's words in its own ("when I said the dev server wouldn't boot")
// is let be.

// userSubjects are the words that name the user as the one who spoke.
var userSubjects = []string{"i", "user"}

// sayVerbs are the verbs of the user saying something, as a question
// writes them after its subject ("I told", "did the user tell").
var sayVerbs = []string{
	"answer", "answered", "ask", "asked", "choose", "chose", "insist", "insisted", "instruct", "instructed",
	"pick", "picked", "reply", "replied", "request", "requested", "say", "said", "suggest", "suggested",
	"tell", "told", "type", "typed", "wanted",
}

// sayReach is how many words after "I" or "user" its verb may come
// ("I just told", "the user explicitly asked").
const sayReach = 2

// saidReach is the most words after its verb that what the user said
// runs to.
const saidReach = 16

// clauseEnds are the words that end what the user is said to have said:
// the question asked of it begins ("… with --no-verify did the hook run").
var clauseEnds = []string{"did", "does", "do", "how", "was", "were", "what", "when", "where", "which", "why"}

// askingModals before "I" ask how to do a thing, not what the user said.
var askingModals = []string{"can", "could", "do", "may", "might", "should", "would"}

// asksWay reports whether the speaker at fields[i] follows a modal that
// asks a way ("how can I tell which trace it belonged to"): no words of
// the user's.
func asksWay(fields []string, i int) bool {
	return i > 0 && slices.Contains(askingModals, strings.ToLower(codeWord(fields[i-1])))
}

// userSaid gives the written things (flags, quotes, paths, commands)
// that a question says the user said.
func userSaid(fields []string) []string {
	return saidBy(fields, func(fields []string, i int) (int, bool) {
		if !slices.Contains(userSubjects, strings.ToLower(codeWord(fields[i]))) {
			return 0, false
		}
		if asksWay(fields, i) {
			return 0, false
		}
		return sayVerbAfter(fields, i)
	})
}

// agentAsked gives the written things (and quantities: "500ms or 1s")
// that a question says the agent asked the user about: "when you asked
// me whether the debounce should be 500ms or 1s".
func agentAsked(fields []string) []string {
	return saidBy(fields, func(fields []string, i int) (int, bool) {
		if strings.ToLower(codeWord(fields[i])) != "you" {
			return 0, false
		}
		verb, ok := sayVerbAfter(fields, i)
		if !ok || !strings.HasPrefix(strings.ToLower(fields[verb]), "ask") || verb+1 >= len(fields) {
			return 0, false
		}
		if to := strings.ToLower(codeWord(fields[verb+1])); to != "me" && to != "us" {
			return 0, false
		}
		return verb + 1, true
	})
}

// sayVerbAfter finds a verb of saying within sayReach words after the
// subject at fields[i], in its clause.
func sayVerbAfter(fields []string, i int) (int, bool) {
	for j := i + 1; j < len(fields) && j <= i+sayReach; j++ {
		if slices.Contains(sayVerbs, strings.ToLower(codeWord(fields[j]))) {
			return j, true
		}
		if endsClause(fields[j]) {
			break
		}
	}
	return 0, false
}

// saidBy gives the written things of what a question says was said: the
// clause after each place spoken finds (the verb of saying, or the word
// after it), up to the clause's end.
func saidBy(fields []string, spoken func(fields []string, i int) (int, bool)) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for i := range fields {
		verb, ok := spoken(fields, i)
		if !ok {
			continue
		}
		var said []string
		for j := verb + 1; j < len(fields) && j <= verb+saidReach; j++ {
			if slices.Contains(clauseEnds, strings.ToLower(fields[j])) || fields[j] == "—" || fields[j] == "-" {
				break
			}
			said = append(said, fields[j])
			if endsClause(fields[j]) {
				break
			}
		}
		for _, q := range quoted(" " + strings.Join(said, " ")) {
			add(strings.TrimSpace(q))
		}
		for k, w := range said {
			c := codeWord(w)
			switch {
			case strings.HasPrefix(c, "--") && len(c) > 3 && isWordRune(rune(c[2])), fileName(c), strings.Contains(c, "/") && len(c) > 2, isQuantity(c):
				add(c)
			case slices.Contains(programs, c) && k+1 < len(said):
				// A command: its program and subcommand ("gh pr").
				if sub := codeWord(said[k+1]); sub != "" && strings.ToLower(sub) == sub && !strings.HasPrefix(sub, "-") {
					add(c + " " + sub)
				}
			}
		}
	}
	return out
}

// endsClause reports whether a field ends its clause: a question mark,
// a stop, a comma or a semicolon after it, outside a quote that goes on.
func endsClause(f string) bool {
	f = strings.TrimRight(f, "'\"`’”)")
	return strings.HasSuffix(f, "?") || strings.HasSuffix(f, ".") || strings.HasSuffix(f, ",") || strings.HasSuffix(f, ";") || strings.HasSuffix(f, ":")
}

// holdsSaid reports whether the user said s in memory: a prompt or an
// answer to the agent's question holds it, its words side by side.
func (ix *Index) holdsSaid(s string, tok *tokenizer) bool {
	return ix.heldIn(s, tok, func(d doc, f l1Fields) string {
		switch {
		case d.Kind == kindPrompt:
			return f.text
		case d.Kind == kindTool && f.tool == "AskUserQuestion":
			answers, _ := splitAsked(f.res)
			return answers
		}
		return ""
	})
}

// holdsAsked reports whether the agent asked the user about s in memory:
// a question it put (AskUserQuestion, with the options it offered), or
// its text asking one, holds it.
func (ix *Index) holdsAsked(s string, tok *tokenizer) bool {
	return ix.heldIn(s, tok, func(d doc, f l1Fields) string {
		switch {
		case d.Kind == kindTool && f.tool == "AskUserQuestion":
			// The user's answer is not what the agent asked.
			_, asked := splitAsked(f.res)
			return f.arg + "\n" + asked
		case d.Kind == kindText && strings.Contains(f.text, "?"):
			return f.text
		}
		return ""
	})
}

// heldIn reports whether the L1 records whose text words gives hold s,
// its words side by side. A thing with a word no record holds is not
// held; one memory holds in more records than a claim reads, or in no L1
// record at all (a memory of L2 only), is taken as held.
func (ix *Index) heldIn(s string, tok *tokenizer, words func(doc, l1Fields) string) bool {
	ws := termWords(s, tok)
	if len(ws) == 0 {
		return true
	}
	want, rarest := ix.phrase(ws)
	switch {
	case rarest == "":
		return false // a word no record holds
	case ix.df(rarest) > claimScan:
		return true
	}
	inL1 := false
	for at, d := range ix.docsHolding(rarest) {
		if d.Layer != layerL1 {
			continue
		}
		inL1 = true
		f, _ := ix.l1Record(at, d)
		text := words(d, f)
		if text == "" {
			continue
		}
		if holdsPhrase(tok.terms(text), want) {
			return true
		}
	}
	return !inL1
}

// splitAsked parts an AskUserQuestion result as L1 keeps it, `"fix the
// issues" (asked: "…")` for each question, into what the user answered
// ("fix the issues") and what the agent asked, the questions each on a
// line of its own: the question, with the options the agent offered, is
// the agent's.
func splitAsked(res string) (answers, asked string) {
	var a, q strings.Builder
	for {
		i := strings.Index(res, "(asked: ")
		if i < 0 {
			a.WriteString(res)
			return a.String(), q.String()
		}
		a.WriteString(res[:i])
		res = res[i+len("(asked: "):]
		end := strings.Index(res, "\")")
		if end < 0 {
			end = len(res)
		}
		q.WriteString(res[:end])
		q.WriteByte('\n')
		if end == len(res) {
			return a.String(), q.String()
		}
		res = res[end+2:]
	}
}

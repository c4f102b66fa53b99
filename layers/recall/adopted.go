package recall

import (
	"slices"
	"strings"
)

// Things adopted. A question may say a tool or a library was added,
// picked or used: "why did we pick Sobelow over mix_audit", "did we add
// sobelow to the pre-commit hook next to credo". Memory that saw it
// adopted holds it where something was done with it: an edit, a command
// or what a command printed, a file read or listed, the user's own words,
// a summary of the work, or a record of a later layer. Memory that holds
// it only where the agent looked it up on the web, searched for it, or
// weighed it in its own words saw it considered, not adopted: four sets
// asked why Sobelow, which the agent looked up and offered and the user
// left out, went into the code quality epic; another why a ConnCase
// module the agent only grepped for was added under test/support.

// adoptVerbs say that the thing named after them was taken into the
// project. "Use" is not one: a project uses what it had before memory
// began ("why do we use a websocket for the terminal"), which memory may
// name only in passing.
var adoptVerbs = []string{
	"add", "added", "adding", "adopt", "adopted", "adopting", "choose", "chose", "chosen", "choosing",
	"configure", "configured", "configuring", "fold", "folded", "folding",
	"include", "included", "including", "install", "installed", "installing", "integrate", "integrated",
	"introduce", "introduced", "pick", "picked", "picking", "select", "selected",
}

// adoptPhrases are the verbs of adopting that take a particle before
// their thing: "switch to", "go with", "opt for".
var adoptPhrases = [][2]string{
	{"switch", "to"}, {"switched", "to"}, {"go", "with"}, {"went", "with"}, {"opt", "for"}, {"opted", "for"},
	{"settle", "on"}, {"settled", "on"}, {"bring", "in"}, {"brought", "in"}, {"pull", "in"}, {"pulled", "in"},
}

// adoptedThings gives the things a question's words say were adopted: a
// listed thing (things.txt) or a name in capitals, the object of a verb of
// adopting that no word just before denies.
func adoptedThings(fields []string, tok *tokenizer) []string {
	words := questionWords(fields) // one a field
	var out []string
	lower := func(i int) string { return strings.ToLower(words[i].text) }
	for i := range words {
		at := -1
		switch {
		case slices.Contains(adoptVerbs, lower(i)):
			at = i + 1
		case i+1 < len(words) && slices.Contains(adoptPhrases, [2]string{lower(i), lower(i + 1)}):
			at = i + 2
		case slices.Contains(giveVerbs, lower(i)) && i+3 < len(words) && lower(i+2) == "its" && lower(i+3) == "own" && !words[i+1].ends:
			at = i + 1 // "give Sobelow its own bead"
		case slices.Contains(fileVerbs, lower(i)):
			at = workFor(words, i+1)
		}
		if at >= 0 && i >= 2 {
			// Told in the passive, the thing before: "why did
			// sobelow get added to the alias", "why was Sobelow
			// included".
			thing := -1
			switch {
			case slices.Contains(adoptedAux, lower(i-1)) && !denied(fields, i-1, keepNegReach):
				thing = i - 2
			case slices.Contains(adoptedAux, lower(i-2)):
				thing = i - 1
			}
			if thing >= 0 && !words[thing].ends {
				if th := thingAt(words, thing, tok); th != "" && !slices.Contains(out, th) {
					out = append(out, th)
				}
				continue
			}
		}
		if at < 0 || words[i].ends || i > 0 && codeNamed(words[i-1].text) || toDo(words, i) || denied(fields, i, keepNegReach) {
			continue
		}
		for at < len(words) && slices.Contains(placeArticles, lower(at)) && !words[at].ends {
			at++
		}
		if at >= len(words) {
			continue
		}
		if th := thingAt(words, at, tok); th != "" && !slices.Contains(out, th) {
			out = append(out, th)
		}
	}
	return out
}

// A thing given work of its own is adopted as one added: "why did we
// give Sobelow its own bead", "why did we file a task for sobelow"
// (fresh93; the user left Sobelow out of the code quality epic).
var (
	giveVerbs = []string{"give", "gave", "given", "giving"}
	fileVerbs = []string{"create", "created", "file", "filed", "open", "opened"}
	workNouns = []string{"bead", "issue", "task", "ticket"}
	// workLeads stand before a piece of work's noun: "a separate task".
	workLeads = []string{"a", "an", "its", "new", "own", "separate"}
	// workPreps say what a piece of work was for: "a bead for sobelow".
	workPreps = []string{"about", "for"}
)

// workFor gives where the thing opens that words[i:] say a piece of work
// was for or about ("a bead for sobelow"), or -1.
func workFor(words []questionWord, i int) int {
	for i < len(words) && slices.Contains(workLeads, strings.ToLower(words[i].text)) && !words[i].ends {
		i++
	}
	if i+1 < len(words) && slices.Contains(workNouns, strings.ToLower(words[i].text)) && !words[i].ends && slices.Contains(workPreps, strings.ToLower(words[i+1].text)) {
		return i + 2
	}
	return -1
}

// adoptedAux before a verb of adopting make it passive: what was adopted
// comes before them ("sobelow got added", "was Sobelow included").
var adoptedAux = []string{"be", "been", "get", "gets", "got", "gotten", "is", "was", "were"}

// thingAt gives the thing words[at] opens: the longest listed thing of a
// few words, or a name in capitals on its own; "" for neither, or for a
// file, a path or a module (ReportWorker), which the checks of files and
// of edits judge.
func thingAt(words []questionWord, at int, tok *tokenizer) string {
	var run []queryWord
	for k := at; k < len(words) && k < at+maxThingWords; k++ {
		lower := strings.ToLower(words[k].text)
		if lower == "" || strings.ContainsAny(lower, "./:_") {
			break
		}
		run = append(run, queryWord{text: lower, stem: tok.stem(lower)})
		if words[k].ends {
			break
		}
	}
	for n := len(run); n > 0; n-- {
		if writesThing(run[:n]) {
			texts := make([]string, n)
			for k, w := range run[:n] {
				texts[k] = w.text
			}
			return strings.Join(texts, " ")
		}
	}
	if w := words[at]; w.name && !strings.ContainsAny(w.text, "./:_") && !moduleName(w.text) {
		return w.text
	}
	return ""
}

// decideVerbs before "to" and a verb of adopting say it was done: "why
// did we decide to add sobelow".
var decideVerbs = []string{"agreed", "chose", "decide", "decided", "had"}

// toDo reports whether the verb at words[i] is an infinitive that tells a
// way or a wish, not a thing done: "is `mix igniter.install credo` the
// way to add credo", "how to pick a linter".
func toDo(words []questionWord, i int) bool {
	return i > 0 && strings.EqualFold(words[i-1].text, "to") &&
		(i < 2 || !slices.Contains(decideVerbs, strings.ToLower(words[i-2].text)))
}

// codeNamed reports whether a word is a name of code: before a verb of
// adopting it is what does it ("how does ReportWorker include CheckerCache
// results" tells what the code holds, not what the project took in).
func codeNamed(w string) bool {
	_, ok := codeNameOf(w)
	return ok
}

// holdsAdopted reports whether memory holds the thing somewhere it was
// done with, not only looked up or weighed, or cannot tell: a thing
// memory never names is judged as a name, and past claimScan records
// holding it, it is taken as held.
func (ix *Index) holdsAdopted(thing string, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(thing, tok))
	if term == "" || ix.df(term) > claimScan {
		return true
	}
	for at, d := range ix.docsHolding(term) {
		if d.Layer != layerL1 {
			return true // a record of a later layer says so
		}
		f, _ := ix.l1Record(at, d)
		switch f.kind {
		case "text":
			continue // the agent's own words weigh it
		case "prompt":
			if f.agent == "" {
				return true // the user's words
			}
			continue // the agent's words to a helper
		case "tool":
			if toolAdopts(f, term) {
				return true
			}
		default:
			return true // a summary of the work
		}
	}
	return false
}

// consideringTools are the tools whose call looks a thing up or puts it to
// the user without doing anything with it.
var consideringTools = []string{"AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "Task", "Agent", "TodoWrite", "WebFetch", "WebSearch"}

// toolAdopts reports whether a tool's record holding term did something
// with the thing: any call but one that looks it up or offers it, or a
// search that holds it only in what it looked for (searchOnly). An answer
// to the agent's question holds it where the user's answer names it.
func toolAdopts(f l1Fields, term string) bool {
	switch {
	case f.tool == "AskUserQuestion":
		answers, _ := splitAsked(strings.ToLower(f.res))
		return strings.Contains(answers, term)
	case slices.Contains(consideringTools, f.tool):
		return false
	}
	return !searchOnly(f, term)
}

package recall

import (
	"iter"
	"slices"
	"strings"
)

// The model a helper ran on. A question may say which model a helper
// agent ran on: "why did the create-beads run spin up an opus Plan
// subagent", "why did we run the planning helper on Sonnet". L1 keeps
// the model a Task call chose for its helper ("Plan (haiku): Draft beads
// for linting setup"); memory that holds helpers run on a model and none
// on the one the question names never ran one so (four sets, each from a
// helper of its own, put the planning agent that ran on Haiku on Sonnet
// or Opus). Memory whose calls chose no model cannot tell.

// modelNames are the models a Task call may choose for its helper.
var modelNames = []string{"haiku", "opus", "sonnet"}

// helperWords name a helper agent, or the kind of one (Plan, Explore).
var helperWords = []string{"agent", "agents", "explore", "helper", "helpers", "plan", "subagent", "subagents", "sub-agent"}

// modelReach is how many words apart a model's name and a word naming a
// helper may be ("an opus Plan subagent", "the planning helper agent
// ran on Sonnet").
const modelReach = 4

// helperModels gives the models a question's words (countWords) say a
// helper ran on: a model's name within modelReach words of a word naming
// a helper.
func helperModels(ws []string) []string {
	var out []string
	for i, w := range ws {
		if !slices.Contains(modelNames, w) || slices.Contains(out, w) {
			continue
		}
		near := ws[max(0, i-modelReach):min(len(ws), i+modelReach+1)]
		if slices.ContainsFunc(near, func(v string) bool { return slices.Contains(helperWords, v) }) {
			out = append(out, w)
		}
	}
	return out
}

// holdsHelperModel reports whether memory holds the helper the question
// tells (query) run on model, or cannot tell. The helper told is a Task
// call whose type the question names ("Plan", "planning"), or two words
// of whose description it holds ("draft the linting tasks": Draft beads
// for linting setup); memory that ran it only on another model never ran
// it on this one. A helper memory cannot tell apart, or more records
// holding a model's name than claimScan, is taken as held.
func (ix *Index) holdsHelperModel(model, query string, tok *tokenizer) bool {
	asked := tok.terms(query)
	var lookups []iter.Seq2[docRef, doc]
	for _, m := range modelNames {
		lookups = append(lookups, ix.docsHolding(tok.term(m)))
	}
	other := false
	ran := ix.anyIn(true, func(at docRef, d doc) bool {
		if d.Layer != layerL1 || d.Kind != kindTool {
			return false
		}
		f, _ := ix.l1Record(at, d)
		if f.tool != "Task" && f.tool != "Agent" {
			return false
		}
		kind, desc, _ := strings.Cut(strings.ToLower(f.arg), ":")
		name, chosen, ok := strings.Cut(strings.TrimSuffix(kind, ")"), " (")
		if !ok {
			return false
		}
		shared := 0
		for _, t := range tok.terms(desc) {
			if slices.Contains(asked, t) {
				shared++
			}
		}
		if !slices.Contains(asked, tok.term(name)) && shared < 2 {
			return false // another helper
		}
		other = other || chosen != model
		return chosen == model
	}, lookups...)
	return ran || !other
}

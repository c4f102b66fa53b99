package recall

import (
	"slices"
	"strings"
)

// Plans turned down. A question may say the user rejected a plan the
// agent proposed: "what did I want changed when I rejected Claude's plan
// for spotter-fum.1". Claude Code records the user's verdict on a plan as
// the result of the agent's ExitPlanMode call ("User has approved your
// plan"); memory whose every verdict approves, and none of whose prompts
// speaks of a plan, never saw a plan turned down (three helpers, each on
// their own, asked what the user wanted changed when they rejected the
// renderer's plan, which the user approved; no answerable question says
// a plan was turned down).

// rejectWords say that something was turned down; "down" and "no" only
// after "turned" and "said".
var rejectWords = []string{"reject", "rejected", "rejecting", "declined", "declining", "refused", "vetoed", "down", "no"}

// planWords name a plan put to the user for approval: "when we asked for
// sign-off on the design" (never48).
var planWords = []string{"plan", "plans", "proposal", "sign-off", "signoff"}

// sayNo are the words before "no" that make it a verdict.
var sayNo = []string{"said", "say", "says", "saying"}

// planReach is how many words apart a word of rejecting and "plan" may be.
const planReach = 6

// rejectsPlan reports whether a question's words (countWords) say that a
// plan was turned down.
func rejectsPlan(ws []string) bool {
	for i, w := range ws {
		if !slices.Contains(planWords, w) {
			continue
		}
		for j := max(0, i-planReach); j < min(len(ws), i+planReach+1); j++ {
			switch r := ws[j]; {
			case !slices.Contains(rejectWords, r):
			case r == "down" && (j == 0 || !strings.HasPrefix(ws[j-1], "turn")) && (j+1 == len(ws) || !strings.HasPrefix(ws[j+1], "turn")):
			case r == "no" && (j == 0 || !slices.Contains(sayNo, ws[j-1])):
			default:
				return true
			}
		}
	}
	return false
}

// holdsPlanRejected reports whether memory holds a plan's verdict that is
// no approval, or a prompt that speaks of a plan.
func (ix *Index) holdsPlanRejected(tok *tokenizer) bool {
	read := 0
	for at, d := range ix.docsHolding("exitplanmode") {
		if read++; read > claimScan {
			return true
		}
		if d.Layer != layerL1 {
			continue
		}
		if f, _ := ix.l1Record(at, d); f.tool == "ExitPlanMode" && !strings.Contains(strings.ToLower(f.res), "approved") {
			return true
		}
	}
	read = 0
	for at, d := range ix.docsHolding(tok.stem("plan")) {
		if read++; read > claimScan {
			return true
		}
		if d.Layer == layerL1 && d.Kind == kindPrompt {
			if f, _ := ix.l1Record(at, d); !notTyped(f.text) {
				return true
			}
		}
	}
	return false
}

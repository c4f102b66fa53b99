package recall

import "testing"

// task is a helper agent's call as L1 keeps it: its type, the model the
// call chose, its description.
func task(arg, res string) map[string]any {
	return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Task", "arg": arg, "res": res}
}

// TestHelperModel: a helper said to run on a model is held where memory
// ran that helper on it, and refused where memory ran it only on
// another; a helper memory cannot tell apart, or one whose call chose no
// model, is not judged.
func TestHelperModel(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		task("Plan (haiku): Draft beads for lookup setup", "Drafted three beads."),
		task("Explore (sonnet): Explore report rendering code", "Found the renderer."),
		task("general-purpose: Check ledger versions", "Versions checked."),
		say("The digest is summarised by Opus in the report."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we run the planning helper agent on Haiku?", nil},
		{"Why did the beads run spin up an opus Plan subagent to draft the lookup tasks?", []string{"a helper run on opus"}},
		{"Why did the drafting of the lookup beads go to a sonnet helper agent?", []string{"a helper run on sonnet"}},
		{"Why did the Explore agent for the report rendering code run on sonnet?", nil},
		{"Why did the explore agent run on haiku?", []string{"a helper run on haiku"}},
		// Another helper, or one whose call chose no model.
		{"Why did the digest helper agent run on opus?", nil},
		{"Why did the general-purpose agent checking ledger versions run on opus?", nil},
		// A model named far from a helper is not said of one.
		{"Why is the digest of the report summarised by Opus?", nil},
	})
}

package recall

import "testing"

// TestOptionsNotTaken: an option the agent offered that the user's answer
// did not take, named beside the noun the agent asked for, was not taken;
// a question naming the answer too, asking of the offer, or denying the
// option is not judged so.
func TestOptionsNotTaken(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The ledger project keeps its beads in one place."),
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "AskUserQuestion",
			"arg": "options: ledger; No rig; All four (Recommended); Credo + Dialyxir; Custom selection",
			"res": `"No rig" (asked: "Which rig do these beads belong to? (Should I use 'ledger'?)"); "Credo + Dialyxir" (asked: "Which tools should we set up?")`},
		map[string]any{"ts": "2026-02-11T10:00:04Z", "k": "tool", "tool": "AskUserQuestion",
			"arg": "options: Skip hook (--no-verify); Fix pre-existing issues",
			"res": `"main was clean; fix the issues" (asked: "Which path should we take with the hook?")`},
		map[string]any{"ts": "2026-02-11T10:00:05Z", "k": "tool", "tool": "AskUserQuestion",
			"arg": "options: All; None", "res": `"None" (asked: "Which checks should stay?")`},
		map[string]any{"ts": "2026-02-11T10:00:06Z", "k": "tool", "tool": "AskUserQuestion",
			"arg": "options: Nightly cron; Weekly digest", "res": `"Weekly digest" (asked: "Which schedule should the report follow?")`})...)
	wantUnknown(t, m.open(), []unknownCase{
		{"why did we file the report beads under the 'ledger' rig?", []string{"ledger taken"}},
		{"Why did we set up all four report tools?", []string{"all four taken"}},
		{"Why did we take the skip hook path?", []string{"skip hook taken"}},
		// Taken: whole, or half its words.
		{"Why did we put the beads in no rig?", nil},
		{"Why did we take the fix pre-existing issues path?", nil},
		{"Why did we put the report on the nightly cron schedule?", []string{"nightly cron taken"}},
		// A call sharing fewer than two of the question's terms is not
		// read: an option of function words alone ("All") is not judged.
		{"Why did we keep all checks?", nil},
		// Not named as the option: no noun asked for beside it.
		{"Why did the ledger project keep its beads in one place?", nil},
		// Which was taken is asked, the offer itself, or it is denied.
		{"Which rig did the beads go in, ledger or no rig?", nil},
		{"why did the agent suggest the ledger rig?", nil},
		{"Why did we pick Credo + Dialyxir over all four tools?", nil},
		// Granted as not done: "even though" all four could be.
		{"Why isn't Credo in the report even though the plan said all four report tools could be set up?", nil},
		{"why not the ledger rig?", nil},
	})
}

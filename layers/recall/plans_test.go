package recall

import "testing"

// TestPlanRejected: a plan said to be turned down is held where a plan's
// verdict is no approval, or a prompt speaks of a plan; memory whose
// plans were all approved never saw one turned down.
func TestPlanRejected(t *testing.T) {
	plan := func(res string) map[string]any {
		return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "ExitPlanMode", "arg": `{"plan":"# Plan: lookups for the report"}`, "res": res}
	}
	prompt := func(text string) map[string]any {
		return map[string]any{"ts": "2026-02-11T10:00:00Z", "k": "prompt", "text": text}
	}
	approved := newMemory(t)
	approved.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		prompt("Build the lookups for the report."),
		plan("User has approved your plan. You can now start coding."),
		say("The plan for the lookups: a cache, then the report view."))...)
	wantUnknown(t, approved.open(), []unknownCase{
		{"What did I want changed when I rejected your plan for the lookups?", []string{"plan rejected"}},
		{"What did the user say when they turned down the first plan for the report?", []string{"plan rejected"}},
		{"When I said no to the lookups plan, what did you change?", []string{"plan rejected"}},
		{"Where was the approved plan for the lookups saved?", nil},
		{"Why did the plan reject the cache?", []string{"plan rejected"}},
		{"Why did the lookups get turned into a plan?", nil},
		{"Why did the plan bring the lookups down to two steps?", nil},
		// A plan put for sign-off is a plan; "no" is a verdict after a
		// word of saying.
		{"Why did the user say no when we asked for sign-off on the lookups design?", []string{"plan rejected"}},
		{"Is there no sign-off step for the lookups?", nil},
		{"What did I want changed when I rejected your proposal for the lookups?", []string{"plan rejected"}},
	})

	rejected := newMemory(t)
	rejected.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		prompt("Build the lookups for the report."),
		plan("The user doesn't want to proceed with this tool use. The tool use was rejected."))...)
	wantUnknown(t, rejected.open(), []unknownCase{
		{"What did I want changed when I rejected your plan for the lookups?", nil},
	})

	told := newMemory(t)
	told.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		prompt("No, that plan is wrong: build the lookups first."),
		say("The lookups come first, then the report."))...)
	wantUnknown(t, told.open(), []unknownCase{
		{"What did I want changed when I rejected your plan for the lookups?", nil},
	})
}

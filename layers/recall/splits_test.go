package recall

import "testing"

// TestSplitBack: a merge said to be undone is held where memory tells a
// split of one of the things the question names, or, where it names
// none, a merge undone; memory that holds the merge alone never saw it
// undone.
func TestSplitBack(t *testing.T) {
	merged := newMemory(t)
	merged.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Let me merge ReportPicker into ReportHighlighter: the picker is no longer referenced."),
		edit("assets/js/app.js", "+4 -30 Hooks.ReportHighlighter = {"),
		say("Split the export step out of LedgerWorker into its own module."))...)
	wantUnknown(t, merged.open(), []unknownCase{
		{"Why did we merge ReportPicker into ReportHighlighter?", nil},
		{"Why did we split ReportHighlighter back into a separate ReportPicker hook?", []string{"a merge undone"}},
		{"why did we undo merging the picking hook into the highlighting hook and split them back apart?", []string{"a merge undone"}},
		{"Why did we undo the merge of the two hooks?", []string{"a merge undone"}},
		{"why did we undo folding the picking behaviour back out of the highlighting hook?", []string{"a merge undone"}},
		{"why did we break the one report hook apart into a picking hook and a highlighting hook?", []string{"a merge undone"}},
		{"Why did the report layout break apart on narrow screens?", nil},
		// A split memory tells is held.
		{"Why did we split the export step back out of LedgerWorker?", nil},
		// A split that undoes nothing is not judged here.
		{"Why did we split the export step out of LedgerWorker?", nil},
		// Kept apart rather than merged, told with names or in words.
		{"Why was the ReportPicker hook kept as a separate hook next to ReportHighlighter?", []string{"things kept apart"}},
		{"Why did we keep the picking hook separate instead of folding it into the highlighting hook?", []string{"things kept apart"}},
		{"Why did we keep the hook that picks what you select in the report as its own hook instead of folding it into the highlighting hook?", []string{"things kept apart"}},
		{"Why did we keep the hook that picks what you select in the report as its own hook instead of deleting it?", nil},
		{"Why did we keep the picking hook on its own rather than merging it with the highlighting hook?", []string{"things kept apart"}},
		{"Why do we keep the flush of the report worker in its own file with a separate test?", nil},
		{"Why did we fold the picking hook into the highlighting hook rather than keep the two separate?", nil},
		{"Why did ReportHighlighter keep flush and add a separate step?", nil},
	})

	undone := newMemory(t)
	undone.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Let me merge ReportPicker into ReportHighlighter."),
		say("The user asked to undo the merge: ReportPicker is separate again."))...)
	wantUnknown(t, undone.open(), []unknownCase{
		{"Why did we split ReportHighlighter back into a separate ReportPicker hook?", nil},
		{"why did we undo merging the picking hook into the highlighting hook?", nil},
	})

	apart := newMemory(t)
	apart.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Let me merge ReportPicker into ReportHighlighter."),
		say("On second thought we keep the picking hook separate."))...)
	wantUnknown(t, apart.open(), []unknownCase{
		{"Why did we keep the picking hook separate instead of folding it into the highlighting hook?", nil},
	})

	unmerged := newMemory(t)
	unmerged.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("We unmerged the picking hook: it is its own file again."))...)
	wantUnknown(t, unmerged.open(), []unknownCase{
		{"why did we undo merging the picking hook into the highlighting hook?", nil},
	})
}

// TestMergeInto: a merge is held where memory tells it the way the
// question does, or never tells it the other way round.
func TestMergeInto(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Let me merge ReportPicker into ReportHighlighter: the picker is no longer referenced."),
		say("LedgerWorker and ExportWorker now share a queue."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we merge ReportPicker into ReportHighlighter?", nil},
		{"Why did we merge the ReportPicker hook into the ReportHighlighter one?", nil},
		{"Why did we merge the ReportHighlighter hook into ReportPicker?", []string{"ReportHighlighter merged into ReportPicker"}},
		{"Why did we fold the ReportHighlighter hook into ReportPicker?", []string{"ReportHighlighter merged into ReportPicker"}},
		{"Why did we fold ReportPicker into ReportHighlighter?", nil},
		// A merge memory never tells is not judged here.
		{"Why did we merge LedgerWorker into ExportWorker?", nil},
	})

	// Told in words: each phrase stands for the name whose words, or
	// their synonyms, it holds more than the other's.
	words := newMemory(t)
	words.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Update app.js to merge ReportSelection into ReportHighlighter, and add debug JSON highlighting."))...)
	wantUnknown(t, words.open(), []unknownCase{
		{"why did we fold the code-coloring JS hook into the text-selection hook instead of the other way round?", []string{"merged the other way round"}},
		{"why did we merge the highlighting hook into the selection one?", []string{"merged the other way round"}},
		{"why did we fold the text-selection JS hook into the code-coloring hook?", nil},
		{"why did we merge the selection hook into the highlighting one?", nil},
		// Phrases that stand for neither name, or for both alike.
		{"why did we merge the two report hooks into one file?", nil},
		{"why did we merge the debug output into the report page?", nil},
	})

	both := newMemory(t)
	both.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("Let me merge ReportPicker into ReportHighlighter."),
		say("Reverting: merge ReportHighlighter into ReportPicker instead."))...)
	wantUnknown(t, both.open(), []unknownCase{
		{"Why did we merge ReportPicker into ReportHighlighter?", nil},
		{"Why did we merge ReportHighlighter into ReportPicker?", nil},
	})
}

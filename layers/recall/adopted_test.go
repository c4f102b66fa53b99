package recall

import (
	"testing"

	"github.com/memkeep/memkeep/layers/l3"
)

// TestThingsAdopted: a tool or a library a question says was added,
// picked or used is held where memory did something with it (an edit, a
// command, a file read, the user's words or answer, a search that found
// it), not where it was only looked up, searched for in vain, offered, or
// weighed in the agent's words.
func TestThingsAdopted(t *testing.T) {
	tool := func(name, arg, res string) map[string]any {
		return map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": name, "arg": arg, "res": res}
	}
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		tool("WebSearch", "sobelow credo phoenix security", "Web search results for query: sobelow"),
		say("No installers exist for credo, dialyxir or sobelow; Quuxcheck is another option."),
		say("ReportWorker could hand its results to a ReportQuux."),
		tool("AskUserQuestion", "options: All four; Credo + Dialyxir; Quuxcheck only",
			`"Credo + Dialyxir" (asked: "Which tools should we set up? (Sobelow or Quuxcheck too?)")`),
		edit("mix.exs", "+2 -0 {:credo, \"~> 1.7\", only: [:dev, :test]}, {:mix_audit, \"~> 2.1\"}"),
		edit(".githooks/pre-commit", "+1 -0 mix credo --strict"),
		prompt("set up Zorblint for the report module too"),
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Grep", "pat": "Flibber", "res": "lib/report/flibber_case.ex:3: defmodule Flibber do"},
		map[string]any{"ts": "2026-02-11T10:00:02Z", "k": "tool", "tool": "Grep", "pat": "Wobbler", "res": "No matches found"},
		bash("grep -rn Snarkle test/support", 1, ""),
		bash("rg Plonker lib | head -3", 0, "lib/report/plonker.ex: defmodule Plonker do"))...)
	m.write(m.l.ConceptsFile(), l3.File{SchemaVersion: 1, Concepts: []l3.Concept{{ID: "c-lint", Name: "linting", Summary: "The reports are linted with Grumblint"}}})
	wantUnknown(t, m.open(), []unknownCase{
		{"In the code quality epic, why did we pick Sobelow over mix_audit?", []string{"sobelow adopted"}},
		{"did we add sobelow to the pre-commit hook next to credo?", []string{"sobelow adopted"}},
		{"Why did the epic end up including Sobelow as a fourth tool?", []string{"sobelow adopted"}},
		{"Why did we go with Quuxcheck?", []string{"Quuxcheck adopted"}},
		{"Why did we add the Wobbler module?", []string{"Wobbler adopted"}},
		{"Why did we add Snarkle to the tests?", []string{"Snarkle adopted"}},
		// Done with: edited, said by the user, chosen in the user's
		// answer, found by a search.
		{"Why did we add credo?", nil},
		{"Why did we pick Dialyxir?", nil},
		{"Why did we choose Zorblint for the report module?", nil},
		{"Why do we use Quuxcheck?", nil},
		{"Why did we add the Flibber module?", nil},
		{"Why did we add Plonker?", nil},
		{"Why did we pick Grumblint?", nil},
		// Denied, proposed, or not the verb's object.
		{"Why didn't we add sobelow?", nil},
		{"Should we add sobelow to the pre-commit hook?", nil},
		{"What did we use to check security instead of sobelow?", nil},
		{"How does ReportWorker include Quuxcheck results in its flush?", nil},
		{"Why did we add ReportQuux?", nil},
		{"Is there a way to add sobelow to the hook?", nil},
		{"Why did we decide to add sobelow?", []string{"sobelow adopted"}},
		// Told in the passive, the thing before its verb.
		{"why did sobelow get added to the pre-commit hook?", []string{"sobelow adopted"}},
		{"Why was Sobelow included in the epic?", []string{"sobelow adopted"}},
		{"why did credo get added?", nil},
		// Configured, as added.
		{"How did we configure Sobelow for the report?", []string{"sobelow adopted"}},
		{"How did we configure credo for the report?", nil},
		// Folded into what the project had, as added.
		{"Why did we fold Sobelow into the quality epic next to credo?", []string{"sobelow adopted"}},
		{"Why did we fold credo into the quality epic?", nil},
		// Given work of its own: a bead, a task filed for it.
		{"Why did we give Sobelow its own bead in the epic?", []string{"sobelow adopted"}},
		{"Why did we file a separate task for Sobelow?", []string{"sobelow adopted"}},
		{"Why did we give credo its own bead?", nil},
		{"Why did we open an issue for Dialyxir?", nil},
		{"Why did we give Sobelow a look?", nil},
		{"Why did we file a bead about Sobelow?", []string{"sobelow adopted"}},
		{"Why did we file a bead that Sobelow would have caught?", nil},
		{"why wasn't sobelow added?", nil},
		{"why didn't sobelow get added?", nil},
	})
}

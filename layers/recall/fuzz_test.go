package recall

import (
	"testing"
	"unicode/utf8"
)

// FuzzQuestion: whatever a prompt holds (unbalanced backticks, bare
// joiners, paths of separators only, invalid UTF-8), the checks for
// unknown names and the search answer without panicking, and an answer
// is memory's: a hit names a session file it read.
func FuzzQuestion(f *testing.F) {
	for _, q := range []string{
		"What caused the `emfile` crash?",
		"why `unbalanced",
		"`a` `b-c` `d/e.f:g`",
		"POST /api/hooks/pre-compact",
		"Lookup.purge_stale/1 and ./ .. / :: # ## _ - __init__",
		"ChromeDriver/Wallaby, green/red, MessagePack-encoded, X-A-B",
		"@tag :skip `@moduletag :integration`",
		"given do...end blocks, X.. and A..b, Enum.empty?/1, a:b_c:<d>",
		"\xff\xfe`\x00/",
		"",
	} {
		f.Add(q)
	}
	m := newMemory(f)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(5),
		say("POST /api/hooks/session-end stops the session lookups; mix ecto.migrate runs before the cache test."),
		edit("lib/lookup/purge_stale.ex", "+3 -0 def purge_stale(ttl) do"))...)
	ix := m.open()
	f.Fuzz(func(t *testing.T, q string) {
		ix.Unknown(q)
		for _, h := range ix.Search(q, Options{Max: 3}) {
			if h.File != "" && !utf8.ValidString(h.File) {
				t.Errorf("hit names file %q", h.File)
			}
		}
	})
}

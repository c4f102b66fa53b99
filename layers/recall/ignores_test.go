package recall

import "testing"

// TestIgnoreRulesChanged: the ignore rules said in words to be changed
// are .gitignore, held where memory edited it, not where it holds only
// git's refusal and the file forced past it.
func TestIgnoreRulesChanged(t *testing.T) {
	refused := []map[string]any{
		bash("git add priv/static/assets/spotter.css", 1, "The following paths are ignored by one of your .gitignore files:\npriv/static/assets"),
		bash("git add -f priv/static/assets/spotter.css", 0, ""),
	}
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10), refused...)...)
	wantUnknown(t, m.open(), []unknownCase{
		{"Why did we take the static assets folder out of the ignore list?", []string{".gitignore changed"}},
		{"why did we remove priv/static/assets from git's ignore rules?", []string{".gitignore changed"}},
		{"after we un-ignored the stylesheet, what broke?", []string{".gitignore changed"}},
		{"why did we add the folder to the gitignore?", []string{".gitignore changed"}},
		// Rules tripped over, refused by, kept, or denied changed.
		{"git add keeps refusing the stylesheet because of ignore rules, why?", nil},
		{"how many times did committing changes trip over the ignore rule?", nil},
		{"why didn't we take it out of the ignore list?", nil},
		{"why didn't we un-ignore the stylesheet?", nil},
		{"Why did we keep the folder in the ignore list?", nil},
	})
	edited := newMemory(t)
	edited.l1("2026-02-11_1000_aaaa1111", false, append(append(filler(10), refused...),
		edit(".gitignore", "+1 -1 !/priv/static/assets/spotter.css"))...)
	wantUnknown(t, edited.open(), []unknownCase{
		{"Why did we take the static assets folder out of the ignore list?", nil},
	})
}

package recall

import "testing"

// TestSettingsTurnedOn: a setting said to be turned on is held where
// memory writes its word as a word of its own, not where it holds the
// word only inside a longer name.
func TestSettingsTurnedOn(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		edit("assets/js/app.js", "+2 -0 this.el.addEventListener(\"mouseup\", this._onMouseUp)"),
		bash("mix credo --strict", 0, "no issues"),
		bash("tmux list-panes -a", 0, "%1: [80x24]"),
		say("Open the page with ?debug=1 to see the raw rows."),
		say("The endpoint now speaks http2 to the proxy."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How did turning on tmux's mouse option fix scrolling back?", []string{"mouse turned on"}},
		{"Why did we enable the mouse options?", []string{"mouse turned on"}},
		{"Why did we switch on mouse support in the terminal?", []string{"mouse turned on"}},
		// Written as a word of its own.
		{"Why did we enable strict mode?", nil},
		{"Why did turning on the debug setting help?", nil},
		// A word of letters and digits is judged as a name is.
		{"Why did we enable http2 support?", nil},
		// Denied, not turned on, too far from its verb, a word of none.
		{"Why didn't we turn on mouse mode?", nil},
		{"Why did we turn the mouse mode off?", nil},
		{"Why did we enable scrolling for the terminal pane's mouse mode?", nil},
		{"Why did we enable this mode?", nil},
	})
}

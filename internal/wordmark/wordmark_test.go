package wordmark

import "testing"

// TestOpens: a mark counts at the start of a word only, whatever its case.
func TestOpens(t *testing.T) {
	marks := []string{"error", "fail", "already exist"}
	for text, want := range map[string]bool{
		"error: undefined function get/2": true,
		"** (RuntimeError) no key":        false, // inside a word: RuntimeError
		"the terror of the night":         false,
		"Tests FAILED":                    true,
		"it failed twice":                 true,
		"table already exists":            true,
		"überfail":                        false,
		"the “error” it printed":          true,
		"":                                false,
	} {
		if got := Opens(text, marks); got != want {
			t.Errorf("Opens(%q) = %v, want %v", text, got, want)
		}
	}
}

package shellquote

import (
	"os/exec"
	"testing"
)

// TestQuoteSurvivesTheShell round-trips words through sh.
func TestQuoteSurvivesTheShell(t *testing.T) {
	for _, w := range []string{"plain/path-1.2", "", "with space", "it's", `back\slash "dq"`, "$HOME `x` *", "ünï cödé", "a\nb"} {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("%q: sh gave %q, %v", w, out, err)
		}
	}
	if Quote("memkeep") != "memkeep" {
		t.Error("a plain word was quoted")
	}
}

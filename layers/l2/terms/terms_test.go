package terms

import (
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		a, b string
		want float64
	}{
		{"test", "test", 1},
		{Stem("tests"), Stem("testing"), 1},
		{"auth", Stem("authentication"), 0.8}, // known abbreviation
		{"db", Stem("database"), 0.8},
		{"auth", "author", 0.6}, // a bare prefix is weaker
		{"cfg", Stem("configuration"), 0.8},
		{"log", "login", 0}, // too short to be a prefix
		{"tab", "table", 0},
	}
	for _, c := range cases {
		if got := Match(c.a, c.b); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestWordsAndPaths(t *testing.T) {
	if got := Words("Fixed the parseHookInput bug in HTTPServer, 42 times"); !slices.Equal(got, []string{"pars", "hook", "input", "http", "serv", "tim"}) {
		t.Errorf("Words = %q", got)
	}
	if got := PathWords("lib/spotter/services/active_session_registry.ex"); !slices.Equal(got, []string{"spott", "servic", "activ", "session", "registry"}) {
		t.Errorf("PathWords = %q", got)
	}
	ov, _ := Overlap(NewSet(Words("Fixed authentication bug in login flow")), NewSet(PathWords("src/auth.c")))
	if ov < 0.5 {
		t.Errorf("Overlap(authentication…, auth.c) = %v, want ≥ 0.5", ov)
	}
}

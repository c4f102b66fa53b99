package terms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
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

// TestAbbreviationsListed keeps the list MatchCandidates walks equal to the
// words abbrev's switch knows: a word missing from the list would make an
// index search miss what a full search finds.
func TestAbbreviationsListed(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "terms.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var inSwitch []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "abbrev" {
			return true
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if lit, ok := e.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						inSwitch = append(inSwitch, s)
					}
				}
			}
			return true
		})
		return false
	})
	listed := slices.Clone(abbreviations[:])
	slices.Sort(inSwitch)
	slices.Sort(listed)
	if len(inSwitch) == 0 || !slices.Equal(inSwitch, listed) {
		t.Errorf("abbrev's switch knows %v,\nabbreviations lists %v", inSwitch, listed)
	}
}

// TestMatchCandidatesFindEveryMatch checks MatchCandidates against Match
// over every pair of a vocabulary of real terms, abbreviations, their long
// forms and prefixes.
func TestMatchCandidatesFindEveryMatch(t *testing.T) {
	vocab := NewSet(
		Words("Fixed authentication bug in login flow; the database session registry config, request and response handlers"),
		PathWords("lib/spotter/services/active_session_registry.ex"),
		PathWords("internal/auth/authorization_middleware.go"),
		[]string{"auth", "author", "authent", "authentic", "authoriz", "db", "databas", "dat", "data", "sess", "session",
			"sessions", "ses", "conf", "config", "configur", "cfg", "k8s", "kubernet", "kube", "repo", "repos", "repository",
			"ui", "interfac", "inter", "err", "error", "errors", "erro", "tx", "transaction", "trans", "x"},
		abbreviations[:],
	).Sorted()
	var pairs, found int
	for _, q := range vocab {
		cands := map[string]bool{}
		MatchCandidates(q, 0,
			func(s string) { cands[s] = true },
			func(p string) {
				for _, u := range vocab {
					if strings.HasPrefix(u, p) {
						cands[u] = true
					}
				}
			})
		for _, u := range vocab {
			if Match(q, u) > 0 {
				if q != u {
					pairs++
				}
				if cands[u] {
					found++
				} else {
					t.Errorf("Match(%q, %q) = %v, but MatchCandidates(%q) does not lead to %q", q, u, Match(q, u), q, u)
				}
			}
		}
	}
	if pairs < len(vocab) {
		t.Errorf("only %d matching pairs of different terms in a vocabulary of %d: the test vocabulary is too thin", pairs, len(vocab))
	}
	t.Logf("%d matches between %d terms (%d of different terms), all found", found, len(vocab), pairs)
}

// TestMatchCandidatesLongWord: a long word (a pasted hash or dump) costs
// lookups only up to the dictionary's longest term, not one per prefix.
func TestMatchCandidatesLongWord(t *testing.T) {
	word := strings.Repeat("deadbeef", 10000)
	var exact, prefix int
	MatchCandidates(word, 24, func(s string) {
		exact++
		if len(s) > 24 {
			t.Fatalf("looked up a %d-byte string in a dictionary whose terms have at most 24", len(s))
		}
	}, func(string) { prefix++ })
	if exact > 24 || prefix > 2 {
		t.Errorf("%d exact and %d prefix lookups for one word", exact, prefix)
	}
}

// Package terms turns the text of memories — summaries, prompts, file paths,
// commands — into comparable terms, and scores how much two sets of terms
// overlap. Keyword equality alone misses that "Fixed authentication bug in
// login flow" and "Modified auth.c" describe one change, so terms are
// stemmed, paths are split into their words, and a word matches its
// abbreviations and prefixes ("auth" ~ "authentication", "db" ~ "database")
// at a lower weight than an exact match.
//
// Every function is deterministic and allocation-light: consolidation runs
// them over every exchange of every session.
package terms

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Words splits free text into stemmed, lower-case terms. camelCase and
// snake_case words are split into their parts, numbers and one-letter
// words are dropped, and so are stop words: function words and the generic
// verbs of programming ("fix", "update", "change") that every exchange
// shares and that would otherwise make everything look alike.
func Words(s string) []string {
	var out []string
	for _, raw := range splitWords(s) {
		if t, ok := term(raw); ok {
			out = append(out, t)
		}
	}
	return out
}

// PathWords splits a file path into the terms of its directory and file
// names, without the extension and without folder names that say nothing
// about the content ("lib", "src", "internal", "test"):
// "lib/spotter/services/active_session_registry.ex" gives spotter,
// servic(e), activ(e), session, registry.
func PathWords(p string) []string {
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	if ext := path.Ext(base); ext != "" && len(ext) < len(base) {
		base = base[:len(base)-len(ext)]
	}
	dir := path.Dir(p)
	var out []string
	if dir != "." && dir != "/" {
		for seg := range strings.SplitSeq(dir, "/") {
			if genericDir(strings.ToLower(seg)) {
				continue
			}
			out = append(out, Words(seg)...)
		}
	}
	return append(out, Words(base)...)
}

// CommandWords gives the terms of a shell command: the program and its
// arguments split like words, with flags' names kept and option syntax
// dropped. "go test ./layers/l2/..." gives go, test, layer, l2.
func CommandWords(cmd string) []string {
	cmd = strings.NewReplacer("-", " ", "/", " ", ".", " ", "=", " ").Replace(cmd)
	return Words(cmd)
}

// Set is a bag of distinct terms.
type Set map[string]struct{}

// NewSet collects the distinct terms of the given lists.
func NewSet(lists ...[]string) Set {
	s := Set{}
	for _, l := range lists {
		for _, t := range l {
			s[t] = struct{}{}
		}
	}
	return s
}

// Sorted returns the terms in order, for stable output.
func (s Set) Sorted() []string {
	out := make([]string, 0, len(s))
	for t := range s {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Match scores how well two single terms match: 1 for the same stem, 0.8
// for a known abbreviation of the other ("auth" and "authentication",
// "db" and "database"), 0.6 when one (of at least four letters) merely
// begins the other, else 0. A bare prefix is the weakest evidence because
// "auth" also begins "author".
func Match(a, b string) float64 {
	if a == b {
		return 1
	}
	if x, ok := abbrev(a); ok && (x == b || prefixOf(x, b)) {
		return 0.8
	}
	if y, ok := abbrev(b); ok && (y == a || prefixOf(y, a)) {
		return 0.8
	}
	if prefixOf(a, b) {
		return 0.6
	}
	return 0
}

// MatchCandidates lets a sorted dictionary of terms find every term u
// with Match(t, u) > 0 without comparing t with all of them: each such u
// is either equal to a string passed to exact or begins with a string
// passed to prefix. (Some candidates score 0; callers still score each
// with Match.) A dictionary whose longest term has maxLen bytes is asked
// for no longer string by exact (0: no limit): a long query word would
// otherwise cost a lookup per prefix.
func MatchCandidates(t string, maxLen int, exact, prefix func(string)) {
	near := func(w string) {
		if maxLen <= 0 || len(w) <= maxLen {
			exact(w)
		}
		// u begins w (or is w), the shorter one being w…
		if len(w) >= 4 {
			prefix(w)
		}
		// …or u is a prefix of w of at least four letters.
		for k := 4; k < len(w) && (maxLen <= 0 || k <= maxLen); k++ {
			exact(w[:k])
		}
	}
	near(t)
	if x, ok := abbrev(t); ok {
		near(x)
	}
	// u is an abbreviation whose long form is t or a prefix relation of it.
	for _, a := range abbreviations {
		if y, _ := abbrev(a); y == t || prefixOf(y, t) {
			exact(a)
		}
	}
}

// abbreviations are the words abbrev knows, for MatchCandidates. (One
// table of pairs searched by abbrev would say them once, but made Match
// 3–8× slower than the switch: 185–550 against 56–79 ns for six pairs of
// terms; TestAbbreviationsListed keeps the two in step.)
var abbreviations = [...]string{"db", "pkg", "msg", "cfg", "conf", "err", "resp", "req", "fn", "func", "env",
	"dep", "tx", "ui", "doc", "repo", "dir", "impl", "perm", "sess", "auth", "authn", "authz", "js", "ts", "py", "k8s"}

// prefixOf reports whether the shorter of a and b, at least four letters
// long, begins the other.
func prefixOf(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && strings.HasPrefix(b, a)
}

// Overlap is the soft overlap coefficient of two sets: for each term of the
// smaller set its best Match in the larger one, summed and divided by the
// smaller set's size. It is 1 when the smaller set is wholly contained
// in the larger, which is what relating a short note to a long exchange
// needs. A one- or two-term set proves little, so its score is damped.
// Matched returns the terms of a that found a match, for explanations.
func Overlap(a, b Set) (score float64, matched []string) {
	sum, matched, n := softMatch(a, b)
	if n == 0 {
		return 0, nil
	}
	score = sum / float64(n)
	switch n {
	case 1:
		score *= 0.7
	case 2:
		score *= 0.85
	}
	return score, matched
}

// Matched is the soft count of the smaller set's terms found in the
// larger one: each term adds its best Match. Where Overlap asks "how much
// of the smaller text is in the larger", Matched asks "how many things do
// they share", which does not punish a long note for saying more.
func Matched(a, b Set) float64 {
	sum, _, _ := softMatch(a, b)
	return sum
}

func softMatch(a, b Set) (sum float64, matched []string, n int) {
	if len(a) == 0 || len(b) == 0 {
		return 0, nil, 0
	}
	small, large := a, b
	if len(b) < len(a) {
		small, large = b, a
	}
	for _, t := range small.Sorted() {
		best := 0.0
		if _, ok := large[t]; ok {
			best = 1
		} else {
			for u := range large {
				if m := Match(t, u); m > best {
					best = m
				}
			}
		}
		if best > 0 {
			sum += best
			matched = append(matched, t)
		}
	}
	return sum, matched, len(small)
}

// Jaccard is the soft Jaccard similarity of two sets: matched weight over
// the size of the union. Unlike Overlap it penalises a large set that
// merely contains a small one, which is what comparing two peers (two
// concepts' names, two notes) needs.
func Jaccard(a, b Set) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	var sum float64
	for _, t := range a.Sorted() {
		best := 0.0
		if _, ok := b[t]; ok {
			best = 1
		} else {
			for u := range b {
				if m := Match(t, u); m > best {
					best = m
				}
			}
		}
		sum += best
	}
	return sum / (float64(len(a)+len(b)) - sum)
}

func splitWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// camelCase: a lower-case letter followed by an upper-case one
			// starts a new word; so does the last capital of an acronym
			// followed by lower case ("HTTPServer" → HTTP, Server).
			if unicode.IsUpper(r) && len(cur) > 0 {
				prev := cur[len(cur)-1]
				if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
					(unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// term normalises one raw word: lower case, no pure numbers, no stop
// words, stemmed.
func term(raw string) (string, bool) {
	w := strings.ToLower(raw)
	if len(w) < 2 || isNumber(w) || stopWords()[w] {
		return "", false
	}
	st := Stem(w)
	if stopWords()[st] {
		return "", false
	}
	return st, true
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Stem strips common English suffixes so that "tests", "testing" and
// "tested" meet. It is a light stemmer: stems stay at least three letters
// and are not always words ("servic"); only equality of stems matters.
func Stem(w string) string {
	for _, s := range suffixes {
		if strings.HasSuffix(w, s.from) && len(w)-len(s.from)+len(s.to) >= 3 {
			w = w[:len(w)-len(s.from)] + s.to
			break
		}
	}
	// A trailing "e" differs between "merge" and "merg(ing)": drop it.
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

var suffixes = []struct{ from, to string }{
	{"izations", "ize"}, {"ization", "ize"}, {"ational", "ate"}, {"ations", "ate"}, {"ation", "ate"},
	{"ements", ""}, {"ement", ""}, {"ments", ""}, {"ment", ""},
	{"nesses", ""}, {"ness", ""}, {"ities", ""}, {"ity", ""},
	{"ings", ""}, {"ing", ""}, {"edly", ""}, {"ied", "y"}, {"ies", "y"},
	{"ers", ""}, {"er", ""}, {"ed", ""}, {"ly", ""},
	{"sses", "ss"}, {"ss", "ss"}, {"es", ""}, {"s", ""},
}

// genericDir reports folder names that appear in every project and carry
// no topic. (Switches rather than maps here: a package-level map literal is
// built by every process at start-up, and hooks start a process per call.)
func genericDir(seg string) bool {
	switch seg {
	case "lib", "src", "internal", "pkg", "cmd", "app", "test", "tests", "spec", "home", "user", "projects", "~", "..", ".":
		return true
	}
	return false
}

// abbrev maps abbreviations that are not prefixes of their long form to it.
func abbrev(a string) (string, bool) {
	switch a {
	case "db":
		return "databas", true
	case "pkg":
		return "packag", true
	case "msg":
		return "messag", true
	case "cfg", "conf":
		return "config", true
	case "err":
		return "error", true
	case "resp":
		return "respons", true
	case "req":
		return "request", true
	case "fn", "func":
		return "function", true
	case "env":
		return "environ", true
	case "dep":
		return "depend", true
	case "tx":
		return "transaction", true
	case "ui":
		return "interfac", true
	case "doc":
		return "document", true
	case "repo":
		return "repository", true
	case "dir":
		return "directory", true
	case "impl":
		return "implement", true
	case "perm":
		return "permission", true
	case "sess":
		return "session", true
	case "auth", "authn":
		return "authentic", true
	case "authz":
		return "authoriz", true
	case "js":
		return "javascript", true
	case "ts":
		return "typescript", true
	case "py":
		return "python", true
	case "k8s":
		return "kubernet", true
	}
	return "", false
}

// stopWords lists function words and generic verbs of programming, in their
// plain and stemmed forms.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`a an the and or but if then else of to in on at by for with from into onto
	as is are was were be been being am it its it's this that these those there here we i you he she they me my
	our your their them us do does did done doing have has had having not no yes so too very can could should
	would will shall may might must just also only than about over under up down out off again all any each
	some more most other such own same both few what which who whom when where why how let lets now
	please ok okay sure thanks thank want need needs get got make made use used using fix fixed fixes
	fixing bug bugs issue issues modify modified modifies change changed changes update updated updates
	add added adds remove removed removes implement implemented work works worked working try tried
	file files code new old run ran running check checked thing things way like see look looks good well
	one two first last next still already ll ve re don doesn didn isn wasn won t s d m
	dont doesnt didnt isnt wasnt wont cant couldnt shouldnt wouldnt arent werent hasnt havent hadnt aint
	seem seems seemed
	because since so via per while though however therefore thus`) {
		m[w] = true
		m[Stem(w)] = true
	}
	return m
})

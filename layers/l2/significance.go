package l2

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A signal is one reason an exchange matters, with its weight. The
// weights add to a base; every score is explained in the record's details
// so that a reader can see why something was kept.
type signal struct {
	tag    string
	weight float64
	why    string
}

type scored struct {
	value   float64
	typ     string
	tags    []string
	signals []signal
}

// baseSignificance is what an exchange with no signal at all scores:
// under MinSignificance, so routine reading is not stored.
const baseSignificance = 0.2

// score turns an episode's evidence into significance, type and tags.
func score(ev evidence) scored {
	var s scored
	add := func(tag string, w float64, why string) {
		s.signals = append(s.signals, signal{tag, w, why})
	}
	if ev.correction {
		add("correction", 0.3, "the user corrected the agent")
	}
	if ev.rule != "" {
		add("rule", 0.35, "the user stated a rule")
	}
	if ev.recovered() {
		add("fail-then-fix", 0.25, "a failure was followed by a fix that worked")
	} else if ev.unresolved {
		add("unresolved", 0.15, "a failure was left unresolved")
	}
	if ev.decision != "" {
		add("decision", 0.2, "a decision was stated with its reason")
	}
	if ev.insight != "" {
		add("insight", 0.15, "a cause or finding was stated")
	}
	switch n := len(ev.edited); {
	case n >= 3:
		add("edits-many", 0.15, fmt.Sprintf("%d files changed", n))
	case n > 0:
		add("edits", 0.1, fmt.Sprintf("%d file(s) changed", n))
	}
	if ev.commit != "" {
		add("commit", 0.1, "the work was committed")
	}
	if ev.notification != "" {
		// A background task's notice repeats what the exchange that
		// started it already holds.
		add("notification", -0.1, "a background task's notice")
	}

	v := baseSignificance
	for _, sg := range s.signals {
		v += sg.weight
		s.tags = append(s.tags, sg.tag)
	}
	s.value = round2(clamp01(v))
	if ev.ranTests {
		s.tags = append(s.tags, "tests")
	}
	if ev.usedAgents {
		s.tags = append(s.tags, "subagents")
	}

	// The type names the strongest kind of experience present.
	switch {
	case ev.correction:
		s.typ = TypeCorrection
	case ev.recovered():
		s.typ = TypeIteration
	case ev.rule != "" || ev.decision != "":
		s.typ = TypeDecision
	case ev.unresolved:
		s.typ = TypeError
	case ev.insight != "":
		s.typ = TypeInsight
	default:
		s.typ = TypeRoutine
	}
	return s
}

// explain is the sentence of details that justifies the score.
func (s scored) explain() string {
	if len(s.signals) == 0 {
		return fmt.Sprintf("Significance %.2f: no signal (routine).", s.value)
	}
	var parts []string
	for _, sg := range s.signals {
		parts = append(parts, fmt.Sprintf("%s %+.2f", sg.why, sg.weight))
	}
	return fmt.Sprintf("Significance %.2f: base %.2f, %s.", s.value, baseSignificance, strings.Join(parts, ", "))
}

// Rule statements: an imperative "always"/"never"/"don't", or a standing
// instruction marked by "from now on", "remember", "going forward". The
// markers are matched as match_test.go's ruleMarkersExpr, the oracle of
// ruleMarkerWords; the imperatives by ruleStarts (ruleStartExpr), the
// words stripped from the rule by stripRuleLead (ruleStripExpr).
var (
	ruleMarkerWords = phraseSet{fold: true, phrases: []string{
		"from now on", "going forward", "in the future", "remember to", "remember that",
		"make sure to always", "make sure you always",
		"you should always", "you should never", "you must always", "you must never",
		"we should always", "we should never", "we must always", "we must never",
		"you always", "you never", "we always", "we never",
	}}
	ruleStartWords = phraseSet{fold: true, phrases: []string{"always", "never", "don't ever", "do not ever", "don't", "do not"}}
)

// RuleStatement finds a standing instruction in a user's text — "always
// run gofmt before committing", "from now on, never push to main",
// "remember that the API is versioned" — and returns it as a rule
// sentence. A description like "it always fails" is not a rule: the
// sentence must begin with the imperative or carry a marker of a standing
// instruction.
func RuleStatement(text string) (string, bool) {
	rs := RuleStatements(text)
	if len(rs) == 0 {
		return "", false
	}
	return rs[0], true
}

// RuleStatements finds every standing instruction in a user's text, one
// per sentence, in order: "From now on always run make lint before
// committing. And remember: never edit files under generated/." states two
// rules, and both are kept (at most maxRules).
func RuleStatements(text string) []string {
	var out []string
	for _, sent := range sentences(text) {
		sent = stripJoiner(sent)
		if !ruleStarts(sent) && (!ruleMarkerWords.match(sent) || strings.HasSuffix(sent, "?")) {
			// A question states no rule, whatever its clauses say
			// ("… in files we never touched, what did I tell you
			// to do?"); an imperative may end with one ("never push
			// to main, ok?").
			continue
		}
		r := strings.TrimSpace(stripRuleLead(sent))
		r = strings.TrimRight(r, " .!?")
		if utf8.RuneCountInString(r) < 8 {
			continue
		}
		if len(r) > maxRule {
			// A pasted configuration is no rule to repeat at every start;
			// its head says what it is about.
			out = append(out, upperFirst(Truncate(r, maxRule)))
		} else {
			out = append(out, upperFirst(r)+".")
		}
		if len(out) == maxRules {
			break
		}
	}
	return out
}

// maxRules bounds the rules kept from one text.
const maxRules = 5

// stripJoiner drops what joins a second rule to the first ("and", "also",
// "remember:"), so the rule itself starts the sentence.
func stripJoiner(s string) string {
	for {
		t := strings.TrimSpace(s)
		cut := false
		for _, w := range [...]string{"and ", "also ", "also, ", "plus ", "remember: ", "remember, ", "and remember: ", "note: "} {
			if len(t) >= len(w) && strings.EqualFold(t[:len(w)], w) {
				t, cut = t[len(w):], true
				break
			}
		}
		if !cut {
			return t
		}
		s = t
	}
}

// maxRule is the longest rule kept, in bytes; a longer one is cut.
const maxRule = 300

// Negative reports whether a rule forbids rather than prescribes: the two
// polarities of the same rule contradict each other.
func Negative(rule string) bool {
	l := " " + strings.ToLower(rule) + " "
	for _, w := range []string{" never ", " don't ", " do not ", " dont ", " avoid ", " stop ", " no longer ", " not "} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func sentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			if (line[i] == '.' || line[i] == '!' || line[i] == '?' || line[i] == ';') && (i+1 == len(line) || line[i+1] == ' ') {
				if s := strings.TrimSpace(line[start : i+1]); s != "" {
					out = append(out, s)
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

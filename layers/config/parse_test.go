package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The oracle: config.yaml read by go.yaml.in/yaml/v3 as memkeep read it
// before it had a parser of its own (known fields only, first document).
func yamlDecode(b []byte) (Config, error) {
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Default(), err
	}
	return c, nil
}

func ownDecode(b []byte) (Config, error) {
	c := Default()
	if err := parse(b, &c); err != nil {
		return Default(), err
	}
	return c, nil
}

// disagreement states how the parser and the oracle differ on b, or
// returns "". The parser may refuse what the oracle reads (YAML it does
// not support, such as 0x10 or flow style), always with a message naming
// the line; where it reads a file it must read it exactly as the oracle
// does, and it must refuse what the oracle refuses.
func disagreement(b []byte) (string, bool) {
	want, werr := yamlDecode(b)
	got, gerr := ownDecode(b)
	switch {
	case gerr == nil && werr != nil:
		return fmt.Sprintf("parser read %+v; yaml.v3 refused: %v", got, werr), false
	case gerr == nil && got != want:
		return fmt.Sprintf("parser read %+v; yaml.v3 read %+v", got, want), false
	case gerr != nil && !strings.HasPrefix(gerr.Error(), "line ") && !strings.Contains(gerr.Error(), "UTF-8"):
		return fmt.Sprintf("parser error %q does not name the line", gerr), false
	}
	return "", gerr == nil
}

// configCases are files users write, and near misses.
var configCases = []string{
	"", "\n", "# only a comment\n", "---\n", "commit: stage\n", "commit: stage", "commit:   stage   # why\n",
	"commit: ~\n", "commit: null\n", "commit:\n", "commit: \"\"\n", "commit: ''\n", "commit: 'a''b'\n",
	"commit: \"a\\\"b\\u00e9\\x41\"\n", "commit: \"a\\qb\"\n", "commit: \"unterminated\n", "commit: 'x' y\n",
	"commit: 'x'#y\n", "commit: 'x' #y\n", "commit: true\n", "commit: 12\n", "commit: 0x10\n", "commit: 1.50\n",
	"commit: 1e3\n", "commit: .5\n", "commit: 1_000\n", "commit: yes\n", "commit: a#b\n", "commit: a #b\n",
	"commit: a: b\n", "commit: a:b\n", "commit: {a: b}\n", "commit: [a]\n", "commit: &x auto\n", "commit: *x\n",
	"commit: !!str auto\n", "commit: |\n  auto\n", "commit: >\n  auto\n", "commit: - auto\n", "commit: -auto\n",
	"commit: auto\ncommit: stage\n", "comit: auto\n", "\"commit\": auto\n", "commit : auto\n", "commit:auto\n",
	"- commit: auto\n", "\tcommit: auto\n", "commit:\tauto\n", "commit: a\tb\n", "commit: auto\n  more\n",
	"commit:\n  auto\n", "\ufeffcommit: stage\n", "commit: stage\r\nstop:\r\n  min_edits: 3\r\n",
	"---\ncommit: stage\n---\ncommit: off\n", "--- # doc\ncommit: stage\n...\ncommit: off\n", "--- commit: x\n",
	"%YAML 1.2\n---\ncommit: stage\n",
	"stop:\n", "stop: ~\n", "stop: 3\n", "stop: {}\n", "stop:\n  block_budget: 3\n  min_edits: 4\n",
	"stop:\n   block_budget: 3\n   min_edits: 4\n", "stop:\n  block_budget: 3\n   min_edits: 4\n",
	"stop:\n  block_budget: 3\n min_edits: 4\n", "stop:\n  block_budget: 3\nmin_edits: 4\n",
	"stop:\n  block_budget: 2.0\n", "stop:\n  block_budget: 2.5\n", "stop:\n  block_budget: +3\n",
	"stop:\n  block_budget: -0\n", "stop:\n  block_budget: 0x10\n", "stop:\n  block_budget: \"3\"\n",
	"stop:\n  block_budget: null\n", "stop:\n  block_budget: 99999999999999999999\n", "stop:\n  enforce: remind\n",
	"stop:\n  enforce: remind\nstop:\n  min_edits: 3\n", "stop:\n  # note\n\n  min_tool_uses: 12 # twelve\n",
	"stop:\n  unknown: 1\n", "stop:\n  commit: auto\n", "  commit: auto\n", "context:\n  budget: 8000\n  hot_hours: 48\n",
	"recall:\n  threshold: 1\n", "recall:\n  threshold: .5\n", "recall:\n  threshold: 0.5\n", "recall:\n  threshold: 1e-1\n",
	"recall:\n  threshold: 5.\n", "recall:\n  threshold: .inf\n", "recall:\n  threshold: -.5e+1\n", "recall:\n  max: 5\n",
	"evaluator: ./scripts/score --json\n", "evaluator: \"python3 score.py\"\n", "evaluator: 'it''s'\n",
	"evaluator: a\n  b\n", "evaluator: run # scores\nstop:\n  block_budget: 1\n",
	"commit: stage\nstop:\n  enforce: remind\n  block_budget: 3\ncontext:\n  budget: 5000\nrecall:\n  threshold: 0.4\n  max: 2\nevaluator: ./score\n",
	"\xff\xfe", "commit: \"\\U0001F600\"\n", "commit: \"\\ud800\"\n",
}

func TestParserAgreesWithYAMLOnCases(t *testing.T) {
	read := 0
	for _, c := range configCases {
		d, ok := disagreement([]byte(c))
		if d != "" {
			t.Errorf("on %q: %s", c, d)
		}
		if ok {
			read++
		}
	}
	if read < len(configCases)/3 {
		t.Errorf("the parser read only %d of %d cases", read, len(configCases))
	}
}

// TestParserReadsWhatUsersWrite pins the values of a typical file, so the
// agreement above is not an agreement on nothing.
func TestParserReadsWhatUsersWrite(t *testing.T) {
	in := "# memkeep settings\ncommit: stage   # commits are mine\nstop:\n  enforce: remind\n  block_budget: 3\n\n" +
		"context:\n  budget: 5000\nrecall:\n  threshold: 0.4\nevaluator: \"python3 score.py --json\"\n"
	got, err := ownDecode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Commit, want.Stop.Enforce, want.Stop.BlockBudget = "stage", "remind", 3
	want.Context.Budget, want.Recall.Threshold, want.Evaluator = 5000, 0.4, "python3 score.py --json"
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// TestParserErrorsSayWhatToDo checks the messages a user reads for YAML
// the parser does not take.
func TestParserErrorsSayWhatToDo(t *testing.T) {
	for in, want := range map[string]string{
		"stop: {block_budget: 3}\n":             "line 1: flow style",
		"commit: {a: b}\n":                      "line 1: flow style",
		"stop:\n\tblock_budget: 3\n":            "line 2: a tab indents this line",
		"stop:\n  block_budget: 0x10\n":         `line 2: stop.block_budget: "0x10" is not a whole number`,
		"evaluator: a\n  b\n":                   "line 1: evaluator: the value continues on the next line",
		"stop:\n  block_budget: 3\nstop:\n":     "line 3: stop is set twice",
		"recall:\n  treshold: 0.4\n":            `line 2: unknown setting "recall.treshold"`,
		"commit: &a auto\n":                     "line 1: anchors and aliases",
		"commit: |\n  auto\n":                   "line 1: block scalars",
		"stop:\n  block_budget: 3\n   max: 1\n": "line 3: stop.max is indented by 3 spaces, the settings above it by 2",
	} {
		_, err := ownDecode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("on %q: got %v, want %q", in, err, want)
		}
	}
}

// A generated config.yaml: settings in random order and sections, values
// of every form, comments, blank lines, and the YAML the parser refuses.
func genConfig(rng *rand.Rand) string {
	keys := map[string][]string{
		"":        {"commit", "evaluator", "comit"},
		"stop":    {"enforce", "block_budget", "min_edits", "min_tool_uses", "budget"},
		"context": {"budget", "hot_hours", "max"},
		"recall":  {"threshold", "max", "budget"},
	}
	// Values of every form; the second list is YAML the parser refuses
	// or values a setting refuses, drawn less often.
	values := []string{
		"auto", "stage", "off", "remind", "block", "3", "0", "-1", "+7", "12", "0.35", ".5", "1e-1", "5.", "-0",
		"true", "yes", "~", "null", "", "\"\"", "''", "'a''b'", "\"a\\\"b\"", "\"x\\ty\"", "'q' #c", "\"\\u00e9\"",
		"./score --json", "a#b", "a #b", "é", "-x", "?x", ":x", "x:y", "1.50", "007",
	}
	refused := []string{
		"2.0", "0x10", "1_0", "a: b", "{}", "[1]", "&a 1", "*a", "!!int 3", "|", "- 1", "\"open", "'open",
		"99999999999999999999", "1.5e400", ".inf", "-.nan", "a\tb", "'x'y", "\"\\q\"", "@x", "`x",
	}
	indents := []string{"  ", "  ", "  ", "   ", "    ", " "}
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString("\ufeff")
	}
	if rng.IntN(6) == 0 {
		b.WriteString("---\n")
	}
	nl := "\n"
	if rng.IntN(8) == 0 {
		nl = "\r\n"
	}
	// Sections and keys appear once, in random order; now and then one is
	// repeated, or a line is of a kind the parser refuses.
	secs := []string{"", "stop", "context", "recall"}
	rng.Shuffle(len(secs), func(i, j int) { secs[i], secs[j] = secs[j], secs[i] })
	secs = secs[:rng.IntN(len(secs)+1)]
	if rng.IntN(15) == 0 && len(secs) > 0 {
		secs = append(secs, secs[0])
	}
	for _, sec := range secs {
		switch rng.IntN(16) {
		case 0:
			b.WriteString("# a comment" + nl)
		case 1:
			b.WriteString(nl)
		case 2:
			b.WriteString([]string{"---", "...", "  # indented comment", "- x", "\tcommit: auto", "stop: 3", "\t"}[rng.IntN(7)] + nl)
		}
		ind := ""
		if sec != "" {
			b.WriteString(sec + ":")
			if rng.IntN(5) == 0 {
				b.WriteString(" # section")
			}
			b.WriteString(nl)
			ind = indents[rng.IntN(len(indents))]
			if rng.IntN(30) == 0 {
				ind = "\t"
			}
		}
		ks := slices.Clone(keys[sec])
		rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
		ks = ks[:1+rng.IntN(len(ks))]
		if rng.IntN(20) == 0 {
			ks = append(ks, ks[0])
		}
		for _, k := range ks {
			if rng.IntN(6) == 0 && k == "comit" || rng.IntN(6) == 0 && k == "budget" && sec == "stop" || k == "max" && sec == "context" && rng.IntN(6) > 0 {
				continue // unknown keys, less often
			}
			if sec != "" && rng.IntN(25) == 0 {
				ind = indents[rng.IntN(len(indents))] // a misaligned line
			}
			v := values[rng.IntN(len(values))]
			switch {
			case k == "threshold" && rng.IntN(4) > 0:
				v = []string{"0.35", ".5", "1e-1", "5.", "1.50", "3", "-0", "007", "+7"}[rng.IntN(9)]
			case strings.Contains("block_budget min_edits min_tool_uses budget hot_hours max", k) && rng.IntN(4) > 0:
				v = []string{"3", "0", "-1", "+7", "12", "-0", "007", "9500", "~", ""}[rng.IntN(10)]
			}
			if rng.IntN(8) == 0 {
				v = refused[rng.IntN(len(refused))]
			}
			b.WriteString(ind + k + ":")
			if v != "" || rng.IntN(2) == 0 {
				b.WriteString(" " + v)
			}
			if rng.IntN(6) == 0 {
				b.WriteString("   # note")
			}
			b.WriteString(nl)
			if rng.IntN(30) == 0 {
				b.WriteString(ind + "   continued" + nl)
			}
		}
	}
	return b.String()
}

func TestParserAgreesWithYAMLOnGenerated(t *testing.T) {
	n := 30_000
	if testing.Short() {
		n = 3_000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	read, failed := 0, 0
	for range n {
		in := genConfig(rng)
		d, ok := disagreement([]byte(in))
		if d != "" {
			if failed++; failed <= 10 {
				t.Errorf("on %q: %s", in, d)
			}
		}
		if ok {
			read++
		}
	}
	t.Logf("%d generated files, %d read by both", n, read)
	if read < n/4 {
		t.Errorf("only %d of %d generated files were read: the comparison says little", read, n)
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range configCases {
		f.Add([]byte(c))
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		f.Add([]byte(genConfig(rng)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if d, _ := disagreement(b); d != "" {
			t.Errorf("on %q: %s", b, d)
		}
	})
}

func TestLoadNamesTheFileAndLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(p, []byte("commit: stage\nstop: {block_budget: 3}\n"), 0o644)
	c, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p+": line 2:") || !strings.Contains(err.Error(), "defaults are used") {
		t.Fatalf("want an error naming %s and line 2, got %v", p, err)
	}
	if c != Default() {
		t.Fatalf("a file that cannot be read must give the defaults, got %+v", c)
	}
}

package recall

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the .stems files from their .txt")

// TestStems keeps each generated .stems file what its .txt stems to, so
// that a hook never stems thousands of words; -update writes them.
func TestStems(t *testing.T) {
	for _, g := range []struct{ name, got, want string }{
		{"thesaurus.stems", thesaurusStems, stemGroups(thesaurusText)},
		{"things.stems", thingsStems, stemThings(thingsText)},
		{"kinds.stems", kindsStems, stemKinds(kindsText)},
	} {
		if *update {
			if err := os.WriteFile(g.name, []byte(g.want), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if g.got != g.want {
			t.Errorf("%s is not what its .txt generates: run go test ./layers/recall -run TestStems -update", g.name)
		}
	}
}

// TestThesaurusFormat holds thesaurus.txt to its rules: lower-case single
// words, groups of two or more, no group twice, and no word in more than
// three groups (a word in many groups is too vague to expand).
func TestThesaurusFormat(t *testing.T) {
	count := map[string]int{}
	seen := map[string]bool{}
	groups := 0
	for i, line := range strings.Split(thesaurusText, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		groups++
		words := strings.Split(line, ", ")
		if len(words) < 2 {
			t.Errorf("line %d: a group of one word: %q", i+1, line)
		}
		key := strings.Join(slices.Sorted(slices.Values(words)), ",")
		if seen[key] {
			t.Errorf("line %d: a group twice: %q", i+1, line)
		}
		seen[key] = true
		for _, w := range words {
			if !regexp.MustCompile(`^[a-z0-9]+$`).MatchString(w) {
				t.Errorf("line %d: %q is not a lower-case word", i+1, w)
			}
			count[w]++
		}
	}
	for w, n := range count {
		if n > 3 {
			t.Errorf("%q is in %d groups", w, n)
		}
	}
	if groups < 300 {
		t.Errorf("%d groups; the thesaurus is meant to cover how developers talk (300 or more)", groups)
	}
}

// TestSynonymsFindTheSameThing: words of a group find each other, stemmed.
func TestSynonymsFindTheSameThing(t *testing.T) {
	tok := newTokenizer()
	for _, pair := range [][2]string{{"conversation", "session"}, {"shortened", "truncate"}, {"extension", "plugin"}, {"finishes", "stop"}} {
		if !slices.Contains(synonyms(tok.stem(pair[0])), tok.stem(pair[1])) {
			t.Errorf("%q does not find %q", pair[0], pair[1])
		}
	}
}

// TestSynonymsAreTheirGroups: for every word of the thesaurus, synonyms
// gives exactly the other words of the groups holding it, in group order,
// and nothing for a word that is only part of one ("stop" inside
// "stopped", a group's word inside a comment).
func TestSynonymsAreTheirGroups(t *testing.T) {
	want := map[string][]string{}
	for line := range strings.SplitSeq(thesaurusStems, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		words := strings.Split(line, ", ")
		for _, w := range words {
			for _, o := range words {
				if o != w && !slices.Contains(want[w], o) {
					want[w] = append(want[w], o)
				}
			}
		}
	}
	if len(want) < 600 {
		t.Fatalf("only %d words in the thesaurus", len(want))
	}
	for w, syns := range want {
		if got := synonyms(w); !slices.Equal(got, syns) {
			t.Errorf("synonyms(%q) = %q, want %q", w, got, syns)
		}
		for _, part := range []string{w[:len(w)-1], w + "x", "x" + w} {
			if _, ok := want[part]; !ok && len(synonyms(part)) > 0 {
				t.Errorf("synonyms(%q) = %q for a word not in the thesaurus", part, synonyms(part))
			}
		}
	}
}

// TestThrottleIsRateLimiting: to throttle requests is to rate-limit them,
// not to debounce: memory that only debounces never throttled anything
// (eight never-happened questions of the sets say the hook endpoints
// throttle a flooding plugin; no answerable one says throttle).
func TestThrottleIsRateLimiting(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The report worker debounces its syncs by 500ms."))...)
	wantUnknown(t, m.open(), []unknownCase{
		{"How did we throttle the report requests?", []string{"throttle"}},
		{"Why is the report worker debounced?", nil},
	})
}

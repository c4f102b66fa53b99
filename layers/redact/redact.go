// Package redact removes secrets and private passages from text before
// memkeep keeps it.
//
// Every string memkeep takes from a transcript (prompts, assistant text,
// tool commands, short tool results) passes through String before anything
// else sees it, so nothing secret ever reaches .claude/memory/ or git.
// A secret is replaced by "[REDACTED:<kind>]", which says what stood there
// without keeping any of it; text inside <private>…</private> becomes
// "[PRIVATE]".
//
// String runs in the hooks on every turn, so it is built for the clean
// case: one pass over the text looks for the literal keywords of every rule
// (a token prefix such as "ghp_", a word such as "password"), and only the
// rules whose keyword occurs compile their pattern (once per process) and
// run. Clean text costs that one pass and no allocation, and a process that
// redacts nothing secret never compiles a regular expression.
//
// The rules are written from the providers' documented token formats, not
// taken from a scanner's rule set: see rules.go for the provider tokens and
// assign.go for "name = value" assignments. README.md lists the kinds, the
// false positives avoided on purpose, and why gitleaks (≈ 43 ms per
// process start against 2 ms for a no-op) was not used.
package redact

import (
	"slices"
	"strings"
)

// Private is what a <private>…</private> passage becomes.
const Private = "[PRIVATE]"

// maxPasses bounds the passes String makes. A pass that changes the text is
// followed by another one, so that String(String(x)) == String(x) even when
// a replacement brings two pieces of text together; in practice the second
// pass finds nothing.
const maxPasses = 4

// String returns s with every secret it recognises replaced by
// "[REDACTED:<kind>]" and every <private>…</private> passage (tags matched
// case-insensitively, across lines, an unterminated one to the end of s)
// replaced by "[PRIVATE]". When nothing matches, s itself is returned and
// nothing is allocated.
func String(s string) string {
	for range maxPasses {
		out, changed := pass(s)
		if !changed {
			return s
		}
		s = out
	}
	return s
}

// Kinds lists the kinds String can write in "[REDACTED:<kind>]", sorted.
func Kinds() []string {
	seen := map[string]bool{}
	var kinds []string
	for i := range rules {
		for _, k := range rules[i].kinds {
			if !seen[k] {
				seen[k] = true
				kinds = append(kinds, k)
			}
		}
	}
	slices.Sort(kinds)
	return kinds
}

// span is one replacement: s[start:end] becomes "[REDACTED:kind]", or
// Private when kind is empty.
type span struct {
	start, end int
	kind       string
}

// pass runs, in order, every rule whose keywords occur in s.
func pass(s string) (string, bool) {
	hit := prefilter().scan(s)
	if hit == 0 {
		return s, false
	}
	changed := false
	var spans []span
	for i := range rules {
		if hit&(1<<i) == 0 {
			continue
		}
		spans = rules[i].run(s, spans[:0])
		if len(spans) > 0 {
			s = apply(s, spans)
			changed = true
		}
	}
	return s, changed
}

// apply writes s with the sorted, non-overlapping spans replaced.
func apply(s string, spans []span) string {
	var b strings.Builder
	b.Grow(len(s) + 32*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		if sp.kind == "" {
			b.WriteString(Private)
		} else {
			b.WriteString("[REDACTED:")
			b.WriteString(sp.kind)
			b.WriteByte(']')
		}
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}

package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// maxGrowth bounds what one replacement can add: the longest marker
// replacing a single byte.
const maxGrowth = len("[REDACTED:generic-high-entropy]")

// FuzzString checks the invariants every input must keep: no panic; a
// second pass changes nothing; valid UTF-8 stays valid (replacements never
// split a character); no opening <private> tag survives; and the output
// grows by at most one marker's length per marker it contains.
func FuzzString(f *testing.F) {
	for _, c := range append(positives(), negatives()...) {
		f.Add(c.in)
	}
	f.Add(cleanText)
	f.Fuzz(func(t *testing.T, in string) {
		out := String(in)
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n   in %q\n once %q\ntwice %q", in, out, again)
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("valid UTF-8 in, invalid out: %q -> %q", in, out)
		}
		if start, _, kind := nextPrivateTag(out, 0); start >= 0 && kind != tagClose {
			t.Fatalf("a private tag survives at %d: %q -> %q", start, in, out)
		}
		markers := strings.Count(out, "[REDACTED:") + strings.Count(out, Private)
		if len(out) > len(in)+markers*maxGrowth {
			t.Fatalf("output grew by %d bytes with %d markers: %q -> %q", len(out)-len(in), markers, in, out)
		}
	})
}

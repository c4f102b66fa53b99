package redact

import (
	"math"
	"strings"
)

// Tests on candidate secret values. They decide what is a credential and
// what merely sits where one could: a placeholder ("${TOKEN}",
// "<your-token>", "xxxx"), a code reference ("os.environ", "self.token"),
// a type ("str"), or ordinary text.

// minEntropy is the Shannon entropy, in bits per byte, above which a value
// in a weakly secret-looking place ("key = …") counts as random. Generated
// secrets score well above it (base64 ≈ 4.5–5.5, hex ≈ 3.7–4 at these
// lengths); English words and identifiers mostly stay below.
const minEntropy = 3.5

// minRandomLen is the shortest value judged on entropy alone.
const minRandomLen = 16

// literal accepts any value that is not a placeholder: used where the
// syntax leaves no room for code (KEY=value in an env file).
func literal(v string) bool {
	return len(v) >= 3 && hasAlnum(v) && !placeholder(v)
}

// lenient accepts any literal that is not a placeholder or a reference:
// used where the syntax says the value is a literal (KEY=value in an env
// file, password: value on a YAML line, a quoted string).
func lenient(v string) bool {
	return len(v) >= 3 && hasAlnum(v) && !placeholder(v) && !reserved(v) && !reference(v)
}

// strict also rejects plain words and identifiers: used where the value
// may be code (token = response) or prose.
func strict(v string) bool {
	return lenient(v) && !wordy(v)
}

// random accepts only values that look generated: long, varied, without
// blanks, with digits or many case changes, and not words, a UUID or a
// path.
func random(v string) bool {
	return len(v) >= minRandomLen && !strings.ContainsAny(v, " \t") && !placeholder(v) && !reference(v) && !wordy(v) &&
		!isUUID(v) && !pathLike(v) && distinct(v) >= 8 && entropy(v) >= minEntropy &&
		(strings.ContainsAny(v, "0123456789") || caseChanges(v) >= 3)
}

// caseChanges counts lower-to-upper transitions, which generated base64
// has many of and words have few.
func caseChanges(v string) int {
	n := 0
	for i := 1; i < len(v); i++ {
		if isUpper(v[i]) && isLower(v[i-1]) {
			n++
		}
	}
	return n
}

// wordy reports letters joined by '_' or '-' without digits: identifiers
// and kebab-case words, not generated secrets.
func wordy(v string) bool {
	for i := 0; i < len(v); i++ {
		if !identStart(v[i]) && v[i] != '-' {
			return false
		}
	}
	return v != ""
}

func hasAlnum(v string) bool {
	for i := 0; i < len(v); i++ {
		if identStart(v[i]) && v[i] != '_' || isDigit(v[i]) {
			return true
		}
	}
	return false
}

// placeholder reports template references, fillers and documentation
// stand-ins. Weak but real values such as "changeme" or "password123" are
// not placeholders: they are somebody's actual credential.
func placeholder(v string) bool {
	if v == "" || strings.Contains(v, "[REDACTED:") || strings.Contains(v, Private) || strings.Contains(v, "…") {
		return true
	}
	switch v[0] {
	case '$': // $TOKEN, ${TOKEN}, $(cat file), $env:TOKEN
		return len(v) == 1 || v[1] == '{' || v[1] == '(' || identStart(v[1])
	case '{', '[': // {{ .Token }}, {token}, [your key]
		return true
	case '<': // <your-token>
		return v[len(v)-1] == '>'
	case '%', '#': // %(token)s, %{TOKEN}, #{token}
		return len(v) > 1 && (v[1] == '(' || v[1] == '{' || v[1] == 's')
	}
	if filler(v) {
		return true
	}
	if containsFold(v, "your") {
		for _, w := range []string{"key", "token", "secret", "pass", "here", "api", "own"} {
			if containsFold(v, w) {
				return true
			}
		}
	}
	for _, w := range []string{"placeholder", "replace_me", "replace-me", "replaceme", "redacted", "<redacted>"} {
		if containsFold(v, w) {
			return true
		}
	}
	return false
}

// filler reports values made only of mask characters: "xxxx", "****",
// "...", "XXXX-XXXX".
func filler(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case 'x', 'X', '*', '.', '-', '_', '#', '?':
		default:
			return false
		}
	}
	return true
}

var reservedWords = []string{
	"null", "nil", "none", "true", "false", "undefined", "str", "string", "int", "integer",
	"bool", "boolean", "bytes", "number", "any", "object", "optional", "required", "yes", "no",
	"on", "off", "inherit", "default", "auto", "empty", "unset", "self", "this", "new",
	"function", "lambda", "await", "async", "return", "not", "and", "or", "omit", "hidden",
	"masked", "sensitive", "secretstr", "text", "password", "secret", "token",
}

// reserved reports language keywords, type names and the like, which
// follow secret-looking names in code and docs ("password: str").
func reserved(v string) bool {
	for _, w := range reservedWords {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	return false
}

// reference reports values that name a variable rather than hold a
// secret: dotted paths (process.env.TOKEN, self.password) and identifiers
// without digits that are themselves secret-ish names (db_password,
// apiKey). "password123" has a digit and stays a value.
func reference(v string) bool {
	if dottedPath(v) {
		return true
	}
	if !identNoDigit(v) {
		return false
	}
	for _, w := range nameKeywords {
		if containsFold(v, w) {
			return true
		}
	}
	return false
}

// dottedPath reports a.b(.c…) where every part is an identifier.
func dottedPath(v string) bool {
	parts := 0
	for part := range strings.SplitSeq(v, ".") {
		if part == "" || !identStart(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !identStart(part[i]) && !isDigit(part[i]) {
				return false
			}
		}
		parts++
	}
	return parts >= 2
}

// identNoDigit reports an identifier made of letters and underscores only.
func identNoDigit(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !identStart(v[i]) {
			return false
		}
	}
	return true
}

// isUUID reports the 8-4-4-4-12 hex form: an identifier (a session id, a
// request id), not a credential, when it sits under a weak name such as
// "key". Under a strong name (api_key) it is still redacted.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := lower(v[i])
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isDigit(c) && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}

// pathLike reports file paths and URLs: rooted or relative prefixes, a
// scheme, or slash-separated parts ending in a file extension
// (lib/app/token_store.ex).
func pathLike(v string) bool {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "~/") || strings.Contains(v, "://") {
		return true
	}
	slash, dot := strings.LastIndexByte(v, '/'), strings.LastIndexByte(v, '.')
	if slash < 0 || dot < slash || len(v)-dot-1 < 1 || len(v)-dot-1 > 5 {
		return false
	}
	for i := dot + 1; i < len(v); i++ {
		if !identStart(v[i]) && !isDigit(v[i]) {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of v's bytes, in bits per byte.
func entropy(v string) float64 {
	if v == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
	}
	n := float64(len(v))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// distinct counts the different bytes in v.
func distinct(v string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(v); i++ {
		if !seen[v[i]] {
			seen[v[i]] = true
			n++
		}
	}
	return n
}

// longestRun is the length of the longest run of one repeated byte.
func longestRun(v string) int {
	best, run := 0, 0
	for i := 0; i < len(v); i++ {
		if i > 0 && v[i] == v[i-1] {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// containsFold reports whether v contains the lower-case ASCII word,
// ignoring case, without allocating.
func containsFold(v, word string) bool {
	for i := 0; i+len(word) <= len(v); i++ {
		if hasPrefixFold(v[i:], word) {
			return true
		}
	}
	return false
}

func identStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

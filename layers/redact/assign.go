package redact

import (
	"slices"
	"strings"
	"sync"
)

// Secrets in assignments: a secret-looking name, an operator, a value.
//
//	DB_PASSWORD=hunter2-Xq9            env file, shell export
//	password: hunter2                  YAML
//	"api_key": "…"                     JSON (also JSON-escaped: \"api_key\")
//	client_secret = "…"                code, INI, TOML
//	--token=…  --password hunter2      command-line flags
//	the secret Zm9vYmFyQk5x7Lp2Wr8…     prose, when the value looks random
//
// Only the value is replaced; the name stays, since it tells the reader
// what was configured. How sure the syntax is that the value is a literal
// decides how much the value must look like a secret (see lenient, strict
// and random in value.go).

// nameKeywords are the words whose presence in a name makes it worth a
// look. The name's components then decide (classify).
var nameKeywords = []string{"secret", "token", "pass", "pwd", "cred", "key", "auth", "cookie", "salt", "signature"}

// maxName bounds the names considered, so a long run of name characters
// (a base64 blob) is not taken for one.
const maxName = 100

var nameTable = sync.OnceValue(func() *kwTable {
	kws := make([]keyword, len(nameKeywords))
	for i, w := range nameKeywords {
		kws[i] = keyword{text: w, fold: true}
	}
	return newKwTable(kws)
})

// findNamed finds values assigned to secret-looking names.
func findNamed(s string, dst []span) []span {
	next := 0 // where the next name may start
	nameTable().each(s, func(pos int, _ keyword) {
		if pos < next {
			return
		}
		ns, ne := pos, pos
		for ns > 0 && isNameChar(s[ns-1]) {
			ns--
		}
		for ne < len(s) && isNameChar(s[ne]) {
			ne++
		}
		next = ne
		// A name ends before sentence punctuation: "the secret." assigns
		// nothing.
		for ne > pos && (s[ne-1] == '.' || s[ne-1] == '-') {
			ne--
		}
		if ne-ns > maxName || ns > 0 && (s[ns-1] == '/' || s[ns-1] == '\\') {
			return // a blob, or a file in a path (lib/auth/token.ex:12)
		}
		sp, ok := assignedValue(s, ne, s[ns:ne])
		if ok {
			dst = append(dst, sp)
		}
		// Even a value judged harmless is no place for the next name
		// ("key=key=key=…" would otherwise cost quadratic time).
		next = max(next, sp.end)
	})
	return dst
}

// assignedValue looks for an operator and a value after the name ending
// at ne and returns the value's span when it should be redacted (when it
// should not, the span's end says how far the assignment reached). The
// syntax is checked before the name is classified: most keyword hits in
// prose ("the key point") fail it at once.
func assignedValue(s string, ne int, name string) (span, bool) {
	r := ne
	quotedName := false
	switch {
	case r+1 < len(s) && s[r] == '\\' && isQuote(s[r+1]):
		r, quotedName = r+2, true
	case r < len(s) && isQuote(s[r]):
		r, quotedName = r+1, true
	}
	spaceBefore := false
	for r < len(s) && (s[r] == ' ' || s[r] == '\t') {
		r, spaceBefore = r+1, true
	}
	op := ""
	if o := r; o < len(s) && (s[o] == '=' || s[o] == ':' || s[o] == '!') {
		for r < len(s) && r-o < 3 && strings.IndexByte("=:!>", s[r]) >= 0 {
			r++
		}
		op = s[o:r]
		switch op {
		case "=", ":", ":=", "=>", "==", "===", "!=", "!==":
		default:
			return span{}, false
		}
		if op == ":" && strings.HasPrefix(s[r:], "//") {
			return span{}, false // a URL scheme, not an assignment
		}
	} else if !spaceBefore || quotedName {
		return span{}, false
	}
	spaceAfter := false
	for r < len(s) && (s[r] == ' ' || s[r] == '\t') {
		r, spaceAfter = r+1, true
	}
	vs, ve, after, quoted := valueAt(s, r)
	if vs == ve {
		return span{}, false
	}
	v := s[vs:ve]
	// A rejected value still tells the caller where an assignment's value
	// ended; after mere adjacency (op == "") the next word may be a name.
	rejected := span{}
	if op != "" {
		rejected.end = ve
	}
	if !quoted && after < len(s) && (s[after] == '(' || s[after] == '[') {
		return rejected, false // a call or an index: code, not a value
	}
	flag := strings.HasPrefix(name, "--")
	if op == "" && !flag && !quoted && len(v) < minRandomLen || len(v) < 3 {
		return rejected, false
	}
	strength, kind := classify(name)
	if strength == notSecret {
		return rejected, false
	}

	var ok bool
	switch {
	case op == "":
		// Prose or a flag: the name and the value are merely adjacent.
		switch {
		case flag && strength == strongName:
			ok = v[0] != '-' && strict(v)
		case quoted && strength == strongName && s[vs-1] != '`' && !strings.EqualFold(name, "pass"):
			// PASSWORD 'hunter2' in SQL, "the token 'abc123'" in prose.
			// Backticks quote code in Markdown ("pass `--verbose`").
			ok = lenient(v) && !strings.ContainsAny(v, " \t")
		default:
			ok = random(v) && strings.ContainsAny(v, "0123456789")
			kind = "generic-high-entropy"
		}
	case strength == weakName:
		ok = random(v)
	case quoted:
		ok = lenient(v)
	case op == "=" && !spaceBefore && !spaceAfter && !strings.ContainsFunc(name, isLowerRune):
		// KEY=value in an env file or a shell: always a literal (a
		// reference would start with '$').
		ok = literal(v)
	case op == "=" && !spaceBefore && !spaceAfter:
		// key=value&…, f(password=…), --token=…
		ok = lenient(v)
	case op == ":" && endsField(s, after):
		// password: value on a YAML line or in a header.
		ok = lenient(v)
	default:
		ok = strict(v)
	}
	if !ok {
		return rejected, false
	}
	return span{vs, ve, kind}, true
}

// valueAt parses the value starting at r: a quoted string (its content;
// an unterminated one runs to the end of the line), a JSON-escaped quoted
// string (\"…\"), or a bare word. It returns the value's bounds, where the
// text after it starts, and whether it was quoted.
func valueAt(s string, r int) (vs, ve, after int, quoted bool) {
	if r >= len(s) {
		return r, r, r, false
	}
	if s[r] == '\\' && r+1 < len(s) && isQuote(s[r+1]) {
		closing := s[r : r+2]
		w := window(s, r+2)
		if i := strings.Index(w, closing); i >= 0 {
			if nl := strings.IndexAny(w[:i], "\r\n"); nl < 0 {
				return r + 2, r + 2 + i, r + 2 + i + 2, true
			}
		}
		e := r + 2 + lineLen(w)
		return r + 2, e, e, true
	}
	if isQuote(s[r]) {
		q := s[r]
		w := window(s, r+1)
		for i := 0; i < len(w); i++ {
			switch w[i] {
			case '\\':
				i++
			case q:
				return r + 1, r + 1 + i, r + 2 + i, true
			case '\n', '\r':
				return r + 1, r + 1 + i, r + 1 + i, true
			}
		}
		e := r + 1 + min(len(w), lineLen(w))
		return r + 1, e, e, true
	}
	e := r
	for e < len(s) && e-r < maxValue && (!stopsBareValue(s[e]) || gluedSemicolon(s, e)) {
		e++
	}
	after = e
	for e > r && s[e-1] == '.' { // end of a sentence
		e--
	}
	return r, e, after, false
}

// maxValue bounds the length of an assignment's value: a value is looked
// for within this many bytes, and an unterminated one is cut there. It
// keeps String linear on hostile input (a long line of "token=\"").
const maxValue = 1024

// window is the part of s from i in which a value is looked for.
func window(s string, i int) string { return s[i:min(len(s), i+maxValue)] }

// lineLen is the length of w's first line.
func lineLen(w string) int {
	if j := strings.IndexAny(w, "\r\n"); j >= 0 {
		return j
	}
	return len(w)
}

// endsField reports whether nothing but blanks, a comment or a closing
// quote follows position i on its line: the value was the whole field
// ("password: hunter2" in YAML, "X-Api-Key: …" in a header). A value
// followed by ',' or '}' sits in an object literal, where a bare word is
// an identifier (Token: tok,).
func endsField(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) {
		return true
	}
	switch s[i] {
	case '\n', '\r', '#', '"', '\'', '`', '\\':
		return true
	}
	return false
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func isNameChar(c byte) bool {
	return identStart(c) || isDigit(c) || c == '.' || c == '-'
}

// gluedSemicolon reports a ';' inside a bare value (DB_PASSWORD=a;b in an
// env file): one that separates shell commands or statements is followed
// by a space, a line end or the end of the text.
func gluedSemicolon(s string, i int) bool {
	return s[i] == ';' && i+1 < len(s) && !stopsBareValue(s[i+1])
}

func stopsBareValue(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', ';', '&', '|', '(', ')', '[', ']', '{', '}', '<', '>', '\\':
		return true
	}
	return false
}

type nameStrength int

const (
	notSecret  nameStrength = iota
	weakName                // key, auth, cookie…: redact random-looking values only
	strongName              // password, token, secret, api_key…
)

// strongSuffixes end the components that make a name plainly secret:
// token, accessToken, client_secret, DB_PASSWORD, apikey.
var strongSuffixes = []string{"token", "secret", "password", "passwd", "passphrase", "credential", "credentials", "creds", "apikey", "privatekey", "secretkey", "accesskey"}

// nameWords holds the word sets names are classified by, matched against
// lower-cased components. Plain lists of constants, laid out as static
// data: maps of them would be built by every hook process at start-up,
// for the few lookups it makes, and none holds more than a hundred words.
var nameWords = wordSets{
	// strong are secret names on their own.
	strong: []string{"pass", "pwd"},
	// keyQualifiers make "<qualifier> key" a strong name: api_key,
	// privateKey, SECRET_KEY.
	keyQualifiers: []string{"api", "private", "secret", "access", "encryption", "signing", "master",
		"client", "app", "account", "service", "auth", "license", "subscription", "admin", "consumer",
		"session", "ssh", "deploy", "aws"},
	// weak may name a secret or something else (a map key, an auth
	// mode): their values are redacted only when they look random.
	weak: []string{"key", "auth", "authorization", "cookie", "salt", "signature"},
	// metaTails, as a name's last component, make it about a secret
	// rather than the secret itself: token_count, password_file, key_id.
	metaTails: []string{
		"count", "counts", "type", "types", "id", "ids", "name", "names", "file", "files", "path",
		"paths", "dir", "url", "uri", "urls", "endpoint", "host", "len", "length", "size", "limit",
		"max", "min", "expiry", "expires", "expiration", "expire", "ttl", "timeout", "header",
		"headers", "field", "fields", "env", "var", "vars", "prefix", "suffix", "format", "kind",
		"usage", "regex", "pattern", "hint", "label", "enabled", "required", "mode", "policy",
		"provider", "source", "stdin", "helper", "store", "version", "index", "location", "ref",
		"arn", "param", "params", "rotation", "schema", "error", "errors", "message", "class",
		"handler", "manager", "cache", "exists", "set", "valid", "visible", "stripped", "budget"},
	// fileExtensions after a name's last '.' make it a file name:
	// token.ex, secrets.yaml.
	fileExtensions: []string{
		"go", "py", "js", "ts", "tsx", "jsx", "rb", "rs", "ex", "exs", "erl", "java", "kt", "c", "h",
		"cc", "cpp", "cs", "php", "sh", "md", "txt", "json", "yaml", "yml", "toml", "ini", "cfg",
		"conf", "xml", "html", "css", "sql", "lock", "log", "pem", "crt", "pub", "example", "sample",
		"template"},
}

type wordSets struct {
	strong, keyQualifiers, weak, metaTails, fileExtensions []string
}

// in reports whether the lower-cased w is in set, without allocating.
func in(set []string, w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return false
	}
	for i := 0; i < len(w); i++ {
		buf[i] = lower(w[i])
	}
	return slices.Contains(set, string(buf[:len(w)]))
}

// classify decides how secret a name looks from its components, split at
// '_', '-', '.' and camelCase boundaries, and which kind a redacted value
// gets.
func classify(name string) (nameStrength, string) {
	w := &nameWords
	strength := notSecret
	aws := false
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 && in(w.fileExtensions, name[dot+1:]) {
		return notSecret, "" // a file name: token.ex, secrets.yaml
	}
	upper := !strings.ContainsFunc(name, isLowerRune)
	var prev, last string
	forComponents(name, func(c string) {
		switch {
		case c == "":
			return
		case in(w.strong, c) || hasSuffixAnyFold(c, strongSuffixes):
			strength = strongName
		case strings.EqualFold(c, "key") && (upper || in(w.keyQualifiers, prev)):
			strength = strongName
		case in(w.weak, c):
			strength = max(strength, weakName)
		case strings.EqualFold(c, "aws"):
			aws = true
		}
		prev, last = c, c
	})
	if strength == notSecret || in(w.metaTails, last) {
		return notSecret, ""
	}
	if aws && strength == strongName && containsFold(name, "secret") {
		return strength, "aws-secret-key"
	}
	if strength == weakName {
		return strength, "generic-high-entropy"
	}
	return strength, "secret-assignment"
}

// forComponents calls fn with each component of a name.
func forComponents(name string, fn func(string)) {
	start := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c == '-' || c == '.' {
			fn(name[start:i])
			start = i + 1
			continue
		}
		if i > start && isUpper(c) {
			p := name[i-1]
			if isLower(p) || isDigit(p) || isUpper(p) && i+1 < len(name) && isLower(name[i+1]) {
				fn(name[start:i])
				start = i
			}
		}
	}
	fn(name[start:])
}

func hasSuffixAnyFold(s string, suffixes []string) bool {
	for _, w := range suffixes {
		if len(s) >= len(w) && strings.EqualFold(s[len(s)-len(w):], w) {
			return true
		}
	}
	return false
}

func isLowerRune(r rune) bool { return 'a' <= r && r <= 'z' }

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

package redact

import (
	"strings"
	"sync"
)

// findURLPasswords finds the password of scheme://user:password@host and
// redacts only it: the user and host tell the reader which service was
// meant. "<password>" and "${DB_PASSWORD}" are placeholders and stay.
func findURLPasswords(s string, dst []span) []span {
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "://")
		if k < 0 {
			break
		}
		a := i + k + 3 // the authority starts here
		at, e := -1, a
		for ; e < len(s) && !stopsAuthority(s[e]); e++ {
			if s[e] == '@' {
				at = e
			}
		}
		if at > a {
			if c := strings.IndexByte(s[a:at], ':'); c >= 0 {
				if pw := s[a+c+1 : at]; pw != "" && !placeholder(pw) {
					dst = append(dst, span{a + c + 1, at, "url-password"})
				}
			}
		}
		i = max(e, a)
	}
	return dst
}

func stopsAuthority(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\':
		return true
	}
	return false
}

var schemeTable = sync.OnceValue(func() *kwTable {
	return newKwTable([]keyword{{text: "bearer", fold: true}, {text: "basic", fold: true}})
})

// findAuthSchemes finds credentials after an HTTP authorization scheme,
// as in curl -H "Authorization: Bearer …" or "Basic dXNlcjpw…". The word
// after the scheme must look like a credential, not like prose ("Basic
// authentication", "Bearer token").
func findAuthSchemes(s string, dst []span) []span {
	next := 0
	schemeTable().each(s, func(pos int, k keyword) {
		end := pos + len(k.text)
		if pos < next || pos > 0 && isWordChar(s[pos-1]) {
			return
		}
		r := end
		for r < len(s) && (s[r] == ' ' || s[r] == '\t') {
			r++
		}
		if r == end || r-end > 4 {
			return
		}
		e := r
		for e < len(s) && isTokenChar(s[e]) {
			e++
		}
		for e > r && s[e-1] == '.' { // end of a sentence
			e--
		}
		if tok := s[r:e]; len(tok) >= 12 && credentialLike(tok) {
			kind := "bearer-token"
			if k.text == "basic" {
				kind = "basic-auth"
			}
			dst = append(dst, span{r, e, kind})
			next = e
		}
	})
	return dst
}

// credentialLike accepts tokens with a digit, a base64 symbol or an
// upper-case letter after a lower-case one, and enough variety not to be
// filler: "dXNlcjpwYXNz" and "eyJhbGci…" but not "configuration" or
// ".gitlab-ci.yml".
func credentialLike(tok string) bool {
	if placeholder(tok) || distinct(tok) < 6 || dottedPath(tok) || pathLike(tok) {
		return false
	}
	return strings.ContainsAny(tok, "0123456789+/=") || caseChanges(tok) > 0
}

// isTokenChar reports the characters of RFC 6750's b64token.
func isTokenChar(c byte) bool {
	return identStart(c) || isDigit(c) || strings.IndexByte("-._~+/=", c) >= 0
}

func isWordChar(c byte) bool { return identStart(c) || isDigit(c) }

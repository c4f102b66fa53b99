package redact

import (
	"encoding/base64"
	"strings"
)

// Credentials as developers type them on a command line or in a header,
// where no provider prefix and no "name = value" gives them away: the
// flag, the header or the command is the clue.

// findUserFlag finds the password of `-u user:password` and
// `--user[=| ]user:password` (curl, wget, httpie, Twilio's and Mailgun's
// documented calls): the part after the first colon; the user stays.
func findUserFlag(s string, dst []span) []span {
	n := len(dst)
	for _, kw := range [...]string{" -u", "--user"} {
		for i := 0; ; {
			j := strings.Index(s[i:], kw)
			if j < 0 {
				break
			}
			p := i + j + len(kw)
			i = p
			if p < len(s) && (s[p] == ' ' || s[p] == '=') {
				p++
			} else if kw == "--user" {
				continue // --username, --user-agent
			}
			for p < len(s) && s[p] == ' ' {
				p++
			}
			if p < len(s) && isQuote(s[p]) {
				p++
			}
			e := p
			for e < len(s) && !stopsFlagValue(s[e]) {
				e++
			}
			c := strings.IndexByte(s[p:e], ':')
			if c < 0 {
				continue
			}
			if v := s[p+c+1 : e]; len(v) >= 4 && !placeholder(v) {
				dst = append(dst, span{p + c + 1, e, "user-password"})
			}
		}
	}
	return sortSpans(dst, n)
}

func stopsFlagValue(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || isQuote(c)
}

// passwordFlags are commands whose short flag takes a password: the value
// glued to -p for the MySQL family (mysql -pSecret; a separate word after
// -p is the database), the next word for the others.
var passwordFlags = [...]struct {
	cmd, flag string
	glued     bool
}{
	{"mysql", " -p", true}, {"mariadb", " -p", true},
	{"sshpass", " -p", false}, {"redis-cli", " -a", false},
	{"docker login", " -p", false}, {"podman login", " -p", false}, {"helm registry login", " -p", false},
}

// findPasswordFlags finds the password given to such a flag on the line
// of such a command.
func findPasswordFlags(s string, dst []span) []span {
	n := len(dst)
	for _, pf := range passwordFlags {
		for i := 0; ; {
			j := strings.Index(s[i:], pf.cmd)
			if j < 0 {
				break
			}
			start := i + j
			i = start + len(pf.cmd)
			if start > 0 && isWordChar(s[start-1]) {
				continue
			}
			line := s[start:]
			if k := strings.IndexByte(line, '\n'); k >= 0 {
				line = line[:k]
			}
			for k := 0; ; {
				f := strings.Index(line[k:], pf.flag)
				if f < 0 {
					break
				}
				p := k + f + len(pf.flag)
				k = p
				if pf.glued {
					if p >= len(line) || line[p] == ' ' {
						continue
					}
				} else {
					if p >= len(line) || line[p] != ' ' {
						continue
					}
					for p < len(line) && line[p] == ' ' {
						p++
					}
				}
				q := p < len(line) && isQuote(line[p])
				if q {
					p++
				}
				e := p
				for e < len(line) && !(q && isQuote(line[e]) || !q && stopsFlagValue(line[e])) {
					e++
				}
				if v := line[p:e]; len(v) >= 3 && !placeholder(v) {
					dst = append(dst, span{start + p, start + e, "cli-password"})
				}
			}
		}
	}
	return sortSpans(dst, n)
}

// findAuthorization finds the credential of an Authorization header in
// any scheme (Token, Splunk, ApiKey, a custom one) or none: "Authorization:
// <scheme> <credential>" or "Authorization: <credential>". Bearer and Basic
// are found, and reported by kind, by findAuthSchemes.
func findAuthorization(s string, dst []span) []span {
	n := len(dst)
	for i := 0; ; {
		j := indexFold(s[i:], "authorization")
		if j < 0 {
			break
		}
		p := i + j + len("authorization")
		i = p
		for p < len(s) && (s[p] == '"' || s[p] == '\'') {
			p++
		}
		if p >= len(s) || s[p] != ':' && s[p] != '=' {
			continue
		}
		p++
		for p < len(s) && (s[p] == ' ' || s[p] == '"' || s[p] == '\'') {
			p++
		}
		w1 := p
		for w1 < len(s) && isTokenChar(s[w1]) {
			w1++
		}
		r, e := p, w1
		if w1 < len(s) && s[w1] == ' ' && w1 > p && w1-p <= 20 {
			w2 := w1 + 1
			for w2 < len(s) && isTokenChar(s[w2]) {
				w2++
			}
			if w2 > w1+1 {
				r, e = w1+1, w2 // a scheme, then the credential
			}
		}
		if tok := s[r:e]; len(tok) >= 8 && credentialLike(tok) {
			dst = append(dst, span{r, e, "authorization"})
		}
	}
	return sortSpans(dst, n)
}

// findProsePassword finds a password stated in prose: "the password is
// Hunter2-staging", "passphrase was …". The word after must look like a
// password (a digit, a symbol or mixed case, six characters or more), so
// "the password is required" stays.
func findProsePassword(s string, dst []span) []span {
	n := len(dst)
	for _, kw := range [...]string{"password is ", "password was ", "passphrase is ", "passphrase was ", "passwd is ", "pin is "} {
		for i := 0; ; {
			j := indexFold(s[i:], kw)
			if j < 0 {
				break
			}
			p := i + j + len(kw)
			i = p
			for p < len(s) && (s[p] == ' ' || isQuote(s[p])) {
				p++
			}
			e := p
			for e < len(s) && !stopsFlagValue(s[e]) {
				e++
			}
			for e > p && strings.IndexByte(",.;:)!?", s[e-1]) >= 0 {
				e--
			}
			if v := s[p:e]; len(v) >= 6 && !placeholder(v) && passwordLike(v) {
				dst = append(dst, span{p, e, "password"})
			}
		}
	}
	return sortSpans(dst, n)
}

// passwordLike accepts a word with a digit, a symbol, or an upper-case
// letter after a lower-case one.
func passwordLike(v string) bool {
	var dig, sym bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		dig = dig || isDigit(c)
		sym = sym || !isWordChar(c) && c != '-'
	}
	return dig || sym || caseChanges(v) > 1
}

// findTelegramToken finds a Telegram bot token, "<bot id>:AA<33+>", alone
// or in an api.telegram.org/bot… URL.
func findTelegramToken(s string, dst []span) []span {
	n := len(dst)
	for i := 0; ; {
		j := strings.Index(s[i:], ":AA")
		if j < 0 {
			break
		}
		c := i + j
		i = c + 3
		d := c
		for d > 0 && isDigit(s[d-1]) {
			d--
		}
		if c-d < 6 || c-d > 12 || d > 0 && isWordChar(s[d-1]) && !strings.HasSuffix(s[:d], "bot") {
			continue
		}
		e := c + 1
		for e < len(s) && (isWordChar(s[e]) || s[e] == '-') {
			e++
		}
		if e-c-1 >= 30 {
			dst = append(dst, span{d, e, "telegram-token"})
			i = e
		}
	}
	return sortSpans(dst, n)
}

// base64Prefixes are the base64 forms of secrets' starts, as `echo -n
// TOKEN | base64` and a Kubernetes Secret's data write them: ghp_, gho_,
// github_pat_, AKIA, sk-ant-, sk-proj-, xoxb-/xoxp-, -----BEGIN, glpat-,
// sk_live_, AIza, hvs.
var base64Prefixes = []string{"Z2hwX", "Z2hvX", "Z2l0aHViX3BhdF", "QUtJQ", "c2stYW50LW", "c2stcHJvai", "eG94Yi", "eG94cC", "LS0tLS1CRUdJTi", "Z2xwYXQt", "c2tfbGl2ZV", "QUl6Y", "aHZzL"}

// findBase64Secrets finds base64 text that decodes to a secret.
func findBase64Secrets(s string, dst []span) []span {
	n := len(dst)
	for _, kw := range base64Prefixes {
		for i := 0; ; {
			j := strings.Index(s[i:], kw)
			if j < 0 {
				break
			}
			p := i + j
			i = p + len(kw)
			if p > 0 && isBase64Char(s[p-1]) {
				continue
			}
			e := p
			for e < len(s) && isBase64Char(s[e]) {
				e++
			}
			for e < len(s) && s[e] == '=' {
				e++
			}
			run := s[p:e]
			dec, err := base64.StdEncoding.DecodeString(run)
			if err != nil {
				dec, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(run, "="))
			}
			if err == nil && len(dec) >= 8 && redactDecoded(string(dec)) != string(dec) {
				dst = append(dst, span{p, e, "base64-secret"})
				i = e
			}
		}
	}
	return sortSpans(dst, n)
}

// redactDecoded is String, reached through a variable: String's rules
// include this one, and the compiler refuses the cycle in static data.
var redactDecoded func(string) string

func init() { redactDecoded = String }

func isBase64Char(c byte) bool { return isWordChar(c) && c != '_' || c == '+' || c == '/' }

// indexFold is strings.Index folding ASCII case, for a lower-case sub,
// without allocating.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if lower(s[i]) == sub[0] && hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}

// secretPrinters are commands whose output is a credential and nothing
// else worth keeping: `heroku auth:token` prints a bare token that no
// rule can tell from an id.
var secretPrinters = [...]string{
	"heroku auth:token", "gh auth token", "glab auth token",
	"gcloud auth print-access-token", "gcloud auth print-identity-token", "gcloud auth application-default print-access-token",
	"az account get-access-token", "aws sts get-session-token", "aws ecr get-login-password", "aws codeartifact get-authorization-token",
	"vault token create", "vault token lookup", "vault login", "vault read", "vault kv get",
	"npm token create", "npm token list", "kubectl create token", "doctl auth token",
	"op read", "pass show", "security find-generic-password", "security find-internet-password",
}

// PrintsSecret reports whether the output of the shell command cmd is a
// credential: a command above, or `aws configure get` of a secret or
// token. Its output is then kept as "[REDACTED:command-output]".
func PrintsSecret(cmd string) bool {
	for _, p := range secretPrinters {
		if i := strings.Index(cmd, p); i >= 0 && (i == 0 || !isWordChar(cmd[i-1])) {
			return true
		}
	}
	if i := strings.Index(cmd, "aws configure get"); i >= 0 {
		rest := strings.ToLower(cmd[i:])
		return strings.Contains(rest, "secret") || strings.Contains(rest, "token")
	}
	return false
}

// CommandOutput is what a secret-printing command's output becomes.
const CommandOutput = "[REDACTED:command-output]"

// findCookies finds the values of a Cookie or Set-Cookie header: every
// `name=value` of it whose value is more than a word (a session id, a
// CSRF token), not just the first or those with secret-looking names.
func findCookies(s string, dst []span) []span {
	n := len(dst)
	for i := 0; ; {
		j := indexFold(s[i:], "cookie:")
		if j < 0 {
			break
		}
		p := i + j + len("cookie:")
		i = p
		end := p
		for end < len(s) && s[end] != '\n' && s[end] != '\r' && !isQuote(s[end]) {
			end++
		}
		for _, part := range strings.Split(s[p:end], ";") {
			eq := strings.IndexByte(part, '=')
			if eq < 0 {
				p += len(part) + 1
				continue
			}
			v := strings.TrimSpace(part[eq+1:])
			vs := p + eq + 1 + strings.Index(part[eq+1:], v)
			if len(v) >= 8 && !placeholder(v) && !wordy(v) {
				dst = append(dst, span{vs, vs + len(v), "cookie"})
			}
			p += len(part) + 1
		}
		i = end
	}
	return sortSpans(dst, n)
}

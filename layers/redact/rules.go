package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// rule is one kind of secret: the literals that must occur for it to be
// possible, and the finder that locates it.
type rule struct {
	kinds        []string // kinds the rule reports; a pattern rule reports kinds[0]
	keywords     []string // case-sensitive literals
	foldKeywords []string // case-insensitive literals, lower case
	// Either a hand-written finder…
	find func(s string, dst []span) []span
	// …or a regular expression, compiled on first use (see pattern),
	// whose matches check (when not nil) vets, to let placeholders
	// through. An expression that begins with \b wants its keyword to
	// start a token (see inTokenRun).
	expr  string
	check func(string) bool
	// once compiles re, the expression anchored at a keyword, the first
	// time one of the rule's keywords occurs.
	once sync.Once
	re   *regexp.Regexp
}

// run finds the rule's secrets in s.
func (r *rule) run(s string, dst []span) []span {
	if r.find != nil {
		return r.find(s, dst)
	}
	return r.findPattern(s, dst)
}

// pattern returns the rule's compiled expression.
func (r *rule) pattern() *regexp.Regexp {
	r.once.Do(func() {
		r.re = regexp.MustCompile(`^(?:` + strings.TrimPrefix(r.expr, `\b`) + `)`)
	})
	return r.re
}

// rules is the rule set, in the order rules run. Private passages go
// first (they remove the most), provider tokens before the generic rules
// (so a GitHub token in TOKEN=… is reported as github-token), and Anthropic
// before OpenAI, whose "sk-" prefix Anthropic keys share.
//
// The token formats come from the providers' documentation: fixed
// prefixes, alphabets and lengths. Each pattern is compiled the first time
// one of its keywords occurs, never at start-up. The list is an array of
// constants that the compiler lays out as static data, so a hook process
// pays nothing to build it; its length bounds the prefilter's rule mask
// (a uint64), which the compiler checks through mask below.
var rules = [...]rule{
	{foldKeywords: []string{"<private"}, find: findPrivate},
	{kinds: []string{"private-key"}, keywords: []string{"-----BEGIN"},
		// PEM and PGP blocks; an unterminated block (a truncated tool
		// result) is redacted to the end of the text.
		expr: `-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`},
	{kinds: []string{"aws-access-key"}, keywords: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		// Access key ids: a four-letter type prefix and 16 upper-case
		// letters or digits (AKIA long-term, ASIA temporary).
		expr: `\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, check: notPlaceholder},
	{kinds: []string{"github-token"}, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		// Classic tokens (personal, OAuth, user-to-server,
		// server-to-server, refresh) and fine-grained personal tokens.
		expr: `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`, check: notPlaceholder},
	{kinds: []string{"gitlab-token"}, keywords: []string{"glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-", "glffct-"},
		expr: `\bgl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}`, check: notPlaceholder},
	{kinds: []string{"anthropic-key"}, keywords: []string{"sk-ant-"},
		// sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-…
		expr: `\bsk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20,}`, check: notPlaceholder},
	{kinds: []string{"openai-key"}, keywords: []string{"sk-"},
		// Legacy sk-…, project sk-proj-…, service-account sk-svcacct-…
		// and admin sk-admin-… keys. Long kebab-case words after "sk-"
		// are not keys: a key mixes cases and digits.
		expr: `\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`, check: mixedToken},
	{kinds: []string{"slack-token"}, keywords: []string{"xox", "xapp-"},
		// Bot, user, app, config and refresh tokens: xoxb-, xoxp-,
		// xoxa-, xoxo-, xoxs-, xoxr-, xoxe-, and app-level xapp-.
		expr: `\b(?:xox[abposre](?:\.[a-z0-9]+)?-[0-9A-Za-z-]{10,}|xapp-[0-9]+-[0-9A-Za-z-]{10,})`, check: notPlaceholder},
	{kinds: []string{"slack-webhook"}, keywords: []string{"https://hooks.slack.com", "http://hooks.slack.com"},
		expr: `(?:https?://)hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]+`},
	{kinds: []string{"stripe-key"}, keywords: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
		// Secret and restricted API keys, and webhook signing secrets.
		// Publishable keys (pk_…) are public by design.
		expr: `\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})`, check: notPlaceholder},
	{kinds: []string{"google-api-key"}, keywords: []string{"AIza"},
		expr: `\bAIza[0-9A-Za-z_-]{35,}`, check: notPlaceholder},
	{kinds: []string{"google-oauth"}, keywords: []string{"GOCSPX-", "ya29."},
		// OAuth client secrets and access tokens.
		expr: `\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[0-9A-Za-z_-]{20,})`, check: notPlaceholder},
	{kinds: []string{"npm-token"}, keywords: []string{"npm_"},
		expr: `\bnpm_[A-Za-z0-9]{36,}\b`, check: notPlaceholder},
	{kinds: []string{"huggingface-token"}, keywords: []string{"hf_", "api_org_"},
		expr: `\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`, check: notPlaceholder},
	{kinds: []string{"sendgrid-key"}, keywords: []string{"SG."},
		expr: `\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, check: notPlaceholder},
	{kinds: []string{"twilio-key"}, keywords: twilioPrefixes,
		// API key SIDs: "SK" and 32 hex digits.
		expr: `\bSK[0-9a-fA-F]{32}\b`, check: hexToken},
	{kinds: []string{"pypi-token"}, keywords: []string{"pypi-AgEIcHlwaS5vcmc"},
		expr: `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`},
	{kinds: []string{"digitalocean-token"}, keywords: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
		expr: `\bdo[opr]_v1_[a-f0-9]{64}\b`, check: notPlaceholder},
	{kinds: []string{"shopify-token"}, keywords: []string{"shpat_", "shpss_", "shpca_", "shppa_"},
		expr: `\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`, check: notPlaceholder},
	{kinds: []string{"vault-token"}, keywords: []string{"hvs.", "hvb.", "hvr."},
		// HashiCorp Vault service, batch and recovery tokens.
		expr: `\bhv[sbr]\.[A-Za-z0-9_-]{24,}`, check: notPlaceholder},
	{kinds: []string{"age-secret-key"}, keywords: []string{"AGE-SECRET-KEY-1"},
		expr: `AGE-SECRET-KEY-1[0-9A-Z]{50,}`},
	{kinds: []string{"docker-token"}, keywords: []string{"dckr_pat_", "dckr_oat_"},
		expr: `\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`, check: notPlaceholder},
	{kinds: []string{"mailgun-key"}, keywords: []string{"key-"},
		// Mailgun's private API keys: "key-" and 32 lower-case letters
		// and digits.
		expr: `\bkey-[0-9a-z]{32}\b`, check: mixedLowerDigits},
	{kinds: []string{"azure-sas"}, keywords: []string{"sig="},
		// The signature of an Azure shared access signature, base64
		// and URL-encoded: the rest of the SAS is metadata.
		expr: `\bsig=[A-Za-z0-9%+/=_-]{16,}`},
	{kinds: []string{"discord-webhook"}, keywords: []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"},
		expr: `discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}`},
	{kinds: []string{"teams-webhook"}, keywords: []string{"webhook.office.com/"},
		expr: `webhook\.office\.com/webhookb2/[A-Za-z0-9@/._-]+`},
	{kinds: []string{"telegram-token"}, keywords: []string{":AA"}, find: findTelegramToken},
	{kinds: []string{"base64-secret"}, keywords: base64Prefixes, find: findBase64Secrets},
	{kinds: []string{"jwt"}, keywords: []string{"eyJ"},
		// Header and payload are base64url JSON objects, so both
		// start with "eyJ" ({"); the signature may be empty.
		expr: `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`},
	{kinds: []string{"url-password"}, keywords: []string{"://"}, find: findURLPasswords},
	{kinds: []string{"bearer-token", "basic-auth"}, foldKeywords: []string{"bearer", "basic"}, find: findAuthSchemes},
	{kinds: []string{"authorization"}, foldKeywords: []string{"authorization"}, find: findAuthorization},
	{kinds: []string{"cookie"}, foldKeywords: []string{"cookie:"}, find: findCookies},
	{kinds: []string{"user-password"}, keywords: []string{" -u", "--user"}, find: findUserFlag},
	{kinds: []string{"cli-password"}, keywords: []string{"mysql", "mariadb", "sshpass", "redis-cli", "docker login", "podman login", "helm registry login"}, find: findPasswordFlags},
	{kinds: []string{"password"}, foldKeywords: []string{"password is ", "password was ", "passphrase is ", "passphrase was ", "passwd is ", "pin is "}, find: findProsePassword},
	{kinds: []string{"secret-assignment", "aws-secret-key", "generic-high-entropy"}, foldKeywords: nameKeywords, find: findNamed},
}

// mask fails to compile when there are more rules than bits in the
// prefilter's mask.
const mask uint64 = 1<<len(rules) - 1

// findPattern runs the rule's expression at each occurrence of one of its
// keywords (every expression starts with its keywords), so the cost is
// proportional to the occurrences, not to the length of the text.
func (r *rule) findPattern(s string, dst []span) []span {
	n := len(dst)
	boundary := strings.HasPrefix(r.expr, `\b`)
	re := r.pattern()
	for _, kw := range r.keywords {
		for i := 0; i < len(s); {
			j := strings.Index(s[i:], kw)
			if j < 0 {
				break
			}
			pos := i + j
			i = pos + 1
			if boundary && pos > 0 && inTokenRun(s[pos-1]) {
				continue
			}
			// Match within a window first: the regexp package's cost per
			// call grows with the input it is handed, and tokens are
			// short. A match that fills the window is redone in full.
			w := s[pos:min(len(s), pos+tokenWindow)]
			m := re.FindStringIndex(w)
			if m != nil && m[1] == len(w) && len(w) < len(s)-pos {
				m = re.FindStringIndex(s[pos:])
			}
			if m == nil && runsIntoBreak(w) {
				// A token continued over a line break (a wrapped
				// terminal line, a backslash continuation) that is too
				// short to be one on its own line. A token already
				// whole before the break is not joined to the next
				// line, which may begin another assignment.
				if e, ok := matchAcrossBreaks(re, w); ok {
					m = []int{0, e}
				}
			}
			if m == nil {
				continue
			}
			m[1] = urlEncodedTail(s, pos+m[1]) - pos
			// Past a rejected match too: a token inside a run of filler
			// is no token, and skipping keeps the scan linear.
			i = pos + m[1]
			if r.check == nil || r.check(s[pos:pos+m[1]]) {
				dst = append(dst, span{pos, pos + m[1], r.kinds[0]})
			}
		}
	}
	return sortSpans(dst, n)
}

// tokenWindow is how much text after a keyword a pattern first sees.
const tokenWindow = 512

// inTokenRun reports bytes that continue a token: a keyword right after
// one is inside a longer blob ("xoxb-xoxb-…", "task-sk-…"), not at the
// start of a token. Trying every such occurrence would also make a long
// blob cost quadratic time.
func inTokenRun(c byte) bool { return isWordChar(c) || c == '-' }

// sortSpans sorts dst[from:] by start and drops spans that overlap an
// earlier one.
func sortSpans(dst []span, from int) []span {
	added := dst[from:]
	if len(added) < 2 {
		return dst
	}
	slices.SortFunc(added, func(a, b span) int { return a.start - b.start })
	out := dst[:from+1]
	for _, sp := range added[1:] {
		if sp.start >= out[len(out)-1].end {
			out = append(out, sp)
		}
	}
	return out
}

// twilioPrefixes are "SK" and a hex digit: keywords are at least three
// bytes long.
var twilioPrefixes = []string{
	"SK0", "SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7", "SK8", "SK9",
	"SKa", "SKb", "SKc", "SKd", "SKe", "SKf", "SKA", "SKB", "SKC", "SKD", "SKE", "SKF",
}

// notPlaceholder rejects tokens whose body is filler such as
// "ghp_xxxxxxxx…" or "AKIA0000…": documentation, not credentials. The
// first four bytes (the prefix) are ignored.
func notPlaceholder(tok string) bool {
	if len(tok) > 4 {
		tok = tok[4:]
	}
	return distinct(tok) >= 6 && longestRun(tok) < 6
}

// mixedToken accepts tokens that mix upper case, lower case and digits, as
// generated keys do.
func mixedToken(tok string) bool {
	var up, lo, dig bool
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		up = up || 'A' <= c && c <= 'Z'
		lo = lo || 'a' <= c && c <= 'z'
		dig = dig || '0' <= c && c <= '9'
	}
	return up && lo && dig && notPlaceholder(tok)
}

// hexToken accepts hex bodies that have both digits and letters.
func hexToken(tok string) bool {
	var dig, let bool
	for i := 2; i < len(tok); i++ {
		c := lower(tok[i])
		dig = dig || '0' <= c && c <= '9'
		let = let || 'a' <= c && c <= 'f'
	}
	return dig && let && notPlaceholder(tok)
}

// mixedLowerDigits accepts tokens whose body mixes lower-case letters and
// digits, as generated keys do ("key-" and a word of 32 letters is not).
func mixedLowerDigits(tok string) bool {
	var lo, dig bool
	for i := 4; i < len(tok); i++ {
		lo = lo || isLower(tok[i])
		dig = dig || isDigit(tok[i])
	}
	return lo && dig && notPlaceholder(tok)
}

// atLineBreak reports whether a line break (or a backslash continuing
// the line) stands at s[i].
func atLineBreak(s string, i int) bool {
	return i < len(s) && (s[i] == '\n' || s[i] == '\r' || s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n')
}

// runsIntoBreak reports whether the token starting w runs into a line
// break: only then can it continue on the next line.
func runsIntoBreak(w string) bool {
	i := 0
	for i < len(w) && (isTokenChar(w[i]) || w[i] == '.' || w[i] == '-') {
		i++
	}
	return i > 0 && atLineBreak(w, i)
}

// matchAcrossBreaks matches re against w with its line breaks (and the
// indentation after them) taken out, and returns where in w the match ends
// when it crosses one.
func matchAcrossBreaks(re *regexp.Regexp, w string) (int, bool) {
	var b strings.Builder
	idx := make([]int, 0, len(w))
	firstBreak := -1
	for i := 0; i < len(w); i++ {
		if atLineBreak(w, i) {
			if firstBreak < 0 {
				firstBreak = b.Len()
			}
			for i < len(w) && (w[i] == '\\' || w[i] == '\n' || w[i] == '\r') {
				i++
			}
			for i < len(w) && (w[i] == ' ' || w[i] == '\t' || w[i] == '>') {
				i++
			}
			i--
			continue
		}
		b.WriteByte(w[i])
		idx = append(idx, i)
	}
	if firstBreak < 0 {
		return 0, false
	}
	m := re.FindStringIndex(b.String())
	if m == nil || m[1] <= firstBreak {
		return 0, false
	}
	return idx[m[1]-1] + 1, true
}

// urlEncodedTail extends a token that ends at s[e] over the URL-encoded
// rest of it ("…%2Drest"): percent escapes and the token characters
// between them.
func urlEncodedTail(s string, e int) int {
	for e+2 < len(s) && s[e] == '%' && isHex(s[e+1]) && isHex(s[e+2]) {
		e += 3
		for e < len(s) && (isWordChar(s[e]) || s[e] == '-') {
			e++
		}
	}
	return e
}

func isHex(c byte) bool { return isDigit(c) || 'a' <= lower(c) && lower(c) <= 'f' }

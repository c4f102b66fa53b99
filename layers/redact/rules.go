package redact

import (
	"regexp"
	"sync"
)

// rule is one kind of secret: the literals that must occur for it to be
// possible, and the finder that locates it.
type rule struct {
	kinds        []string // kinds find may report, for Kinds
	keywords     []string // case-sensitive literals
	foldKeywords []string // case-insensitive literals, lower case
	find         func(s string, dst []span) []span
}

// rules is the rule set, in the order rules run. Private passages go
// first (they remove the most), provider tokens before the generic rules
// (so a GitHub token in TOKEN=… is reported as github-token), and Anthropic
// before OpenAI, whose "sk-" prefix Anthropic keys share.
//
// The token formats come from the providers' documentation: fixed
// prefixes, alphabets and lengths. Each pattern is compiled the first time
// one of its keywords occurs, never at start-up.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{foldKeywords: []string{"<private"}, find: findPrivate},
		{kinds: []string{"private-key"}, keywords: []string{"PRIVATE KEY"},
			// PEM and PGP blocks; an unterminated block (a truncated tool
			// result) is redacted to the end of the text.
			find: pattern("private-key", `-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`, nil)},
		{kinds: []string{"aws-access-key"}, keywords: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
			// Access key ids: a four-letter type prefix and 16 upper-case
			// letters or digits (AKIA long-term, ASIA temporary).
			find: pattern("aws-access-key", `\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, notPlaceholder)},
		{kinds: []string{"github-token"}, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			// Classic tokens (personal, OAuth, user-to-server,
			// server-to-server, refresh) and fine-grained personal tokens.
			find: pattern("github-token", `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`, notPlaceholder)},
		{kinds: []string{"gitlab-token"}, keywords: []string{"glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-", "glffct-"},
			find: pattern("gitlab-token", `\bgl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}`, notPlaceholder)},
		{kinds: []string{"anthropic-key"}, keywords: []string{"sk-ant-"},
			// sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-…
			find: pattern("anthropic-key", `\bsk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20,}`, notPlaceholder)},
		{kinds: []string{"openai-key"}, keywords: []string{"sk-"},
			// Legacy sk-…, project sk-proj-…, service-account sk-svcacct-…
			// and admin sk-admin-… keys. Long kebab-case words after "sk-"
			// are not keys: a key mixes cases and digits.
			find: pattern("openai-key", `\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`, mixedToken)},
		{kinds: []string{"slack-token"}, keywords: []string{"xox", "xapp-"},
			// Bot, user, app, config and refresh tokens: xoxb-, xoxp-,
			// xoxa-, xoxo-, xoxs-, xoxr-, xoxe-, and app-level xapp-.
			find: pattern("slack-token", `\b(?:xox[abposre](?:\.[a-z0-9]+)?-[0-9A-Za-z-]{10,}|xapp-[0-9]+-[0-9A-Za-z-]{10,})`, notPlaceholder)},
		{kinds: []string{"slack-webhook"}, keywords: []string{"hooks.slack.com"},
			find: pattern("slack-webhook", `https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]+`, nil)},
		{kinds: []string{"stripe-key"}, keywords: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
			// Secret and restricted API keys, and webhook signing secrets.
			// Publishable keys (pk_…) are public by design.
			find: pattern("stripe-key", `\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})`, notPlaceholder)},
		{kinds: []string{"google-api-key"}, keywords: []string{"AIza"},
			find: pattern("google-api-key", `\bAIza[0-9A-Za-z_-]{35,}`, notPlaceholder)},
		{kinds: []string{"google-oauth"}, keywords: []string{"GOCSPX-", "ya29."},
			// OAuth client secrets and access tokens.
			find: pattern("google-oauth", `\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[0-9A-Za-z_-]{20,})`, notPlaceholder)},
		{kinds: []string{"npm-token"}, keywords: []string{"npm_"},
			find: pattern("npm-token", `\bnpm_[A-Za-z0-9]{36,}\b`, notPlaceholder)},
		{kinds: []string{"huggingface-token"}, keywords: []string{"hf_", "api_org_"},
			find: pattern("huggingface-token", `\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`, notPlaceholder)},
		{kinds: []string{"sendgrid-key"}, keywords: []string{"SG."},
			find: pattern("sendgrid-key", `\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, notPlaceholder)},
		{kinds: []string{"twilio-key"}, keywords: []string{"SK"},
			// API key SIDs: "SK" and 32 hex digits.
			find: pattern("twilio-key", `\bSK[0-9a-fA-F]{32}\b`, hexToken)},
		{kinds: []string{"pypi-token"}, keywords: []string{"pypi-AgEIcHlwaS5vcmc"},
			find: pattern("pypi-token", `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, nil)},
		{kinds: []string{"digitalocean-token"}, keywords: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
			find: pattern("digitalocean-token", `\bdo[opr]_v1_[a-f0-9]{64}\b`, notPlaceholder)},
		{kinds: []string{"shopify-token"}, keywords: []string{"shpat_", "shpss_", "shpca_", "shppa_"},
			find: pattern("shopify-token", `\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`, notPlaceholder)},
		{kinds: []string{"jwt"}, keywords: []string{"eyJ"},
			// Header and payload are base64url JSON objects, so both
			// start with "eyJ" ({"); the signature may be empty.
			find: pattern("jwt", `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`, nil)},
		{kinds: []string{"url-password"}, keywords: []string{"://"}, find: findURLPasswords},
		{kinds: []string{"bearer-token", "basic-auth"}, foldKeywords: []string{"bearer", "basic"}, find: findAuthSchemes},
		{kinds: []string{"secret-assignment", "aws-secret-key", "generic-high-entropy"}, foldKeywords: nameKeywords, find: findNamed},
	}
})

// pattern returns a finder for a regular expression compiled on first use.
// check, when not nil, vets each match (to let placeholders through).
func pattern(kind, expr string, check func(string) bool) func(string, []span) []span {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	return func(s string, dst []span) []span {
		for _, m := range re().FindAllStringIndex(s, -1) {
			if check == nil || check(s[m[0]:m[1]]) {
				dst = append(dst, span{m[0], m[1], kind})
			}
		}
		return dst
	}
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

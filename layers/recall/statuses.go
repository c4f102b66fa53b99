package recall

import (
	"slices"
	"strings"
)

// HTTP statuses. A question may say an endpoint answered with a status:
// "the 500 the review-context endpoint threw", "getting 413 Payload Too
// Large from Bandit", "returning 500s for expired tokens". A status is
// written as its number, in the output that printed it, the code that
// sends it and what is said of it, always beside a word of its kind
// (status, error, HTTP, returned, Forbidden); memory that holds the
// number only as something else (@debounce_ms 500, a batch of 500) never
// saw the endpoint answer so. Ten never-happened questions of the
// eval's sets state a status, three of them with a number memory holds
// otherwise; no answerable one does.

// statusBefore are the words after which a number of 400 to 599 is a
// status ("got a 500", "returned 403", "answered with 413").
var statusBefore = []string{
	"a", "answer", "answered", "answering", "gave", "get", "getting", "gets", "giving", "got", "hit", "hitting",
	"http", "respond", "responded", "responding", "return", "returned", "returning", "returns", "sent",
	"sending", "status", "the", "threw", "throw", "throwing", "throws", "with",
}

// statusWords say that a number beside them is a status: in a question
// after it ("403 Forbidden", "500 errors"), in memory either side of it.
var statusWords = []string{
	"code", "error", "errors", "fail", "failed", "failing", "fails", "forbidden", "found", "gateway",
	"gets", "getting", "got", "http", "internal", "payload", "put_status", "resp", "response",
	"responses", "returned", "returning", "returns", "send_resp", "status", "threw", "unauthorized",
	"unavailable", "unprocessable",
}

// statusReach is how many bytes either side of a number memory's text is
// read for a word of status.
const statusReach = 40

// statusesOf gives the HTTP statuses a question's words state.
func statusesOf(ws []string, tok *tokenizer) []string {
	var out []string
	for i, w := range ws {
		code, plural := strings.CutSuffix(w, "s")
		if !statusNumber(code) {
			continue
		}
		var prev, next string
		if i > 0 {
			prev = ws[i-1]
		}
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		told := plural || slices.Contains(statusWords, next) || slices.Contains(statusBefore, prev) && counted(next, tok) == "" && countNoun(next, settingNouns, tok) == ""
		if told && !slices.Contains(out, code) {
			out = append(out, code)
		}
	}
	return out
}

// statusNumber reports whether w is a number an HTTP error is: 400 to
// 599.
func statusNumber(w string) bool {
	return len(w) == 3 && allDigits(w) && (w[0] == '4' || w[0] == '5')
}

// holdsStatus reports whether memory holds code as a status: beside a
// word of status, or in the plural ("401s"), in a record holding it. A
// number in more records than a claim reads is taken as held.
func (ix *Index) holdsStatus(code string) bool {
	if ix.df(code)+ix.df(code+"s") > claimScan {
		return true
	}
	for _, t := range []string{code, code + "s"} {
		for at, d := range ix.docsHolding(t) {
			if statusIn(strings.ToLower(ix.docText(at, d)), code) {
				return true
			}
		}
	}
	return false
}

// statusIn reports whether text, lower case, writes code as a number with
// a word of status within statusReach bytes of it.
func statusIn(text, code string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], code)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(code)
		from = end
		if i > 0 && isWordRune(rune(text[i-1])) || end < len(text) && isWordRune(rune(text[end])) && text[end] != 's' {
			continue
		}
		if end < len(text) && text[end] == 's' && (end+1 == len(text) || !isWordRune(rune(text[end+1]))) {
			return true // statuses by their number ("the 401s on login")
		}
		window := text[max(0, i-statusReach):min(len(text), end+statusReach)]
		for _, w := range strings.FieldsFunc(window, func(r rune) bool { return !isWordRune(r) }) {
			if slices.Contains(statusWords, w) {
				return true
			}
		}
	}
}

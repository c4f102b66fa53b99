package recall

import (
	"slices"
	"strings"
	"unicode"
)

// Versions. A question may state the version of a dependency: "when we
// bumped phoenix_live_view to 1.2", "why did mix deps.get pull lazy_html
// 0.2.0". A version is written as a number, never in other words, and
// memory that saw it holds it where it holds the dependency (the mix.exs
// line, the deps.get output); memory that holds the dependency without it
// never saw that version (four never-happened questions of the eval, each
// in a set of its own, state a dependency's version; no answerable one
// does).

// version is a version a question states of a dependency.
type version struct{ dep, v string }

// versionReach is how many words before its version a dependency may be
// named ("bumped opentelemetry_api to 1.6").
const versionReach = 4

// versions gives the versions a question's fields state of a dependency
// named before them in snake_case (lazy_html) or as code.
func versions(fields []string) []version {
	var out []version
	for i, f := range fields {
		v := strings.TrimPrefix(codeWord(f), "v")
		if line, ok := strings.CutSuffix(v, ".x"); ok && versionNumber(line+".0") {
			v = line + ".x" // a line of releases: "opentelemetry_phoenix 1.x"
		} else if !versionNumber(v) || i+1 < len(fields) && slices.Contains(quantityUnits, strings.ToLower(codeWord(fields[i+1]))) {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-versionReach; j-- {
			w := codeWord(fields[j])
			if strings.ContainsAny(fields[j], ",;?") && j < i-1 {
				break
			}
			if dependencyName(w) {
				out = append(out, version{strings.ToLower(w), v})
				break
			}
		}
	}
	return out
}

// quantityUnits are the words after a number that say it is a quantity,
// not a version: "2.5 seconds".
var quantityUnits = []string{"%", "days", "gb", "hours", "kb", "lines", "mb", "minutes", "ms", "percent", "s", "seconds", "times", "x"}

// versionNumber reports whether w is a version: two or three numbers
// joined by dots (1.2, 0.2.0).
func versionNumber(w string) bool {
	parts := strings.Split(w, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsDigit(r) }) >= 0 {
			return false
		}
	}
	return true
}

// dependencyName reports whether w names a dependency as a manifest
// writes it: lower-case words joined by underscores (lazy_html,
// opentelemetry_api).
func dependencyName(w string) bool {
	return strings.Contains(w, "_") && strings.ToLower(w) == w &&
		strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) < 0
}

// holdsVersion reports whether a record of L1 that names the dependency
// writes the version just after it, or cannot tell: a dependency no record of L1 names,
// or one named in more than claimScan records.
func (ix *Index) holdsVersion(c version) bool {
	read, named := 0, false
	for at, d := range ix.docsHolding(c.dep) {
		if read++; read > claimScan {
			return true
		}
		if d.Layer != layerL1 {
			continue
		}
		f, _ := ix.l1Record(at, d)
		named = true
		for _, s := range [...]string{f.text, f.cmd, f.diff, f.res, f.arg} {
			ws := countWords(s)
			for i, w := range ws {
				if !strings.Contains(w, c.dep) {
					continue
				}
				for _, next := range ws[i+1 : min(len(ws), i+1+versionAfter)] {
					if writesVersion(next, c.v) {
						return true
					}
				}
			}
		}
	}
	return !named
}

// versionAfter is how many words after its dependency a record writes
// its version: `lazy_html 0.1.10`, `{:opentelemetry_phoenix, "~> 2.0"}`.
const versionAfter = 2

// writesVersion reports whether s writes version v whole, or a release of
// it (1.2.3 for 1.2; 1.4 or 1.10 for the line 1.x): not 11.2, 1.23 or
// 0.1.2.
func writesVersion(s, v string) bool {
	line, ofLine := strings.CutSuffix(v, ".x")
	if ofLine {
		v = line + "."
	}
	for i := 0; ; {
		k := strings.Index(s[i:], v)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(v)
		before := at == 0 || !isVersionByte(s[at-1])
		var after bool
		if ofLine {
			after = end < len(s) && isDigit(rune(s[end]))
		} else {
			after = end == len(s) || !isDigit(rune(s[end])) && (s[end] != '.' || end+1 == len(s) || isDigit(rune(s[end+1])))
		}
		if before && after {
			return true
		}
		i = at + 1
	}
}

// isVersionByte reports whether b may belong to a version's number.
func isVersionByte(b byte) bool { return b == '.' || b >= '0' && b <= '9' }

// Downgrades told in words. A question may say a dependency was taken
// back to an older release without the word "downgrade" (a thing of
// things.txt): "why did we have to roll the LiveView library back to an
// older version", "why did we pin the syntax highlighting npm package
// back to the 10.x line". Memory that saw one tells it in its words (a
// downgrade, an older or previous version); memory that never does saw
// none, whatever it holds of the dependency (nine questions of nine sets,
// each written on its own, say a dependency was downgraded, three of them
// in other words; no answerable one does).

// olderWords say that a release is older than the one in use.
var olderWords = []string{"older", "earlier", "previous", "prior", "lower"}

// releaseWords name a release of a dependency.
var releaseWords = []string{"version", "versions", "release", "releases"}

// backVerbs take a dependency back to a release: "roll X back to", "pin X
// back to".
var backVerbs = []string{"roll", "rolled", "rolling", "pin", "pinned", "pinning", "take", "took", "taking", "move", "moved", "moving", "bring", "brought", "go", "went", "drop", "dropped"}

// backReach is how many words after "back to" the release may come, and
// how far after its verb "back" may be.
const backReach = 6

// saysDowngrade reports whether a question's words (countWords) say in
// other words that a dependency went back to an older release: a verb of
// taking back, "back", and within a few words "to" and an older release
// ("an older version") or a version's number ("10.x", "1.8"), or a verb
// of pinning near an older release. The word "downgrade" itself is a
// thing (things.txt), judged as one.
func saysDowngrade(ws []string) bool {
	for i, w := range ws {
		if pinned(ws, i) {
			return true
		}
		if !slices.Contains(backVerbs, w) {
			continue
		}
		for j := i + 1; j+1 < len(ws) && j <= i+backReach; j++ {
			if ws[j] != "back" || ws[j+1] != "to" {
				continue
			}
			rest := ws[j+2 : min(len(ws), j+2+backReach)]
			for k, r := range rest {
				older := slices.Contains(olderWords, r) && k+1 < len(rest) && slices.Contains(releaseWords, rest[k+1])
				number := versionNumber(strings.TrimPrefix(r, "v")) || strings.HasSuffix(r, ".x") && versionNumber(strings.TrimSuffix(r, ".x")+".0")
				if older || number {
					return true
				}
			}
		}
	}
	return false
}

// pinned reports whether ws[i] is a verb of pinning with an older
// release a few words before or after it, its name between ("which older
// lazy_html version did we pin to").
func pinned(ws []string, i int) bool {
	if !slices.Contains(pinVerbs, ws[i]) {
		return false
	}
	near := ws[max(0, i-backReach):min(len(ws), i+backReach+1)]
	for k, o := range near {
		if slices.Contains(olderWords, o) && slices.ContainsFunc(near[k+1:min(len(near), k+3)], func(r string) bool { return slices.Contains(releaseWords, r) }) {
			return true
		}
	}
	return false
}

// pinVerbs hold a dependency at a release.
var pinVerbs = []string{"pin", "pinned", "pinning", "lock", "locked", "locking"}

// holdsDowngrade reports whether a record of memory tells of a downgrade:
// the word, or an older release ("the previous version").
func (ix *Index) holdsDowngrade(tok *tokenizer) bool {
	if ix.df(tok.stem("downgraded")) > 0 { // downgrade, downgrading: one stem
		return true
	}
	read := 0
	for _, o := range olderWords {
		for at, d := range ix.docsHoldingWith(tok.stem(o), []string{tok.stem("version"), tok.stem("release")}) {
			if read++; read > claimScan {
				return true
			}
			ws := countWords(ix.docText(at, d))
			for i, w := range ws {
				if w == o && i+1 < len(ws) && slices.Contains(releaseWords, ws[i+1]) {
					return true
				}
			}
		}
	}
	return false
}

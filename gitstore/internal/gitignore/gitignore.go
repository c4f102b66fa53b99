// Package gitignore matches paths against git's exclude patterns
// (gitignore(5)): memkeep must not commit a memory file the user told git
// to ignore. It covers what memkeep meets under .claude/memory: `*`, `?`
// and `[…]` within a path segment, `**` across segments, a leading or
// inner `/` anchoring the pattern to its file's folder, a trailing `/` for
// folders only, `!` to re-include, and `\` escapes.
package gitignore

import (
	"path"
	"strings"
)

// Pattern is one line of an exclude file.
type Pattern struct {
	domain   []string // folder of the file the pattern came from
	segs     []string // the pattern split at "/"
	negate   bool
	dirOnly  bool
	anchored bool // contains a "/" before its end: relative to domain
}

// Parse reads one non-empty, non-comment line of an exclude file found in
// the folder domain (nil for the repository root and global files).
func Parse(line string, domain []string) Pattern {
	p := Pattern{domain: domain}
	line = trimTrailingSpace(line)
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		p.anchored = true
	}
	line = strings.TrimPrefix(line, "/")
	p.segs = strings.Split(line, "/")
	return p
}

// trimTrailingSpace drops trailing spaces unless the last is escaped.
func trimTrailingSpace(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	if strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-2] + " "
	}
	return s
}

// match reports whether the pattern matches the path itself, given as
// segments from the repository root. (Folders above it are Matcher's
// business: git decides a path by the patterns that match it, once no
// folder above it is excluded.)
func (p Pattern) match(segs []string, isDir bool) bool {
	if len(segs) <= len(p.domain) {
		return false
	}
	for i, d := range p.domain {
		if segs[i] != d {
			return false
		}
	}
	if p.dirOnly && !isDir {
		return false
	}
	return p.matchSegs(segs[len(p.domain):])
}

func (p Pattern) matchSegs(rel []string) bool {
	if !p.anchored {
		// A pattern without a slash matches a name at any depth.
		return len(p.segs) == 1 && glob(p.segs[0], rel[len(rel)-1])
	}
	return matchFrom(p.segs, rel)
}

// MatchPath matches a slash-separated path against a wildmatch pattern
// as git's WM_PATHNAME does: `*`, `?` and `[…]` within a segment, `**`
// across any number of segments (git's includeIf "gitdir:" and
// "onbranch:" use it).
func MatchPath(pattern, p string) bool {
	return matchFrom(strings.Split(pattern, "/"), strings.Split(p, "/"))
}

// matchFrom matches pattern segments against path segments, "**" standing
// for any number of segments, including none.
func matchFrom(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				// A trailing "/**" matches what is inside, not the
				// folder itself (gitignore(5)).
				return len(segs) > 0
			}
			for i := 0; i <= len(segs); i++ {
				if matchFrom(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !glob(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// glob matches one segment; "**" inside a segment behaves like "*".
func glob(pattern, name string) bool {
	pattern = strings.ReplaceAll(pattern, "**", "*")
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// Matcher applies patterns in order: the last one that matches decides.
type Matcher struct{ pats []Pattern }

// NewMatcher returns a matcher over patterns in file order (global files
// first, deeper folders last).
func NewMatcher(pats []Pattern) Matcher { return Matcher{pats: pats} }

// Match reports whether the path (segments from the repository root) is
// excluded: a folder above it is excluded (git does not look inside an
// excluded folder, so nothing in it can be re-included), or the last
// pattern that matches the path itself excludes it.
func (m Matcher) Match(segs []string, isDir bool) bool {
	for n := 1; n < len(segs); n++ {
		if m.decides(segs[:n], true) {
			return true
		}
	}
	return m.decides(segs, isDir)
}

// decides applies the last pattern that matches the path itself.
func (m Matcher) decides(segs []string, isDir bool) bool {
	for i := len(m.pats) - 1; i >= 0; i-- {
		if m.pats[i].match(segs, isDir) {
			return !m.pats[i].negate
		}
	}
	return false
}

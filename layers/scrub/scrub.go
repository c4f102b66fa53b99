// Package scrub is the single point through which text reaches committed
// memory: secrets are redacted (layers/redact) and the machine's paths are
// made repo-relative, or home-relative ("~/…"), so that no user name or
// machine layout is committed (SPEC: paths are repo-relative). L1, the
// event stream and the records people and agents add all go through it.
package scrub

import (
	"path"
	"strings"

	"github.com/memkeep/memkeep/layers/redact"
)

// Text is s with its secrets redacted and the absolute paths in it made
// relative to root (the project's work tree) or to the home folder.
func Text(s, root string) string { return redact.String(Paths(s, root)) }

// Path is a tool's target file p, relative to root or the home folder,
// redacted.
func Path(p, root string) string { return redact.String(relPath(p, root)) }

// Bound drops from s what cleaning it cannot need when no more than its
// first n characters are kept: everything past SecretSpan bytes beyond
// them (4n bytes hold n characters), the drop ending at a separator so
// that the word it would split, a secret maybe, goes whole. (Cleaning can
// shrink what comes first, a private key to one mark, and bring the
// drop's edge within the n characters.) Callers clean the result, then
// cut it to n characters.
func Bound(s string, n int) string {
	if limit := 4*n + SecretSpan; len(s) > limit {
		s = s[:strings.LastIndexAny(s[:limit+1], " \t\n\r\"'`=:,;()[]{}<>|&")+1]
	}
	return s
}

// SecretSpan bounds the length of a one-line secret, for Bound.
const SecretSpan = 8 << 10

// homePrefixes are the folders a path is made home-relative under, so that
// no user name or machine layout reaches committed memory.
var homePrefixes = []string{"/home/", "/Users/"}

// relPath makes p repo-relative when it lies under root, "~/…" when it lies
// in a home folder, and leaves other paths (/tmp/x, /etc/hosts) alone.
func relPath(p, root string) string {
	if root != "" {
		root = strings.TrimSuffix(root, "/")
		if p == root {
			return "."
		}
		if rest, ok := strings.CutPrefix(p, root+"/"); ok {
			return path.Clean(rest)
		}
	}
	return homeRel(p)
}

func homeRel(p string) string {
	if rest, ok := strings.CutPrefix(p, "/root/"); ok {
		return "~/" + rest
	}
	for _, h := range homePrefixes {
		if rest, ok := strings.CutPrefix(p, h); ok {
			if _, tail, ok := strings.Cut(rest, "/"); ok {
				return "~/" + tail
			}
			return "~"
		}
	}
	return p
}

// Paths rewrites absolute paths inside free text (commands, prompts,
// assistant prose) the way Path rewrites a target file, and redacts
// nothing.
func Paths(s, root string) string {
	if root = strings.TrimSuffix(root, "/"); root != "" && strings.Contains(s, root) {
		s = replaceRoot(s, root)
	}
	if strings.Contains(s, "/home/") || strings.Contains(s, "/Users/") || strings.Contains(s, "/root/") {
		s = rewriteHomes(s)
	}
	return s
}

// replaceRoot rewrites root/x as x and root alone as ".", wherever root
// stands as a whole path: not inside another ("/x/work/p") and not the
// start of a sibling's name ("/work/pother", "/work/p-old").
func replaceRoot(s, root string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, root)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(root)
		switch {
		case i > 0 && pathByte(s[i-1]):
			b.WriteString(s[:end])
		case end < len(s) && s[end] == '/':
			b.WriteString(s[:i])
			end++
		case end == len(s) || !pathByte(s[end]):
			b.WriteString(s[:i])
			b.WriteByte('.')
		default:
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

// pathByte reports the bytes that continue a path's name.
func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 ||
		strings.IndexByte("._-/~+@", c) >= 0
}

// rewriteHomes replaces "/home/<user>/" (and macOS and root's homes) with
// "~/" wherever it starts a path in s.
func rewriteHomes(s string) string {
	var b strings.Builder
	for {
		i, plen := -1, 0
		for _, h := range append(homePrefixes, "/root/") {
			if j := strings.Index(s, h); j >= 0 && (i < 0 || j < i) {
				i, plen = j, len(h)
			}
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+plen:]
		if s[i:i+plen] == "/root/" {
			b.WriteString("~/")
			s = rest
			continue
		}
		// Skip the user name: up to the next slash, or the end of the word.
		end := strings.IndexAny(rest, "/ \t\n\"'`")
		if end < 0 {
			b.WriteString("~")
			return b.String()
		}
		if rest[end] == '/' {
			b.WriteString("~/")
			s = rest[end+1:]
		} else {
			b.WriteString("~")
			s = rest[end:]
		}
	}
}

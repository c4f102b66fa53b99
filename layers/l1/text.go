package l1

import (
	"path"
	"strings"

	"github.com/memkeep/memkeep/layers/redact"
)

// redactText is the single point through which text enters L1.
func redactText(s string) string { return redact.String(s) }

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

// relativize rewrites absolute paths inside free text (commands, prompts,
// assistant prose) the way relPath rewrites a target file.
func relativize(s, root string) string {
	if root != "" && strings.Contains(s, root) {
		root = strings.TrimSuffix(root, "/")
		s = strings.ReplaceAll(s, root+"/", "")
		s = strings.ReplaceAll(s, root, ".")
	}
	if strings.Contains(s, "/home/") || strings.Contains(s, "/Users/") || strings.Contains(s, "/root/") {
		s = rewriteHomes(s)
	}
	return s
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

package redact

import "strings"

// findPrivate finds <private>…</private> passages. Tags are matched
// case-insensitively and may carry attributes (<private reason="…">); a
// passage may span lines and nest (the outermost pair wins), and one that
// is never closed runs to the end of the text, because text someone marked
// private must not leak for want of a closing tag. A stray closing tag is
// left alone: there is nothing before it to hide.
func findPrivate(s string, dst []span) []span {
	for i := 0; i < len(s); {
		start, end, kind := nextPrivateTag(s, i)
		if start < 0 {
			return dst
		}
		if kind != tagOpen {
			if kind == tagEmpty {
				dst = append(dst, span{start, end, ""})
			}
			i = end
			continue
		}
		depth, j, stop := 1, end, len(s)
		for depth > 0 {
			_, e, k := nextPrivateTag(s, j)
			if e < 0 {
				break
			}
			switch k {
			case tagOpen:
				depth++
			case tagClose:
				depth--
			}
			j = e
			if depth == 0 {
				stop = e
			}
		}
		dst = append(dst, span{start, stop, ""})
		i = stop
	}
	return dst
}

type tagKind int

const (
	tagOpen  tagKind = iota
	tagClose         // </private>
	tagEmpty         // <private/>
)

// nextPrivateTag finds the first private tag at or after i and returns its
// bounds, or -1, -1 when there is none.
func nextPrivateTag(s string, i int) (start, end int, kind tagKind) {
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			return -1, -1, 0
		}
		p := i + lt
		j, kind := p+1, tagOpen
		if j < len(s) && s[j] == '/' {
			j, kind = j+1, tagClose
		}
		if hasPrefixFold(s[j:], "private") {
			if e := tagEnd(s, j+len("private")); e > 0 {
				if kind == tagOpen && s[e-2] == '/' {
					kind = tagEmpty
				}
				return p, e, kind
			}
		}
		i = p + 1
	}
	return -1, -1, 0
}

// tagEnd returns the offset after the '>' closing a tag whose name ends at
// j, or -1 when s[j:] does not continue a tag (as in "<privateKey>").
func tagEnd(s string, j int) int {
	if j >= len(s) {
		return -1
	}
	switch s[j] {
	case '>':
		return j + 1
	case '/', ' ', '\t', '\n', '\r':
		// Attributes (or "/>"): up to the next '>', within reason.
		rest := s[j:min(len(s), j+256)]
		if gt := strings.IndexByte(rest, '>'); gt >= 0 && !strings.ContainsAny(rest[:gt], "<") {
			return j + gt + 1
		}
	}
	return -1
}

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix,
// ignoring case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

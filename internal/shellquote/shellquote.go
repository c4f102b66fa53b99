// Package shellquote quotes words for a POSIX shell. memkeep writes shell
// command lines in three places — the hook commands in Claude Code's
// settings, the merge driver in git's config, and the commands the Stop
// hook asks the agent to run — and all of them must survive paths and
// text with spaces and quotes.
package shellquote

import "strings"

// Quote returns s as one shell word: as it is when it holds only
// characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

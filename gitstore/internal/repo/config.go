package repo

import (
	"github.com/memkeep/memkeep/gitstore/internal/gitignore"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is git's layered configuration as memkeep needs it: system,
// global (XDG and ~/.gitconfig), repository, and per-worktree files, later
// ones winning, with include.path followed where it appears, as git does,
// and includeIf followed when its gitdir:, gitdir/i: or onbranch:
// condition holds (hasconfig: is not evaluated).
type Config struct {
	entries []configEntry // in file and layer order; the last one wins
}

// conditions is what includeIf conditions are tested against, found the
// first time a condition is (most configurations have none).
type conditions struct {
	gitDir, commonDir string
	found             bool
	gitDirs           []string // the git dir, absolute, and its real path
	branch            string   // HEAD's branch, short ("main"); "" when detached
}

func (c *conditions) find() {
	if c.found {
		return
	}
	c.found = true
	if abs, err := filepath.Abs(c.gitDir); err == nil {
		c.gitDirs = append(c.gitDirs, filepath.ToSlash(abs))
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			c.gitDirs = append(c.gitDirs, filepath.ToSlash(real))
		}
	}
	// The branch HEAD ends at, through symbolic refs, as a commit moves it.
	if h, err := (&Repo{GitDir: c.gitDir, CommonDir: c.commonDir}).ReadHead(); err == nil {
		c.branch = strings.TrimPrefix(h.Branch, "refs/heads/")
	}
}

// ExpandHome makes a path that starts with "~/" start with the home
// folder instead, as git reads paths in its configuration.
func ExpandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// holds reports whether an includeIf condition holds, for a config file
// at path (gitdir patterns may be relative to it).
func (c *conditions) holds(cond, path string) bool {
	c.find()
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return c.gitDirMatches(cond[len("gitdir:"):], path, false)
	case strings.HasPrefix(cond, "gitdir/i:"):
		return c.gitDirMatches(cond[len("gitdir/i:"):], path, true)
	case strings.HasPrefix(cond, "onbranch:"):
		pat := cond[len("onbranch:"):]
		if strings.HasSuffix(pat, "/") {
			pat += "**"
		}
		return c.branch != "" && gitignore.MatchPath(pat, c.branch)
	}
	return false
}

// gitDirMatches follows git-config(1): "~/" is the home folder, "./" the
// folder of the config file, a relative pattern may match at any depth,
// and a trailing "/" matches everything below.
func (c *conditions) gitDirMatches(pat, path string, icase bool) bool {
	switch {
	case strings.HasPrefix(pat, "~/"):
		home, _ := os.UserHomeDir()
		pat = filepath.ToSlash(home) + pat[1:]
	case strings.HasPrefix(pat, "./"):
		pat = filepath.ToSlash(filepath.Dir(path)) + pat[1:]
	case !strings.HasPrefix(pat, "/"):
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	for _, d := range c.gitDirs {
		if icase {
			pat, d = strings.ToLower(pat), strings.ToLower(d)
		}
		if gitignore.MatchPath(pat, d) {
			return true
		}
	}
	return false
}

// configEntry is one variable: name is "section.key" or
// "section.subsection.key", section and key lower-cased. A key with no '='
// at all has noValue set (true for a boolean, unlike "key =").
type configEntry struct {
	name, value string
	noValue     bool
}

// LoadConfig reads every layer that exists; unreadable or malformed files
// are skipped, because a broken global config must not stop a memory
// commit.
func LoadConfig(gitDir, commonDir string) *Config {
	c := &Config{}
	cond := &conditions{gitDir: gitDir, commonDir: commonDir}
	add := func(path string) {
		// A file git would reject is skipped whole.
		if ents, err := readConfigFile(path, 0, cond); err == nil {
			c.entries = append(c.entries, ents...)
		}
	}
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		add(firstNonEmpty(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		add(g)
	} else {
		home, _ := os.UserHomeDir()
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			add(filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			add(filepath.Join(home, ".gitconfig"))
		}
	}
	add(filepath.Join(commonDir, "config"))
	if c.Bool("extensions", "worktreeconfig", false) {
		add(filepath.Join(gitDir, "config.worktree"))
	}
	return c
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// maxIncludeDepth is git's limit on nested include.path.
const maxIncludeDepth = 10

// readConfigFile parses a config file and splices in the files its
// include.path variables name, right after the include, as git does. A
// missing include is ignored, as in git; so is a malformed one (git would
// stop), like any malformed layer.
func readConfigFile(path string, depth int, cond *conditions) ([]configEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ents, err := parseConfig(b)
	if err != nil {
		return nil, err
	}
	if depth >= maxIncludeDepth {
		return ents, nil
	}
	var out []configEntry
	for _, e := range ents {
		out = append(out, e)
		if e.noValue || e.value == "" {
			continue
		}
		if e.name != "include.path" {
			rest, isIf := strings.CutPrefix(e.name, "includeif.")
			cnd, isPath := strings.CutSuffix(rest, ".path")
			if !isIf || !isPath || !cond.holds(cnd, path) {
				continue
			}
		}
		inc := ExpandHome(e.value)
		if !filepath.IsAbs(inc) {
			inc = filepath.Join(filepath.Dir(path), inc)
		}
		if sub, err := readConfigFile(inc, depth+1, cond); err == nil {
			out = append(out, sub...)
		}
	}
	return out, nil
}

// errConfigSyntax is a line git's config parser rejects.
type errConfigSyntax int

func (e errConfigSyntax) Error() string { return "bad config line " + strconv.Itoa(int(e)) }

// configParser follows git's config.c: a character stream where "\r\n"
// reads as "\n" and the end of the file as a final "\n".
type configParser struct {
	b    []byte
	pos  int
	line int
	eof  bool
}

func (p *configParser) next() byte {
	if p.pos >= len(p.b) {
		p.eof = true
		return '\n'
	}
	c := p.b[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.b) && p.b[p.pos] == '\n' {
		c = '\n'
		p.pos++
	}
	if c == '\n' {
		p.line++
	}
	return c
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isAlpha(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseConfig parses the text of one config file into its variables, in
// order, with git's rules: "[section]", "[section "subsection"]" (the
// subsection case-sensitive, with \" and \\ escapes) and the old
// "[section.subsection]" (lower-cased); keys case-insensitive, made of
// letters, digits and '-', starting with a letter; "key" alone, or
// "key = value" where the value has its outer blanks trimmed, keeps inner
// ones, may be partly double-quoted (quotes keep blanks, ';' and '#'),
// knows the escapes \" \\ \n \t \b and continues on the next line after
// a final backslash; ';' and '#' start comments.
func parseConfig(b []byte) ([]configEntry, error) {
	b = bytesTrimBOM(b)
	p := &configParser{b: b, line: 1}
	var out []configEntry
	var section []byte // "section." or "section.subsection."
	comment := false
	for {
		c := p.next()
		if c == '\n' {
			if p.eof {
				return out, nil
			}
			comment = false
			continue
		}
		if comment || isSpace(c) {
			continue
		}
		if c == '#' || c == ';' {
			comment = true
			continue
		}
		if c == '[' {
			s, ok := p.sectionHeader()
			if !ok || len(s) == 0 {
				return nil, errConfigSyntax(p.line)
			}
			section = append(s, '.')
			continue
		}
		if !isAlpha(c) {
			return nil, errConfigSyntax(p.line)
		}
		// A key before any section header is listed by git but never
		// found by a lookup; so it is here.
		name := append(append([]byte(nil), section...), lower(c))
		e, ok := p.variable(name)
		if !ok {
			return nil, errConfigSyntax(p.line)
		}
		out = append(out, e)
	}
}

func bytesTrimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		return b[3:]
	}
	return b
}

// sectionHeader reads what follows '[' up to ']'.
func (p *configParser) sectionHeader() ([]byte, bool) {
	var name []byte
	for {
		c := p.next()
		if p.eof {
			return nil, false
		}
		if c == ']' {
			return name, true
		}
		if isSpace(c) {
			return p.subsection(name, c)
		}
		if !isKeyChar(c) && c != '.' {
			return nil, false
		}
		name = append(name, lower(c))
	}
}

// subsection reads ` "subsection"]` after a section name.
func (p *configParser) subsection(name []byte, c byte) ([]byte, bool) {
	for isSpace(c) {
		if c == '\n' {
			return nil, false
		}
		c = p.next()
	}
	if c != '"' {
		return nil, false
	}
	name = append(name, '.')
	for {
		c := p.next()
		if c == '\n' {
			return nil, false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return nil, false
			}
		}
		name = append(name, c)
	}
	return name, p.next() == ']'
}

// variable reads the rest of a key (its first letter is in name) and its
// value, through the end of the line.
func (p *configParser) variable(name []byte) (configEntry, bool) {
	var c byte
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		name = append(name, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	e := configEntry{name: string(name)}
	if c == '\n' {
		e.noValue = true
		return e, true
	}
	if c != '=' {
		return e, false
	}
	v, ok := p.value()
	e.value = v
	return e, ok
}

// value is git's parse_value.
func (p *configParser) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	trim := 0 // length to cut back to at the end (0: none)
	for {
		c := p.next()
		if c == '\n' {
			if quote {
				return "", false
			}
			if trim > 0 {
				v = v[:trim]
			}
			return string(v), true
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if trim == 0 {
				trim = len(v)
			}
			if len(v) > 0 {
				v = append(v, c)
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		trim = 0
		if c == '\\' {
			switch c = p.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
			v = append(v, c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// lookup returns the last entry for section[.subsection].key; section and
// key are case-insensitive, the subsection is not.
func (c *Config) lookup(section, subsection, key string) (configEntry, bool) {
	name := strings.ToLower(section) + "."
	if subsection != "" {
		name += subsection + "."
	}
	name += strings.ToLower(key)
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].name == name {
			return c.entries[i], true
		}
	}
	return configEntry{}, false
}

// Get returns the last value of section[.subsection].key ("" for a key
// given without '=').
func (c *Config) Get(section, subsection, key string) (string, bool) {
	e, ok := c.lookup(section, subsection, key)
	return e.value, ok
}

// Bool reads a boolean option the way git spells them: a key without '='
// is true, an empty value false; a value git would reject as a boolean
// gives def.
func (c *Config) Bool(section, key string, def bool) bool {
	e, ok := c.lookup(section, "", key)
	if !ok {
		return def
	}
	if e.noValue {
		return true
	}
	if b, ok := parseBool(e.value); ok {
		return b
	}
	return def
}

// parseBool is git_parse_maybe_bool: true/yes/on, false/no/off (any case),
// "" (false), or an integer (non-zero is true).
func parseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	s := v
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false, false
	}
	zero := true
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] < '0' || s[i] > '9':
			// git also takes a unit suffix (k, m, g)
			if i == len(s)-1 && strings.IndexByte("kKmMgG", s[i]) >= 0 && i > 0 {
				continue
			}
			return false, false
		case s[i] != '0':
			zero = false
		}
	}
	return !zero, true
}

// Identity returns who a commit is by, with git's precedence: the
// GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL} environment, then author.*/committer.*,
// then user.*, then "memkeep <memkeep@localhost>". role is "author" or
// "committer".
func (c *Config) Identity(role string) (name, email string) {
	up := strings.ToUpper(role)
	name = os.Getenv("GIT_" + up + "_NAME")
	email = os.Getenv("GIT_" + up + "_EMAIL")
	if name == "" {
		name, _ = c.Get(role, "", "name")
	}
	if email == "" {
		email, _ = c.Get(role, "", "email")
	}
	if name == "" {
		name, _ = c.Get("user", "", "name")
	}
	if email == "" {
		email, _ = c.Get("user", "", "email")
	}
	if email == "" {
		email = os.Getenv("EMAIL")
	}
	name, email = withoutCrud(name), withoutCrud(email)
	if name == "" {
		name = "memkeep"
	}
	if email == "" {
		email = "memkeep@localhost"
	}
	return name, email
}

// withoutCrud cleans an identity part as git does when it writes one:
// leading and trailing blanks and punctuation go, and so do the
// delimiters of an identity line ('<', '>', newline) anywhere, so that the
// commit stays valid for git fsck.
func withoutCrud(s string) string {
	crud := func(c byte) bool { return c <= ' ' || strings.IndexByte(",:;<>\"\\'", c) >= 0 }
	for len(s) > 0 && crud(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && crud(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if strings.ContainsAny(s, "<>\n") {
		s = strings.Map(func(r rune) rune {
			if r == '<' || r == '>' || r == '\n' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// Fsync reports which of the files memkeep writes git would fsync under
// core.fsync: the index ("index", "added", "all") and refs ("reference",
// "committed", "added", "all"). Git's default set (objects and derived
// metadata) includes neither, so by default memkeep, like `git commit`,
// relies on write-to-lock-then-rename for atomicity and leaves durability
// across power loss to the file system.
func (c *Config) Fsync() (index, ref bool) {
	v, ok := c.Get("core", "", "fsync")
	if !ok {
		return false, false
	}
	for _, tok := range strings.Split(v, ",") {
		tok = strings.TrimSpace(strings.ToLower(tok))
		on := !strings.HasPrefix(tok, "-")
		switch strings.TrimPrefix(tok, "-") {
		case "none":
			index, ref = false, false
		case "index":
			index = on
		case "reference", "committed":
			ref = on
		case "added", "all":
			index, ref = on, on
		}
	}
	return index, ref
}

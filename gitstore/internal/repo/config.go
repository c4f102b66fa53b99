package repo

import (
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// Config is git's layered configuration as memkeep needs it: system,
// global (XDG and ~/.gitconfig), repository, and per-worktree files, later
// layers winning, with include.path followed one level deep. includeIf is
// not evaluated.
type Config struct {
	layers []*format.Config
}

// LoadConfig reads every layer that exists; unreadable files are skipped,
// because a broken global config must not stop a memory commit.
func LoadConfig(gitDir, commonDir string) *Config {
	c := &Config{}
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		c.add(firstNonEmpty(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		c.add(g)
	} else {
		home, _ := os.UserHomeDir()
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			c.add(filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			c.add(filepath.Join(home, ".gitconfig"))
		}
	}
	c.add(filepath.Join(commonDir, "config"))
	if v, _ := c.Get("extensions", "", "worktreeconfig"); v == "true" {
		c.add(filepath.Join(gitDir, "config.worktree"))
	}
	return c
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (c *Config) add(path string) { c.addDepth(path, 0) }

func (c *Config) addDepth(path string, depth int) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	cfg := format.New()
	if err := format.NewDecoder(f).Decode(cfg); err != nil {
		return
	}
	c.layers = append(c.layers, cfg)
	if depth > 2 {
		return
	}
	for _, inc := range cfg.Section("include").OptionAll("path") {
		if strings.HasPrefix(inc, "~/") {
			home, _ := os.UserHomeDir()
			inc = filepath.Join(home, inc[2:])
		} else if !filepath.IsAbs(inc) {
			inc = filepath.Join(filepath.Dir(path), inc)
		}
		c.addDepth(inc, depth+1)
	}
}

// Get returns the last value of section[.subsection].key.
func (c *Config) Get(section, subsection, key string) (string, bool) {
	for i := len(c.layers) - 1; i >= 0; i-- {
		cfg := c.layers[i]
		if !cfg.HasSection(section) {
			continue
		}
		s := cfg.Section(section)
		if subsection == "" {
			if s.HasOption(key) {
				return s.Option(key), true
			}
			continue
		}
		if s.HasSubsection(subsection) && s.Subsection(subsection).HasOption(key) {
			return s.Subsection(subsection).Option(key), true
		}
	}
	return "", false
}

// Bool reads a boolean option the way git spells them.
func (c *Config) Bool(section, key string, def bool) bool {
	v, ok := c.Get(section, "", key)
	if !ok {
		return def
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1", "":
		return true
	case "false", "no", "off", "0":
		return false
	}
	return def
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

package gitignore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgainstGit builds trees with nested .gitignore files and compares
// every path's verdict with `git check-ignore`.
func TestAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Run("nested", func(t *testing.T) { againstGit(t, nested) })
	// A whitelist: ignore everything, re-include folders and some files.
	// The folders' re-inclusion must not re-include the files in them.
	t.Run("whitelist", func(t *testing.T) {
		againstGit(t, map[string]string{
			".gitignore":                "*\n!*/\n!*.md\n!.gitignore\n",
			".claude/memory/facts.json": "",
			".claude/memory/memory.md":  "",
			"README.md":                 "",
			"src/a.go":                  "",
		})
	})
	// "dir/**" excludes what is inside dir, not dir: a negation can bring
	// a file back.
	t.Run("inside a folder", func(t *testing.T) {
		againstGit(t, map[string]string{
			".gitignore":                ".claude/memory/**\n!.claude/memory/notes.md\n",
			".claude/memory/notes.md":   "",
			".claude/memory/facts.json": "",
			".claude/memory/sessions/x": "",
		})
	})
	t.Run("re-included subtree", func(t *testing.T) {
		againstGit(t, map[string]string{
			".gitignore":                        ".claude/**\n!.claude/memory/\n!.claude/memory/**\n",
			".claude/settings.json":             "",
			".claude/memory/facts.json":         "",
			".claude/memory/sessions/x.l2.json": "",
		})
	})
	// Nothing inside an excluded folder can be re-included.
	t.Run("excluded folder", func(t *testing.T) {
		againstGit(t, map[string]string{
			".gitignore":                        "logs/\n!logs/keep.txt\n.claude/memory/sessions/\n!.claude/memory/sessions/*.l2.json\n",
			"logs/keep.txt":                     "",
			"logs/other.txt":                    "",
			".claude/memory/sessions/x.l2.json": "",
			".claude/memory/facts.json":         "",
		})
	})
}

var nested = map[string]string{
	".gitignore":                         "*.tmp\n/build/\n!keep.tmp\nlogs/**/*.log\ndocs/*.md\n\\#hash\ntrailing \n",
	".claude/.gitignore":                 "memory/cache/\n",
	".claude/memory/.gitignore":          "*.bak\n!important.bak\n/local.json\n",
	"a.tmp":                              "",
	"keep.tmp":                           "",
	"build/out.bin":                      "",
	"src/build/x.go":                     "",
	"logs/a/b/c.log":                     "",
	"logs/c.log":                         "",
	"docs/x.md":                          "",
	"docs/sub/y.md":                      "",
	"#hash":                              "",
	"trailing":                           "",
	".claude/memory/facts.json":          "",
	".claude/memory/old.bak":             "",
	".claude/memory/important.bak":       "",
	".claude/memory/local.json":          "",
	".claude/memory/sessions/local.json": "",
	".claude/memory/cache/x.json":        "",
}

func againstGit(t *testing.T, files map[string]string) {
	root := t.TempDir()
	var paths []string
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
		if !strings.HasSuffix(p, ".gitignore") {
			paths = append(paths, p)
		}
	}
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	var pats []Pattern
	for _, f := range []struct {
		file   string
		domain []string
	}{{".gitignore", nil}, {".claude/.gitignore", []string{".claude"}}, {".claude/memory/.gitignore", []string{".claude", "memory"}}} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.file)))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			pats = append(pats, Parse(line, f.domain))
		}
	}
	m := NewMatcher(pats)
	for _, p := range paths {
		cmd := exec.Command("git", "check-ignore", "-q", "--no-index", p)
		cmd.Dir = root
		gitSays := cmd.Run() == nil
		if got := m.Match(strings.Split(p, "/"), false); got != gitSays {
			t.Errorf("%s: memkeep says ignored=%v, git says %v", p, got, gitSays)
		}
	}
}

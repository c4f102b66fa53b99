package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memkeep/memkeep/internal/shellquote"
	"github.com/memkeep/memkeep/layers/memdir"
)

// GitAttributes is the content of .claude/memory/.gitattributes: memory
// files merge through memkeep's driver, and L1 transcripts are marked
// generated so code review tools fold them.
func GitAttributes() []byte {
	return []byte(`# memkeep: merge memory by record id so it never conflicts (memkeep merge-driver);
# memkeep writes these files byte for byte as it commits them: no line-ending
# conversion and no clean/smudge filter (git-crypt, LFS) applies to them.
* -text -filter
*.json merge=memkeep
*.jsonl merge=memkeep
memory.md merge=memkeep
sessions/*.l1.jsonl linguist-generated=true
`)
}

// DriverCommand is the merge.memkeep.driver value for the memkeep binary
// at memkeepCmd, shell-quoted when the path needs it.
func DriverCommand(memkeepCmd string) string {
	return shellquote.Quote(memkeepCmd) + " merge-driver %O %A %B %P"
}

const driverSection = `[merge "memkeep"]`

// InstallMergeDriver registers the driver in the repository's config
// (merge.memkeep.name and merge.memkeep.driver), replacing an earlier
// registration and leaving every other line of the file as it was. The
// config is rewritten under git's config.lock.
func InstallMergeDriver(l memdir.Layout, memkeepCmd string) error {
	section := driverSection + "\n" +
		"\tname = memkeep memory merge (union by record id)\n" +
		"\tdriver = \"" + configEscape(DriverCommand(memkeepCmd)) + "\"\n"
	return editConfig(l, func(lines []string) []string {
		return append(removeSection(lines), strings.Split(strings.TrimSuffix(section, "\n"), "\n")...)
	})
}

// UninstallMergeDriver removes the registration (a no-op when absent).
func UninstallMergeDriver(l memdir.Layout) error {
	return editConfig(l, removeSection)
}

func configEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// removeSection drops the [merge "memkeep"] section and its options.
func removeSection(lines []string) []string {
	var out []string
	skipping := false
	for _, ln := range lines {
		t := strings.TrimSpace(ln)
		if strings.HasPrefix(t, "[") {
			skipping = strings.EqualFold(strings.Join(strings.Fields(t), " "), driverSection)
		}
		if !skipping {
			out = append(out, ln)
		}
	}
	return out
}

func editConfig(l memdir.Layout, edit func([]string) []string) error {
	p := filepath.Join(l.CommonDir, "config")
	lock := p + ".lock"
	var f *os.File
	var err error
	for i := 0; i < 20; i++ {
		f, err = os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, os.ErrExist) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("lock git config: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(lock)
		}
	}()
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(b) == 0 {
		lines = nil
	}
	out := strings.Join(edit(lines), "\n") + "\n"
	if _, err := f.WriteString(out); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(lock, p); err != nil {
		return err
	}
	ok = true
	return nil
}

package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/memkeep/memkeep/gitstore"
	"github.com/memkeep/memkeep/layers/memdir"
)

// memoryAttributes is .claude/memory/.gitattributes as init writes it.
func memoryAttributes() []byte { return gitstore.GitAttributes() }

func installMergeDriver(l memdir.Layout, program string) error {
	return gitstore.InstallMergeDriver(l, program)
}

func uninstallMergeDriver(l memdir.Layout) error { return gitstore.UninstallMergeDriver(l) }

// mergeDriverStatus reads the repository config for memkeep's merge driver
// and returns whether it is there and its command.
func mergeDriverStatus(l memdir.Layout) (bool, string) {
	b, err := os.ReadFile(filepath.Join(l.CommonDir, "config"))
	if err != nil {
		return false, "cannot read the git config: " + err.Error()
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = strings.Join(strings.Fields(t), " ") == `[merge "memkeep"]`
			continue
		}
		if k, v, ok := strings.Cut(t, "="); in && ok && strings.TrimSpace(k) == "driver" {
			return true, "merge.memkeep.driver = " + strings.TrimSpace(v)
		}
	}
	return false, `no [merge "memkeep"] driver in the repository config: memory files would conflict in merges`
}

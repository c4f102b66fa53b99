package consolidate

import (
	"os"

	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
)

// MemoryFile is one file the SessionStart context is computed from, as
// it is on disk now.
type MemoryFile struct {
	Name  string // its path under .claude/memory
	Stamp string // fastfile.Stamp; "" when the file is absent
	path  string
	base  string // for a session's L2 file, its stem
}

// MemoryFiles lists facts.json, concepts.json and every session's L2
// file, stamped: what caches of memory are keyed by. The stamp is taken
// before a file is read, so a file that changes while it is read is read
// again next time.
func MemoryFiles(l memdir.Layout) ([]MemoryFile, error) {
	ss, err := l2.Sessions(l)
	if err != nil {
		return nil, err
	}
	files := make([]MemoryFile, 0, 2+len(ss))
	files = append(files, MemoryFile{Name: "facts.json", path: l.FactsFile()}, MemoryFile{Name: "concepts.json", path: l.ConceptsFile()})
	for _, s := range ss {
		files = append(files, MemoryFile{Name: "sessions/" + s.Base + ".l2.json", path: l.L2File(s.Base), base: s.Base})
	}
	for i := range files {
		if fi, err := os.Stat(files[i].path); err == nil {
			files[i].Stamp = fastfile.Stamp(fi)
		}
	}
	return files, nil
}

package consolidate

import (
	"os"
	"path/filepath"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Recall runs on every prompt (UserPromptSubmit), so it answers from the
// recall index under the git dir (l4.Index) instead of reading every
// memory file. Each file's part of the index is stamped with the file's
// metadata (size, times, inode); a file that changed since (the session
// under way, after each Stop) is read afresh and searched beside the
// index. When many files changed (a pull, a merge) or there is no index,
// Recall builds it again and saves it. Consolidation warms it in the
// background (WarmRecall) after a session ends.

// rebuildAfter is the number of changed files past which Recall builds
// the index again rather than reading them beside it.
const rebuildAfter = 8

func recallIndexPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "recall.idx") }

// MemoryFile is one file the recall index and the SessionStart context
// are computed from, as it is on disk now.
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

// readSources reads files into index sources; absent files have none.
func readSources(l memdir.Layout, files []MemoryFile) ([]l4.IndexSource, error) {
	var out []l4.IndexSource
	var sessions []MemoryFile
	var ss []l2.Session
	for _, f := range files {
		switch {
		case f.Stamp == "":
		case f.base != "":
			sessions = append(sessions, f)
			ss = append(ss, l2.Session{Base: f.base})
		case f.path == l.FactsFile():
			facts, err := l4.Load(f.path)
			if err != nil {
				return nil, err
			}
			out = append(out, l4.FactsSource(f.Name, f.Stamp, facts))
		case f.path == l.ConceptsFile():
			concepts, err := l3.Load(f.path)
			if err != nil {
				return nil, err
			}
			out = append(out, l4.ConceptsSource(f.Name, f.Stamp, concepts))
		}
	}
	for i, rs := range loadSessions(l, ss) {
		if rs.err != nil {
			return nil, rs.err
		}
		out = append(out, l4.SessionSource(sessions[i].Name, sessions[i].Stamp, CompleteSession(rs.file, sessions[i].base)))
	}
	return out, nil
}

// Recall searches L4 → L3 → L2 for the memories relevant to a query. It
// gives what l4.Search over the loaded memory gives.
func Recall(l memdir.Layout, query string, opts l4.SearchOptions) ([]l4.Hit, error) {
	files, err := MemoryFiles(l)
	if err != nil {
		return nil, err
	}
	// An index that cannot be read or decoded is built again below.
	if data, _, release, err := fastfile.Map(recallIndexPath(l)); err == nil {
		defer release()
		if ix, derr := l4.DecodeIndex(data); derr == nil {
			stale, changed := compareSources(ix, files)
			if len(changed) <= rebuildAfter {
				fresh, err := readSources(l, changed)
				if err != nil {
					return nil, err
				}
				return ix.Search(query, opts, stale, fresh), nil
			}
		}
	}
	ix, err := buildRecallIndex(l, files)
	if err != nil {
		return nil, err
	}
	return ix.Search(query, opts, nil, nil), nil
}

// compareSources marks the index's sources whose file changed or is gone,
// and lists the files that changed or that the index does not know.
func compareSources(ix *l4.Index, files []MemoryFile) (stale []bool, changed []MemoryFile) {
	now := make(map[string]string, len(files))
	for _, f := range files {
		now[f.Name] = f.Stamp
	}
	stale = make([]bool, ix.NumSources())
	indexed := make(map[string]string, ix.NumSources())
	for i := range stale {
		name, stamp := ix.Source(i)
		indexed[name] = stamp
		stale[i] = now[name] != stamp
	}
	for _, f := range files {
		if stamp, ok := indexed[f.Name]; f.Stamp != "" && (!ok || stamp != f.Stamp) {
			changed = append(changed, f)
		}
	}
	return stale, changed
}

// buildRecallIndex reads every memory file, saves the index and returns it.
// A failure to save only costs the next prompt the same work.
func buildRecallIndex(l memdir.Layout, files []MemoryFile) (*l4.Index, error) {
	sources, err := readSources(l, files)
	if err != nil {
		return nil, err
	}
	data, err := l4.EncodeIndex(sources)
	if err != nil {
		return nil, err
	}
	_ = atomicfile.WriteFile(recallIndexPath(l), data, 0o644)
	return l4.DecodeIndex(data)
}

// WarmRecall builds the recall index from the memory as it is now, so
// that the next prompts search it at once. Consolidation calls it after a
// session's memory settled.
func WarmRecall(l memdir.Layout) error {
	files, err := MemoryFiles(l)
	if err != nil {
		return err
	}
	_, err = buildRecallIndex(l, files)
	return err
}

package consolidate

import (
	"os"

	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/render"
)

// ContextSources is what a SessionStart context was computed from:
// facts.json's and concepts.json's stamps, and the sessions it looked at,
// newest first, each with its L2 file's stamp. The stamps are taken before
// the files are read, so a file that changes while it is read is read
// again next time.
type ContextSources struct {
	Facts, Concepts string
	// Sessions are the newest sessions, down to the last one the context
	// looked at (sessions without exchanges are passed over on the way).
	Sessions []SessionStamp
	// All is set when the context looked at every session there was (not
	// enough held exchanges): then an older session added matters too.
	All bool
}

// SessionStamp is a session's base and its L2 file's stamp ("" when it
// has none).
type SessionStamp struct {
	Base, Stamp string
}

// ContextWithSources is Context, and what it was computed from.
func ContextWithSources(l memdir.Layout, opts render.ContextOptions) (string, ContextSources, error) {
	src := ContextSources{Facts: stampOf(l.FactsFile()), Concepts: stampOf(l.ConceptsFile())}
	v, err := openView(l)
	if err != nil {
		return "", src, err
	}
	recent, scanned, err := v.recent(render.ContextSessions)
	if err != nil {
		return "", src, err
	}
	v.saveIndex()
	src.Sessions = scanned
	src.All = len(scanned) == len(v.bases)
	return render.Context(render.Memory{Facts: v.facts, Concepts: v.concepts, Sessions: recent}, opts), src, nil
}

// Unchanged reports whether the memory is still as the context saw it:
// facts.json and concepts.json, and the newest sessions the same ones
// with the same stamps. Only those few files are looked at, so that a
// SessionStart with thousands of sessions does not stat them all; a
// session that changed where the context did not look cannot change it.
func (s ContextSources) Unchanged(l memdir.Layout) bool {
	if stampOf(l.FactsFile()) != s.Facts || stampOf(l.ConceptsFile()) != s.Concepts {
		return false
	}
	ss, err := l2.Sessions(l)
	if err != nil || len(ss) < len(s.Sessions) || s.All && len(ss) != len(s.Sessions) {
		return false
	}
	for i, seen := range s.Sessions {
		if ss[len(ss)-1-i].Base != seen.Base || stampOf(l.L2File(seen.Base)) != seen.Stamp {
			return false
		}
	}
	return true
}

// stampOf is a file's fastfile.Stamp, "" when it cannot be stat'ed.
func stampOf(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fastfile.Stamp(fi)
}

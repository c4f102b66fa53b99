package recall

import (
	"slices"
	"strings"
)

// Work and its modules. A question may place a part of the code in a
// piece of work: "back in the spotter-4te OpenTelemetry epic, how did we
// set up the ActiveSessionRegistry sweep". Memory that saw the part in
// that work names it in a session that names the work; memory that names
// the two only in different sessions saw the part elsewhere (the registry
// was built in spotter-a0y, and the 4te session never names it).

// workModule is a module a question names with a piece of work.
type workModule struct {
	work   string
	module codeName
}

// workModules gives the modules (CamelCase names) a question names
// beside the first branch or bead it names.
func workModules(fields []string) []workModule {
	work := ""
	var mods []codeName
	for _, f := range fields {
		w := codeWord(f)
		switch {
		case work == "" && workName(strings.ToLower(w)):
			work = strings.ToLower(w)
		case moduleName(w) && !strings.Contains(w, "."):
			if n, ok := codeNameOf(w); ok && !slices.ContainsFunc(mods, func(m codeName) bool { return m.as == n.as }) {
				mods = append(mods, n)
			}
		}
	}
	if work == "" {
		return nil
	}
	out := make([]workModule, 0, len(mods))
	for _, m := range mods {
		out = append(out, workModule{work, m})
	}
	return out
}

// workScan is the most records of a module holdsWorkModule reads for one
// in a session of the work.
const workScan = 4 * claimScan

// holdsWorkModule reports whether a session naming the work names the
// module too. A work no command names, or a work or a module memory never
// names or names in more records than are read, is not judged here.
func (ix *Index) holdsWorkModule(c workModule) bool {
	if df := ix.df(c.work); df == 0 || df > workScan {
		return true
	}
	// A work is named in a command (bd update spotter-4te.1, git push
	// origin spotter-a0y): "per-line" or "row/col" is written as one
	// and is none.
	sessions, commanded := map[string]bool{}, false
	for at, d := range ix.docsHolding(c.work) {
		sessions[sessionOf(ix.sourceName(at))] = true
		if !commanded && d.Layer == layerL1 && d.Kind == kindTool {
			f, _ := ix.l1Record(at, d)
			commanded = strings.Contains(strings.ToLower(f.cmd), c.work)
		}
	}
	if !commanded {
		return true
	}
	named, read := false, 0
	for _, form := range c.module.forms {
		for at := range ix.docsHolding(form) {
			if read++; read > workScan {
				return true
			}
			named = true
			if sessions[sessionOf(ix.sourceName(at))] {
				return true
			}
		}
	}
	return !named
}

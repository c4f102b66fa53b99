package recall

import (
	"path"
	"slices"
	"strings"
)

// Code placed in a file. A question may say in which file a piece of code
// was put: "why did we put the with_span macro in
// lib/spotter/telemetry/otel.ex". Memory that saw it there holds the name
// in an edit or a write of that file, or names the file near it in words;
// memory that holds the name only in other files' edits, and never near
// the file, saw it put elsewhere (two sets, each written on its own, put
// with_span in otel.ex; memory wrote it in otel_trace_helpers.ex).

// definedIn is a name of code a question puts in a file.
type definedIn struct {
	name codeName
	file string // the file's name, lower case
}

// defineVerbs say a name of code was written into a file.
var defineVerbs = append([]string{"define", "defined", "defines", "declared", "wrote", "written"}, placeVerbs...)

// defineReach is how many words after its verb the name may come, and
// after the name "in" and the file.
const defineReach = 4

// definedIns gives the names of code a question's fields put in a file:
// a verb of placing or defining, a name of code that is no file's after
// it or just before, then "in" or "into" and a file's name or path.
func definedIns(fields []string) []definedIn {
	var out []definedIn
	for i, f := range fields {
		if !slices.Contains(defineVerbs, strings.ToLower(codeWord(f))) {
			continue
		}
		// The name comes after the verb ("put X in"), or just before it
		// ("X was defined in").
		from := i + 1
		for j := i - 1; j >= max(0, i-2); j-- {
			if w := codeWord(fields[j]); !fileName(lastPathPart(w)) {
				if _, ok := codeNameOf(w); ok {
					from = j
					break
				}
			}
		}
		for j := from; j < len(fields) && j <= i+defineReach; j++ {
			w := codeWord(fields[j])
			n, ok := codeNameOf(w)
			if !ok || fileName(lastPathPart(w)) {
				if strings.ContainsAny(fields[j], ",;?") {
					break
				}
				continue
			}
			for k := j + 1; k < len(fields) && k <= j+defineReach; k++ {
				if lk := strings.ToLower(fields[k]); lk != "in" && lk != "into" {
					continue
				}
				for _, g := range fields[k+1 : min(len(fields), k+3)] {
					if file := lastPathPart(codeWord(g)); fileName(file) {
						out = append(out, definedIn{n, strings.ToLower(file)})
						break
					}
				}
				break
			}
			break
		}
	}
	return out
}

// fileNear is how many words apart memory's prose may name the code and
// its file.
const fileNear = 12

// holdsDefinedIn reports whether memory holds the name in an edit or
// write of the file, or names the file within fileNear words of it, or
// cannot tell: a file or a name memory never holds (judged as names), or
// past claimScan records.
func (ix *Index) holdsDefinedIn(c definedIn, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(c.name.forms[len(c.name.forms)-1], tok))
	if term == "" || ix.fileNameTerm(c.file, tok) == "" {
		return true
	}
	read := 0
	for at, d := range ix.docsHolding(term) {
		if read++; read > claimScan {
			return true
		}
		var text string
		if d.Layer == layerL1 {
			f, _ := ix.l1Record(at, d)
			if f.file != "" && strings.EqualFold(path.Base(f.file), c.file) && slices.Contains(editTools, f.tool) {
				return true
			}
			text = f.joined()
		} else {
			text = ix.docText(at, d)
		}
		ws := countWords(text)
		for i, w := range ws {
			if !c.name.heldBy(w) {
				continue
			}
			for _, v := range ws[max(0, i-fileNear):min(len(ws), i+fileNear+1)] {
				if lastPathPart(v) == c.file {
					return true
				}
			}
		}
	}
	return false
}

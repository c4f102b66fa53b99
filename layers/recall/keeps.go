package recall

import (
	"path"
	"slices"
	"strings"
)

// Files kept. A question may say a file was kept: "why did we keep the
// hand-written …_add_unique_index_messages_session_uuid.exs migration
// instead of the one Ash codegen generated". Memory that saw a command
// delete the file (rm, git rm), and none write it again after, saw the
// other choice made: the file was not kept (never43 asks why the
// migration memory saw deleted was kept; the answerable questions about a
// file not kept deny the verb: "why didn't we keep the auto-generated
// migration").

// keepVerbs say that a file was kept, the file named after them.
var keepVerbs = []string{"keep", "keeping", "kept", "leave", "leaving", "left", "retain", "retained", "retaining"}

// denyWords deny the verb that follows them within keepNegReach words.
var denyWords = []string{"didn't", "didn’t", "don't", "don’t", "not", "never", "no", "couldn't", "couldn’t", "wasn't", "wasn’t",
	"weren't", "weren’t", "instead", "rather", "without", "cannot", "can't", "can’t", "won't", "won’t", "wouldn't", "wouldn’t"}

// keepNegReach is how many words before a verb of keeping may deny it.
const keepNegReach = 3

// denied reports whether a word of denying stands within reach words
// before words[i], fields or countWords alike: "why didn't we keep",
// "instead of adding", "why not the ledger rig".
func denied(words []string, i, reach int) bool {
	return slices.ContainsFunc(words[max(0, i-reach):i], func(w string) bool {
		return slices.Contains(denyWords, strings.ToLower(codeWord(w)))
	})
}

// keptFiles gives the files a question's words (countWords) say were
// kept: a file's name within three words after a verb of keeping that no
// word just before denies.
func keptFiles(ws []string) []string {
	var out []string
	for i, w := range ws {
		if !slices.Contains(keepVerbs, w) || denied(ws, i, keepNegReach) {
			continue
		}
		for j := i + 1; j < len(ws) && j <= i+3; j++ {
			if f := lastPathPart(ws[j]); fileWord(f) {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
				break
			}
		}
	}
	return out
}

// holdsKept reports whether memory never deleted the file with a command
// it did not write again after, or cannot tell: past claimScan records
// holding its name and a command's tool name.
func (ix *Index) holdsKept(file string, tok *tokenizer) bool {
	term := ix.fileNameTerm(file, tok)
	if term == "" {
		return true // a file memory never names is judged as a name
	}
	deleted, written := "", ""
	read := 0
	for at, d := range ix.docsHolding(term) {
		if read++; read > claimScan {
			return true
		}
		if d.Layer != layerL1 || d.Kind != kindTool {
			continue
		}
		f, _ := ix.l1Record(at, d)
		switch {
		case f.tool == "Bash" && !f.failed && slices.Contains(filesDeleted(f.cmd), file) && f.ts > deleted:
			deleted = f.ts
		case slices.Contains(editTools, f.tool) && strings.EqualFold(path.Base(f.file), file) && f.ts > written:
			written = f.ts
		}
	}
	return deleted == "" || written > deleted
}

// filesDeleted gives the names of the files a shell command deletes (rm,
// git rm), lower case.
func filesDeleted(cmd string) []string {
	var out []string
	for _, part := range commandParts(strings.ToLower(cmd)) {
		args, ok := gitOrPlain(commandWords(part), "rm")
		if !ok {
			continue
		}
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				out = append(out, path.Base(strings.Trim(a, `"'`)))
			}
		}
	}
	return out
}

package recall

import (
	"path"
	"slices"
	"strings"
	"unicode"
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
// word just before denies, or a migration's, written without its
// extension before "migration" ("keep the hand-written
// add_unique_index_messages_session_uuid migration": three sets asked
// why the migration memory deleted for Ash's own was kept), or the
// timestamp that opens a migration's file ("keep our hand-written
// 20260212165422 unique-index migration").
func keptFiles(ws []string) []string {
	var out []string
	for i, w := range ws {
		if !slices.Contains(keepVerbs, w) || denied(ws, i, keepNegReach) {
			continue
		}
		for j := i + 1; j < len(ws) && j <= i+3; j++ {
			f := lastPathPart(ws[j])
			if fileWord(f) || migrationStamp(f) || j+1 < len(ws) && strings.HasPrefix(ws[j+1], "migration") && migrationName(f) {
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
		case f.tool == "Bash" && !f.failed && slices.ContainsFunc(filesDeleted(f.cmd), func(d string) bool { return isKeptFile(d, file) }) && f.ts > deleted:
			deleted = f.ts
		case slices.Contains(editTools, f.tool) && isKeptFile(strings.ToLower(path.Base(f.file)), file) && f.ts > written:
			written = f.ts
		}
	}
	return deleted == "" || written > deleted
}

// migrationName reports whether w is a migration's name written without
// its extension: snake_case words, with or without the timestamp that
// opens its file (20260212165422_add_unique_index_messages_session_uuid).
func migrationName(w string) bool {
	return strings.Contains(w, "_") && !strings.ContainsAny(w, "./:-") && strings.IndexFunc(w, unicode.IsLetter) >= 0 &&
		strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) < 0
}

// migrationStamp reports whether w is the timestamp that opens a
// migration's file name: fourteen digits, a year to a second.
func migrationStamp(w string) bool { return len(w) == 14 && allDigits(w) }

// isKeptFile reports whether a file's name is the one a question names: the
// same, or, for a migration named without its extension, the name before
// it, whole or after its timestamp.
func isKeptFile(file, named string) bool {
	if file == named || migrationStamp(named) && strings.HasPrefix(file, named+"_") {
		return true
	}
	if !migrationName(named) {
		return false
	}
	stem, _, _ := strings.Cut(file, ".")
	ts, rest, ok := strings.Cut(stem, "_")
	return stem == named || ok && rest == named && allDigits(ts)
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

// Counts kept. A question may say a limit was kept: "why did we keep the
// 5-line cap on tool results". Memory that removed it tells so, a word
// of removing just before the count ("Removed silent 5-line
// truncation"); memory that tells it removed and never kept saw the
// other choice made (a fresh set asked why the 5-line cap the renderer
// upgrade removed was kept).

// keptCounts gives the counts a question's words (countWords, which
// write "5-line" as 5 and line) say were kept: a number and the word
// after it within three words after a verb of keeping no word just
// before denies.
func keptCounts(ws []string) []string {
	var out []string
	for i, w := range ws {
		if !slices.Contains(keepVerbs, w) || denied(ws, i, keepNegReach) {
			continue
		}
		for j := i + 1; j+1 < len(ws) && j <= i+3; j++ {
			if allDigits(ws[j]) && isAlpha(ws[j+1]) {
				out = append(out, ws[j]+"-"+ws[j+1])
				break
			}
		}
	}
	return out
}

// holdsKeptCount reports whether memory never tells the count (n-noun)
// removed, or tells it kept too: a word of removing or keeping within
// removeReach words before it. Past claimScan records it cannot tell.
func (ix *Index) holdsKeptCount(count string, tok *tokenizer) bool {
	n, noun, _ := strings.Cut(count, "-")
	removed := false
	// The index holds "5-line" whole, a number of one digit only so, and
	// "5 lines" apart.
	kept := ix.anyIn(true, func(at docRef, d doc) bool {
		ws := countWords(ix.docText(at, d))
		for k := 0; k+1 < len(ws); k++ {
			if ws[k] != n || tok.stem(ws[k+1]) != tok.stem(noun) {
				continue
			}
			before := ws[max(0, k-removeReach):k]
			switch {
			case slices.ContainsFunc(before, func(v string) bool { return slices.Contains(keepVerbs, v) }):
				return true
			case slices.ContainsFunc(before, func(v string) bool { return slices.Contains(removeMarks, v) }):
				removed = true
			}
		}
		return false
	}, ix.docsHolding(count), ix.docsHoldingWith(tok.term(n), []string{tok.term(noun)}))
	return kept || !removed
}

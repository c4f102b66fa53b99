package recall

import (
	"slices"
	"strings"
)

// Columns a migration added. A question may say a migration added a
// column to a table: "which migration added a priority column to the
// annotations table", "what was in the migration we wrote to add a
// status column to the sessions table". A migration is named by what it
// does and says it again inside (add_state_to_annotations.exs, "Adds
// state column to annotations"); memory that saw it holds the column and
// the table together in a record of a migration. Memory that holds the
// two together only elsewhere (a session's status, the sessions table of
// a page) never saw such a migration.

// migrationColumn is a column a question says a migration added to a
// table.
type migrationColumn struct{ column, table string }

// columnReach is how many words apart a question may write "add", the
// column, "column" and the table.
const columnReach = 4

// migrationColumns gives the columns a question says a migration added:
// "add a <column> column to the <table> table", in a question that says
// "migration".
func migrationColumns(ws []string) []migrationColumn {
	if !slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, "migration") }) {
		return nil
	}
	var out []migrationColumn
	for i, w := range ws {
		if w != "column" || i == 0 {
			continue
		}
		column := ws[i-1]
		if !slices.ContainsFunc(ws[max(0, i-1-columnReach):i-1], func(v string) bool { return slices.Contains(addVerbs, v) }) || !columnName(column) {
			continue
		}
		for j := i + 1; j < min(len(ws), i+1+columnReach); j++ {
			if ws[j] != "to" && ws[j] != "on" {
				continue
			}
			table, _ := wordAfter(ws, j+1)
			if table != "" {
				out = append(out, migrationColumn{column, table})
			}
			break
		}
	}
	return out
}

// columnName reports whether w can be a column's name: lower-case letters,
// digits and underscores, no stop word and no determiner.
func columnName(w string) bool {
	return w != "" && !isStop(w) && !slices.Contains(placeArticles, w) &&
		strings.IndexFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') }) < 0
}

// wordAfter gives the first word at or after ws[i] past its articles, and
// where it is, if it can be a name.
func wordAfter(ws []string, i int) (string, int) {
	for i < len(ws) && slices.Contains(placeArticles, ws[i]) {
		i++
	}
	if i >= len(ws) || !columnName(ws[i]) {
		return "", i
	}
	return ws[i], i
}

// migrationReach is how many terms apart a migration's record may write
// the column and the table.
const migrationReach = 6

// holdsMigrationColumn reports whether memory holds the column and the
// table, each as written or in a word of its thesaurus group ("the
// status column of notes" for a state column of annotations), within
// migrationReach terms of each other in a record of a migration (its
// file, or a record that says "migration"). Past claimScan records read
// the column is taken as held.
func (ix *Index) holdsMigrationColumn(c migrationColumn, tok *tokenizer) bool {
	col, table := tok.stem(c.column), tok.stem(c.table)
	cols, tables := groupTerms(col), groupTerms(table)
	migration := tok.stem("migration")
	read := 0
	for _, cs := range cols {
		for at, d := range ix.docsHoldingWith(cs, tables) {
			if read++; read > claimScan {
				return true
			}
			text := ix.docText(at, d)
			terms := tok.terms(text)
			if !slices.Contains(terms, migration) && !strings.Contains(text, "migrations/") {
				continue
			}
			for i, t := range terms {
				if t == cs && slices.ContainsFunc(terms[max(0, i-migrationReach):min(len(terms), i+1+migrationReach)], func(u string) bool { return slices.Contains(tables, u) }) {
					return true
				}
			}
		}
	}
	return false
}

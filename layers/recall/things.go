package recall

import (
	_ "embed"
	"iter"
	"slices"
	"strings"
)

// Things. A question that names something memory never saw has no answer
// in it, however well its other words match: "how did we set up the
// redis cache for session lookups" matches every session lookup. A
// capitalised name says it names a thing (Unknown); among lower-case
// words, the names of what developers build and use do (things.txt:
// redis, tooltip, dark mode). A word of plain prose memory never saw
// says nothing, since questions are asked in other words than the
// session's.

//go:embed things.txt
var thingsText string

// thingsStems is things.txt stemmed as the index stems (one term a line:
// its stems joined by spaces, a tab, and the words it is written with,
// each spelling's separated by ", "), generated so that a query does not stem
// six thousand names: go test ./layers/recall -run TestStems -update
//
//go:embed things.stems
var thingsStems string

// thingTable looks names up in thingsStems, whose lines are sorted: a
// query looks a few dozen names up by binary search, without building a
// set of six thousand strings in every hook process.
var thingTable = newSortedLines(thingsStems)

// isThing reports whether stems (a name's stems, joined by spaces) are
// those of a listed name.
func isThing(stems string) bool {
	_, ok := thingTable.find(stems)
	return ok
}

// writesThing reports whether words, as a question writes them, are a
// listed name: its stems, and its words as writtenAs allows. Stems alone
// would take "local" for locale and "embedded" for embedding.
func writesThing(words []queryWord) bool {
	forms, ok := thingTable.find(stemsOf(words))
	if !ok {
		return false
	}
	for form := range strings.SplitSeq(forms, ", ") {
		if fs := strings.Fields(form); len(fs) == len(words) && writesAll(words, fs) {
			return true
		}
	}
	return false
}

// writesAll reports whether each of words writes the listed word beside it.
func writesAll(words []queryWord, listed []string) bool {
	for i, w := range words {
		if !writtenAs(strings.ToLower(w.text), listed[i]) {
			return false
		}
	}
	return true
}

// writtenAs reports whether a question's word w writes a listed name's
// word: as it, an inflection of it, or the verb whose doing it names
// (encrypt for encryption, shard for sharding, deploy for deployment).
func writtenAs(w, listed string) bool {
	if inflects(w, listed) {
		return true
	}
	// The bare verb names its doing (shard, sharding); an inflected one
	// only its -ion or -ment (encrypting, encryption), not its -ing
	// ("embedded" is no embedding).
	roots := []string{w}
	if r, ok := strings.CutSuffix(w, "e"); ok {
		roots = append(roots, r)
	}
	bare := len(roots)
	for _, suffix := range verbEndings {
		if r, ok := strings.CutSuffix(w, suffix); ok && len(r) > 2 {
			roots = append(roots, r)
		}
	}
	for i, r := range roots {
		for _, doing := range doingEndings {
			if listed == r+doing && (i < bare || doing != "ing") {
				return true
			}
		}
	}
	return false
}

// inflects reports whether w is base or an inflection of it: rebased,
// rolled, caching, proxies, skipping.
func inflects(w, base string) bool {
	rest, ok := strings.CutPrefix(w, base)
	switch {
	case ok && slices.Contains(endings, rest):
		return true
	case ok && len(rest) > 1 && rest[0] == base[len(base)-1] && slices.Contains(doubledEndings, rest[1:]):
		return true // a doubled consonant
	}
	for _, d := range droppedEndings {
		if stem, ok := strings.CutSuffix(base, d.drop); ok {
			if rest, ok := strings.CutPrefix(w, stem); ok && slices.Contains(d.endings, rest) {
				return true
			}
		}
	}
	return false
}

// The endings of an inflection: added to the word, after its doubled last
// consonant, or in place of its last letter (caching, proxies); a verb's
// (writtenAs reads its root past them), and those of the doing a verb
// names (sharding, encryption, deployment).
var (
	verbEndings    = []string{"s", "es", "d", "ed", "ing"}
	doingEndings   = []string{"ing", "ion", "ment", "ation"}
	endings        = []string{"", "s", "es", "d", "ed", "ing", "er", "ers"}
	doubledEndings = []string{"ed", "ing", "er"}
	droppedEndings = []struct {
		drop    string
		endings []string
	}{{"e", []string{"ing", "ed", "er", "ers", "es"}}, {"y", []string{"ies", "ied", "ier"}}}
)

// maxThingWords is the most words of a thing's name.
const maxThingWords = 3

// stemThings gives thingsStems for a things.txt: each term's stems, as
// the tokenizer gives them (stop words dropped, hyphens split), sorted.
func stemThings(text string) string {
	tok := newTokenizer()
	forms := map[string][]string{} // by stems
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var stems, words []string
		for _, f := range strings.Fields(line) {
			ss := tok.terms(f)
			for _, s := range ss {
				stems = append(stems, s)
				if len(ss) == 1 {
					words = append(words, f)
				} else {
					words = append(words, s)
				}
			}
		}
		// A name of several words that stems to one ("sign up": "up" is
		// a stop word) would stand for a word of every conversation.
		if n := len(stems); n > 0 && n <= maxThingWords && (n > 1 || !strings.Contains(line, " ")) {
			key := strings.Join(stems, " ")
			if form := strings.Join(words, " "); !slices.Contains(forms[key], form) {
				forms[key] = append(forms[key], form)
			}
		}
	}
	var out []string
	for key, fs := range forms {
		slices.Sort(fs)
		out = append(out, key+"\t"+strings.Join(fs, ", "))
	}
	slices.Sort(out)
	return strings.Join(out, "\n") + "\n"
}

// queryWord is a word of a question: as written, its stem, and whether
// it is a name, which unknown judges on its own.
type queryWord struct {
	text, stem string
	name       bool
	// verbNext is set when the question's next word opens what a verb
	// takes ("share for", "share the"): the word may be that verb.
	verbNext bool
	// afterStop is set when a stop word stood just before the word in
	// the question ("crash the report"): it does not run on from the
	// word before.
	afterStop bool
}

// unknownThings lists the things a question names that memory never saw:
// a listed word that no document holds, nor any word of its thesaurus
// group that names a thing too (seen); a listed name of two or three
// words whose words no document holds side by side. An identifier, a
// path or punctuation breaks a run of words; a name does not ("GitHub
// Actions"), but a name of one word is left to unknown.
func (ix *Index) unknownThings(words []questionWord, tok *tokenizer) []string {
	var runs [][]queryWord
	var run []queryWord
	stopped := false
	for k, w := range words {
		// A name in capitals may be a listed thing of several words
		// ("GitHub Actions"); an identifier or a path is no such thing.
		brk := w.text == "" || w.name && strings.ContainsAny(w.text, "._/:")
		if !brk {
			verbNext := !w.ends && k+1 < len(words) && slices.Contains(verbObjects, strings.ToLower(words[k+1].text))
			had := len(run)
			for part := range strings.SplitSeq(w.text, "-") {
				lower := strings.ToLower(part)
				if lower == "" || isStop(lower) || len(lower) < 2 {
					stopped = true
					continue
				}
				run = append(run, queryWord{text: part, stem: tok.stem(lower), name: w.name, afterStop: stopped})
				stopped = false
			}
			if len(run) > had {
				run[len(run)-1].verbNext = verbNext
			}
		}
		if brk || w.ends {
			runs, run, stopped = append(runs, run), nil, false
		}
	}
	runs = append(runs, run)
	var out []string
	for i, w := range words {
		if !plainName(words, i) {
			continue
		}
		name := strings.ToLower(w.text)
		qw := []queryWord{{text: name, stem: tok.stem(name)}}
		var held bool
		if slices.Contains(plainTools, name) {
			// A tool's thesaurus group is its everyday sense's
			// (prettier: format).
			held = ix.df(qw[0].stem) > 0 || ix.df(name) > 0
		} else {
			held = ix.seen(qw, tok) || ix.seenKind(qw, tok)
		}
		if !held && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, run := range runs {
		for i := 0; i < len(run); {
			n := min(maxThingWords, len(run)-i)
			for ; n > 0; n-- {
				if writesThing(run[i:i+n]) || writesKind(run[i:i+n]) {
					break
				}
			}
			if n == 0 || n == 1 && run[i].name || n > 1 && verbUse(run[i:i+n]) {
				i += max(n, 1)
				continue
			}
			if !ix.seen(run[i:i+n], tok) && !ix.seenKind(run[i:i+n], tok) && !ix.seenByName(run[i:i+n], tok) {
				var ws []string
				for _, w := range run[i : i+n] {
					ws = append(ws, w.text)
				}
				if name := strings.Join(ws, " "); !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
			i += n
		}
	}
	return out
}

// writesKind reports whether words of a question's run, written side by
// side, are a kind of several words ("a utility-class CSS framework"):
// "crash the report service" names no crash reporting service.
func writesKind(words []queryWord) bool {
	return len(words) > 1 && !slices.ContainsFunc(words[1:], func(w queryWord) bool { return w.afterStop }) && members(stemsOf(words)) != nil
}

// seenByName reports whether a listed thing of several words is a name
// memory knows (a listed thing, or a word the question capitalises)
// followed by what kind of thing it is: "the Ash framework" is Ash, "the
// Sentry SDK" Sentry, "the Codex CLI" Codex (fresh26's answerable
// question about "the Ash framework's tracing" was refused for a phrase
// memory never writes). A kind that makes another product of the name
// (SQL Server, App Engine) is not one of kindWords.
func (ix *Index) seenByName(run []queryWord, tok *tokenizer) bool {
	n := len(run)
	if n < 2 || !slices.Contains(kindWords, strings.ToLower(run[n-1].text)) || members(stemsOf(run)) != nil {
		return false // a kind ("CSS framework") is seen by its members
	}
	head := run[:n-1]
	named := !slices.ContainsFunc(head, func(w queryWord) bool { return !w.name })
	return (named || writesThing(head)) && ix.seen(head, tok)
}

// kindWords say what kind of thing a product is, after its name.
var kindWords = []string{"cli", "framework", "lib", "library", "sdk", "toolkit"}

func stemsOf(ws []queryWord) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.stem)
	}
	return b.String()
}

// phraseScan is the most documents read to find a name of several words
// side by side: past it, the name is taken as seen (a question is
// answered rather than refused on a guess).
const phraseScan = 64

// seen reports whether memory holds a thing's name: a word, or a word of
// its thesaurus group; the words of a longer name side by side in one
// document, or run together as one word.
func (ix *Index) seen(name []queryWord, tok *tokenizer) bool {
	if len(name) == 1 {
		if lower := strings.ToLower(name[0].text); ix.df(name[0].stem) > 0 || ix.df(lower) > 0 {
			// By its stem, or whole (GenServer: genserver); not where
			// memory holds it only as what a search looked for and
			// never found (three sets asked which Tailwind classes
			// colour the status badges; memory grepped for tailwind
			// once, in vain).
			return !ix.searchedFor(lower)
		}
		// A listed thing is seen through a word of its thesaurus group
		// only when that word names a thing too (favorite, bookmark): the
		// plain words grouped with a product (eslint: lint, check, style)
		// are in every project.
		thing := isThing(name[0].stem)
		return slices.ContainsFunc(synonyms(name[0].stem), func(s string) bool {
			return (!thing || isThing(s)) && ix.df(s) > 0
		})
	}
	// Written as one word ("heat map", "heatmap"; "dark mode",
	// "darkmode"), the name is seen too.
	var joined strings.Builder
	for _, w := range name {
		joined.WriteString(strings.ToLower(w.text))
	}
	j := joined.String()
	if ix.df(j) > 0 || ix.df(tok.stem(j)) > 0 {
		return true
	}
	// So is one whose joined form is a listed thing memory holds a thing
	// of its thesaurus group for: "roll back" where it says it reverted.
	if j = tok.stem(j); isThing(j) && slices.ContainsFunc(synonyms(j), func(s string) bool { return isThing(s) && ix.df(s) > 0 }) {
		return true
	}
	want, rarest := ix.phrase(name)
	if rarest == "" {
		return false
	}
	if ix.df(rarest) > phraseScan {
		return true
	}
	budget := phraseScan
	return ix.adjacent(want, rarest, &budget, tok)
}

// phrase gives the stems of a name of several words and the rarest of
// them; no rarest when memory lacks one of them.
func (ix *Index) phrase(name []queryWord) (want []string, rarest string) {
	want = make([]string, len(name))
	rarestDF := 0
	for i, w := range name {
		df := ix.df(w.stem)
		if df == 0 {
			return nil, ""
		}
		if rarest == "" || df < rarestDF {
			rarest, rarestDF = w.stem, df
		}
		want[i] = w.stem
	}
	return want, rarest
}

// adjacent reports whether a document holding rarest holds the stems of
// want side by side; it reads at most budget documents, and takes from
// budget what it read.
func (ix *Index) adjacent(want []string, rarest string, budget *int, tok *tokenizer) bool {
	for at, d := range ix.docsHolding(rarest) {
		if *budget <= 0 {
			return false
		}
		*budget--
		if holdsPhrase(tok.terms(ix.docText(at, d)), want) {
			return true
		}
	}
	return false
}

// holdsPhrase reports whether terms holds want's terms side by side, in
// their order.
func holdsPhrase(terms, want []string) bool {
	for i := 0; i+len(want) <= len(terms); i++ {
		if slices.Equal(terms[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// docsHolding gives the documents holding term that are current (not
// hidden by a later version of their file); a caller reads the text of
// those it wants, within its budget.
func (ix *Index) docsHolding(term string) iter.Seq2[docRef, doc] {
	return func(yield func(docRef, doc) bool) {
		for si, s := range ix.segs {
			first, cnt, ok := s.term(term)
			if !ok {
				continue
			}
			for p := first; p < first+cnt; p++ {
				d, _ := s.posting(p)
				if int(d) >= s.nDocs || ix.hidden[si].has(d) {
					continue
				}
				if !yield(docRef{si, d}, s.doc(int(d))) {
					return
				}
			}
		}
	}
}

// anyHolding reports whether held holds for one of the records holding
// term. Past claimScan records read it gives past: what a check that
// cannot tell takes (held, to answer rather than refuse on a guess).
func (ix *Index) anyHolding(term string, past bool, held func(docRef, doc) bool) bool {
	return ix.anyIn(past, held, ix.docsHolding(term))
}

// anyIn is anyHolding over the records of several lookups, read in their
// order with one budget of claimScan records ("5-line" whole, then 5
// beside line; a word and each of its forms).
func (ix *Index) anyIn(past bool, held func(docRef, doc) bool, lookups ...iter.Seq2[docRef, doc]) bool {
	read := 0
	for _, docs := range lookups {
		for at, d := range docs {
			if read++; read > claimScan {
				return past
			}
			if held(at, d) {
				return true
			}
		}
	}
	return false
}

// docsHoldingWith gives the documents that hold term and one of others,
// finding each of term's documents in the others' postings (which are in
// the order of their documents) rather than reading it.
func (ix *Index) docsHoldingWith(term string, others []string) iter.Seq2[docRef, doc] {
	return func(yield func(docRef, doc) bool) {
		for si, s := range ix.segs {
			first, cnt, ok := s.term(term)
			if !ok {
				continue
			}
			type run struct{ at, end int }
			var runs []run
			for _, o := range others {
				if f, c, ok := s.term(o); ok {
					runs = append(runs, run{f, f + c})
				}
			}
			for p := first; p < first+cnt && len(runs) > 0; p++ {
				d, _ := s.posting(p)
				if int(d) >= s.nDocs || ix.hidden[si].has(d) {
					continue
				}
				held := false
				for k := range runs {
					r := &runs[k]
					r.at = gallop(r.end, r.at, func(i int) bool { pd, _ := s.posting(i); return pd >= d })
					if r.at < r.end {
						if pd, _ := s.posting(r.at); pd == d {
							held = true
						}
					}
				}
				if held && !yield(docRef{si, d}, s.doc(int(d))) {
					return
				}
			}
		}
	}
}

// verbObjects open what a verb takes after it.
var verbObjects = []string{"for", "to", "with", "into", "between", "across", "the", "a", "an", "their", "its", "our", "them", "it"}

// verbUse reports whether a listed thing's name of several words is
// written with a bare verb for its last word's doing (share for sharing)
// that the question uses as a verb, its object after it: "both screens
// share for deriving rows" names no screen sharing (fresh31). A name
// whose last word is written as listed ("dark mode for the view") is the
// thing.
func verbUse(name []queryWord) bool {
	last := name[len(name)-1]
	if !last.verbNext || last.name {
		return false
	}
	forms, _ := thingTable.find(stemsOf(name))
	w := strings.ToLower(last.text)
	for form := range strings.SplitSeq(forms, ", ") {
		if fs := strings.Fields(form); len(fs) == len(name) && inflects(w, fs[len(fs)-1]) {
			return false
		}
	}
	return true
}

// plainNames name a thing only in some uses: "rewrite the editor in
// react", "the undo button", "let users undo a deletion", "which bats
// tests cover the script", "run vacuum on the database", but "how does
// the page react". things.txt leaves them out; a question names the thing
// when a preposition, an article, the people it serves or a verb of
// building or running it come before the word ("implement undo"), or a
// thing's head noun after it.
//
// Left out: plain words that prose puts after "a", "the" or "to" in their
// everyday sense (devise, hibernate, mint, prettier, remix); of them, the
// tools are names after a verb of running or installing them
// (plainTools).
var plainNames = []string{
	"bandit", "bats", "bun", "burrito", "chef", "ember", "expo", "finch", "flask", "jest", "locust", "meteor", "mocha",
	"pillow", "poetry", "puppet", "pundit", "rails", "react", "redo", "reopen", "retry", "rust", "sorbet", "spark", "sphinx",
	"swift", "tesla", "undo", "vacuum",
}

var (
	nameBefore = []string{"a", "an", "the", "in", "into", "to", "with", "using", "via", "from", "our", "users", "people", "customers", "admins", "add", "added", "build", "built", "implement", "implemented", "introduce", "introduced", "support", "supported", "run", "ran", "runs"}
	nameAfter  = []string{"action", "actions", "app", "button", "component", "components", "config", "framework", "hook", "hooks", "job", "jobs", "library", "logic", "native", "policy", "queue", "router", "server", "support", "test", "tests"}
)

// featureVerbs name what an interface lets its users do when its user
// does it ("how do I reopen an annotation", "so a closed one can be
// reopened") or it is built ("how did we implement reopening
// annotations"), in any of their forms. A project that never built the
// feature never holds the verb; one that did holds it in its action,
// button or handler. Fourteen never-happened questions of the eval's
// sets ask about reopening a closed annotation, which memory never speaks
// of (none answerable). Done by the code or by us, the verb is everyday
// prose ("the checker reopens the file", "how did we undo the theme
// switch"). Redo is left out: "redoing the work" is everyday prose.
var featureVerbs = []string{"reopen", "retry", "undo"}

// featureVerb reports whether w is a feature verb in one of its forms.
func featureVerb(w string) bool {
	return w == "undid" || slices.ContainsFunc(featureVerbs, func(v string) bool { return inflects(w, v) })
}

// The words before a feature verb that tell of the feature: a user who
// does it or may ("so users can reopen", "can be reopened"), its
// building ("implemented reopening"), its doing ("how does reopening a
// closed annotation work").
var (
	featureUsers = []string{"i", "you", "users", "user", "people", "someone", "reviewers", "can", "could", "be"}
	featureBuilt = []string{"add", "added", "build", "built", "implement", "implemented", "introduce", "introduced", "support", "supported", "supports", "allow", "allowed", "allows"}
	featureDoing = []string{"about", "did", "does", "for", "how", "is", "was"}
)

// plainTools are tools named by a word prose uses in its everyday sense
// after an article ("a prettier page"): they name the tool only after a
// verb of running or installing it ("did we run prettier over app.js",
// "formatted with prettier").
var (
	plainTools = []string{"prettier"}
	toolBefore = []string{"run", "ran", "runs", "running", "with", "using", "via", "install", "installed", "add", "added"}
)

// plainName reports whether words[i] is one of plainNames used as a name,
// a plain tool after its use, or a feature verb told as a feature.
func plainName(words []questionWord, i int) bool {
	w := strings.ToLower(words[i].text)
	if slices.Contains(plainTools, w) && i > 0 && !words[i-1].ends && slices.Contains(toolBefore, strings.ToLower(words[i-1].text)) {
		return true
	}
	if featureVerb(w) && i > 0 && !words[i-1].ends {
		before := strings.ToLower(words[i-1].text)
		if slices.Contains(featureUsers, before) || slices.Contains(featureBuilt, before) || strings.HasSuffix(w, "ing") && slices.Contains(featureDoing, before) {
			return true
		}
	}
	if !slices.Contains(plainNames, w) {
		return false
	}
	if i > 0 && !words[i-1].ends && slices.Contains(nameBefore, strings.ToLower(words[i-1].text)) {
		return true
	}
	return i+1 < len(words) && !words[i].ends && slices.Contains(nameAfter, strings.ToLower(words[i+1].text))
}

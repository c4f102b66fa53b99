package recall

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Kinds. A question asked in other words often names a thing by its kind
// ("the ORM", "distributed tracing", "the job queue") where the sessions
// only named the product used (Ash, OpenTelemetry, Oban). kinds.txt lists,
// for a kind, its well-known members; a kind memory never names is seen
// when one of its members is. The way is one-way: a member is not seen
// because its kind or another member is ("why did we move to Prisma" in
// a project on Ecto names what never happened).

//go:embed kinds.txt
var kindsText string

// kindsStems is kinds.txt stemmed as the index stems, a kind a line: its
// stems, a tab, its members' stems separated by ", ". Generated, sorted
// by kind: go test ./layers/recall -run TestStems -update
//
//go:embed kinds.stems
var kindsStems string

// kindTable looks kinds up in kindsStems.
var kindTable = newSortedLines(kindsStems)

// members gives the stems of the members of the kind whose stems (joined
// by spaces) are kind, each member's joined by spaces; nil if kind is no
// listed kind.
func members(kind string) []string {
	ms, ok := kindTable.find(kind)
	if !ok {
		return nil
	}
	return strings.Split(ms, ", ")
}

// isMember reports whether stem is a listed member of a kind, a product
// of one word (Prettier, Docker, ESLint): a name the thesaurus may group
// with the words of what it does (format, container, lint), which does
// not make a question naming it known. A project formatted with mix
// format never settled on a Prettier config (never15).
func isMember(stem string) bool {
	for _, end := range [...]string{", ", "\n"} {
		if strings.Contains(kindsStems, "\t"+stem+end) || strings.Contains(kindsStems, ", "+stem+end) {
			return true
		}
	}
	return false
}

// seenKind reports whether memory holds a member of the kind name is. A
// member of one word is looked up; the documents read to find the words
// of longer members side by side are phraseScan in all, and a member
// whose words are too common to read for is not taken as seen: unlike a
// thing's name, a kind is seen only on evidence.
func (ix *Index) seenKind(name []queryWord, tok *tokenizer) bool {
	ms := members(stemsOf(name))
	var long []string
	for _, m := range ms {
		if !strings.Contains(m, " ") {
			// A member memory only searched for was never seen.
			if ix.df(m) > 0 && !ix.searchedFor(m) {
				return true
			}
		} else {
			long = append(long, m)
		}
	}
	budget := phraseScan
	for _, m := range long {
		var words []queryWord
		for s := range strings.SplitSeq(m, " ") {
			words = append(words, queryWord{text: s, stem: s})
		}
		want, rarest := ix.phrase(words)
		if rarest == "" || ix.df(rarest) > phraseScan {
			continue
		}
		if ix.adjacent(want, rarest, &budget, tok) {
			return true
		}
		if budget <= 0 {
			return false
		}
	}
	return false
}

// stemKinds gives kindsStems for a kinds.txt.
func stemKinds(text string) string {
	tok := newTokenizer()
	stems := func(s string) string { return strings.Join(tok.terms(s), " ") }
	byKind := map[string][]string{}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		kind, ms, ok := strings.Cut(line, ":")
		k := stems(kind)
		if !ok || k == "" {
			continue
		}
		for m := range strings.SplitSeq(ms, ",") {
			if s := stems(m); generic(m, s) || slices.Contains(byKind[k], s) {
				continue
			} else {
				byKind[k] = append(byKind[k], s)
			}
		}
	}
	var lines []string
	for k, ms := range byKind {
		if len(ms) > 0 {
			lines = append(lines, k+"\t"+strings.Join(ms, ", "))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// generic reports whether a member, stemmed to s, would be seen in any
// conversation: a name that loses a word to the stop words ("too many
// requests" is "request", "x-forwarded-for" is "forward"), or a number.
func generic(member, s string) bool {
	parts := strings.FieldsFunc(member, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return s == "" || len(strings.Fields(s)) < len(parts) || strings.Trim(s, "0123456789 ") == ""
}

// kindMember is a term a kind named in a question stands for, and the
// query term (its index in origs) of the kind's last word, -1 if none.
type kindMember struct {
	term string
	orig int
}

// maxKindMembers is the most members a kind named in a question stands
// for: those memory names most.
const maxKindMembers = 3

// kindMembers gives the members memory holds of the kinds a question
// names, the longest kind first at each word, maxKindMembers a kind,
// those memory names most: a member of one word by its stem, one of
// several by its rarest word where memory holds its words side by side.
func (ix *Index) kindMembers(query string, origs []string, tok *tokenizer) []kindMember {
	var stems []string
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		stems = append(stems, tok.stem(w))
	}
	var out []kindMember
	for i := 0; i < len(stems); i++ {
		for n := min(4, len(stems)-i); n >= 1; n-- {
			kind := strings.Join(stems[i:i+n], " ")
			ms := members(kind)
			if ms == nil {
				continue
			}
			orig := slices.Index(origs, stems[i+n-1])
			type held struct {
				term string
				df   int
			}
			var hs []held
			budget := phraseScan
			for _, m := range ms {
				words := strings.Fields(m)
				term, df := words[0], ix.df(words[0])
				if len(words) > 1 {
					// A member of several words is held side by side
					// (happy-dom), and stands by its rarest word.
					var name []queryWord
					for _, w := range words {
						name = append(name, queryWord{text: w, stem: w})
					}
					want, rarest := ix.phrase(name)
					if rarest == "" || !ix.adjacent(want, rarest, &budget, tok) {
						continue
					}
					term, df = rarest, ix.df(rarest)
				}
				if df > 0 && !slices.Contains(stems, term) {
					hs = append(hs, held{term, df})
				}
			}
			slices.SortStableFunc(hs, func(a, b held) int { return b.df - a.df })
			for _, h := range hs[:min(len(hs), maxKindMembers)] {
				out = append(out, kindMember{h.term, orig})
			}
			i += n - 1
			break
		}
	}
	return out
}

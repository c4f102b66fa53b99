package recall

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ranking. Every document is scored with BM25 over its weighted fields
// (docs.go). The query's words are the query terms; the thesaurus adds the
// words developers use for the same things at a lower weight, and a
// second pass adds the terms that best tell the first pass's top answers
// apart (pseudo-relevance feedback) at a lower weight still.
//
// The hierarchy is then used: an L1 record is lifted by its neighbours
// (what was said around it) and by its exchange; an exchange by its best
// L1 record; a concept by its best exchange. An answer is the most
// specific place: an exchange that matches is shown at its best L1
// record, with the exchange and its concept as context. Recency and
// significance only break near-ties.
//
// Whether a hit answers at all is its coverage: the share of the query's
// information (the inverse document frequency of its terms) that the
// answer's lines hold. A question about what never happened matches a
// few common words, not the rare ones that name the thing, and stays
// under the threshold.

// Ranking parameters, set against the question set in fixtures/recall
// (TestRecallQuestions in cmd/memkeep prints its figures).
const (
	// BM25: term frequency saturation and length normalisation. They are
	// applied when a segment is written: changing them changes segMagic.
	k1 = 1.2
	bb = 0.4

	// Query expansion: the thesaurus's words for a query word, and the
	// second pass's terms taken from the first pass's best answers.
	synonymWeight  = 0.6
	kindWeight     = 0.6
	maxSynonyms    = 6 // per query word, the first of its groups
	feedbackWeight = 0.2
	feedbackTerms  = 8
	feedbackDocs   = 4

	// The hierarchy: what a record's neighbours and exchange add to it,
	// what an exchange's best record adds to it, a concept's best exchange.
	neighbourLift = 0.35
	exchangeLift  = 0.3
	childLift     = 0.6
	conceptLift   = 0.3
	// neighbourSpan is how many L1 lines either side of a record make its
	// window: what lifts it, and the lines an answer shows; answerFollow
	// how many lines after the last that matches the window holds too,
	// answerLead how far before the first it looks for the assistant's
	// words, and answerLines the most lines an answer's window spans: two
	// more than the lines around and after a record, so that a full
	// window still takes in the call its last line announces or the
	// reason just before it (pooled over the eval's fresh sets, 17 lines
	// against 15: hit@1 324 against 318 of 461; 19 gave 325).
	neighbourSpan = 4
	answerFollow  = 6
	answerLead    = 5
	answerLines   = 2*neighbourSpan + answerFollow + 3
	// siblingShare is how good a record of the same exchange (or, in a
	// memory without exchanges, conversation) must be, against an
	// answer's, to join its window, and siblingLines the most lines the
	// window then spans.
	siblingShare = 0.5
	siblingLines = answerLines + answerFollow

	// synonymCredit is the coverage a query term gets when only a word
	// of its thesaurus group was found.
	synonymCredit = 0.6
	// maxTerms is the most query terms searched: a long prompt is
	// searched by its rarest words.
	maxTerms = 16
	// coverageFloor is what an answer's score keeps when it covers none
	// of the query's information; it grows linearly to 1+coverageFloor.
	coverageFloor = 0.4
	// expiredRank is what an expired exchange's score keeps.
	expiredRank = 0.8
	// subagentRank is what a subagent's record keeps: an explorer's
	// report retells the code as it found it, at length, and its many
	// words outranked the session's own lines, where the work was done
	// and decided (pooled over the eval's fresh sets, hit@1 and hit@5 of
	// 422: 293 and 380 at 1, 293 and 382 at 0.85, 295 and 385 at 0.7,
	// 294 and 386 at 0.6 and at 0.5).
	subagentRank = 0.7
)

// Options bound a search.
type Options struct {
	// Threshold is the least coverage (0–1) of a hit; 0 keeps every hit.
	Threshold float64
	// Max is the most hits; 0 means 10.
	Max int
	// NoFeedback turns off the second, expanded pass.
	NoFeedback bool
	// FeedbackDocs, when above 0, turns the second pass off in a memory
	// of more documents than that: its cost grows with the memory, and a
	// caller on a budget of milliseconds (the prompt hook) pays it only
	// where it is small.
	FeedbackDocs int
	// Candidates is how many first-pass documents are lifted and grouped
	// into answers; 0 means 400. A caller showing a few answers (the
	// prompt hook) may take fewer, for speed.
	Candidates int
	// Task says the query asks for work, not about the past (IsTask): a
	// thing memory never saw does not leave it unanswered, and counts for
	// nothing in its coverage.
	Task bool
}

// Hit is one answer.
type Hit struct {
	Layer    string  `json:"layer"` // L1 … L4
	Kind     string  `json:"kind"`  // prompt, text, tool, exchange, fact, concept, rule, solution, core_logic
	ID       string  `json:"id"`
	Score    float64 `json:"score"`
	Coverage float64 `json:"coverage"` // share of the query found, 0–1
	// Snippet is the sentence, command or changed line holding the
	// matching words; Text the memory's own text (a summary, a rule).
	Snippet string `json:"snippet"`
	// Excerpt holds the other lines around an L1 answer that hold words
	// of the query, in file order.
	Excerpt []string `json:"excerpt,omitempty"`
	Text    string   `json:"text,omitempty"`
	// Provenance: the session and where its lines are.
	Session string `json:"session,omitempty"`
	File    string `json:"file,omitempty"`  // under .claude/memory, or a project file for a fact
	Lines   [2]int `json:"lines,omitempty"` // L1 lines, first and last
	Time    string `json:"time,omitempty"`
	Expired bool   `json:"expired,omitempty"`
	// Context: the exchange and concept an L1 hit belongs to.
	Exchange *Ref `json:"exchange,omitempty"`
	Concept  *Ref `json:"concept,omitempty"`
	// Further holds the answer's own record's other sentences that hold
	// words of the query, best first: a long message (an epic's report, a
	// list of the files made), a commit's message or an edit's changed
	// lines answer in a line the snippet had no room for.
	Further []string `json:"further,omitempty"`
	// excerptRank is each excerpt line's rank by score (0 the best).
	excerptRank []int
}

// Ref names a memory an answer belongs to.
type Ref struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// qterm is one term searched for.
type qterm struct {
	term   string
	weight float64
	orig   int // index of the query term it stands for; -1 for feedback terms
	syn    bool
	idf    float64
}

type docRef struct {
	seg int
	doc uint32
}

// scored holds a pass's scores: per segment, the documents some term
// matched, sorted, each with its slot. A large memory has hundreds of
// thousands of documents and a query matches a fraction of them; slots for
// every document cost a prompt thousands of page faults.
type scored struct {
	docs  [][]uint32
	slots [][]slot
	// common are the terms too common to walk (addScores), and
	// commonDone the documents they were added to.
	common     []qterm
	commonDone map[docRef]bool
}

// slot is a document's score and match: bit i of match is set when query
// term i was found itself, bit maxTerms+i when a word of its thesaurus
// group was.
type slot struct {
	score float32
	match uint32
}

// find gives the index of a document's slot, or -1.
func (sc *scored) find(r docRef) int {
	ds := sc.docs[r.seg]
	i, ok := slices.BinarySearch(ds, r.doc)
	if !ok {
		return -1
	}
	return i
}

// at gives a document's slot; the zero slot for one nothing matched.
func (sc *scored) at(r docRef) slot {
	if i := sc.find(r); i >= 0 {
		return sc.slots[r.seg][i]
	}
	return slot{}
}

// Search answers query from the index.
func (ix *Index) Search(query string, opts Options) []Hit {
	if opts.Max <= 0 {
		opts.Max = 10
	}
	tok := newTokenizer()
	var origs, wholes []string
	seen := map[string]bool{}
	tok.each(searchText(query), func(t string) {
		switch {
		case seen[t]:
		case tok.whole:
			// A compound's whole form finds the identifier itself, but its
			// parts are what the question asks about.
			seen[t] = true
			wholes = append(wholes, t)
		case len(origs) < 4*maxTerms:
			seen[t] = true
			origs = append(origs, t)
		}
	})
	// A question naming what memory never saw is answered by nothing,
	// before any scoring: a prompt about something new pays only for the
	// lookups of its names. A task naming it is searched by the rest of
	// its words, which memory knows: the new thing is to be built among
	// them.
	if len(origs) > 0 && len(ix.unknown(query, tok)) > 0 {
		if !opts.Task {
			return nil
		}
		origs = slices.DeleteFunc(origs, func(t string) bool { return !ix.seen([]queryWord{{text: t, stem: t}}, tok) })
	}
	if len(origs) == 0 {
		return nil
	}
	n := ix.numDocs()
	idf := make(map[string]float64, len(origs))
	for _, t := range origs {
		idf[t] = ix.idf(t, n)
	}
	if len(origs) > maxTerms {
		// A long prompt: its rarest words say what it is about.
		slices.SortStableFunc(origs, func(a, b string) int { return cmp.Compare(idf[b], idf[a]) })
		for _, t := range origs[maxTerms:] {
			delete(seen, t)
		}
		origs = origs[:maxTerms]
	}
	var qs []qterm
	for i, t := range origs {
		w := 1.0
		if slices.Contains(frameStems, t) {
			w = frameWeight
		}
		qs = append(qs, qterm{term: t, weight: w, orig: i, idf: idf[t]})
	}
	for _, t := range wholes {
		qs = append(qs, qterm{term: t, weight: 1, orig: -1, idf: ix.idf(t, n)})
	}
	// expand searches s for the question's orig-th word, at weight w,
	// once.
	expand := func(s string, orig int, w float64) {
		if !seen[s] {
			seen[s] = true
			qs = append(qs, qterm{term: s, weight: w, orig: orig, syn: true, idf: ix.idf(s, n)})
		}
	}
	for i, t := range origs {
		for _, s := range firstSynonyms(t) {
			expand(s, i, synonymWeight)
		}
	}
	// A phrasal verb is searched as the word it means, and that word's
	// thesaurus group, for its verb.
	for _, p := range phrasalsOf(query, tok) {
		if i := slices.Index(origs, p.verb); i >= 0 {
			expand(p.means, i, synonymWeight)
			for _, s := range firstSynonyms(p.means) {
				expand(s, i, synonymWeight)
			}
		}
	}
	// A kind the question names ("the static type checker", "the
	// background job") stands for its members memory holds (Dialyzer,
	// Oban): the sessions named the product, the question its kind.
	for _, k := range ix.kindMembers(query, origs, tok) {
		expand(k.term, k.orig, kindWeight)
	}
	ix.intent = intentOf(query)
	ix.exchanges = ix.exchangeIndex() // read once for both passes
	all := cmp.Or(opts.Candidates, candidates)
	sc := ix.score(qs)
	var units []unit
	if opts.NoFeedback || opts.FeedbackDocs > 0 && n > float64(opts.FeedbackDocs) {
		units = ix.units(sc, qs, origs, all)
	} else {
		// The first pass only picks the answers whose words feed the
		// second, which groups every candidate with them.
		if fb := ix.feedback(ix.units(sc, qs, origs, min(all, feedbackCandidates)), seen, n, tok); len(fb) > 0 {
			qs = append(qs, fb...)
			ix.addScores(&sc, fb)
		}
		units = ix.units(sc, qs, origs, all)
	}
	var hits []Hit
	sn := newSnippets(qs, tok)
	sn.intent = ix.intent
	var said []string
	repeats := 0
	for _, u := range answering(units, opts.Threshold) {
		// The same words twice are one answer: a compaction summary and
		// the compacting subagent's report of it, both in L1, would take
		// the prompt's two answers with one text. Only the record shown
		// is read to tell, once for the answer too.
		s := ix.shownAt(u, sn)
		words := saidText(s.snippet)
		if repeats < maxRepeats && slices.Contains(said, words) {
			repeats++
			continue
		}
		said = append(said, words)
		hits = append(hits, ix.hit(u, sn, s))
		if len(hits) == opts.Max {
			break
		}
	}
	for i := range hits {
		hits[i].detach()
	}
	return hits
}

// detach copies the strings of h, which may be views of the index's
// mapped segments (see segment.bstr), so that h outlives the index.
func (h *Hit) detach() {
	for _, p := range []*string{&h.Layer, &h.Kind, &h.ID, &h.Snippet, &h.Text, &h.Session, &h.File, &h.Time} {
		*p = strings.Clone(*p)
	}
	for _, ss := range [][]string{h.Excerpt, h.Further} {
		for i := range ss {
			ss[i] = strings.Clone(ss[i])
		}
	}
	for _, r := range []*Ref{h.Exchange, h.Concept} {
		if r != nil {
			r.ID, r.Text = strings.Clone(r.ID), strings.Clone(r.Text)
		}
	}
}

// firstSynonyms gives the words a query word brings in from the
// thesaurus: the first maxSynonyms of its groups'.
func firstSynonyms(t string) []string {
	syns := synonyms(t)
	return syns[:min(len(syns), maxSynonyms)]
}

// maxRepeats is how many answers saying the words of one shown already
// are passed over: in a memory of copies (the scale benchmark copies the
// big real sessions until there are 2,000) answer after answer would be
// read to tell.
const maxRepeats = 3

// saidText gives a snippet without the words that say who said it
// ("summary: ", "subagent: ").
func saidText(snippet string) string {
	if who, rest, ok := strings.Cut(snippet, ": "); ok && !strings.ContainsAny(who, " ./") {
		return rest
	}
	return snippet
}

func (ix *Index) numDocs() float64 {
	n := 0
	for si, s := range ix.segs {
		n += s.nDocs - ix.hidden[si].count()
	}
	return float64(max(n, 1))
}

// df is the number of documents holding t, hidden ones included (an
// estimate that costs no scan).
func (ix *Index) df(t string) int {
	if n, ok := ix.dfs[t]; ok {
		return n
	}
	if ix.dfs == nil {
		ix.dfs = map[string]int{}
	}
	df := 0
	defer func() { ix.dfs[t] = df }()
	for _, s := range ix.segs {
		if _, c, ok := s.term(t); ok {
			df += c
		}
	}
	return df
}

// idf is BM25's inverse document frequency. df counts hidden documents
// too, so in a small memory rewritten often (each Stop hides the records
// it replaces) a common word can count more documents than there are: it
// is taken as in every document, never as a negative weight that would
// push its matches below those of no match at all.
func (ix *Index) idf(t string, n float64) float64 {
	df := min(float64(ix.df(t)), n)
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// score runs BM25 for the terms over every visible document.
func (ix *Index) score(qs []qterm) scored {
	sc := scored{docs: make([][]uint32, len(ix.segs)), slots: make([][]slot, len(ix.segs)), commonDone: map[docRef]bool{}}
	ix.addScores(&sc, qs)
	return sc
}

// commonPostings is the length of a term's postings past which they are
// not walked: a word in most of a large memory's records ("file", "test")
// would cost tens of megabytes of reading for little rank. Such a term
// only adds to the candidates the others found (addCommon). Below about
// 50 sessions no word is that common, and ranking is exact.
const commonPostings = 1 << 12

// addScores adds the terms' scores to sc, and sets sc.common to the terms
// too common to walk.
//
// The postings of the terms are merged in document order, a document's in
// the order of the terms (so that its scores are added in the same order
// whatever the memory's size), and summed into the sorted slots, merged
// with those of an earlier pass.
func (ix *Index) addScores(sc *scored, qs []qterm) {
	rare := 0
	for _, q := range qs {
		if ix.df(q.term) <= commonPostings {
			rare++
		}
	}
	for _, q := range qs {
		// Without a rarer word, the query's own words are walked anyway.
		if rare > 0 && ix.df(q.term) > commonPostings {
			sc.common = append(sc.common, q)
		}
	}
	var lists []postingList
	for si, s := range ix.segs {
		lists = lists[:0]
		total := 0
		for qi, q := range qs {
			if rare > 0 && slices.Contains(sc.common, q) {
				continue
			}
			if first, cnt, ok := s.term(q.term); ok {
				lists = append(lists, postingList{term: uint32(qi), at: first, end: first + cnt})
				total += cnt
			}
		}
		if total == 0 {
			continue
		}
		docs, slots := sc.docs[si], sc.slots[si]
		// At most this many: in a short-lived process, the pages of the
		// capacity never written are never touched.
		nd := make([]uint32, 0, len(docs)+total)
		ns := make([]slot, 0, len(docs)+total)
		i := 0
		s.mergePostings(lists, ix.hidden[si], func(d, term uint32, tf float32) {
			if len(nd) == 0 || nd[len(nd)-1] != d {
				for i < len(docs) && docs[i] < d {
					nd, ns = append(nd, docs[i]), append(ns, slots[i])
					i++
				}
				var sl slot
				if i < len(docs) && docs[i] == d {
					sl = slots[i]
					i++
				}
				nd, ns = append(nd, d), append(ns, sl)
			}
			w, bit := qs[term].weightBit()
			sl := &ns[len(ns)-1]
			sl.score += w * tf
			sl.match |= bit
		})
		if len(nd) == 0 {
			continue // every posting hidden
		}
		nd, ns = append(nd, docs[i:]...), append(ns, slots[i:]...)
		sc.docs[si], sc.slots[si] = nd, ns
	}
}

// postingList is one term's postings in a segment, from at to end; term
// is the term's index in the query's terms, doc the document at at.
type postingList struct {
	term, doc uint32
	at, end   int
}

// mergePostings gives visit the postings of lists in document order, a
// document's in the order of their terms, leaving out hidden documents.
// Each list is sorted by document: a heap of their heads reads each
// posting once, where gathering and sorting them all allocated most of
// what a query on a large memory did. A posting out of order (a damaged
// segment) is left out. The heap is kept in lists' own storage.
func (s *segment) mergePostings(lists []postingList, hidden docSet, visit func(doc, term uint32, tf float32)) {
	h := lists[:0]
	for _, l := range lists {
		if l.at < l.end {
			l.doc, _ = s.posting(l.at)
			h = append(h, l)
		}
	}
	less := func(a, b int) bool {
		return h[a].doc < h[b].doc || h[a].doc == h[b].doc && h[a].term < h[b].term
	}
	down := func(i int) {
		for {
			m := i
			if l := 2*i + 1; l < len(h) && less(l, m) {
				m = l
			}
			if r := 2*i + 2; r < len(h) && less(r, m) {
				m = r
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	last := int64(-1)
	for len(h) > 0 {
		top := &h[0]
		d, tf := s.posting(top.at)
		if int64(d) >= last && int(d) < s.nDocs && !hidden.has(d) {
			visit(d, top.term, tf)
			last = int64(d)
		}
		if top.at++; top.at < top.end {
			top.doc, _ = s.posting(top.at)
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
}

// weightBit gives what a term adds per unit of term weight, and its bit
// in scored.match.
func (q qterm) weightBit() (float32, uint32) {
	var bit uint32
	if q.orig >= 0 {
		bit = 1 << q.orig
		if q.syn {
			bit <<= maxTerms
		}
	}
	return float32(q.weight * q.idf), bit
}

// addCommon adds the common terms' scores to the candidates, looking
// each up in the term's postings (sorted by document).
func (ix *Index) addCommon(sc scored, cs []cand) []cand {
	if len(sc.common) == 0 {
		return cs
	}
	type span struct{ first, n int }
	spans := make([][]span, len(ix.segs))
	for si, s := range ix.segs {
		spans[si] = make([]span, len(sc.common))
		for i, q := range sc.common {
			if first, n, ok := s.term(q.term); ok {
				spans[si][i] = span{first, n}
			}
		}
	}
	// The candidates are looked up in document order, each search
	// starting where the one before ended (galloping): the lookups walk
	// each list forward once instead of from its start 400 times.
	order := make([]int, 0, len(cs))
	for i := range cs {
		if !sc.commonDone[cs[i].at] {
			sc.commonDone[cs[i].at] = true
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(cs[a].at.seg, cs[b].at.seg); c != 0 {
			return c
		}
		return cmp.Compare(cs[a].at.doc, cs[b].at.doc)
	})
	for j, q := range sc.common {
		w, bit := q.weightBit()
		seg, pos := -1, 0
		for _, i := range order {
			at := cs[i].at
			if at.seg != seg {
				seg, pos = at.seg, 0
			}
			s, sp := ix.segs[at.seg], spans[at.seg][j]
			k := gallop(sp.n, pos, func(k int) bool {
				d, _ := s.posting(sp.first + k)
				return d >= at.doc
			})
			pos = k
			if k < sp.n {
				if d, tf := s.posting(sp.first + k); d == at.doc {
					sl := &sc.slots[at.seg][sc.find(at)]
					sl.score += w * tf
					sl.match |= bit
				}
			}
		}
	}
	for _, i := range order {
		cs[i].raw = sc.at(cs[i].at).score
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(b.raw, a.raw) })
	return cs
}

// gallop finds the least k in [from, n) for which ge(k) holds (ge is
// false then true over the range), or n: it doubles its step from from,
// then searches the last step in halves.
func gallop(n, from int, ge func(int) bool) int {
	lo, step := from, 1
	for lo+step < n && !ge(lo+step) {
		lo += step
		step *= 2
	}
	hi := min(lo+step, n)
	// ge(lo) may still hold only for lo == from.
	if lo == from && from < n && ge(from) {
		return from
	}
	return lo + sort.Search(hi-lo, func(i int) bool { return ge(lo + i) })
}

// unit is one answer being ranked: a document, lifted by the hierarchy.
type unit struct {
	at       docRef
	d        doc
	raw      float64
	score    float64
	coverage float64
	match    uint32 // as scored.match, over the answer's documents
	// for L1: the exchange it belongs to; for an exchange: its best L1
	// record, which becomes the answer's place.
	exchange *docRef
	best     *docRef
	// place is the record of an L1 answer's window shown, when not its own.
	place   *docRef
	window  []docRef  // the records around it that hold query terms
	wscore  []float32 // and their scores
	lines   [2]uint32
	session string
	expired bool
}

// candidates is how many first-pass L1 records are lifted and grouped,
// and 1/memoryShare of it the number of memory documents beside them.
const (
	candidates  = 400
	memoryShare = 2
	// feedbackCandidates is the first pass's share when it only picks
	// the few answers whose words feed the second (feedbackDocs).
	feedbackCandidates = 100
)

type cand struct {
	at  docRef
	raw float32
}

// topDocs gives the best-scored documents, best first: the nL1 best L1
// records and the nMem best memory documents (exchanges, facts, concepts,
// rules). The memory documents have a pool of their own so that, in a
// large memory, thousands of L1 records alike (the same command run in
// every session) cannot crowd out the exchange that groups the answer.
func topDocs(ix *Index, sc scored, nL1, nMem int) []cand {
	l1, mem := newTopN(nL1), newTopN(nMem)
	for si, ds := range sc.docs {
		slots := sc.slots[si]
		s := ix.segs[si]
		// The sources are in document order, as are ds: walk both.
		src, srcEnd, isL1 := -1, 0, false
		for i, d := range ds {
			v := slots[i].score
			if v <= 0 {
				continue
			}
			for int(d) >= srcEnd && src+1 < s.nSources {
				src++
				so := s.source(src)
				srcEnd, isL1 = int(so.firstDoc+so.docs), strings.HasSuffix(so.Name, ".l1.jsonl")
			}
			c := cand{docRef{si, d}, v}
			if isL1 && int(d) < srcEnd {
				l1.add(c)
			} else {
				mem.add(c)
			}
		}
	}
	h := append(l1.h, mem.h...)
	slices.SortFunc(h, func(a, b cand) int {
		if c := cmp.Compare(b.raw, a.raw); c != 0 {
			return c
		}
		if c := cmp.Compare(a.at.seg, b.at.seg); c != 0 {
			return c
		}
		return cmp.Compare(a.at.doc, b.at.doc)
	})
	return h
}

// topN keeps the n best candidates seen: a bounded heap, the worst on top
// (a common word scores hundreds of thousands of L1 records).
type topN struct {
	n int
	h []cand
}

func newTopN(n int) *topN { return &topN{n: n, h: make([]cand, 0, n)} }

// worse orders by score, then by place (a later document is worse), so
// that which of equal scores are kept does not depend on the order the
// documents are visited in.
func worse(a, b cand) bool {
	if a.raw != b.raw {
		return a.raw < b.raw
	}
	if a.at.seg != b.at.seg {
		return a.at.seg > b.at.seg
	}
	return a.at.doc > b.at.doc
}

func (t *topN) add(c cand) {
	h := t.h
	switch {
	case t.n <= 0:
	case len(h) < t.n:
		h = append(h, c)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
	case worse(h[0], c):
		h[0] = c
		for i := 0; ; {
			l := 2*i + 1
			if l >= len(h) {
				break
			}
			m := l
			if r := l + 1; r < len(h) && worse(h[r], h[l]) {
				m = r
			}
			if !worse(h[m], h[i]) {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	t.h = h
}

// units ranks the answers grouped from the best n L1 records (and
// n/memoryShare memory documents).
func (ix *Index) units(sc scored, qs []qterm, origs []string, n int) []unit {
	cs := ix.addCommon(sc, topDocs(ix, sc, n, n/memoryShare))
	origIDF := make([]float64, len(origs))
	var idfSum float64
	for _, q := range qs {
		if !q.syn && q.orig >= 0 {
			origIDF[q.orig] = q.weight * q.idf // a frame word counts less
			idfSum += q.weight * q.idf
		}
	}
	cover := func(match uint32) float64 {
		if idfSum == 0 {
			return 0
		}
		var c float64
		for i, w := range origIDF {
			switch {
			case match&(1<<i) != 0:
				c += w
			case match&(1<<(maxTerms+i)) != 0:
				c += synonymCredit * w
			}
		}
		return c / idfSum
	}
	us := make([]unit, 0, len(cs))
	byExchange := map[docRef]int{}
	var nbs []docRef // neighbours' and following's, reused
	for _, c := range cs {
		s := ix.segs[c.at.seg]
		d := s.doc(int(c.at.doc))
		u := unit{at: c.at, d: d, raw: float64(c.raw), match: sc.at(c.at).match}
		switch d.Layer {
		case layerL1:
			cv := ix.convOf(c.at)
			if d.Kind == kindPrompt {
				// A subagent's brief is answered by its report: a
				// question that finds the brief is shown the report,
				// with the brief's score.
				if r, ok := cv.report(c.at.doc); ok {
					c.at, d = r, s.doc(int(r.doc))
					u.at, u.d = r, d
					u.match |= sc.at(r).match
				}
			}
			u.session = sessionOf(cv.src.Name)
			u.lines = [2]uint32{d.Line, d.Line}
			// Neighbours: the records around it in the same file.
			best := 0.0
			placeBits := bits(u.match)
			nbs = cv.neighbours(nbs[:0], c.at.doc, d.Line)
			for _, nb := range nbs {
				nsl := sc.at(nb)
				v := float64(nsl.score)
				best = max(best, v)
				if v > 0 {
					u.window = append(u.window, nb)
					u.wscore = append(u.wscore, nsl.score)
					// The answer is shown at the record of the window that
					// holds the most of the question.
					if b := bits(nsl.match); b > placeBits {
						at := nb
						u.place, placeBits = &at, b
					}
					u.match |= nsl.match
					_, nl, _ := ix.segs[nb.seg].docSpan(int(nb.doc))
					u.lines[0], u.lines[1] = min(u.lines[0], nl), max(u.lines[1], nl)
				}
			}
			// What follows the lines that match is often the answer (the
			// explanation after the error, the fix after the failure): the
			// next lines are part of the answer's window, shown after the
			// lines that match. One of them that holds the question's
			// words is shown by its score, as the lines around are.
			nbs = cv.following(nbs[:0], c.at.doc, u.lines[1], answerFollow)
			for _, nb := range nbs {
				if !slices.Contains(u.window, nb) {
					u.window = append(u.window, nb)
					u.wscore = append(u.wscore, sc.at(nb).score)
				}
				_, nl, _ := ix.segs[nb.seg].docSpan(int(nb.doc))
				u.lines[1] = max(u.lines[1], nl)
			}
			// An answer that ends on the assistant saying what it will do
			// holds the call that does it; the assistant's words just
			// before the lines that match, what it was about to do and
			// why, open it. Both while it stays within answerLines.
			if nb, ok := cv.action(c.at.doc, u.lines[1]); ok {
				ix.widen(&u, nb, sc.at(nb).score)
			}
			if nb, ok := cv.leading(c.at.doc, u.lines[0], answerLead); ok {
				ix.widen(&u, nb, sc.at(nb).score)
			}
			u.score = u.raw + neighbourLift*best
			if ex, ok := ix.exchanges.find(u.session, d.Line); ok {
				u.exchange = &ex
				u.score += exchangeLift * float64(sc.at(ex).score)
			}
		default:
			u.score = u.raw
			if d.Layer == layerL2 && d.Kind == kindExchange {
				u.session = splitPayload(d.Payload)[pSession]
			}
		}
		u.coverage = cover(u.match)
		// What the question asks for: the reason (the assistant's
		// words), the place (a record naming a file), what failed (a
		// failed call).
		u.score *= ix.intent.weigh(d)
		// Ties: significance and recency move a score by a few percent.
		u.score *= 0.95 + 0.05*float64(min(max(d.Weight, 0), 1))
		if d.Layer == layerL1 && d.Thread != 0 && d.Thread != threadAny {
			// A subagent's work ranks below the session's own.
			u.score *= subagentRank
		}
		u.expired = ix.expired(d) || u.exchange != nil && ix.expired(ix.segs[u.exchange.seg].doc(int(u.exchange.doc)))
		if u.expired {
			// History never vanishes; expired memory only ranks lower.
			u.score *= expiredRank
		}
		us = append(us, u)
	}
	// Group: an exchange and its L1 records make one answer, placed at
	// the best record and scored by the better of the two. A record the
	// answer cannot take in, far from it in a long exchange or making its
	// lines too many, is an answer of its own: dropping it would lose the
	// lines that hold the question ("add the route" beside the router's
	// edit, twenty lines after the exchange's best record).
	slices.SortFunc(us, func(a, b unit) int { return cmp.Compare(b.score, a.score) })
	// In place: an answer kept is written at or before the one read.
	out := us[:0]
	for _, u := range us {
		key := u.at
		if u.exchange != nil {
			key = *u.exchange
		}
		if i, seen := byExchange[key]; !seen {
			byExchange[key] = len(out)
		} else if o := &out[i]; u.d.Layer == layerL1 && o.d.Layer == layerL2 && o.best == nil {
			// The exchange ranked first: it is shown at this record.
			at := u.at
			o.best = &at
			o.lines = u.lines
			o.session = u.session
			o.score += childLift * u.score
			o.match |= u.match
			o.coverage = cover(o.match)
			continue
		} else if o.d.Layer == layerL1 && u.d.Layer == layerL2 {
			o.score += exchangeLift * u.score
			o.match |= u.match
			o.coverage = cover(o.match)
			continue
		} else if u.d.Layer != layerL1 || ix.reach(o, u) {
			continue
		}
		out = append(out, u)
	}
	// One answer per place: records whose lines overlap show the same
	// lines, unless the record itself lies past a better answer's lines,
	// where its answer keeps the lines on its side ("configure it via the
	// app environment instead" just after a failed search's lines). A
	// record of no exchange at least half as good as an answer a few
	// lines from it joins that answer, as records of one exchange do
	// above.
	kept := out[:0]
	bySession := map[string][]int{} // indexes into kept
	for _, u := range out {
		mine := bySession[u.session]
		if u.session != "" && u.lines[0] > 0 && !ix.beside(&u, kept, mine, sc, cover) {
			continue
		}
		// A session's later compaction summary retells its earlier one:
		// one of them is an answer, the best.
		if u.d.Kind == kindCompact && slices.ContainsFunc(mine, func(i int) bool { return kept[i].d.Kind == kindCompact }) {
			continue
		}
		if u.exchange == nil && slices.ContainsFunc(mine, func(i int) bool { return kept[i].exchange == nil && ix.reach(&kept[i], u) }) {
			continue
		}
		bySession[u.session] = append(mine, len(kept))
		kept = append(kept, u)
	}
	out = kept
	// An answer that holds more of the question is the better one: BM25
	// alone lets one rare word repeated outweigh the rest of the question.
	for i := range out {
		out[i].score *= coverageFloor + out[i].coverage
	}
	// Concepts are lifted by their best exchange.
	for i := range out {
		if out[i].d.Kind != kindConcept {
			continue
		}
		id := splitPayload(out[i].d.Payload)[pID]
		for _, o := range out {
			if o.d.Layer <= layerL2 && ix.conceptOf(o) == id {
				out[i].score += conceptLift * o.score
				break
			}
		}
	}
	slices.SortStableFunc(out, byScore)
	// A question asking how long or how often is answered where a
	// duration is told: the best answers whose records tell one rank a
	// little higher. Only those few are read, so that the lift costs a
	// prompt a few lines.
	if ix.intent.time {
		lifted := false
		for i := range out[:min(len(out), timeAnswers)] {
			if ix.tellsDuration(out[i]) {
				out[i].score *= timeLift
				lifted = true
			}
		}
		if lifted {
			slices.SortStableFunc(out, byScore)
		}
	}
	return out
}

// byScore orders answers by score, the newer first among equals.
func byScore(a, b unit) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(b.d.Time, a.d.Time)
}

// timeAnswers is how many of the best answers a question asking how long
// reads for a duration, and timeLift what one telling it gets.
const (
	timeAnswers = 20
	timeLift    = 1.2
)

// tellsDuration reports whether an answer's record, or a record of its
// window, tells a duration.
func (ix *Index) tellsDuration(u unit) bool {
	tells := func(r docRef) bool { return len(durations(ix.docText(r, ix.segs[r.seg].doc(int(r.doc))))) > 0 }
	return tells(u.at) || slices.ContainsFunc(u.window, tells)
}

// beside trims u's lines to keep off the answers of kept (those of its
// session, mine) they overlap, and reports whether u is still an answer:
// its own record must lie outside them. What it holds of the question is
// then what its remaining lines hold.
func (ix *Index) beside(u *unit, kept []unit, mine []int, sc scored, cover func(uint32) float64) bool {
	trimmed := false
	for again := true; again; {
		again = false
		for _, i := range mine {
			k := &kept[i]
			if k.lines[0] == 0 || k.lines[0] > u.lines[1]+1 || u.lines[0] > k.lines[1]+1 {
				continue
			}
			switch own := u.d.Line; {
			case own > k.lines[1]+1:
				u.lines[0] = k.lines[1] + 2
			case own+1 < k.lines[0]:
				u.lines[1] = k.lines[0] - 2
			default:
				return false // the same place
			}
			trimmed, again = true, true
		}
	}
	if !trimmed {
		return true
	}
	u.match = sc.at(u.at).match
	window, wscore := u.window[:0], u.wscore[:0]
	for j, r := range u.window {
		if _, nl, _ := ix.segs[r.seg].docSpan(int(r.doc)); u.lines[0] <= nl && nl <= u.lines[1] {
			window, wscore = append(window, r), append(wscore, u.wscore[j])
			u.match |= sc.at(r).match
		}
	}
	u.window, u.wscore = window, wscore
	if u.place != nil && !slices.Contains(u.window, *u.place) {
		u.place = nil
	}
	u.coverage = cover(u.match)
	return true
}

// bits weighs the query terms a document holds: those found themselves
// count 1, those found by a synonym only synonymCredit.
func bits(match uint32) float64 {
	own := match & (1<<maxTerms - 1)
	return float64(popcount(own)) + synonymCredit*float64(popcount(match>>maxTerms&^own))
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// conv is where an L1 record's answer may reach: the documents of its
// file in its segment, [lo, hi), of its conversation (thread). A search
// works it out once per record and walks the lines around from it.
type conv struct {
	ix     *Index
	seg    int
	s      *segment
	src    source
	lo, hi int
	thread uint8
}

func (ix *Index) convOf(at docRef) conv {
	s := ix.segs[at.seg]
	src := s.source(s.sourceOf(int(at.doc)))
	return conv{ix, at.seg, s, src, int(src.firstDoc), min(int(src.firstDoc+src.docs), s.nDocs), s.docThread(int(at.doc))}
}

// in reports whether document d is of the conversation: in the file, and
// of its thread or of one that retells them all.
func (c conv) in(d int) bool {
	return d >= c.lo && d < c.hi && sameThread(c.s.docThread(d), c.thread)
}

// visible reports whether no later version hides document d.
func (c conv) visible(d int) bool { return !c.ix.hidden[c.seg].has(uint32(d)) }

func (c conv) ref(d int) docRef { return docRef{c.seg, uint32(d)} }

// sameThread reports whether two L1 records may share an answer's
// window: they are of one conversation, or one retells them all.
func sameThread(a, b uint8) bool { return a == b || a == threadAny || b == threadAny }

// neighbours appends to out the documents of the lines around line
// (within neighbourSpan lines) of the record at.
func (c conv) neighbours(out []docRef, at uint32, line uint32) []docRef {
	for _, step := range []int{-1, 1} {
		for i := 1; i <= int(neighbourSpan)*2; i++ {
			d := int(at) + step*i
			if !c.in(d) {
				break
			}
			_, nl, _ := c.s.docSpan(d)
			if nl+uint32(neighbourSpan) < line || nl > line+uint32(neighbourSpan) {
				break
			}
			if c.visible(d) {
				out = append(out, c.ref(d))
			}
		}
	}
	return out
}

// following appends to out the visible documents of the n lines after
// line.
func (c conv) following(out []docRef, at uint32, line uint32, n int) []docRef {
	for d := int(at) + 1; c.in(d); d++ {
		_, nl, _ := c.s.docSpan(d)
		if nl <= line {
			continue
		}
		if nl > line+uint32(n) {
			break
		}
		if c.visible(d) {
			out = append(out, c.ref(d))
		}
	}
	return out
}

// report finds the report of the subagent whose brief is at: the last
// thing it wrote before its conversation ends.
func (c conv) report(at uint32) (docRef, bool) {
	if c.thread == 0 || c.thread == threadAny {
		return docRef{}, false
	}
	own := func(d int) bool { return d >= c.lo && d < c.hi && c.s.docThread(d) == c.thread }
	if own(int(at) - 1) {
		return docRef{}, false // a prompt within the subagent's work, not its brief
	}
	last := -1
	for d := int(at) + 1; own(d); d++ {
		if k, _, _ := c.s.docSpan(d); k == kindText && c.visible(d) {
			last = d
		}
	}
	if last < 0 {
		return docRef{}, false
	}
	return c.ref(last), true
}

// action finds the tool call right after line when that line is the
// assistant's words.
func (c conv) action(at uint32, line uint32) (docRef, bool) {
	said := false
	for d := int(at); c.in(d); d++ {
		k, nl, _ := c.s.docSpan(d)
		if nl == line {
			if k != kindText {
				return docRef{}, false
			}
			said = true
			continue
		}
		if nl > line {
			if said && k == kindTool && c.visible(d) {
				return c.ref(d), true
			}
			break
		}
	}
	return docRef{}, false
}

// leading finds the assistant's last words in the n lines before line.
func (c conv) leading(at uint32, line uint32, n int) (docRef, bool) {
	for d := int(at) - 1; c.in(d); d-- {
		k, nl, _ := c.s.docSpan(d)
		if nl >= line {
			continue
		}
		if nl+uint32(n) < line {
			break
		}
		if k == kindText && c.visible(d) {
			return c.ref(d), true
		}
	}
	return docRef{}, false
}

// widen adds the record r to the answer's window, shown by its score,
// when the window then spans fewer than answerLines lines.
func (ix *Index) widen(u *unit, r docRef, score float32) {
	ix.join(u, r, score, answerLines)
}

// join adds the record r to the answer's window, shown by its score,
// when the window then spans fewer than limit lines, and reports whether
// r is in the window.
func (ix *Index) join(u *unit, r docRef, score float32, limit uint32) bool {
	if slices.Contains(u.window, r) {
		return true
	}
	_, nl, _ := ix.segs[r.seg].docSpan(int(r.doc))
	lo, hi := min(u.lines[0], nl), max(u.lines[1], nl)
	if hi-lo >= limit {
		return false
	}
	u.window = append(u.window, r)
	u.wscore = append(u.wscore, score)
	u.lines = [2]uint32{lo, hi}
	return true
}

// reach widens answer o to u, a record of its conversation at least
// siblingShare as good as o's own a few lines before or after it ("I
// need to make with_span work with do blocks; let me rewrite it as a
// macro" ten lines before the record that names the module), and
// reports whether it did.
func (ix *Index) reach(o *unit, u unit) bool {
	if o.d.Layer != layerL1 || u.d.Layer != layerL1 || o.session != u.session || u.at.seg != o.at.seg ||
		u.score < siblingShare*o.score || !ix.convOf(o.at).in(int(u.at.doc)) {
		return false
	}
	return ix.join(o, u.at, float32(u.raw), siblingLines)
}

func (ix *Index) expired(d doc) bool {
	return d.Expires != 0 && ix.latest > 0 && int64(d.Expires)*86400+86400 <= ix.latest
}

func (ix *Index) conceptOf(u unit) string {
	if u.exchange != nil {
		return splitPayload(ix.segs[u.exchange.seg].doc(int(u.exchange.doc)).Payload)[pConcept]
	}
	if u.d.Layer == layerL2 {
		return splitPayload(u.d.Payload)[pConcept]
	}
	return ""
}

// exchanges finds the exchanges of sessions, read from the index as a
// session is first asked for.
type exchanges struct {
	ix *Index
	m  map[string][]exRange
}

type exRange struct {
	from, to uint32
	at       docRef
}

func (ix *Index) exchangeIndex() *exchanges {
	return &exchanges{ix: ix, m: map[string][]exRange{}}
}

// find gives the exchange holding an L1 line of a session.
func (e *exchanges) find(session string, line uint32) (docRef, bool) {
	rs, ok := e.m[session]
	if !ok {
		refs := e.ix.refs("sessions/" + session + ".l2.json")
		// Room for every document of the file: grown by appending, the
		// ranges of a long session's exchanges cost twice their memory.
		n := 0
		for _, r := range refs {
			n += int(e.ix.segs[r.seg].source(r.src).docs)
		}
		rs = make([]exRange, 0, n)
		for _, r := range refs {
			s := e.ix.segs[r.seg]
			src := s.source(r.src)
			for d := src.firstDoc; d < src.firstDoc+src.docs; d++ {
				if kind, from, to := s.docSpan(int(d)); kind == kindExchange && from > 0 {
					rs = append(rs, exRange{from, to, docRef{r.seg, d}})
				}
			}
		}
		e.m[session] = rs
	}
	for _, r := range rs {
		if r.from <= line && line <= r.to {
			return r.at, true
		}
	}
	return docRef{}, false
}

// sessionOf gives a session file's base: "sessions/B.l1.jsonl" → B.
func sessionOf(name string) string {
	name = strings.TrimPrefix(name, "sessions/")
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

// feedback picks the terms that the first pass's best answers share and
// the query lacks: the words the session used for what was asked.
func (ix *Index) feedback(units []unit, seen map[string]bool, n float64, tok *tokenizer) []qterm {
	weight := map[string]float64{}
	top := units[:min(len(units), int(feedbackDocs))]
	for rank, u := range top {
		text := ix.docText(u.at, u.d)
		if u.best != nil {
			text += "\n" + ix.docText(*u.best, ix.segs[u.best.seg].doc(int(u.best.doc)))
		}
		local := map[string]bool{}
		tok.each(text, func(t string) { local[t] = true })
		for t := range local {
			if !seen[t] && len(t) > 2 && !isNumber(t) {
				weight[t] += 1 / float64(rank+1)
			}
		}
	}
	type tw struct {
		t string
		w float64
	}
	var ts []tw
	for t, w := range weight {
		df := ix.df(t)
		if df < 2 || float64(df) > n/20 {
			continue
		}
		ts = append(ts, tw{t, w * math.Log(1+n/float64(df))})
	}
	slices.SortFunc(ts, func(a, b tw) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return strings.Compare(a.t, b.t)
	})
	var out []qterm
	for _, t := range ts[:min(len(ts), int(feedbackTerms))] {
		out = append(out, qterm{term: t.t, weight: feedbackWeight, orig: -1, idf: ix.idf(t.t, n)})
	}
	return out
}

// Unknown lists the names in query (a capitalised word inside a
// sentence, an identifier, a path) that nothing in memory mentions, not
// even in part: "Redis" in "where did we configure the Redis cache"; and
// the things it names in lower case that memory never saw (things.go). A
// question about a thing memory never saw has no answer in it, however
// well its other words match; Search then answers nothing.
func (ix *Index) Unknown(query string) []string {
	words := ix.unknown(query, newTokenizer())
	for i := range words {
		words[i] = strings.Clone(words[i]) // see Hit.detach
	}
	return words
}

func (ix *Index) unknown(query string, tok *tokenizer) []string {
	fields := strings.Fields(query)
	out := ix.unknownCode(fields, tok)
	words := questionWords(fields)
	// A name written again is judged once; past maxJudged names the
	// prompt is a pasted log or listing, not a question about things, and
	// the rest are let through, as a name too common to scan for is.
	judged := map[string]bool{}
	changed := newNames(words)
	for i, w := range words {
		if !w.name && !(changed[i] && hyphenName(w.text)) || judged[w.text] || len(judged) >= maxJudged {
			continue
		}
		judged[w.text] = true
		known := false
		switch {
		case schemaName(words, i):
			// A table or a column is named as the schema writes it
			// (review_tokens, token_count), not by its words in prose:
			// memory that speaks of review tokens never held such a
			// table (fresh28, never14).
			known = ix.heldAsWritten(strings.ToLower(w.text))
		case strings.ContainsAny(w.text, "._/-:"):
			known = ix.knownIdentifier(w.text, w.code, tok)
			if known && changed[i] && (oneName(w.text) || hyphenName(w.text)) {
				// What a change gave is written as it is: a
				// file_system watcher is not the file system.
				known = ix.heldAsWritten(strings.ToLower(w.text)) && ix.writtenBeyondOutput(strings.ToLower(w.text))
			}
		default:
			// A plain word of code is written as it is: `severity` is
			// not seen through a word of its thesaurus group (priority).
			known = ix.knownName(w.text, w.code && !named(w.text, false) || changed[i], tok)
			if known && w.sigil != 0 {
				known = ix.heldWithSigil(w.sigil, w.text, tok)
			}
		}
		if !known && !slices.ContainsFunc(out, func(o string) bool { return o == w.text || inRun(o, w.text) }) {
			out = append(out, w.text)
		}
	}
	out = append(out, ix.unknownSpans(fields, out, tok)...)
	if judgesClaims(query) {
		// A plain word of what a change gave that memory never writes,
		// nor in any form: the change never happened.
		for _, i := range changedWords(words) {
			lower := strings.ToLower(words[i].text)
			if ix.df(lower) == 0 && ix.df(tok.stem(lower)) == 0 && !slices.Contains(out, lower) {
				out = append(out, lower)
			}
		}
		// What a question says happened: an error or a label quoted, a
		// move, a deletion, a count, a duration.
		out = append(out, ix.unknownErrors(query, out, tok)...)
		out = append(out, ix.unknownClaims(query, out, tok)...)
	}
	for _, th := range ix.unknownThings(words, tok) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, th) }) {
			out = append(out, th)
		}
	}
	out = append(out, ix.unknownTold(query, out, tok)...)
	if judgesClaims(query) {
		out = append(out, ix.unknownFeatures(fields, out, tok)...)
	}
	return out
}

// answering gives the ranked units that answer a question: none when no
// unit covers threshold of it (memory holds no answer), else every unit
// that does, and the better-ranked ones before the first that does. The
// threshold says whether memory answers, not which answer is best: the
// record that says why review tokens stay in ETS ranks first for "why
// are the one-time review tokens kept in memory instead of saved in the
// database", but holds few of its words (fresh27 lost it from the top
// five to records that held more words and answered nothing).
//
// It filters units in place.
func answering(units []unit, threshold float64) []unit {
	first := slices.IndexFunc(units, func(u unit) bool { return u.coverage >= threshold })
	if first < 0 {
		return nil
	}
	out := units[:first]
	for _, u := range units[first:] {
		if u.coverage >= threshold {
			out = append(out, u)
		}
	}
	return out
}

// schemaName reports whether words[i] is a snake_case name a schema noun
// follows: "the review_tokens table", "a token_count column".
func schemaName(words []questionWord, i int) bool {
	w := words[i]
	return strings.Contains(w.text, "_") && !strings.ContainsAny(w.text, "./:-") && !w.ends &&
		i+1 < len(words) && slices.Contains(schemaNouns, strings.ToLower(words[i+1].text))
}

// schemaNouns say that the name before them is a table's or a column's.
var schemaNouns = []string{"attribute", "attributes", "column", "columns", "field", "fields", "table", "tables"}

// maxJudged is the most names of a prompt Unknown judges.
const maxJudged = 64

// unknownCode gives the code a question quotes that memory never holds:
// words written with a sigil, side by side ("@tag :skip", "@moduletag
// :integration"), are one piece of code, known when memory holds their
// words side by side, not merely each.
func (ix *Index) unknownCode(fields []string, tok *tokenizer) []string {
	var out, run []string
	flush := func() {
		if len(run) > 1 && !ix.heldSideBySide(strings.Join(run, " "), tok) {
			out = append(out, strings.Join(run, " "))
		}
		run = run[:0]
	}
	for _, f := range fields {
		f = strings.TrimRight(strings.Trim(f, "`\"'()"), "?!,;.")
		if len(f) > 1 && (f[0] == '@' || f[0] == ':') && isWordRune(rune(f[1])) {
			run = append(run, f)
			continue
		}
		flush()
	}
	flush()
	return out
}

// inRun reports whether word is one of the sigilled words of run, which
// unknownCode judged together ("@tag :skip").
func inRun(run, word string) bool {
	for f := range strings.FieldsSeq(run) {
		if (f[0] == ':' || f[0] == '@') && f[1:] == word {
			return true
		}
	}
	return false
}

// chatWords are the abbreviations of chat, which name nothing however
// they are written ("What's the TL;DR of the epic?").
var chatWords = []string{"afaik", "aka", "asap", "btw", "eg", "eta", "fyi", "ie", "iirc", "imho", "imo", "lgtm", "ok", "ptal", "tbd", "tl;dr", "tldr"}

// blockSyntax are the ways a question writes a block of code by its
// keywords: its "end" is no word of what is asked, and in a project whose
// sessions end it matched every session-end record (six questions asked
// about the span helper's do...end block; four missed at the first
// answer).
var blockSyntax = []string{"do...end", "do…end", "do..end", "do/end", "do-end"}

// withoutChat gives query without its chat abbreviations ("TL;DR",
// "FYI"), which are no words to search for.
func withoutChat(query string) string { return rewriteFields(query, false) }

// searchText gives the text Search reads query's terms from: without its
// chat abbreviations, and with a block told by its keywords ("do...end")
// written as its opening word, in one pass over its words.
func searchText(query string) string { return rewriteFields(query, true) }

// rewriteFields gives query without its chat words and, with blocks, its
// blocks told by their keywords as "do"; query itself when neither is in
// it.
func rewriteFields(query string, blocks bool) string {
	fields := strings.Fields(query)
	kept := make([]string, 0, len(fields))
	changed := false
	for _, f := range fields {
		switch w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !isWordRune(r) })); {
		case slices.Contains(chatWords, w):
			changed = true
		case blocks && slices.Contains(blockSyntax, w):
			kept, changed = append(kept, "do"), true
		default:
			kept = append(kept, f)
		}
	}
	if !changed {
		return query
	}
	return strings.Join(kept, " ")
}

// knownIdentifier reports whether memory knows an identifier, a path or
// a dotted name. Code is referred to in pieces: it is known when its last
// part is, the part that says which file, command or member it is
// (ecto.rollback is not known for ecto.migrate); a snake_case name when
// memory holds its words side by side, as its own name or in prose
// (max_children is not known for "the children" and "max"). A product named with a
// suffix (Vue.js, Socket.IO, Fly.io, shadcn/ui) is known only as itself:
// by its whole name, its name run together (socketio), or its listed
// part (vue); a suffix (js, io, ui) names nothing.
func (ix *Index) knownIdentifier(text string, code bool, tok *tokenizer) bool {
	var parts, wholes []string
	words := 0
	tok.each(text, func(t string) {
		switch {
		case tok.whole:
			wholes = append(wholes, t)
		case !slices.Contains(suffixParts, t):
			parts = append(parts, t)
			fallthrough
		default:
			words++
		}
	})
	if words == 0 {
		return true // made of stop words only: "and/or" names nothing
	}
	searched := false
	for _, t := range wholes {
		if ix.df(t) > 0 {
			if !ix.searchedFor(t) {
				return true
			}
			searched = true
		}
	}
	if searched {
		return false // only looked for
	}
	if name := lastPathPart(text); fileName(name) {
		// A file is named as written: known whole, or by its words and
		// extension side by side in a longer path (spotter.css in
		// priv/static/assets/spotter.css), not by its words apart
		// (never18's split into transcript.css, where memory holds
		// transcripts and CSS). So is the file a path ends in, which
		// its folders do not make known (never31 asked for the commit
		// that moved a hook into assets/js/hooks/transcript_selection.js,
		// where memory holds assets/js and TranscriptSelection). A path
		// from a folder memory holds paths under (lib/, priv/), of three
		// parts or more, is held whole as written, as every path memory
		// saw is: lib/spotter/telemetry/trace_context.ex is no file memory
		// saw, though it saw spotter-plugin/scripts/lib/trace_context.sh.
		if first, _, _ := strings.Cut(text, "/"); strings.Count(text, "/") >= 2 && first != "" && ix.opensLonger(strings.ToLower(first), "/") {
			return false
		}
		return ix.heldSideBySide(name, tok)
	}
	if call, ok := memberCall(text); ok && (code || call != text || !callback(call)) {
		// A module's function (Sandbox.allow/3, Enum.empty?) is known
		// by the two side by side, as a call or its account writes
		// them: the function's word alone is a plain word (never30
		// asked where we called Sandbox.allow/3, fresh37 why a guard
		// went to Enum.empty?/1, never33 where "we fixed it with
		// Sandbox.allow"; memory holds none). A behaviour's callback
		// written plainly is told loosely ("the bootstrap
		// Application.start calls").
		return ix.heldSideBySide(call, tok)
	}
	if modulePath(text) {
		// A module's path is known by its words side by side, as
		// memory writes it whole or in a longer one
		// (Spotter.Transcripts.Session): its last word alone is a
		// plain word (never31's Task.Supervisor, which memory never
		// names, is not known for "supervisor").
		return ix.heldSideBySide(text, tok)
	}
	if len(parts) < 2 && strings.Contains(text, "_") && oneName(text) && slices.ContainsFunc(strings.Split(text, "_"), func(p string) bool { return isStop(strings.ToLower(p)) }) {
		// A snake_case name of one word and a function word
		// (resolved_at, is_active, created_by) is a column or a flag,
		// known as written: its word says nothing of it, as "resolved"
		// does not of resolved_at (fresh26's never-happened column).
		return ix.heldAsWritten(strings.ToLower(text))
	}
	joined := tok.stem(strings.Map(func(r rune) rune {
		if strings.ContainsRune("._/-:", r) {
			return -1
		}
		return unicode.ToLower(r)
	}, text))
	if len(parts) > 1 && (oneName(text) || code && !strings.ContainsAny(text, "./:")) {
		// One snake_case name (max_children, TMUX_SOCKET) or header
		// (X-Request-Id) is one identifier, not a path to a member: its
		// words say which only together.
		name := make([]queryWord, len(parts))
		for i, p := range parts {
			name[i] = queryWord{text: p, stem: p}
		}
		return ix.seen(name, tok)
	}
	if route, ok := routePrefix(text); ok {
		// A route is held by its path up to its first parameter, as
		// the router writes it (/api/review-context/:token): memory
		// that saw /api/hooks/session-end never saw
		// /api/sessions/:session_id/status, though it holds "status".
		return ix.df(route) > 0 || ix.opensLonger(route, "/:")
	}
	if things := listedParts(text, tok); isThing(joined) || len(things) > 0 {
		return ix.df(joined) > 0 || slices.ContainsFunc(things, func(t string) bool { return ix.df(t) > 0 }) && ix.knownLast(text, parts, code, tok)
	}
	return ix.knownLast(text, parts, code, tok)
}

// searchedFor reports whether memory holds the name t only as what a
// search looked for: a Grep's pattern, or the pattern of a grep, rg or
// find in a shell command, whose output never shows it. The agent guessed
// the name and looked; nothing of the project was seen by it. Eight
// never-happened sets asked what the ignore_warnings entry that silenced
// Dialyzer looked like: memory holds ignore_warnings once, in `grep -n
// "ignore_warnings\|dialyzer" mix.exs`, whose output had none. A name
// that opens a longer one memory holds (pane_list of pane_list_live) was
// a prefix searched for, and is known by the longer name. So is a name
// the agent only said it would look for ("let me check if there's a
// pane_list_live_test.exs"): a file a task planned and nobody wrote.
func (ix *Index) searchedFor(t string) bool {
	if ix.df(t) == 0 || ix.opensLonger(t, "_.") {
		return false
	}
	searched, read := false, 0
	for at, d := range ix.docsHolding(t) {
		if read++; read > claimScan {
			return false
		}
		switch {
		case d.Layer == layerL1:
			f, _ := ix.l1Record(at, d)
			if !searchOnly(f, t) && !(f.kind == "text" && wondered(f.text, t)) {
				return false
			}
			searched = true
		case d.Kind == kindExchange:
			// An exchange lists the commands of its lines, which
			// are judged as L1 records; its own words are its
			// summary's.
			if text := ix.docText(at, d); strings.Contains(strings.ToLower(text), t) && !wondered(text, t) {
				return false
			}
		default:
			return false
		}
	}
	return searched
}

// opensLonger reports whether memory holds a term that t opens, with one
// of the marks joins right after it: a longer name ("_." for pane_list of
// pane_list_live), an arity or an extension ("/.:" for with_span/2).
func (ix *Index) opensLonger(t, joins string) bool {
	for _, s := range ix.segs {
		for i := s.seek(t); i < s.nTerms; i++ {
			term := s.termAt(i)
			if !strings.HasPrefix(term, t) {
				break
			}
			if len(term) > len(t) && strings.ContainsRune(joins, rune(term[len(t)])) {
				return true
			}
		}
	}
	return false
}

// routePrefix gives a route's path up to its first parameter, lower
// case and without its leading slash ("/api/sessions/:id/status":
// api/sessions), when it has two parts or more and names no file. A
// route is written from its slash or with a parameter (a question's
// word loses its leading slash).
func routePrefix(text string) (string, bool) {
	if !strings.HasPrefix(text, "/") && !strings.Contains(text, "/:") {
		return "", false
	}
	prefix, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(text, "/")), ":")
	prefix = strings.TrimSuffix(prefix, "/")
	return prefix, strings.Count(prefix, "/") >= 1 && !strings.Contains(prefix, ".")
}

// opensPath reports whether memory holds a path that opens with the
// first two parts of text, a path of three or more (priv/static/assets
// opens priv/static/assets/spotter.css).
func (ix *Index) opensPath(text string) bool {
	parts := strings.SplitN(strings.ToLower(text), "/", 3)
	head := parts[0] + "/" + parts[1]
	return ix.df(head) > 0 || ix.opensLonger(head, "/")
}

// searchOnly reports whether an L1 record holds the lower-case name t
// only in what it searched for: a Grep's or Glob's pattern, or a search
// program's part of a shell command, and not in what it printed but for
// the search saying the name is not there ("find: ‘assets/css’: No such
// file or directory").
func searchOnly(f l1Fields, t string) bool {
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), t) }
	if f.kind != "tool" || has(foundLines(f.res)) || has(f.text) || has(f.file) || has(f.diff) || has(f.arg) {
		return false
	}
	switch f.tool {
	case "Grep", "Glob":
		return has(f.pat)
	case "Bash":
		searched := false
		for _, part := range commandParts(f.cmd) {
			if !has(part) {
				continue
			}
			if !searchProgram(part) {
				return false
			}
			searched = true
		}
		return searched
	}
	return false
}

// wonderCues say that what follows them was looked for, not seen: "check
// if there's a …", "see whether …", "look for …".
var wonderCues = []string{"check if", "checking if", "check whether", "checking whether", "see if", "see whether",
	"if there's", "if there is", "whether there's", "whether there is", "look for", "looking for", "check for", "checking for"}

// wonderReach is how many bytes before a name a cue of wondering may end
// ("check if there's an existing pane_list_live_test.exs").
const wonderReach = 24

// wondered reports whether text holds t (lower case) only where a cue
// of wondering stands just before it.
func wondered(text, t string) bool {
	lower := strings.ToLower(text)
	found := false
	for off := 0; ; {
		k := strings.Index(lower[off:], t)
		if k < 0 {
			return found
		}
		k += off
		before := lower[max(0, k-wonderReach-len("whether there is")):k]
		cue := slices.ContainsFunc(wonderCues, func(c string) bool {
			i := strings.LastIndex(before, c)
			return i >= 0 && len(before)-i-len(c) <= wonderReach && !strings.ContainsAny(before[i:], ".;:!?\n")
		})
		if !cue {
			return false
		}
		found, off = true, k+len(t)
	}
}

// missingPath are what a program prints of a path that is not there.
var missingPath = []string{"no such file or directory", "cannot access", "does not exist"}

// saysMissing reports whether text says a path is not there.
func saysMissing(text string) bool {
	lower := strings.ToLower(text)
	return slices.ContainsFunc(missingPath, func(m string) bool { return strings.Contains(lower, m) })
}

// foundLines gives a search's output without the lines that say a path
// it was given is not there.
func foundLines(res string) string {
	if !saysMissing(res) {
		return res
	}
	var b strings.Builder
	for line := range strings.Lines(res) {
		if !saysMissing(line) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// commandParts splits a shell command at its pipes, its lists and its
// lines: each part runs one program.
func commandParts(cmd string) []string {
	return strings.FieldsFunc(cmd, func(r rune) bool { return r == '|' || r == '&' || r == ';' || r == '\n' })
}

// searchPrograms look for text in files or names in a tree.
var searchPrograms = []string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "fd"}

// searchProgram reports whether a part of a shell command runs a search
// program ("git grep" is one too).
func searchProgram(part string) bool {
	words := strings.Fields(part)
	if len(words) > 1 && words[0] == "git" {
		words = words[1:]
	}
	return len(words) > 0 && slices.Contains(searchPrograms, words[0])
}

// heldAsWritten reports whether memory holds the name t as written: whole,
// or opening a longer name with its arity or extension (with_span/2,
// with_span.ex), which memory keeps as one.
func (ix *Index) heldAsWritten(t string) bool {
	return ix.df(t) > 0 || ix.opensLonger(t, "/.:")
}

// writtenBeyondOutput reports whether memory holds t other than only in
// what a tool printed: a change's result is what someone wrote or said
// (an edit, a command, a prompt, a summary). The file_system library
// memory saw only compiled among the dependencies ("==> file_system")
// was never swapped in (six sets asked why the tail workers moved to a
// file_system watcher). Past claimScan records t is taken as written.
func (ix *Index) writtenBeyondOutput(t string) bool {
	read := 0
	for at, d := range ix.docsHolding(t) {
		if read++; read > claimScan || d.Layer != layerL1 || d.Kind != kindTool {
			return true
		}
		f, _ := ix.l1Record(at, d)
		if strings.Contains(strings.ToLower(f.cmd+"\n"+f.file+"\n"+f.diff+"\n"+f.arg+"\n"+f.pat), t) {
			return true
		}
	}
	return read == 0 // held as the start of a longer name only
}

// knownLast reports whether memory knows the part of an identifier that
// says which thing it is. A command, a member or a file is named by its
// last segment (ecto.rollback, Tmux.list_panes, /api/hooks/session-end):
// memory knows it when it knows that segment whole, a name of several
// words by its words side by side (purge_stale_sessions is not known for
// "sessions", nor pre-flight for pre-commit). Prose joins words with a
// hyphen or a slash (W3C-style, green/red, ChromeDriver/Wallaby): its
// names are judged each, as words of their own.
func (ix *Index) knownLast(text string, parts []string, code bool, tok *tokenizer) bool {
	if !code && !strings.HasPrefix(text, "/") && !strings.ContainsAny(text, "._:") && (strings.Count(text, "/") < 2 || !ix.opensPath(text)) {
		// Words written as alternatives are words each
		// (ChromeDriver/Wallaby; green/red names nothing), however
		// many, unless memory holds a path that opens as they do
		// (priv/static/assets): "the row/sidecar/expand-button
		// markup" is three pieces of markup. A hyphened
		// compound says what its last word is like: only a listed
		// thing among its words names something (MessagePack-encoded;
		// Haiku-based is a plain word). Alternatives that are together
		// a listed thing name it ("a light/dark switch" is one between
		// light and dark, which memory that never built one never
		// holds side by side).
		if alts := termWords(strings.ReplaceAll(text, "/", " "), tok); len(alts) > 1 && isThing(stemsOf(alts)) {
			return ix.seen(alts, tok)
		}
		return !slices.ContainsFunc(strings.Split(text, "/"), func(alt string) bool {
			if !strings.Contains(alt, "-") {
				return named(alt, false) && !ix.knownName(alt, false, tok)
			}
			return slices.ContainsFunc(strings.Split(alt, "-"), func(w string) bool {
				return (isThing(tok.stem(strings.ToLower(w))) || namesThing(termWords(w, tok))) && !ix.knownName(w, false, tok)
			})
		})
	}
	seg := lastSegment(text)
	if ix.df(strings.ToLower(seg)) > 0 {
		return true // the segment whole, as memory writes it (session-end)
	}
	if errorClass(termWords(seg, tok)) {
		return false // Ecto.NoResultsError, as errorClass says
	}
	var last []queryWord
	tok.each(seg, func(t string) {
		if !tok.whole && !slices.Contains(suffixParts, t) {
			last = append(last, queryWord{text: t, stem: t})
		}
	})
	switch len(last) {
	case 0:
		return len(parts) > 0 && ix.df(parts[len(parts)-1]) > 0
	case 1:
		return ix.df(last[0].stem) > 0
	}
	return ix.seen(last, tok)
}

// knownName reports whether memory knows a name written without joiners.
// A name (Redis, MySQL, GraphQL, TypeScript) is known as a whole; a
// camelCase identifier (SliceBuilder) also by its words side by side, as
// its file names them (slice_builder.ex) or prose does, but not by its
// words apart: MessageAnnotationLink, a rename that never happened, is
// not known for "message", "annotation" and "link" (fresh21 and fresh22
// had three never-happened questions answered through words apart: that
// rename, a library, StreamData, and a setting, MaxLineLength).
//
// A name written exactly (a plain word of code) is known only as written.
func (ix *Index) knownName(text string, exactly bool, tok *tokenizer) bool {
	lower := strings.ToLower(text)
	stem := tok.stem(lower)
	if ix.df(lower) > 0 || ix.df(stem) > 0 {
		// Not a listed thing memory holds only as what a search looked
		// for (searchedFor): "Tailwind", grepped for once in vain. A
		// name of the project's code a search looked for is the code
		// searched (Phoenix.LiveViewTest in test/).
		return !isThing(stem) && !isThing(lower) || !ix.searchedFor(lower)
	}
	if exactly {
		return false
	}
	// An acronym of the words of programming (CLI, API) is one of
	// them: known when a word of its thesaurus group is.
	qw := []queryWord{{text: lower, stem: stem}}
	parts := termWords(text, tok)
	if errorClass(parts) {
		return false // an exception's name is quoted from output, as it is
	}
	if len(parts) > 1 {
		return ix.seen(parts, tok) || ix.seenKind(qw, tok)
	}
	return !isThing(stem) && !isMember(stem) && ix.seen(qw, tok) || ix.seenKind(qw, tok)
}

// errorClass reports whether the parts of a camelCase name are an
// exception's (KeyError, NoRouteError, ArgumentException): a name quoted
// from output as it was printed, which memory holds as written or not at
// all. Its words in prose ("the key", "an error") say nothing of it
// (never15 asked about a KeyError crash that never happened).
func errorClass(parts []queryWord) bool {
	if len(parts) < 2 {
		return false
	}
	last := parts[len(parts)-1].text
	return last == "error" || last == "exception"
}

// lastSegment gives the segment of a path or dotted name that says which
// thing it is: the last one, past an arity (purge/1), an extension
// (tail_wrapper.sh) or a trailing separator.
func lastSegment(text string) string {
	segs := strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune("./:#", r) })
	for i := len(segs) - 1; i >= 0; i-- {
		s := strings.ToLower(segs[i])
		if strings.Trim(s, "0123456789") == "" || i > 0 && slices.Contains(suffixParts, s) {
			continue
		}
		return segs[i]
	}
	return ""
}

// memberCall reads text as a module's function, written as code calls it:
// a capitalised module (of a path or not), then a function's lower-case
// name, its arity or its ? or ! after it or not (Ecto.Adapters.SQL.Sandbox.allow/3,
// Enum.empty?/1, Repo.insert!); it gives the module's last part and the
// function, without the arity or the mark (Sandbox.allow, Enum.empty,
// Repo.insert), as memory writes a call.
func memberCall(text string) (string, bool) {
	call, _, _ := strings.Cut(text, "/")
	call = strings.TrimRight(call, "?!")
	i := strings.LastIndexByte(call, '.')
	if i <= 0 || i == len(call)-1 {
		return "", false
	}
	mod, fun := call[:i], call[i+1:]
	last := mod[strings.LastIndexByte(mod, '.')+1:]
	if last == "" || !unicode.IsUpper(rune(last[0])) || !unicode.IsLower(rune(fun[0])) ||
		strings.IndexFunc(fun, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) >= 0 {
		return "", false
	}
	return last + "." + fun, true
}

// callbacks are the functions a behaviour calls back, which a question
// tells loosely by the module that calls them ("the bootstrap that
// Application.start calls" is the project's start/2 in application.ex).
var callbacks = []string{"call", "child_spec", "handle_call", "handle_cast", "handle_continue", "handle_event", "handle_info",
	"handle_params", "init", "mount", "perform", "render", "start", "start_link", "terminate", "update"}

// callback reports whether a module's function (memberCall's) is a
// behaviour's callback.
func callback(call string) bool {
	return slices.Contains(callbacks, call[strings.LastIndexByte(call, '.')+1:])
}

// oneName reports whether an identifier is one name rather than a path to
// a member: joined by underscores only, or by hyphens between capitalised
// words, as a header is (X-Request-Id; not "Ash-generated", which is
// prose).
func oneName(text string) bool {
	if strings.ContainsAny(text, "./:") {
		return false
	}
	if !strings.Contains(text, "-") {
		return true
	}
	for part := range strings.SplitSeq(text, "-") {
		if r, _ := utf8.DecodeRuneInString(part); part != "" && !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// suffixParts are the parts of a name that say what kind of file or site
// it is, not which.
var suffixParts = []string{"ai", "app", "co", "com", "css", "dev", "ex", "exs", "go", "html", "http", "https", "io", "js", "json", "jsx", "lock", "md", "net", "org", "py", "rb", "rs", "sh", "toml", "ts", "tsx", "txt", "ui", "www", "yaml", "yml"}

// listedParts gives the stems of an identifier's parts that are listed
// things as written: "author" in author/message is a stem of
// authorization, not the thing (fresh30's commit author and message).
func listedParts(text string, tok *tokenizer) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, w := range camelWords(f) {
			lw := strings.ToLower(w)
			if st := tok.stem(lw); isThing(st) && writesThing([]queryWord{{text: lw, stem: st}}) {
				out = append(out, st)
			}
		}
	}
	return out
}

// camelWords splits a camelCase word as written: RedisCache into Redis
// and Cache, HTTPServer into HTTP and Server.
func camelWords(w string) []string {
	rs := []rune(w)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerBefore := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
		acronymEnds := unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if unicode.IsUpper(rs[i]) && (lowerBefore || acronymEnds) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// fileExtensions are the extensions that make a name a file's.
var fileExtensions = []string{"css", "eex", "ex", "exs", "go", "heex", "html", "js", "json", "jsonl", "jsx", "md", "py", "rb", "rs", "sh", "sql", "toml", "ts", "tsx", "txt", "yaml", "yml"}

// fileName reports whether text names a file on its own, not in a path:
// a name, a dot and an extension (transcript.css, notify-session-end.sh).
func fileName(text string) bool {
	i := strings.LastIndexByte(text, '.')
	return i > 0 && !strings.ContainsAny(text, "/:") && slices.Contains(fileExtensions, strings.ToLower(text[i+1:]))
}

// dotFile reports whether text names a dotfile on its own (.gitignore,
// .dialyzerignore, .tool-versions): a dot and a name without another,
// not an extension told alone ("the .ex files").
func dotFile(text string) bool {
	name, ok := strings.CutPrefix(text, ".")
	return ok && len(name) > 2 && !slices.Contains(fileExtensions, strings.ToLower(name)) &&
		strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' }) < 0 &&
		unicode.IsLetter(rune(name[0]))
}

// fileWord reports whether text names a file on its own: a name with an
// extension or a dotfile.
func fileWord(text string) bool { return fileName(text) || dotFile(text) }

// questionWord is a word of a question as the checks for unknown names
// read it: trimmed of punctuation and of a possessive ("SubagentLive's"),
// whether it names a thing (named; a capitalised stop word does not),
// and whether punctuation ends it.
//
// A word inside backticks is code: it names something however it is
// written (`emfile`), and a hyphenated one is one name (`kill-server`),
// not the words of prose ("per-project").
type questionWord struct {
	text             string
	name, ends, code bool
	// sigil is the mark an atom or an attribute is written with (':',
	// '@'), or 0.
	sigil byte
}

func questionWords(fields []string) []questionWord {
	var out []questionWord
	start := true
	code := codeSpans(fields)
	for i, w := range fields {
		sigil := sigilOf(w)
		code := code[i] || sigil != 0
		word := strings.TrimFunc(w, func(r rune) bool { return !isWordRune(r) })
		if i := strings.IndexAny(word, "'’"); i >= 0 && !code {
			word = word[:i]
		}
		last := w[len(w)-1:]
		lower := strings.ToLower(word)
		out = append(out, questionWord{
			text:  word,
			name:  word != "" && !isStop(lower) && !slices.Contains(chatWords, lower) && !isNumber(word) && !isQuantity(word) && (named(word, start) || code && utf8.RuneCountInString(word) > 1),
			ends:  strings.ContainsAny(last, ".,;:?!()\""),
			code:  code,
			sigil: sigil,
		})
		start = strings.ContainsAny(last, ".?!:")
	}
	return out
}

// heldWithSigil reports whether memory holds a word as the atom or the
// attribute a question writes (:simple, @ttl_seconds), not only as the
// word: with its sigil, or, an atom, as a keyword's key (simple:).
// never32 asked why dev's span processor was set to :simple, which memory
// holds as a plain word only (the processor was :batch). Past claimScan
// records to read it is taken as held.
func (ix *Index) heldWithSigil(sigil byte, word string, tok *tokenizer) bool {
	_, term := ix.phrase(termWords(word, tok))
	if term == "" || ix.df(term) > claimScan {
		return true
	}
	lower := strings.ToLower(word)
	for at, d := range ix.docsHolding(term) {
		text := strings.ToLower(ix.docText(at, d))
		for i := 0; ; {
			j := strings.Index(text[i:], lower)
			if j < 0 {
				break
			}
			j += i
			end := j + len(lower)
			whole := end == len(text) || !isWordRune(rune(text[end]))
			if whole && j > 0 && text[j-1] == sigil && (j == 1 || !isWordRune(rune(text[j-2]))) {
				return true // :simple, @ttl_seconds
			}
			if whole && sigil == ':' && end < len(text) && text[end] == ':' && (j == 0 || !isWordRune(rune(text[j-1]))) {
				return true // simple: as a keyword's key
			}
			i = j + 1
		}
	}
	return false
}

// sigilOf gives the sigil of a field that is a name written as code by
// it: an atom (:reopen) or a module attribute (@max_lookups); 0 for any
// other field. never30 asked when a :reopen action was added, which
// memory never names.
func sigilOf(f string) byte {
	if f = strings.TrimLeft(f, "([{\"'“‘`"); len(f) > 2 && (f[0] == ':' || f[0] == '@') && unicode.IsLetter(rune(f[1])) {
		return f[0]
	}
	return 0
}

// codeSpans marks the fields of a question inside inline code: from a
// field opening with one backtick (after an opening bracket or quote:
// "(`emfile`)") to the field that closes it, at most maxCodeWords fields
// on. A backtick left open, or a fence of three (code pasted into the
// prompt, whose every local name memory need not know), marks nothing.
func codeSpans(fields []string) []bool {
	code := make([]bool, len(fields))
	for _, sp := range inlineCode(fields) {
		for c := sp[0]; c < sp[1]; c++ {
			code[c] = true
		}
	}
	return code
}

// inlineCode gives the spans of fields inside inline code, each as the
// index of its first field and one past its last.
func inlineCode(fields []string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(fields); i++ {
		open := strings.TrimLeft(fields[i], "([{\"'“‘")
		if !strings.HasPrefix(open, "`") || strings.HasPrefix(open, "``") {
			continue
		}
		for j := i; j < len(fields) && j < i+maxCodeWords; j++ {
			f := fields[j]
			if j == i {
				f = open[1:]
			}
			if strings.Contains(f, "`") {
				spans = append(spans, [2]int{i, j + 1})
				i = j
				break
			}
		}
	}
	return spans
}

// maxCodeWords is the most words an inline code span of a question holds
// (`mix ecto.migrate --quiet`); a longer one is pasted code.
const maxCodeWords = 4

// namesThing reports whether the parts of a camelCase word are a listed
// thing or the end of one: the product's own spelling of its name
// (LiveDashboard for Phoenix LiveDashboard), made of words memory knows
// from other talk.
func namesThing(parts []queryWord) bool {
	if len(parts) < 2 {
		return false
	}
	stems := stemsOf(parts)
	return isThing(stems) || strings.Contains(thingsStems, " "+stems+"\t")
}

// named reports whether a word names a thing rather than saying
// something: capitalised inside a sentence, or with capitals, digits or
// joiners inside it (GraphQL, k8s, cache_store, redis.conf).
func named(w string, sentenceStart bool) bool {
	if utf8.RuneCountInString(w) < 2 {
		return false // "tail -F": a letter names nothing
	}
	for i, r := range w {
		switch {
		case i > 0 && (unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '/'):
			return true
		case i == 0 && unicode.IsUpper(r) && !sentenceStart:
			return true
		}
	}
	return false
}

// intent is what kind of answer a question asks for, from its words:
// one about what failed is answered first by the calls that failed, one
// asking where by the records that name a file, one asking why by the
// assistant's words, one asking how long or how often by the records
// telling a duration, and its snippet by the sentence telling it (how
// many: a number). (Lifting every tool call for "where" was tried
// earlier and lost answers; a record naming a file is narrower.)
type intent struct{ failed, place, reason, route, amount, time bool }

func intentOf(query string) intent {
	var in intent
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) })
	for i, w := range words {
		switch w {
		case "why", "reason", "reasons", "cause", "causes":
			in.reason = true
		case "fail", "failed", "failing", "fails", "failure", "error", "errors", "broke", "broken", "crash", "crashed", "wrong",
			"refuse", "refused", "refuses", "refusing", "reject", "rejected", "rejects", "rejecting",
			"complain", "complained", "complains", "complaining", "denied", "blocked":
			in.failed = true
		case "where":
			in.place = true
		case "url", "urls", "uri", "route", "routes", "routing", "endpoint", "endpoints":
			in.route = true
		case "how":
			// "how many": a number answers; "how long", "how often": a
			// duration.
			if i+1 < len(words) {
				in.amount = in.amount || slices.Contains(amountWords, words[i+1])
				in.time = in.time || slices.Contains(timeWords, words[i+1])
			}
		case "which", "what":
			// "which file", "which plugin shell script": a place noun
			// within the next three words, but not past a verb ("what
			// did the script print").
			for _, n := range words[i+1 : min(len(words), i+4)] {
				if slices.Contains(auxiliaries, n) {
					break
				}
				in.place = in.place || slices.Contains(placeWords, n)
			}
		}
	}
	return in
}

// frameStems are the terms of the words that frame a question about what
// recurred ("in which pieces of work did that come up", "how many times
// did it happen", "on several occasions"): they say the answer spans
// occasions, not what it is about, and a record that happens to hold
// them ("let me implement all the pieces") is no answer. They are
// written stemmed so that a prompt does not stem them (TestFrameStems
// keeps them the stemmer's), in a slice, which costs a process nothing
// at start-up.
var frameStems = []string{"came", "come", "happen", "occas", "piec", "sever", "time"}

// frameWeight is a frame word's weight in a query.
const frameWeight = 0.3

// auxiliaries end the words after "which" or "what" that name what is
// asked for; placeWords among those words ask for a place. Slices, as
// frameStems are: a map would be built in every hook process.
var (
	auxiliaries = []string{"are", "can", "could", "did", "do", "does", "had", "has", "have", "is", "should", "was", "were", "will", "would"}
	placeWords  = []string{"dir", "directory", "file", "files", "folder", "module", "modules", "path", "script", "scripts"}
	amountWords = []string{"big", "large", "many", "much", "small"}
	timeWords   = []string{"fast", "frequently", "long", "often", "quickly", "soon"}
)

// failedLift is what a failed call gets for a question about a failure,
// placeLift what a record naming a file gets for a question asking
// where, reasonLift what the assistant's words get for a question asking
// why: small, so that they order answers that match alike. (placeLift was
// 1.1 until the twelfth session; over eighteen fresh sets 1.2 gave hit@1
// 476 against 473, hit@5 624 against 626, the prompt hook 454 against
// 448 of 685; 1.15 and 1.25 gave 475/625/453 and 476/624/453.)
const (
	failedLift = 1.15
	placeLift  = 1.2
	reasonLift = 1.2
	routeLift  = 1.3
	// durationLift is what an edit setting a duration (@ttl_seconds 90)
	// gets for a question asking how long or how often: large, because
	// the code that sets it is the answer and its words are seldom the
	// question's ("how long can a session go quiet before the tracker
	// stops treating it as live"), while the account of the work beside
	// it matches the question's words and not its value. Over the 43
	// such questions of the sets, at 1 (none) the evidence was first for
	// 17 and in the first five for 22; at 1.5 22 and 31, at 2 28 and 36,
	// at 3 33 and 37, at 4 34 and 38.
	durationLift = 3
	// routeDefLift is what an edit of a router gets for a question asking
	// for a URL, a route or an endpoint, for the same reason: the line
	// defining the route is the answer, the commit telling of the page
	// holds the question's words. Over the 96 questions of the sets that
	// ask one, at 1 (routeLift alone) the evidence was first for 58 and in
	// the first five for 81; at 2 67 and 89, at 2.5 69 and 90, at 3 69
	// and 89, at 4 71 and 89, at 6 70 and 88.
	routeDefLift = 3
)

// weigh gives the factor an intent gives a document.
func (in intent) weigh(d doc) float64 {
	f := 1.0
	if in.failed && d.Layer == layerL1 && d.Flags&flagFailed != 0 {
		f *= failedLift
	}
	if in.place && d.Layer == layerL1 && d.Flags&flagPath != 0 {
		f *= placeLift
	}
	if in.reason && d.Layer == layerL1 && d.Kind == kindText {
		f *= reasonLift
	}
	if in.route && d.Layer == layerL1 && d.Flags&flagRoute != 0 {
		f *= routeLift
	}
	if in.route && d.Layer == layerL1 && d.Flags&flagRouteDef != 0 {
		f *= routeDefLift
	}
	if in.time && d.Layer == layerL1 && d.Flags&flagDuration != 0 {
		f *= durationLift
	}
	return f
}

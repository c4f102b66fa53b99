package l4

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
)

// The index must answer every query exactly as Search does: the same hits,
// scores and order. These tests hold it to Search on a generated memory
// whose words overlap by stem, prefix and abbreviation, with queries made
// of its own words, other words and paths.

var vocabulary = strings.Fields(`auth authentication authorization author authz db database data session sessions
sess registry config configuration cfg conf request req response resp handler handlers upload uploads uploading cart
billing invoice invoices search searching searcher deploy deployment k8s kubernetes docker repo repository repositories
ui interface test tests testing lint linter golangci migration migrations schema nil pointer panic timeout retry
retries cache caching cached token tokens jwt credential hash password queue worker workers cron job scheduler api
endpoint route router middleware logging logger metrics trace tracing webhook stripe refund refunds email template`)

func randomText(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
		if r.IntN(5) == 0 {
			w[i] = strings.ToUpper(w[i][:1]) + w[i][1:]
		}
	}
	return strings.Join(w, " ")
}

func randomPath(r *rand.Rand) string {
	return "lib/" + vocabulary[r.IntN(len(vocabulary))] + "/" + vocabulary[r.IntN(len(vocabulary))] + "_" + vocabulary[r.IntN(len(vocabulary))] + ".go"
}

// generatedMemory is a memory of about n L2 items with rules, solutions,
// core logic and concepts, all from the vocabulary.
func generatedMemory(seed uint64, n int) (*Facts, *l3.File, []*l2.File) {
	r := rand.New(rand.NewPCG(seed, 1))
	f := &Facts{}
	for i := range 30 {
		f.Rules = append(f.Rules, Rule{ID: fmt.Sprintf("r-%04x", i), Text: "Always " + randomText(r, 6), Confidence: float64(r.IntN(10)) / 10, Sessions: []string{"aaaa0000"}})
		f.Solutions = append(f.Solutions, Solution{ID: fmt.Sprintf("s-%04x", i), Problem: randomText(r, 5), Solution: randomText(r, 7), Files: []string{randomPath(r)}, Confidence: r.Float64()})
		f.CoreLogic = append(f.CoreLogic, CoreLogic{ID: fmt.Sprintf("k-%04x", i), Text: randomText(r, 8), Files: []string{randomPath(r)}, Confidence: r.Float64()})
	}
	c := &l3.File{}
	for i := range n / 50 {
		c.Concepts = append(c.Concepts, l3.Concept{ID: fmt.Sprintf("c-%04x", i), Name: randomText(r, 2), Summary: randomText(r, 6),
			Keywords: strings.Fields(strings.ToLower(randomText(r, 3))), Files: []string{randomPath(r)}})
	}
	var sessions []*l2.File
	for s := 0; s*40 < n; s++ {
		sf := &l2.File{SessionID: fmt.Sprintf("%08x", s), L1: fmt.Sprintf("2026-11-%02d-%08x.l1.jsonl", 1+s%28, s)}
		for x := range 40 {
			e := l2.Exchange{ID: fmt.Sprintf("x-%06x", s*40+x), Summary: randomText(r, 4+r.IntN(8)), Keywords: strings.Fields(strings.ToLower(randomText(r, 2))),
				Files: []string{randomPath(r)}, Significance: float64(r.IntN(11)) / 10, L1Range: [2]int{x*5 + 1, x*5 + 5}}
			switch r.IntN(6) {
			case 0:
				e.Problem = randomText(r, 5)
			case 1:
				e.Rule = randomText(r, 5)
			case 2:
				e.File, e.Lines = randomPath(r), "1-9" // a fact
			}
			if x%2 == 0 {
				sf.Exchanges = append(sf.Exchanges, e)
			} else if e.IsFact() {
				sf.Facts = append(sf.Facts, e)
			} else {
				sf.Exchanges = append(sf.Exchanges, e)
			}
		}
		sessions = append(sessions, sf)
	}
	return f, c, sessions
}

func sourcesOf(f *Facts, c *l3.File, sessions []*l2.File) []IndexSource {
	src := []IndexSource{FactsSource("facts.json", "1", f), ConceptsSource("concepts.json", "1", c)}
	for _, s := range sessions {
		src = append(src, SessionSource(s.SessionID+".l2.json", "1", s))
	}
	return src
}

func queries(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 2))
	qs := []string{
		"", "the and of", "auth", "db timeout", "fix the nil pointer in lib/upload/handler_cart.go",
		"from now on always run the linter before committing", "Why does the k8s deploy of the repo fail?",
		"AuthZ middleware", "sess registry", "Authentication", "uploadHandler returns 500", "xyzzy plugh",
	}
	for range n {
		q := randomText(r, 1+r.IntN(12))
		if r.IntN(3) == 0 {
			q += " " + randomPath(r)
		}
		if r.IntN(4) == 0 {
			q += " unknownword" + fmt.Sprint(r.IntN(100))
		}
		qs = append(qs, q)
	}
	return qs
}

func TestIndexAgreesWithSearch(t *testing.T) {
	f, c, sessions := generatedMemory(1, 1200)
	b, err := EncodeIndex(sourcesOf(f, c, sessions))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := DecodeIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	var nonEmpty int
	for _, opts := range []SearchOptions{{Threshold: 0.35, Max: 3}, {Threshold: 0, Max: 0}, {Threshold: 0.2, Max: 10}} {
		for _, q := range queries(1, 120) {
			want := Search(f, c, sessions, q, opts)
			got := ix.Search(q, opts, nil, nil)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %q %+v:\nindex  %v\nsearch %v", q, opts, got, want)
			}
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	if nonEmpty < 200 {
		t.Errorf("only %d of 396 queries found anything: the test proves little", nonEmpty)
	}
}

// TestIndexWithChangedFiles is the index of an older memory, with the
// files that changed since marked stale and passed afresh: it must answer
// as Search over the memory as it is now.
func TestIndexWithChangedFiles(t *testing.T) {
	f, c, old := generatedMemory(2, 800)
	b, err := EncodeIndex(sourcesOf(f, c, old))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := DecodeIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	// Now: facts changed, one session grew, one was removed, one is new.
	f2, _, extra := generatedMemory(3, 80)
	now := append([]*l2.File(nil), old...)
	grown := *now[3]
	grown.Exchanges = append(append([]l2.Exchange(nil), grown.Exchanges...), extra[0].Exchanges...)
	now[3] = &grown
	now = append(now[:7], now[8:]...)
	extra[1].SessionID = "new-session"
	now = append(now, extra[1])
	stale := make([]bool, ix.NumSources())
	for i := range stale {
		name, _ := ix.Source(i)
		stale[i] = name == "facts.json" || name == old[3].SessionID+".l2.json" || name == old[7].SessionID+".l2.json"
	}
	fresh := []IndexSource{FactsSource("facts.json", "2", f2), SessionSource("x", "2", &grown), SessionSource("y", "2", extra[1])}
	for _, q := range queries(2, 120) {
		opts := SearchOptions{Threshold: 0.2, Max: 8}
		want := Search(f2, c, now, q, opts)
		if got := ix.Search(q, opts, stale, fresh); !reflect.DeepEqual(got, want) {
			t.Fatalf("query %q:\nindex  %v\nsearch %v", q, got, want)
		}
	}
}

func TestIndexSources(t *testing.T) {
	f, c, sessions := generatedMemory(4, 200)
	src := sourcesOf(f, c, sessions)
	src[1].Stamp = "size 10 mtime 12345"
	b, err := EncodeIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EncodeIndex(sourcesOf(f, c, sessions))
	src2 := sourcesOf(f, c, sessions)
	src2[1].Stamp = "size 10 mtime 12345"
	if b2, _ := EncodeIndex(src2); string(b2) != string(b) || string(again) == string(b) {
		t.Error("the index bytes do not depend on the sources alone")
	}
	ix, err := DecodeIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	if ix.NumSources() != len(src) {
		t.Fatalf("%d sources, want %d", ix.NumSources(), len(src))
	}
	for i, s := range src {
		if name, stamp := ix.Source(i); name != s.Name || stamp != s.Stamp {
			t.Errorf("source %d = %q %q, want %q %q", i, name, stamp, s.Name, s.Stamp)
		}
	}
}

// TestDamagedIndex: bytes that are not an index are refused, and damage
// the layout check cannot see gives wrong hits at worst, never a panic.
func TestDamagedIndex(t *testing.T) {
	f, c, sessions := generatedMemory(5, 400)
	b, err := EncodeIndex(sourcesOf(f, c, sessions))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, []byte("memkeep"), b[:len(b)-1], append(append([]byte(nil), b...), 0), []byte(strings.Replace(string(b), "recall2", "recall9", 1))} {
		if _, err := DecodeIndex(bad); err != ErrIndex {
			t.Errorf("DecodeIndex of %d damaged bytes: err = %v, want ErrIndex", len(bad), err)
		}
	}
	r := rand.New(rand.NewPCG(5, 5))
	qs := queries(5, 20)
	for range 300 {
		d := append([]byte(nil), b...)
		for range 1 + r.IntN(8) {
			d[len(indexMagic)+20+r.IntN(len(d)-len(indexMagic)-20)] = byte(r.IntN(256))
		}
		ix, err := DecodeIndex(d)
		if err != nil {
			continue
		}
		for i := range ix.NumSources() {
			ix.Source(i)
		}
		for _, q := range qs {
			ix.Search(q, SearchOptions{}, nil, nil)
		}
	}
}

func BenchmarkIndexSearch(b *testing.B) {
	f, c, sessions := generatedMemory(6, 10000)
	data, err := EncodeIndex(sourcesOf(f, c, sessions))
	if err != nil {
		b.Fatal(err)
	}
	q := "The upload handler returns 500 when the file is empty; fix the nil check in lib/upload/upload.go and add a test."
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			ix, _ := DecodeIndex(data)
			ix.Search(q, SearchOptions{Threshold: 0.35, Max: 3}, nil, nil)
		}
	})
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			Search(f, c, sessions, q, SearchOptions{Threshold: 0.35, Max: 3})
		}
	})
}

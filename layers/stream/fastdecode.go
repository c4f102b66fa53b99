package stream

import (
	"time"
	"unicode/utf8"
)

// decodeCanonical parses a line in exactly the shape appendEvent writes
// (fields in order, optional ones omitted, metadata keys ascending). Every
// line memkeep writes has that shape, and parsing it by hand is several
// times faster than a general JSON decoder, which matters to HotDigest at
// session start. Any deviation (other field order, spaces, surrogate
// escapes, invalid UTF-8, a missing id or time) returns ok false and the
// caller decodes the general way, so both ways accept the same lines and
// give the same events (FuzzDecodeCanonical checks this).
func decodeCanonical(line []byte) (ev Event, ok bool) {
	p := canonParser{b: line}
	if !p.lit(`{"schema_version":`) {
		return ev, false
	}
	if ev.SchemaVersion, ok = p.int(); !ok {
		return ev, false
	}
	var tm string
	if !p.lit(`,"id":`) || !p.str(&ev.ID) || ev.ID == "" ||
		!p.lit(`,"time":`) || !p.str(&tm) || tm == "" ||
		!p.lit(`,"surface":`) || !p.str(&ev.Surface) ||
		!p.lit(`,"type":`) || !p.str(&ev.Type) ||
		!p.lit(`,"direction":`) || !p.str(&ev.Direction) ||
		!p.lit(`,"summary":`) || !p.str(&ev.Summary) {
		return ev, false
	}
	t, err := time.Parse(time.RFC3339Nano, tm)
	if err != nil {
		return ev, false
	}
	ev.Time = t.UTC()
	if p.lit(`,"session_id":`) && !p.str(&ev.SessionID) {
		return ev, false
	}
	if p.lit(`,"content":`) && !p.str(&ev.Content) {
		return ev, false
	}
	if p.lit(`,"metadata":{`) {
		ev.Metadata = map[string]string{}
		prev := ""
		for i := 0; ; i++ {
			if p.lit(`}`) {
				break
			}
			var k, v string
			if i > 0 && !p.lit(`,`) || !p.str(&k) || !p.lit(`:`) || !p.str(&v) || i > 0 && k <= prev {
				return ev, false
			}
			ev.Metadata[k] = v
			prev = k
		}
	}
	if !p.lit(`}`) || p.i != len(p.b) {
		return ev, false
	}
	return ev, true
}

type canonParser struct {
	b []byte
	i int
}

// lit consumes s when the input continues with it.
func (p *canonParser) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// int reads a small non-negative or negative integer without leading zeros.
func (p *canonParser) int() (int, bool) {
	neg := p.lit("-")
	start, n := p.i, 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' && p.i-start < 9 {
		n = n*10 + int(p.b[p.i]-'0')
		p.i++
	}
	if p.i == start || p.b[start] == '0' && p.i-start > 1 || neg && n == 0 {
		return 0, false
	}
	if p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		return 0, false // too long for the fast way
	}
	if neg {
		n = -n
	}
	return n, true
}

// str reads a JSON string into *dst.
func (p *canonParser) str(dst *string) bool {
	if !p.lit(`"`) {
		return false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			seg := p.b[start:p.i]
			if !utf8.Valid(seg) {
				return false
			}
			*dst = string(seg)
			p.i++
			return true
		case c == '\\':
			return p.strEscaped(dst, start)
		case c < 0x20:
			return false
		}
		p.i++
	}
	return false
}

// strEscaped finishes a string that holds escapes, from its first
// backslash at p.i.
func (p *canonParser) strEscaped(dst *string, start int) bool {
	buf := append([]byte(nil), p.b[start:p.i]...)
	plain := p.i // start of the current run without escapes
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			buf = append(buf, p.b[plain:p.i]...)
			if !utf8.Valid(buf) {
				return false
			}
			*dst = string(buf)
			p.i++
			return true
		case c < 0x20:
			return false
		case c != '\\':
			p.i++
			continue
		}
		buf = append(buf, p.b[plain:p.i]...)
		if p.i+1 >= len(p.b) {
			return false
		}
		switch e := p.b[p.i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'u':
			if p.i+6 > len(p.b) {
				return false
			}
			r := rune(0)
			for _, h := range p.b[p.i+2 : p.i+6] {
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | rune(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					return false
				}
			}
			if utf8.RuneLen(r) < 0 { // a surrogate: leave pairs to the general decoder
				return false
			}
			buf = utf8.AppendRune(buf, r)
			p.i += 4
		default:
			return false
		}
		p.i += 2
		plain = p.i
	}
	return false
}

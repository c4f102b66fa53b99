package merge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// value is a JSON value that remembers what byte stability needs: the key
// order of objects and the exact bytes of every scalar. Unknown fields
// survive a merge untouched and a value that was not merged is written back
// as it was read (apart from indentation).
type value struct {
	kind  byte // '{', '[' or 's' (scalar)
	keys  []string
	rkeys [][]byte // raw key tokens, quotes included
	vals  []*value
	elems []*value
	raw   []byte // scalar token
}

func parseJSON(b []byte) (*value, error) {
	p := &parser{b: b}
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.b) {
		return nil, fmt.Errorf("trailing data at byte %d", p.i)
	}
	return v, nil
}

type parser struct {
	b     []byte
	i     int
	depth int
}

// maxDepth bounds how deep the merge reads nested JSON. memkeep's files
// nest five levels; a file nested thousands deep is no memory file, and
// merging and indenting it cost seconds (16,000 levels took 7.6 s), so it
// is refused as a conflict, as the hooks refuse such input.
const maxDepth = 128

func (p *parser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) errf(what string) error { return fmt.Errorf("invalid JSON: %s at byte %d", what, p.i) }

func (p *parser) value() (*value, error) {
	if p.i >= len(p.b) {
		return nil, p.errf("unexpected end")
	}
	if c := p.b[p.i]; c == '{' || c == '[' {
		if p.depth >= maxDepth {
			return nil, p.errf(fmt.Sprintf("nested deeper than %d levels", maxDepth))
		}
		p.depth++
		defer func() { p.depth-- }()
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		v := &value{kind: '{'}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return v, nil
		}
		for {
			p.ws()
			raw, err := p.str()
			if err != nil {
				return nil, err
			}
			var k string
			if err := json.Unmarshal(raw, &k); err != nil {
				return nil, p.errf("bad key")
			}
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.errf("expected ':'")
			}
			p.i++
			p.ws()
			el, err := p.value()
			if err != nil {
				return nil, err
			}
			v.keys, v.rkeys, v.vals = append(v.keys, k), append(v.rkeys, raw), append(v.vals, el)
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				return v, nil
			}
			return nil, p.errf("expected ',' or '}'")
		}
	case c == '[':
		p.i++
		v := &value{kind: '['}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			p.ws()
			el, err := p.value()
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, el)
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				return v, nil
			}
			return nil, p.errf("expected ',' or ']'")
		}
	case c == '"':
		raw, err := p.str()
		if err != nil {
			return nil, err
		}
		return &value{kind: 's', raw: raw}, nil
	default:
		start := p.i
		for p.i < len(p.b) && bytes.IndexByte([]byte(",}] \t\r\n"), p.b[p.i]) < 0 {
			p.i++
		}
		raw := p.b[start:p.i]
		if !json.Valid(raw) {
			return nil, p.errf("bad literal")
		}
		return &value{kind: 's', raw: raw}, nil
	}
}

func (p *parser) str() ([]byte, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, p.errf("expected string")
	}
	start := p.i
	p.i++
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			return p.b[start:p.i], nil
		}
		p.i++
	}
	return nil, p.errf("unterminated string")
}

// encode writes v with two-space indentation the way encoding/json's
// MarshalIndent lays values out, and a trailing newline.
func (v *value) encode() []byte {
	var b bytes.Buffer
	v.write(&b, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

// compact is v without whitespace: the identity used to compare values.
func (v *value) compact() string {
	if v == nil {
		return ""
	}
	var b bytes.Buffer
	v.write(&b, -1)
	return b.String()
}

func (v *value) write(b *bytes.Buffer, depth int) {
	nl := func(d int) {
		if depth >= 0 {
			b.WriteByte('\n')
			for i := 0; i < d; i++ {
				b.WriteString("  ")
			}
		}
	}
	next := depth + 1
	if depth < 0 {
		next = -1
	}
	switch v.kind {
	case '{':
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			b.Write(v.rkeys[i])
			b.WriteByte(':')
			if depth >= 0 {
				b.WriteByte(' ')
			}
			v.vals[i].write(b, next)
		}
		nl(depth)
		b.WriteByte('}')
	case '[':
		if len(v.elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			e.write(b, next)
		}
		nl(depth)
		b.WriteByte(']')
	default:
		b.Write(v.raw)
	}
}

func (v *value) get(key string) *value {
	if v == nil || v.kind != '{' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// str decodes a string scalar ("" otherwise).
func (v *value) str() string {
	if v == nil || v.kind != 's' || len(v.raw) == 0 || v.raw[0] != '"' {
		return ""
	}
	var s string
	json.Unmarshal(v.raw, &s)
	return s
}

func (v *value) num() (float64, bool) {
	if v == nil || v.kind != 's' {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v.raw), 64)
	return f, err == nil
}

func (v *value) isInt() (int64, bool) {
	if v == nil || v.kind != 's' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v.raw), 10, 64)
	return n, err == nil
}

// id is the record id of an object ("" when it is not a record).
func (v *value) id() string { return v.get("id").str() }

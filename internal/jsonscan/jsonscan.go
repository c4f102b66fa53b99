// Package jsonscan walks JSON without decoding it: it finds where each
// member of an object or element of an array starts and ends, jumping from
// quote to quote with a vectorised byte search, and decodes only the
// strings asked for. Claude Code's transcripts and hook payloads carry
// whole files inside tool results; memkeep reads a few small members next
// to them, and skipping the rest at scanning speed is what keeps the
// refiner and the hooks fast.
package jsonscan

import (
	"bytes"
	"errors"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrSyntax is returned for input that is not the JSON asked for.
var ErrSyntax = errors.New("malformed JSON")

// lenient decodes strings the way the refiner reads transcripts: invalid
// UTF-8 becomes U+FFFD rather than an error.
var lenient = jsonv2.JoinOptions(jsonv2.RejectUnknownMembers(false), jsontext.AllowInvalidUTF8(true))

// Members calls fn with the raw key (without quotes) and raw value of each
// member of the JSON object in b, in order. Only the object's own syntax is
// checked; values are located, not validated.
func Members(b []byte, fn func(key, val []byte)) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrSyntax
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return ErrSyntax
		}
		kEnd, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : kEnd-1]
		i = skipWS(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return ErrSyntax
		}
		i = skipWS(b, i+1)
		vEnd, err := skipValue(b, i)
		if err != nil {
			return err
		}
		fn(key, b[i:vEnd])
		i = skipWS(b, vEnd)
		if i >= len(b) {
			return ErrSyntax
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			if skipWS(b, i+1) != len(b) {
				return ErrSyntax
			}
			return nil
		default:
			return ErrSyntax
		}
	}
}

// Elements calls fn with each raw element of the JSON array in b. Only the
// array's own syntax is checked, as in Members.
func Elements(b []byte, fn func(el []byte)) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return ErrSyntax
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for {
		end, err := skipValue(b, i)
		if err != nil {
			return err
		}
		fn(b[i:end])
		i = skipWS(b, end)
		if i >= len(b) {
			return ErrSyntax
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			if skipWS(b, i+1) != len(b) {
				return ErrSyntax
			}
			return nil
		default:
			return ErrSyntax
		}
	}
}

// String decodes a raw JSON string value; anything else gives "". A
// string without escapes that is valid UTF-8 is copied as is; others go
// through the lenient decoder (invalid UTF-8 becomes U+FFFD).
func String(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	if jsonv2.Unmarshal(v, &s, lenient) != nil {
		return ""
	}
	return s
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i]=='"'.
// It jumps from quote to quote with IndexByte (vectorised) and looks back
// at the backslashes before a quote to tell an escaped one.
func skipString(b []byte, i int) (int, error) {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return 0, ErrSyntax
		}
		i += j
		n := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i, nil
		}
	}
}

// skipValue returns the index just past the JSON value starting at b[i].
// Containers are skipped by counting brackets outside strings; their
// content is validated later only if it is decoded.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, ErrSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, ErrSyntax
	default: // number, true, false, null
		j := i
		for j < len(b) {
			c := b[j]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			j++
		}
		if j == i {
			return 0, ErrSyntax
		}
		return j, nil
	}
}

package l1

import (
	"bytes"
	"errors"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
)

// Most of a transcript's bytes are lines memkeep drops (progress, snapshots)
// or fields it never reads (usage, signatures, toolUseResult file bodies).
// Decoding them would cost far more than reading them, so a line is first
// split into its top-level members by a small scanner that only finds where
// each value starts and ends; only the members a refiner needs are decoded.

var errSyntax = errors.New("malformed JSON")

// topFields are the top-level members of a transcript line that L1 reads.
type topFields struct {
	typ           string // "user", "assistant", "progress", …
	message       []byte // raw "message" value
	toolUseResult []byte // raw "toolUseResult" value
	timestamp     string
	cwd           string
	sessionID     string
	agentID       string
	version       string // the Claude Code version that wrote the line
	sidechain     bool
	compact       bool // isCompactSummary
	meta          bool // isMeta
}

// scanTop reads the top-level members of one JSON object line. Values of
// members it does not need are skipped without decoding.
func scanTop(line []byte) (topFields, error) {
	var f topFields
	err := members(line, func(key, val []byte) {
		switch string(key) {
		case "type":
			f.typ = plainString(val)
		case "message":
			f.message = val
		case "toolUseResult":
			f.toolUseResult = val
		case "timestamp":
			f.timestamp = plainString(val)
		case "cwd":
			f.cwd = jsonString(val)
		case "sessionId":
			f.sessionID = plainString(val)
		case "agentId":
			f.agentID = plainString(val)
		case "version":
			f.version = plainString(val)
		case "isSidechain":
			f.sidechain = string(val) == "true"
		case "isCompactSummary":
			f.compact = string(val) == "true"
		case "isMeta":
			f.meta = string(val) == "true"
		}
	})
	return f, err
}

// members calls fn with the raw key (without quotes) and raw value of each
// member of the JSON object in b, in order. Only the object's own syntax is
// checked; values are located, not validated.
func members(b []byte, fn func(key, val []byte)) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errSyntax
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return errSyntax
		}
		kEnd, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : kEnd-1]
		i = skipWS(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return errSyntax
		}
		i = skipWS(b, i+1)
		vEnd, err := skipValue(b, i)
		if err != nil {
			return err
		}
		fn(key, b[i:vEnd])
		i = skipWS(b, vEnd)
		if i >= len(b) {
			return errSyntax
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			if skipWS(b, i+1) != len(b) {
				return errSyntax
			}
			return nil
		default:
			return errSyntax
		}
	}
}

// elements calls fn with each raw element of the JSON array in b.
func elements(b []byte, fn func(el []byte)) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return errSyntax
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
			return errSyntax
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			return nil
		default:
			return errSyntax
		}
	}
}

// jsonString decodes a raw JSON string value; anything else gives "". A
// string without escapes that is valid UTF-8 is copied as is; others go
// through the lenient decoder (invalid UTF-8 becomes U+FFFD).
func jsonString(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	if jsonv2.Unmarshal(v, &s, decodeOpts) != nil {
		return ""
	}
	return s
}

// plainString returns the content of a JSON string without escapes (ids,
// type names, timestamps); strings with escapes are decoded properly.
func plainString(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return jsonString(v)
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
			return 0, errSyntax
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
		return 0, errSyntax
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
		return 0, errSyntax
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
			return 0, errSyntax
		}
		return j, nil
	}
}

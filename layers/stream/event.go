// Package stream is memkeep's append-only event stream: one JSON line per
// thing that happened (a session started, a prompt, a tool use, a stop, a
// note written with `memkeep stream write`), kept in monthly files
// .claude/memory/stream/<YYYY-MM>.jsonl that are committed with the rest of
// the memory.
//
// Hooks append on every tool use, so Append is built for a few
// microseconds of work: no reading or scanning of what is already there.
// Everything else (Query, Stats, Validate, Audit, Archive) reads the files
// forward; HotDigest, which SessionStart calls, reads only the tail of the
// current month backwards. Readers never fail on a damaged line: a line cut
// short by a crash is skipped and counted, and Validate names it.
package stream

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/memkeep/memkeep/layers/scrub"
)

// SchemaVersion is the version written in every event. Readers accept
// lines of later versions as far as they understand them; Validate flags
// them.
const SchemaVersion = 1

// Directions of an event, seen from the agent.
const (
	DirIn       = "in"       // into the agent: a prompt, a session start
	DirOut      = "out"      // from the agent: its answer at a stop
	DirInternal = "internal" // bookkeeping: tool uses, compactions, notes
)

// Surfaces memkeep itself writes from. Others are allowed (any lowercase
// name), so that a future IDE or CI integration needs no schema change.
const (
	SurfaceClaudeCode = "claude-code"
	SurfaceCLI        = "cli"
)

// Limits on what one event carries. The stream is committed and never
// rewritten, so whatever lands in it stays in the repository's history for
// good: a pasted megabyte would bloat every clone, and the full text of a
// Claude Code session is kept in L1 anyway. Summaries are one short line so
// that query output and the hot digest stay one line per event.
const (
	MaxSummary  = 200  // characters
	MaxContent  = 8192 // bytes
	MaxMetaKeys = 32
	MaxMetaVal  = 1024 // bytes per value
)

// Event is one line of the stream. The JSON field order is the order of the
// struct and is part of the format: the same event always encodes to the
// same bytes (see Encode).
type Event struct {
	SchemaVersion int       `json:"schema_version"`
	ID            string    `json:"id"`   // "e-" and 8 lowercase hex digits
	Time          time.Time `json:"time"` // UTC, millisecond precision
	Surface       string    `json:"surface"`
	Type          string    `json:"type"`
	Direction     string    `json:"direction"`
	Summary       string    `json:"summary"`
	SessionID     string    `json:"session_id,omitempty"`
	Content       string    `json:"content,omitempty"`
	// Metadata holds short string facts (tool, file, exit status). Values
	// are strings so that a line never depends on how a number was
	// formatted; keys are written sorted.
	Metadata map[string]string `json:"metadata,omitempty"`
}

// timeLayout writes times with a fixed width, so that the text of times
// sorts like the times themselves.
const timeLayout = "2006-01-02T15:04:05.000Z"

// NewID returns a fresh event id from 32 random bits.
//
// Why random and not derived from content: two hooks can record identical
// events in the same millisecond (parallel tool calls), and those must stay
// two events. 32 bits is what the shared id format (docs/format.md) allows;
// it makes collisions rare, not impossible (about one in 4,300 for two
// events, among 10,000 events of one month), which is why Validate and
// Audit report duplicate ids and why a merge of stream files should
// treat lines that share an id but differ in bytes as two events.
//
// The bits come from math/rand/v2's generator, which the runtime seeds per
// process from the kernel's random source: ids of two processes, machines
// or clones are independent. crypto/rand would add nothing an id needs and
// costs a hook a DRBG set-up and a timer (which starts the runtime's
// poller) on its first call.
func NewID() string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], rand.Uint32())
	return "e-" + hex.EncodeToString(b[:])
}

// validID reports whether s has the form e-xxxxxxxx.
func validID(s string) bool {
	if len(s) != 10 || !strings.HasPrefix(s, "e-") {
		return false
	}
	for _, c := range []byte(s[2:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// validName reports whether s is a usable type or surface: lowercase
// letters, digits, '_', '-' and '.', starting with a letter. Free-form
// text there would make `query --type` and the stats unusable.
func validName(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

func validDirection(s string) bool {
	return s == DirIn || s == DirOut || s == DirInternal
}

// Encode returns the canonical line of ev, without the trailing newline:
// fields in struct order, metadata keys sorted, time in UTC with three
// fractional digits, invalid UTF-8 replaced, and no optional field when
// empty. Decode(Encode(ev)) gives ev back (for an event Append accepted),
// and Encode(Decode(line)) gives line back for every line memkeep wrote.
func Encode(ev Event) []byte {
	return appendEvent(make([]byte, 0, 160+len(ev.Summary)+len(ev.Content)), ev)
}

func appendEvent(b []byte, ev Event) []byte {
	b = append(b, `{"schema_version":`...)
	b = strconv.AppendInt(b, int64(ev.SchemaVersion), 10)
	b = append(b, `,"id":`...)
	b = appendString(b, ev.ID)
	b = append(b, `,"time":"`...)
	b = ev.Time.UTC().AppendFormat(b, timeLayout)
	b = append(b, `","surface":`...)
	b = appendString(b, ev.Surface)
	b = append(b, `,"type":`...)
	b = appendString(b, ev.Type)
	b = append(b, `,"direction":`...)
	b = appendString(b, ev.Direction)
	b = append(b, `,"summary":`...)
	b = appendString(b, ev.Summary)
	if ev.SessionID != "" {
		b = append(b, `,"session_id":`...)
		b = appendString(b, ev.SessionID)
	}
	if ev.Content != "" {
		b = append(b, `,"content":`...)
		b = appendString(b, ev.Content)
	}
	if len(ev.Metadata) > 0 {
		b = append(b, `,"metadata":{`...)
		for i, k := range sortedKeys(ev.Metadata) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendString(b, ev.Metadata[k])
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Insertion sort: metadata has a handful of keys, and this keeps the
	// hot path free of the sort package's interface calls.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. One escaping for every writer
// keeps lines byte-stable: only what JSON requires is escaped (quote,
// backslash, control characters), plus U+2028 and U+2029 for readers that
// treat them as line ends; HTML characters stay readable in a diff.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// wireEvent is an event as read from a line: pointers tell a missing field
// from an empty one, and the time stays text until it is checked.
type wireEvent struct {
	SchemaVersion *int              `json:"schema_version"`
	ID            *string           `json:"id"`
	Time          *string           `json:"time"`
	Surface       *string           `json:"surface"`
	Type          *string           `json:"type"`
	Direction     *string           `json:"direction"`
	Summary       *string           `json:"summary"`
	SessionID     string            `json:"session_id"`
	Content       string            `json:"content"`
	Metadata      map[string]string `json:"metadata"`
}

// ErrMalformed wraps every reason a line is not a usable event.
var ErrMalformed = errors.New("malformed event")

// Decode reads one line (without its newline). It fails, with an error
// wrapping ErrMalformed, only when the line is no JSON object of the event
// shape or has no usable id or time: that is the least a reader needs. The
// stricter schema checks are Validate's.
func Decode(line []byte) (Event, error) {
	if ev, ok := decodeCanonical(line); ok {
		return ev, nil
	}
	ev, problems := decode(line, false)
	if len(problems) > 0 {
		return ev, fmt.Errorf("%w: %s", ErrMalformed, strings.Join(problems, "; "))
	}
	return ev, nil
}

// decode parses a line and lists what is wrong with it. With strict false
// it stops at the problems that make the line unusable; with strict true it
// lists every schema violation (Validate).
func decode(line []byte, strict bool) (Event, []string) {
	var w wireEvent
	if err := jsonv2.Unmarshal(line, &w); err != nil {
		return Event{}, []string{"not a JSON event: " + shortJSONError(err)}
	}
	var ev Event
	var problems []string
	missing := func(name string) { problems = append(problems, "missing field "+strconv.Quote(name)) }
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	if w.ID == nil || *w.ID == "" {
		missing("id")
	} else {
		ev.ID = *w.ID
		if strict && !validID(ev.ID) {
			problems = append(problems, fmt.Sprintf("bad id %q (want e- and 8 lowercase hex digits)", ev.ID))
		}
	}
	if w.Time == nil || *w.Time == "" {
		missing("time")
	} else if t, err := time.Parse(time.RFC3339Nano, *w.Time); err != nil {
		problems = append(problems, fmt.Sprintf("bad time %q (want RFC 3339 in UTC, like 2026-03-14T15:04:05.000Z)", *w.Time))
	} else {
		ev.Time = t.UTC()
		if _, off := t.Zone(); strict && off != 0 {
			problems = append(problems, fmt.Sprintf("time %q is not in UTC", *w.Time))
		}
	}
	if w.SchemaVersion != nil {
		ev.SchemaVersion = *w.SchemaVersion
	}
	ev.Surface, ev.Type, ev.Direction, ev.Summary = str(w.Surface), str(w.Type), str(w.Direction), str(w.Summary)
	ev.SessionID, ev.Content, ev.Metadata = w.SessionID, w.Content, w.Metadata
	if !strict {
		return ev, problems
	}
	switch {
	case w.SchemaVersion == nil:
		missing("schema_version")
	case *w.SchemaVersion != SchemaVersion:
		problems = append(problems, fmt.Sprintf("unsupported schema_version %d (this memkeep knows %d)", *w.SchemaVersion, SchemaVersion))
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"surface", w.Surface}, {"type", w.Type}} {
		switch {
		case f.v == nil || *f.v == "":
			missing(f.name)
		case !validName(*f.v):
			problems = append(problems, fmt.Sprintf("bad %s %q (want lowercase letters, digits, '_', '-', '.')", f.name, *f.v))
		}
	}
	switch {
	case w.Direction == nil || *w.Direction == "":
		missing("direction")
	case !validDirection(*w.Direction):
		problems = append(problems, fmt.Sprintf("bad direction %q (want in, out or internal)", *w.Direction))
	}
	if w.Summary == nil {
		missing("summary")
	}
	return ev, problems
}

// shortJSONError keeps the JSON decoder's message to its first line, which
// says what and where without echoing the line's content.
func shortJSONError(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimPrefix(msg, "json: ")
}

// ErrInvalidEvent wraps every reason Append refuses an event (a field the
// caller got wrong, as opposed to a failure to write).
var ErrInvalidEvent = errors.New("invalid event")

// normalize checks ev and fills what Append supplies: version, id, time.
// It cleans (cleanText) and caps every free-text field, so that nothing
// secret, no machine path and nothing huge reaches a committed file
// whoever the caller is; root is the project's work tree.
func normalize(ev Event, now time.Time, root string) (Event, error) {
	ev, err := normalizeFields(ev, now, root)
	if err != nil {
		return ev, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return ev, nil
}

func normalizeFields(ev Event, now time.Time, root string) (Event, error) {
	if ev.SchemaVersion == 0 {
		ev.SchemaVersion = SchemaVersion
	}
	if ev.SchemaVersion != SchemaVersion {
		return ev, fmt.Errorf("schema_version %d: this memkeep writes version %d", ev.SchemaVersion, SchemaVersion)
	}
	if ev.ID == "" {
		ev.ID = NewID()
	} else if !validID(ev.ID) {
		return ev, fmt.Errorf("id %q: want e- and 8 lowercase hex digits (leave it empty to get a fresh one)", ev.ID)
	}
	if ev.Time.IsZero() {
		ev.Time = now
	}
	ev.Time = ev.Time.UTC().Truncate(time.Millisecond)
	if y := ev.Time.Year(); y < 1000 || y > 9999 {
		return ev, fmt.Errorf("time %s is out of range", ev.Time)
	}
	if !validName(ev.Surface) {
		return ev, fmt.Errorf("surface %q: want a lowercase name such as %q or %q", ev.Surface, SurfaceClaudeCode, SurfaceCLI)
	}
	if !validName(ev.Type) {
		return ev, fmt.Errorf("type %q: want a lowercase name such as \"prompt\" or \"tool_use\" (letters, digits, '_', '-', '.')", ev.Type)
	}
	if !validDirection(ev.Direction) {
		return ev, fmt.Errorf("direction %q: want %q, %q or %q", ev.Direction, DirIn, DirOut, DirInternal)
	}
	ev.Summary = oneLine(cleanText(scrub.Bound(ev.Summary, MaxSummary), root), MaxSummary)
	ev.Content = truncate(cleanText(scrub.Bound(ev.Content, MaxContent), root), MaxContent)
	ev.SessionID = strings.ToValidUTF8(strings.TrimSpace(ev.SessionID), "\ufffd")
	if len(ev.Metadata) > MaxMetaKeys {
		return ev, fmt.Errorf("%d metadata keys, at most %d are kept", len(ev.Metadata), MaxMetaKeys)
	}
	if len(ev.Metadata) > 0 {
		m := make(map[string]string, len(ev.Metadata))
		for k, v := range ev.Metadata {
			if k == "" || len(k) > 64 || !utf8.ValidString(k) {
				return ev, fmt.Errorf("metadata key %q: want 1 to 64 characters of text", k)
			}
			m[k] = truncate(cleanText(scrub.Bound(v, MaxMetaVal), root), MaxMetaVal)
		}
		ev.Metadata = m
	} else {
		ev.Metadata = nil
	}
	return ev, nil
}

// oneLine folds runs of white space (newlines included) into single spaces
// and keeps at most max characters, marking a cut with an ellipsis.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\ufffd")), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// truncate keeps at most max bytes of s, cut on a character boundary, and
// says how much was dropped.
func truncate(s string, max int) string {
	s = strings.ToValidUTF8(s, "\ufffd")
	if len(s) <= max {
		return s
	}
	// The note is sized for the largest possible count, so the result
	// never exceeds max.
	cut := max - len(fmt.Sprintf(" …[%d more bytes not kept]", len(s)))
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" …[%d more bytes not kept]", len(s)-cut)
}

package l2

import (
	"bytes"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/handoff"
	"github.com/memkeep/memkeep/layers/memdir"
)

// readOpts decode memory files with go-json-experiment, 3–4× faster than
// encoding/json on them (a cold SessionStart reads every L2 file), and as
// lenient as encoding/json was about names, duplicates and UTF-8: the
// files are usually ours, but may have been edited or merged by hand.
var readOpts = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(true),
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

// SchemaVersion is the version of the L2 file format.
const SchemaVersion = 1

// File is one session's L2 file.
type File struct {
	SchemaVersion int    `json:"schema_version"`
	SessionID     string `json:"session_id"`
	// L1 is the name of the session's L1 file in the same folder.
	L1 string `json:"l1"`
	// Consolidated is the number of L1 lines the subconscious path has
	// read: every exchange that ends at or before it was considered, kept
	// or found routine.
	Consolidated int        `json:"consolidated"`
	Exchanges    []Exchange `json:"exchanges"`
	Facts        []Exchange `json:"facts"`
	// Handoff is where the session's work stood when it last ended or
	// was compacted (see layers/handoff).
	Handoff *handoff.Handoff `json:"handoff,omitempty"`
}

// Base is the session's file stem, from its L1 file name.
func (f *File) Base() string { return strings.TrimSuffix(f.L1, ".l1.jsonl") }

// Load reads an L2 file. A missing file gives an empty File and no error,
// so callers can treat "no L2 yet" like "nothing in L2".
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{SchemaVersion: SchemaVersion}, nil
	}
	if err != nil {
		return nil, err
	}
	return Decode(path, b)
}

// Decode is Load of an L2 file's bytes b, read from path.
func Decode(path string, b []byte) (*File, error) {
	var f File
	if err := jsonv2.Unmarshal(b, &f, readOpts); err != nil {
		return nil, fmt.Errorf("%s: %w (the file is damaged: restore it with git, or delete it and run memkeep consolidate to extract it again)", path, err)
	}
	if f.SchemaVersion > SchemaVersion {
		return nil, fmt.Errorf("%s: schema_version %d is newer than this memkeep understands (%d): upgrade memkeep", path, f.SchemaVersion, SchemaVersion)
	}
	return &f, nil
}

// Encode serialises the file byte-stably: records sorted by id, lists
// normalised, two-space indent, trailing newline.
func (f *File) Encode() []byte {
	f.Normalize()
	return encodeJSON(f)
}

// Normalize puts the file in the form Encode writes: every record
// normalised, records sorted by id.
func (f *File) Normalize() {
	f.SchemaVersion = SchemaVersion
	for _, l := range []*[]Exchange{&f.Exchanges, &f.Facts} {
		if *l == nil {
			*l = []Exchange{}
		}
		for i := range *l {
			(*l)[i].Normalize()
		}
		slices.SortFunc(*l, func(a, b Exchange) int { return strings.Compare(a.ID, b.ID) })
	}
}

// Save writes the file atomically.
func (f *File) Save(path string) error {
	return atomicfile.WriteFile(path, f.Encode(), 0o644)
}

// Find returns the record with id among exchanges and facts.
func (f *File) Find(id string) *Exchange {
	for _, l := range [][]Exchange{f.Exchanges, f.Facts} {
		for i := range l {
			if l[i].ID == id {
				return &l[i]
			}
		}
	}
	return nil
}

// encodeJSON is the shared byte-stable JSON form of memkeep's files: no
// HTML escaping (the files are read by people), two-space indent,
// trailing newline.
func encodeJSON(v any) []byte {
	// One pass with go-json-experiment, indented as it goes; the bytes are
	// encoding/json's with SetEscapeHTML(false) and a two-space indent
	// (TestEncodeMatchesEncodingJSON), in half the time or less.
	b, err := jsonv2.Marshal(v, writeOpts)
	if err != nil {
		panic(err) // only plain data is encoded here
	}
	return append(b, '\n')
}

// writeOpts give encoding/json's form: nil slices and maps as null,
// "  " indentation, no escaping of <, > and &, but of U+2028 and U+2029.
var writeOpts = jsonv2.JoinOptions(
	jsonv2.FormatNilSliceAsNull(true),
	jsonv2.FormatNilMapAsNull(true),
	jsontext.WithIndent("  "),
	jsontext.EscapeForJS(true),
	jsontext.AllowInvalidUTF8(true),
	jsonv2.Deterministic(true),
)

// EncodeJSON is encodeJSON for the other layers, so that every committed
// JSON file has one form.
func EncodeJSON(v any) []byte { return encodeJSON(v) }

// SortedSet returns l sorted, without duplicates, and never nil (an empty
// list encodes as [] rather than null): the form of every string list in a
// committed memory file.
func SortedSet(l []string) []string {
	out := slices.Clone(l)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DecodeJSON decodes memory-file bytes into v with the options LoadJSON
// uses; blank bytes (a file that does not exist) leave v as it is. Errors
// are returned as they are, without a path.
func DecodeJSON(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	return jsonv2.Unmarshal(b, v, readOpts)
}

// LoadJSON decodes the committed JSON file at path into v. A missing file
// leaves v as it is (empty memory). A damaged one is an error naming the
// file, with repair, the layer's advice on how to get it back.
func LoadJSON(path string, v any, repair string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := jsonv2.Unmarshal(b, v, readOpts); err != nil {
		return fmt.Errorf("%s: %w (%s)", path, err, repair)
	}
	return nil
}

// Session names one recorded session: its file stem and, when known, its
// full id.
type Session struct {
	Base string
	ID   string
}

// Sessions lists the sessions with an L1 or an L2 file, in base order
// (which is start-time order).
func Sessions(l memdir.Layout) ([]Session, error) {
	ents, err := os.ReadDir(l.SessionsDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []Session
	for _, e := range ents {
		name := e.Name()
		var base string
		switch {
		case strings.HasSuffix(name, ".l1.jsonl"):
			base = strings.TrimSuffix(name, ".l1.jsonl")
		case strings.HasSuffix(name, ".l2.json"):
			base = strings.TrimSuffix(name, ".l2.json")
		default:
			continue
		}
		if !seen[base] {
			seen[base] = true
			out = append(out, Session{Base: base})
		}
	}
	slices.SortFunc(out, func(a, b Session) int { return strings.Compare(a.Base, b.Base) })
	return out, nil
}

// BaseFor finds the file stem of a session from its id (the full id or
// any prefix of at least 8 characters, as the hooks and people give it)
// or from a stem itself.
func BaseFor(l memdir.Layout, sessionID string) (string, error) {
	ss, err := Sessions(l)
	if err != nil {
		return "", err
	}
	sid8 := sessionID
	if len(sid8) > 8 {
		sid8 = sid8[:8]
	}
	var match []string
	for _, s := range ss {
		if s.Base == sessionID || (len(sid8) == 8 && strings.HasSuffix(s.Base, "_"+sid8)) {
			match = append(match, s.Base)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("%w %q in %s (memkeep status lists the sessions it has)", ErrNoSession, sessionID, l.SessionsDir())
	case 1:
		return match[0], nil
	}
	return "", fmt.Errorf("session %q is ambiguous: %s (give the file stem instead)", sessionID, strings.Join(match, ", "))
}

// ErrNoSession is returned for a session memkeep has no file of: one
// that never reached a prompt leaves none.
var ErrNoSession = errors.New("no session")

// Latest is the session whose L1 file changed last: the session the agent
// is most likely in when a command is run without --session.
func Latest(l memdir.Layout) (string, error) {
	ss, err := Sessions(l)
	if err != nil {
		return "", err
	}
	best, bestT := "", int64(-1)
	for _, s := range ss {
		fi, err := os.Stat(l.L1File(s.Base))
		if err != nil {
			continue
		}
		if t := fi.ModTime().UnixNano(); t > bestT || (t == bestT && s.Base > best) {
			best, bestT = s.Base, t
		}
	}
	if best == "" {
		return "", errors.New("no session recorded yet: memkeep records sessions through its hooks (memkeep init) or memkeep import")
	}
	return best, nil
}

// L1Name is the name of a session's L1 file, as L2 files record it.
func L1Name(base string) string { return filepath.Base(base) + ".l1.jsonl" }

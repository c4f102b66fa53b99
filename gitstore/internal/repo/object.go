package repo

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// This file holds the tree, commit and tag codecs memkeep needs, written
// against git's object format so that memkeep does not link go-git's
// plumbing/object package: that package verifies commit signatures and so
// pulls OpenPGP and a hundred cryptography packages into every process
// start.

// hashLen is the length of a binary object id (SHA-1).
const hashLen = len(plumbing.ZeroHash)

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// DecodeTree parses the content of a tree object ("<octal mode> <name>\0"
// followed by the binary id, per entry). Entries keep the stored order and
// the stored mode value, so that EncodeTree gives the same bytes back for
// any tree git writes.
func DecodeTree(data []byte) ([]TreeEntry, error) {
	n := bytes.Count(data, []byte{0})
	ents := make([]TreeEntry, 0, n)
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 || sp > 7 {
			return nil, errors.New("malformed tree: bad mode")
		}
		var mode uint32
		for _, c := range data[:sp] {
			if c < '0' || c > '7' {
				return nil, fmt.Errorf("malformed tree: mode %q", data[:sp])
			}
			mode = mode<<3 | uint32(c-'0')
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul <= 0 || len(data) < nul+1+hashLen {
			return nil, errors.New("malformed tree: truncated entry")
		}
		e := TreeEntry{Name: string(data[:nul]), Mode: filemode.FileMode(mode)}
		copy(e.Hash[:], data[nul+1:nul+1+hashLen])
		ents = append(ents, e)
		data = data[nul+1+hashLen:]
	}
	return ents, nil
}

// Signature is a name, an email and a time, as in a commit's author and
// committer lines or a reflog line.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// tz renders the time zone as git does ("+0100"). A zone decoded from an
// object is named after its stored text, which is kept as such when it
// denotes the same offset (git's "-0000" differs from "+0000").
func tz(t time.Time) string {
	name, off := t.Zone()
	if o, ok := parseTZ(name); ok && o == off {
		return name
	}
	return t.Format("-0700")
}

// parseTZ parses git's "+hhmm" / "-hhmm" time zone into seconds east of
// UTC.
func parseTZ(s string) (int, bool) {
	if len(s) != 5 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	for i := 1; i < 5; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	hh := int(s[1]-'0')*10 + int(s[2]-'0')
	mm := int(s[3]-'0')*10 + int(s[4]-'0')
	off := hh*3600 + mm*60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

func (s Signature) append(b []byte) []byte {
	b = append(b, s.Name...)
	b = append(b, " <"...)
	b = append(b, s.Email...)
	b = append(b, "> "...)
	b = strconv.AppendInt(b, s.When.Unix(), 10)
	b = append(b, ' ')
	return append(b, tz(s.When)...)
}

// String renders the signature as in a commit header.
func (s Signature) String() string { return string(s.append(nil)) }

// decodeSignature parses "Name <email> 1700000000 +0100". Like git, the
// name ends at the first '<' and the date follows the last '>'; a missing
// or malformed date leaves a zero or UTC time.
func decodeSignature(b []byte) Signature {
	open := bytes.IndexByte(b, '<')
	if open < 0 {
		return Signature{Name: string(bytes.TrimSpace(b))}
	}
	s := Signature{Name: string(bytes.TrimRight(b[:open], " "))}
	rest := b[open+1:]
	cl := bytes.LastIndexByte(rest, '>')
	if cl < 0 {
		s.Email = string(rest)
		return s
	}
	s.Email = string(rest[:cl])
	f := strings.Fields(string(rest[cl+1:]))
	if len(f) == 0 {
		return s
	}
	sec, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return s
	}
	loc := time.UTC
	if len(f) > 1 {
		if off, ok := parseTZ(f[1]); ok {
			loc = time.FixedZone(f[1], off)
		}
	}
	s.When = time.Unix(sec, 0).In(loc)
	return s
}

// Header is a commit header memkeep does not interpret (encoding,
// mergetag, gpgsig…). A multi-line value holds its continuation lines
// joined by "\n", without the leading space they are stored with.
type Header struct {
	Key, Value string
}

// Commit is a decoded commit object.
type Commit struct {
	// Hash is the commit's own id (set by Repo.Commit; not encoded).
	Hash         plumbing.Hash
	TreeHash     plumbing.Hash
	ParentHashes []plumbing.Hash
	Author       Signature
	Committer    Signature
	// ExtraHeaders are the other headers, in their order; they are
	// encoded after the committer line, where git puts them.
	ExtraHeaders []Header
	Message      string
}

// NumParents returns the number of parents.
func (c *Commit) NumParents() int { return len(c.ParentHashes) }

// Header returns the value of the first extra header named key.
func (c *Commit) Header(key string) (string, bool) {
	for _, h := range c.ExtraHeaders {
		if h.Key == key {
			return h.Value, true
		}
	}
	return "", false
}

// DecodeCommit parses the content of a commit object. The message is
// everything after the first empty line, kept byte for byte.
func DecodeCommit(data []byte) (*Commit, error) {
	c := &Commit{}
	last := "" // key of the previous header, for continuation lines
	for len(data) > 0 {
		var line []byte
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			line, data = data, nil
		}
		if len(line) == 0 {
			c.Message = string(data)
			break
		}
		if line[0] == ' ' {
			if last != "" || len(c.ExtraHeaders) == 0 {
				return nil, fmt.Errorf("malformed commit: continuation line after %q", last)
			}
			h := &c.ExtraHeaders[len(c.ExtraHeaders)-1]
			h.Value += "\n" + string(line[1:])
			continue
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		last = string(key)
		switch last {
		case "tree", "parent":
			if !plumbing.IsHash(string(val)) {
				return nil, fmt.Errorf("malformed commit: %s %q", key, val)
			}
			h := plumbing.NewHash(string(val))
			if last == "tree" {
				c.TreeHash = h
			} else {
				c.ParentHashes = append(c.ParentHashes, h)
			}
		case "author":
			c.Author = decodeSignature(val)
		case "committer":
			c.Committer = decodeSignature(val)
		default:
			c.ExtraHeaders = append(c.ExtraHeaders, Header{Key: last, Value: string(val)})
			last = ""
		}
	}
	return c, nil
}

// EncodeCommit serialises a commit object: tree, parents, author,
// committer, the extra headers, an empty line and the message. A commit
// git wrote and DecodeCommit read encodes to the same bytes.
func EncodeCommit(c *Commit) []byte {
	b := make([]byte, 0, 256+len(c.Message))
	b = append(b, "tree "...)
	b = append(b, c.TreeHash.String()...)
	b = append(b, '\n')
	for _, p := range c.ParentHashes {
		b = append(b, "parent "...)
		b = append(b, p.String()...)
		b = append(b, '\n')
	}
	b = append(b, "author "...)
	b = c.Author.append(b)
	b = append(b, "\ncommitter "...)
	b = c.Committer.append(b)
	b = append(b, '\n')
	for _, h := range c.ExtraHeaders {
		b = append(b, h.Key...)
		b = append(b, ' ')
		b = append(b, strings.ReplaceAll(h.Value, "\n", "\n ")...)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	return append(b, c.Message...)
}

// tagTarget returns the object an annotated tag names (its "object"
// header).
func tagTarget(data []byte) (plumbing.Hash, error) {
	for len(data) > 0 {
		var line []byte
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			line, data = data, nil
		}
		if len(line) == 0 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("object ")); ok && plumbing.IsHash(string(v)) {
			return plumbing.NewHash(string(v)), nil
		}
	}
	return plumbing.ZeroHash, errors.New("malformed tag: no object header")
}

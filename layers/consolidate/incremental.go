package consolidate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memkeep/memkeep/internal/fastfile"
	"github.com/memkeep/memkeep/layers/l1"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Incremental extraction. The subconscious path extracts every exchange
// of a session from its L1 on every Stop; an exchange depends only on its
// own L1 lines and L1 only grows, so every exchange before the last typed
// prompt (the one still open) extracts the same each time. The Stop hook
// keeps in local state, per session, what extraction made of those closed
// exchanges and where the open one starts (L1 line and byte offset, with a
// checksum of the bytes before it), and decodes and extracts only from
// there. l2.UpdateExtracted then merges exactly what a full extraction
// would give, so the L2 file comes out byte for byte the same.
//
// The state is a pure cache of the L1 file's bytes and of the code that
// extracts them: it is used only when the checksum of the L1 bytes before
// the offset and the memkeep build it was written by still match, and a
// missing or damaged state means a full extraction. What others do to
// the L2 file (concepts, conscious records, reflection, a merge) does not
// invalidate it: the L2 file is read and merged as it is every time.
//
// The state of a session is one file, <git dir>/memkeep/consolidate/
// extract/<base>.state: a header (extractState as JSON, padded with spaces
// to headerSize bytes), then one line per closed exchange in L1 order,
// "<id> <k|-> <extracted record as JSON>", k when its significance reaches
// l2.MinSignificance. Only the header says how much of the rest is valid,
// and it is written last.

// extractVersion changes when the state's meaning changes.
const extractVersion = 2

// headerSize is the size of the state file's header slot.
const headerSize = 512

// extractState is the header of a session's extraction state.
type extractState struct {
	Build string `json:"build"`
	// The closed part of L1: the lines before the last typed prompt.
	PrefixOff    int64  `json:"prefix_off"`
	PrefixLines  int    `json:"prefix_lines"`
	PrefixCRC    uint32 `json:"prefix_crc"`
	PrefixStarts int    `json:"prefix_starts"` // exchange starts after the first line
	// The valid bytes and lines of the .closed file.
	ClosedLen   int64 `json:"closed_len"`
	ClosedCount int   `json:"closed_count"`
	// The whole L1 file as last read, for Pending's coverage check.
	Size   int64  `json:"size"`
	CRC    uint32 `json:"crc"`
	Lines  int    `json:"lines"`
	Ranges int    `json:"ranges"`
}

// The checksums are CRC-32 (IEEE), whose table the hash/crc32 package
// builds anyway: a Castagnoli table costs a hook ~0.2 ms to build on its
// first use, more than the checksum itself.

// buildID identifies the running memkeep build, so that state written by
// another build (whose extraction may differ) is never trusted. Empty when
// the executable cannot be found: then nothing is cached.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("v%d %d %d", extractVersion, fi.Size(), fi.ModTime().UnixNano())
})

func extractDir(l memdir.Layout) string {
	return filepath.Join(l.StateDir(), "consolidate", "extract")
}

func statePath(l memdir.Layout, base string) string {
	return filepath.Join(extractDir(l), base+".state")
}

// parseHeader decodes a state header; nil when it is damaged or from
// another build.
func parseHeader(b []byte) *extractState {
	if len(b) < headerSize {
		return nil
	}
	var st extractState
	if json.Unmarshal(bytes.TrimRight(b[:headerSize], " \n"), &st) != nil || st.Build == "" || st.Build != buildID() {
		return nil
	}
	return &st
}

// loadExtractState reads only a session's state header.
func loadExtractState(l memdir.Layout, base string) *extractState {
	f, err := os.Open(statePath(l, base))
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, headerSize)
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil
	}
	return parseHeader(b)
}

// lastL1 is the checksum of the L1 file this process read last, and the
// file's identity then (inode, size, modification time). Stop reads a
// session's L1 for extraction (Micro) and checks Pending's coverage
// against the same file: while the file is as it was, the check uses the
// checksum instead of mapping and summing the file a second time.
var lastL1 struct {
	sync.Mutex
	path  string
	stamp string // fastfile.Stamp of the file summed
	crc   uint32
}

// rememberL1 records the checksum of all of the L1 file p as read with fi.
func rememberL1(p string, fi os.FileInfo, crc uint32) {
	lastL1.Lock()
	defer lastL1.Unlock()
	lastL1.path, lastL1.stamp, lastL1.crc = p, fastfile.Stamp(fi), crc
}

// l1Checksum returns the size and checksum of the L1 file p.
func l1Checksum(p string) (int64, uint32, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, 0, err
	}
	lastL1.Lock()
	known := lastL1.path == p && lastL1.stamp == fastfile.Stamp(fi)
	crc := lastL1.crc
	lastL1.Unlock()
	if known {
		return fi.Size(), crc, nil
	}
	data, fi, release, err := fastfile.Map(p)
	if err != nil {
		return 0, 0, err
	}
	defer release()
	crc = crc32.ChecksumIEEE(data)
	if int64(len(data)) == fi.Size() {
		rememberL1(p, fi, crc)
	}
	return int64(len(data)), crc, nil
}

// extraction is what the L1 file gives the subconscious path.
type extraction struct {
	fresh []l2.Exchange // for l2.UpdateExtracted
	lines int           // L1 records
}

// extractCounts counts extractions by kind, for tests.
var extractCounts struct{ full, resumed int } // only tests read it; Micro runs under the lock

// incremental, when false, makes every extraction full (tests compare).
var incremental = true

// extractSession extracts a session's L1 for Update of s: from the
// state's offset when the state holds, else from the start; either way
// the state is brought up to date. Closed exchanges that cannot change the
// result of Update are left out of fresh: those under MinSignificance
// that s does not hold, when s has no conscious record to converge with.
func extractSession(l memdir.Layout, base string, s *l2.File) (extraction, error) {
	// The bytes are mapped (see fastfile.Map): what extraction keeps of
	// them, it decodes or copies.
	l1Path := l.L1File(base)
	data, fi, release, err := fastfile.Map(l1Path)
	if errors.Is(err, os.ErrNotExist) {
		return extraction{}, nil
	}
	if err != nil {
		return extraction{}, err
	}
	defer release()
	sp := statePath(l, base)
	held := map[string]bool{}
	for _, e := range s.Exchanges {
		if e.Source == l2.Subconscious {
			held[e.ID] = true
		}
	}
	var st *extractState
	var prefix []l2.Exchange // the closed exchanges Update needs
	if incremental && buildID() != "" {
		st, prefix = resumeState(sp, data, hasConscious(s), held)
	}
	if st == nil {
		st = &extractState{Build: buildID()}
		prefix = nil
		extractCounts.full++
	} else {
		extractCounts.resumed++
	}
	first := st.PrefixLines
	tail, offs, _, err := l1.DecodeFrom(data, st.PrefixOff)
	if err != nil {
		return extraction{}, err
	}
	lines := first + len(tail)
	tailX := l2.ExtractFrom(tail, first, base)

	// Where the open exchange starts now, and the exchange starts after
	// the file's first line (one L1 range each, as Pending counts them).
	open, starts := -1, st.PrefixStarts
	for i, r := range tail {
		if l2.StartsExchange(r) {
			open = i
			if first+i > 0 {
				starts++
			}
		}
	}
	next := *st
	next.Build = buildID()
	var newly bytes.Buffer
	if open > 0 {
		boundary := first + open
		for _, e := range tailX {
			if e.L1Range[1] > boundary {
				break
			}
			line, err := json.Marshal(e)
			if err != nil {
				return extraction{}, err
			}
			flag := "-"
			if e.Significance >= l2.MinSignificance {
				flag = "k"
			}
			fmt.Fprintf(&newly, "%s %s %s\n", e.ID, flag, line)
			next.ClosedCount++
		}
		for i := 0; i < open; i++ {
			if l2.StartsExchange(tail[i]) && first+i > 0 {
				next.PrefixStarts++
			}
		}
		next.PrefixOff = offs[open]
		next.PrefixLines = boundary
		next.PrefixCRC = crc32.Update(st.PrefixCRC, crc32.IEEETable, data[st.PrefixOff:next.PrefixOff])
		next.ClosedLen += int64(newly.Len())
	}
	next.Size = int64(len(data))
	next.CRC = crc32.Update(next.PrefixCRC, crc32.IEEETable, data[next.PrefixOff:])
	if int64(len(data)) == fi.Size() {
		rememberL1(l1Path, fi, next.CRC)
	}
	next.Lines = lines
	next.Ranges = 0
	if lines > 0 {
		next.Ranges = starts + 1
	}

	fresh := append(prefix, tailX...)

	if next != *st || newly.Len() > 0 {
		// The state is a cache: failing to keep it costs only time.
		_ = saveExtractState(sp, st, &next, newly.Bytes())
	}
	return extraction{fresh: fresh, lines: lines}, nil
}

// resumeState reads a session's state file and checks it against the L1
// bytes: the state and the closed exchanges Update needs (all of them
// when conscious, else those significant or held by the L2 file), or nil
// when the state cannot be trusted.
func resumeState(p string, data []byte, conscious bool, held map[string]bool) (*extractState, []l2.Exchange) {
	b, _, release, err := fastfile.Map(p)
	if err != nil {
		return nil, nil
	}
	defer release()
	st := parseHeader(b)
	if st == nil || st.PrefixOff > int64(len(data)) ||
		(st.PrefixOff > 0 && data[st.PrefixOff-1] != '\n') ||
		int64(len(b)) < headerSize+st.ClosedLen ||
		crc32.ChecksumIEEE(data[:st.PrefixOff]) != st.PrefixCRC {
		return nil, nil
	}
	closed := b[headerSize : headerSize+st.ClosedLen]
	var out []l2.Exchange
	n := 0
	for len(closed) > 0 {
		i := bytes.IndexByte(closed, '\n')
		if i < 0 {
			return nil, nil
		}
		line := closed[:i]
		closed = closed[i+1:]
		n++
		id, rest, ok1 := bytes.Cut(line, []byte{' '})
		flag, js, ok2 := bytes.Cut(rest, []byte{' '})
		if !ok1 || !ok2 {
			return nil, nil
		}
		if !conscious && string(flag) != "k" && !held[string(id)] {
			continue
		}
		var e l2.Exchange
		if json.Unmarshal(js, &e) != nil || e.ID != string(id) {
			return nil, nil
		}
		out = append(out, e)
	}
	if n != st.ClosedCount {
		return nil, nil
	}
	return st, out
}

// saveExtractState appends the newly closed exchanges after the valid
// part of the state file (all of it starts over when old is new) and then
// writes the header, which alone says how much of the file is valid. The
// file is written in place, without a sync: a torn or lost state is only
// a full extraction next time.
func saveExtractState(p string, old, next *extractState, newly []byte) error {
	hdr, err := json.Marshal(next)
	if err != nil {
		return err
	}
	if len(hdr) >= headerSize {
		return nil // cannot happen with the fields there are; keep no state
	}
	hdr = append(hdr, bytes.Repeat([]byte{' '}, headerSize-1-len(hdr))...)
	hdr = append(hdr, '\n')
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if old.ClosedLen == 0 && old.PrefixOff == 0 {
		err = f.Truncate(headerSize)
	}
	if err == nil && len(newly) > 0 {
		_, err = f.WriteAt(newly, headerSize+old.ClosedLen)
	}
	if err == nil {
		_, err = f.WriteAt(hdr, 0)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// hasConscious reports whether a session has a conscious record that
// convergence could link to any subconscious exchange.
func hasConscious(s *l2.File) bool {
	for _, l := range [][]l2.Exchange{s.Exchanges, s.Facts} {
		for i := range l {
			if l[i].Source == l2.Conscious {
				return true
			}
		}
	}
	return false
}

// l1Coverage gives the number of L1 records of a session and of its
// exchanges (Pending's L1 ranges) from the extraction state, when the
// state describes the L1 file exactly as it is; ok is false otherwise.
func l1Coverage(l memdir.Layout, base string) (lines, ranges int, ok bool) {
	if !incremental {
		return 0, 0, false
	}
	size, crc, err := l1Checksum(l.L1File(base))
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, true
	}
	if err != nil {
		return 0, 0, false
	}
	st := loadExtractState(l, base)
	if st == nil || st.Size != size || crc != st.CRC {
		return 0, 0, false
	}
	return st.Lines, st.Ranges, true
}

// withFullID gives a session its full id when the hook gives it.
func withFullID(s *l2.File, sessionID string) {
	if len(sessionID) > len(s.SessionID) && !strings.Contains(sessionID, "_") {
		s.SessionID = sessionID
	}
}

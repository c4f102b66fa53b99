package l1

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DecodeFrom decodes the L1 records in data (an L1 file's bytes) from byte
// offset off on, exactly as Read decodes them (empty lines and lines that
// do not decode are skipped, bad counts the latter), and gives with each
// record the byte offset of its line in data. Readers that resume — the
// Stop hook's extraction reads only the exchange still open — use it with
// the offset of a line start they recorded.
func DecodeFrom(data []byte, off int64) (recs []Record, offs []int64, bad int, err error) {
	if off < 0 || off > int64(len(data)) {
		return nil, nil, 0, fmt.Errorf("read L1: offset %d outside the file (%d bytes)", off, len(data))
	}
	const maxToken = 64 * 1024 * 1024 // Read's scanner limit
	for pos := int(off); pos < len(data); {
		start := pos
		line := data[pos:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
			pos += i + 1
		} else {
			pos = len(data)
		}
		if len(line) >= maxToken {
			return recs, offs, bad, fmt.Errorf("read L1: line at byte %d: token too long", start)
		}
		line = bytes.TrimSuffix(line, []byte{'\r'}) // as bufio.ScanLines does
		if len(line) == 0 {
			continue
		}
		var rec Record
		if json.Unmarshal(line, &rec) != nil {
			bad++
			continue
		}
		recs = append(recs, rec)
		offs = append(offs, int64(start))
	}
	return recs, offs, bad, nil
}

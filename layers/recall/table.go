package recall

import "os"

// blockReader reads a large segment's document table from the file, a
// block of entries at a time, into a few buffers it reuses.
//
// A query reads a few hundred of a large memory's documents (690,000 at
// 2,000 sessions), each in another part of the table, and those around
// them. Through the mapping each costs a page fault; on the virtual
// machines this runs on a fault costs about 20 µs and a pread of a block
// about 3 µs, and a block read into fresh memory would cost the fault
// again: so the blocks go into buffers allocated once and reused.
type blockReader struct {
	f        *os.File
	at       int // the table's offset in the file
	size     int // an entry's size
	n        int // entries
	perBlock int
	bufs     [][]byte // at most blockBufs
	held     []int    // the block each buffer holds
	last     int      // the buffer read last
	next     int      // the buffer to fill next, once all are made
}

// tableReads is the size from which a mapped segment's document table is
// read from the file: below it, the table is a few pages. A variable for
// tests, which read small tables so.
var tableReads = 1 << 20

const (
	// blockBytes is the size of a block read, blockBufs how many are kept.
	blockBytes = 4 << 10
	blockBufs  = 32
)

func newBlockReader(f *os.File, at, size, n int) *blockReader {
	return &blockReader{f: f, at: at, size: size, n: n, perBlock: blockBytes / size}
}

// entry gives the bytes of entry i and those after it in its block, or
// false when the file cannot be read there (the caller reads the mapping).
func (r *blockReader) entry(i int) ([]byte, bool) {
	if r == nil || i < 0 || i >= r.n {
		return nil, false
	}
	k := i / r.perBlock
	off := (i - k*r.perBlock) * r.size
	if r.last < len(r.held) && r.held[r.last] == k {
		return r.bufs[r.last][off:], true
	}
	for j, h := range r.held {
		if h == k {
			r.last = j
			return r.bufs[j][off:], true
		}
	}
	j := r.next
	if len(r.bufs) < blockBufs {
		j = len(r.bufs)
		r.bufs = append(r.bufs, make([]byte, r.perBlock*r.size))
		r.held = append(r.held, -1)
	} else {
		r.next = (r.next + 1) % blockBufs
	}
	first := k * r.perBlock
	b := r.bufs[j][:min(r.perBlock, r.n-first)*r.size]
	if _, err := r.f.ReadAt(b, int64(r.at+first*r.size)); err != nil {
		r.held[j] = -1
		return nil, false
	}
	r.held[j], r.last = k, j
	return b[off:], true
}

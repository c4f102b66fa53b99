package l1

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// MaxLine is the longest transcript line refined. Longer lines (a tool
// result holding a whole generated file, say) are skipped and counted:
// they are read past, never held in memory.
const MaxLine = 64 << 20

// ErrNotTranscript is wrapped by errors for inputs that are not transcript
// files at all (a directory, a FIFO, a device).
var ErrNotTranscript = errors.New("not a transcript file")

// OpenTranscript opens the transcript at path for reading, refusing
// anything but a regular file. The open itself never blocks: a FIFO opened
// for reading waits for a writer, and /dev/zero never ends, so either would
// hang a hook (Claude Code gives SessionEnd 1.5 s) or an import for good.
// O_NONBLOCK makes the open return at once; regular files ignore the flag.
func OpenTranscript(path string) (*os.File, fs.FileInfo, error) {
	f, err := fastfile.Open(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open transcript: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		what := "not a regular file"
		if fi.IsDir() {
			what = "a directory"
		}
		return nil, nil, fmt.Errorf("%s is %s: %w (give the path of a session's .jsonl file)", path, what, ErrNotTranscript)
	}
	return f, fi, nil
}

// RefineFile refines a whole transcript at once: every line, then Flush.
func RefineFile(path string, opts Options) ([]Record, State, error) {
	recs, st, err := RefineFrom(path, State{}, opts, true)
	return recs, st, err
}

// RefineFrom resumes the refinement of the transcript at path from st (the
// zero State starts at the beginning) and returns the records the new lines
// complete with the State to resume from next time. Only the bytes after
// st.Offset are read. A last line without its newline is left for the next
// call (Claude Code may still be writing it) unless final is true, in which
// case it is refined too and everything pending is flushed.
func RefineFrom(path string, st State, opts Options, final bool) ([]Record, State, error) {
	f, fi, err := OpenTranscript(path)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	if fi.Size() < st.Offset {
		return nil, st, fmt.Errorf("%s is shorter (%d bytes) than the refined offset %d: the transcript was replaced; refine it again from the start", path, fi.Size(), st.Offset)
	}
	if _, err := f.Seek(st.Offset, io.SeekStart); err != nil {
		return nil, st, err
	}
	r := ResumeRefiner(st, opts)
	recs, err := r.feed(f, st.Offset, final)
	if err != nil {
		return recs, r.State(), err
	}
	if final {
		recs = append(recs, r.Flush()...)
	}
	return recs, r.State(), nil
}

// Feed refines every complete line read from rd, whose first byte is at
// offset off of the transcript. When final is false an unterminated last
// line is not consumed.
func (r *Refiner) Feed(rd io.Reader, off int64, final bool) ([]Record, error) {
	return r.feed(rd, off, final)
}

func (r *Refiner) feed(rd io.Reader, off int64, final bool) ([]Record, error) {
	br := bufio.NewReaderSize(rd, 256<<10)
	var out []Record
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			line := chunk[:len(chunk)-1]
			if len(long)+len(line) > MaxLine {
				n := int64(len(long) + len(chunk))
				long = nil
				r.st.Stats.Oversize++
				r.st.Stats.Lines++
				r.st.Stats.BytesIn += n
				off += n
				r.st.Offset = off
				continue
			}
			if long != nil {
				long = append(long, line...)
				line = long
			}
			out = append(out, r.Line(line, off)...)
			off += int64(len(line)) + 1
			long = nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(long)+len(chunk) > MaxLine {
				n, derr := r.discardLine(br, int64(len(long)+len(chunk)))
				long = nil
				if derr != nil {
					// The oversize line has no end yet: leave it for later.
					return out, nil
				}
				r.st.Stats.Oversize++
				r.st.Stats.Lines++
				r.st.Stats.BytesIn += n
				off += n
				r.st.Offset = off
				continue
			}
			long = append(long, chunk...)
		case errors.Is(err, io.EOF):
			rest := append(long, chunk...)
			if final && len(rest) > 0 {
				out = append(out, r.Line(rest, off)...)
				r.st.Offset = off + int64(len(rest)) // there was no newline
				r.st.Stats.BytesIn--
			}
			return out, nil
		default:
			return out, fmt.Errorf("read transcript: %w", err)
		}
	}
}

// discardLine reads past the rest of an oversize line and returns its whole
// length including the newline.
func (r *Refiner) discardLine(br *bufio.Reader, seen int64) (int64, error) {
	n := seen
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return n, err
		}
	}
}

package stream

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memkeep/memkeep/layers/memdir"
)

// ArchiveDirName is the folder under the stream folder that Archive moves
// whole old months into.
const ArchiveDirName = "archive"

// monthFile is one stream file on disk.
type monthFile struct {
	Month    time.Time // first instant of the month, UTC
	Path     string
	Archived bool
	Size     int64
}

// end is the first instant after the file's month.
func (m monthFile) end() time.Time { return m.Month.AddDate(0, 1, 0) }

// parseMonthName reads "2026-03.jsonl".
func parseMonthName(name string) (time.Time, bool) {
	stem, ok := strings.CutSuffix(name, ".jsonl")
	if !ok || len(stem) != 7 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01", stem)
	return t, err == nil
}

// listFiles returns the stream files, live and archived, ordered by month,
// live before archived within a month. Files that are not named
// <YYYY-MM>.jsonl are returned in odd (Validate reports them); a missing
// stream folder is an empty stream.
func listFiles(l memdir.Layout) (files []monthFile, odd []string, err error) {
	for _, dir := range []struct {
		path     string
		archived bool
	}{{l.StreamDir(), false}, {filepath.Join(l.StreamDir(), ArchiveDirName), true}} {
		ents, err := os.ReadDir(dir.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		for _, e := range ents {
			p := filepath.Join(dir.path, e.Name())
			if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue // the archive folder itself, atomicfile temporaries
			}
			m, ok := parseMonthName(e.Name())
			if !ok {
				if strings.HasSuffix(e.Name(), ".jsonl") {
					odd = append(odd, p)
				}
				continue
			}
			var size int64
			if fi, err := e.Info(); err == nil {
				size = fi.Size()
			}
			files = append(files, monthFile{Month: m, Path: p, Archived: dir.archived, Size: size})
		}
	}
	sort.SliceStable(files, func(i, j int) bool {
		if !files[i].Month.Equal(files[j].Month) {
			return files[i].Month.Before(files[j].Month)
		}
		return !files[i].Archived && files[j].Archived
	})
	return files, odd, nil
}

// scanLines calls fn with every line of r and its 1-based number, without
// the newline (and without a '\r' before it, for files a Windows checkout
// converted). The slice is only valid during the call. Blank lines are
// passed too; complete reports whether the last line ended in a newline.
func scanLines(r io.Reader, fn func(n int, line []byte) error) (complete bool, err error) {
	br := bufio.NewReaderSize(r, 64*1024)
	var long []byte
	n := 0
	complete = true
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if long != nil {
			line, long = append(long, chunk...), nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if len(line) == 0 {
			return complete, nil
		}
		n++
		if line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
			complete = true
		} else {
			complete = false
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if ferr := fn(n, line); ferr != nil {
			return complete, ferr
		}
		if err != nil {
			return complete, nil
		}
	}
}

// readFile decodes the events of one file in file order. Malformed and
// blank lines are skipped; malformed ones are counted.
func readFile(path string, fn func(ev Event) error) (malformed int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	_, err = scanLines(f, func(_ int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		ev, err := Decode(line)
		if err != nil {
			malformed++
			return nil
		}
		return fn(ev)
	})
	return malformed, err
}

// errStop ends a scan early from inside a callback.
var errStop = errors.New("stop")

// Before yields the events of the live stream files whose time is before
// t, oldest month first and in file order within a month. It is what
// distillation into L2 reads before Archive moves whole months away:
// archived months are taken as folded already and are not read. Malformed
// lines are skipped (Validate reports them); an error ends the sequence.
func Before(l memdir.Layout, t time.Time) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		files, _, err := listFiles(l)
		if err != nil {
			yield(Event{}, err)
			return
		}
		for _, mf := range files {
			if mf.Archived || !mf.Month.Before(t) {
				continue
			}
			_, err := readFile(mf.Path, func(ev Event) error {
				if ev.Time.Before(t) && !yield(ev, nil) {
					return errStop
				}
				return nil
			})
			if errors.Is(err, errStop) {
				return
			}
			if err != nil {
				yield(Event{}, err)
				return
			}
		}
	}
}

// readBackward calls fn with the lines of the first size bytes of r, last
// line first, reading chunk bytes at a time from the end, until fn returns
// false. A final line without a newline (perhaps torn) is passed like any
// other; blank lines are not passed. The slice is only valid during the
// call.
func readBackward(r io.ReaderAt, size int64, chunk int, fn func(line []byte) bool) error {
	var tail []byte // start of a line whose beginning lies before pos
	pos := size
	first := true
	for pos > 0 {
		n := int64(chunk)
		if n > pos {
			n = pos
		}
		pos -= n
		buf := make([]byte, n, n+int64(len(tail)))
		if _, err := r.ReadAt(buf, pos); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		buf = append(buf, tail...)
		if first {
			buf = bytes.TrimSuffix(buf, []byte{'\n'})
			first = false
		}
		for {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				break
			}
			if line := bytes.TrimSuffix(buf[i+1:], []byte{'\r'}); len(line) > 0 && !fn(line) {
				return nil
			}
			buf = buf[:i]
		}
		tail = buf
	}
	if line := bytes.TrimSuffix(tail, []byte{'\r'}); len(line) > 0 {
		fn(line)
	}
	return nil
}

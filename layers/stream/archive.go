package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/memdir"
)

// ArchiveOptions say what Archive moves.
type ArchiveOptions struct {
	// Before: months that end at or before this instant are archived.
	Before time.Time
	// DryRun reports what would move and moves nothing.
	DryRun bool
}

// ArchiveResult says what Archive moved (or would move).
type ArchiveResult struct {
	Months []string `json:"months"` // "2026-01", oldest first
	Events int      `json:"events"` // lines moved, malformed ones included
	Bytes  int64    `json:"bytes"`
}

// Archive moves every live month that lies wholly before o.Before from
// stream/<YYYY-MM>.jsonl to stream/archive/<YYYY-MM>.jsonl, byte for byte.
// A month still partly inside the window stays live until it is whole.
//
// Why a plain move, not compression or a rewrite: the stream is committed,
// and git decides what this costs and how it reads.
//   - Reviewable: an unchanged file under a new name is a pure rename; git
//     shows "rename stream/2026-01.jsonl → stream/archive/2026-01.jsonl
//     (100%)" and no content at all, where a .jsonl.gz would be an opaque
//     binary blob nobody can check in a pull request.
//   - Free in the repository: the archived file is the same blob as before,
//     so the move adds no object; git already stores blobs compressed and
//     delta-packed, so gzip would add a second, incompressible copy instead.
//   - Merge-friendly: git follows renames, so a branch that still appended
//     to the month (a late event, a clock off by a day) merges into the
//     archived file with the line-level union of the merge driver, where a
//     compressed file would be a binary conflict.
//   - Still readable: Query, Stats, Validate and Audit read the archive
//     like live months; `git grep` and `git log -p` keep working.
//
// What it buys is a small live folder: HotDigest and Before open only live
// months, and whatever distils events into L2 reads Before(cutoff) first,
// then archives; archived months count as folded.
//
// When the archive already holds the month (a late event recreated the
// live file, or a merge brought both), the live file's lines that are not
// already in the archive are appended to it, in their order, and the live
// file is removed: nothing is lost and nothing is doubled. Appends take the
// same lock, so no event lands in a file while it moves.
func Archive(l memdir.Layout, o ArchiveOptions) (ArchiveResult, error) {
	var res ArchiveResult
	if !o.DryRun {
		lk, err := filelock.Acquire(LockPath(l), 5*time.Second)
		if err != nil {
			return res, fmt.Errorf("archive: %w (another memkeep is writing the stream; try again)", err)
		}
		defer lk.Unlock()
	}
	files, _, err := listFiles(l)
	if err != nil {
		return res, err
	}
	archDir := filepath.Join(l.StreamDir(), ArchiveDirName)
	for _, mf := range files {
		if mf.Archived || mf.end().After(o.Before) {
			continue
		}
		data, err := os.ReadFile(mf.Path)
		if err != nil {
			return res, err
		}
		res.Months = append(res.Months, mf.Month.Format("2006-01"))
		res.Events += countLines(data)
		res.Bytes += int64(len(data))
		if o.DryRun {
			continue
		}
		if err := archiveFile(mf.Path, filepath.Join(archDir, filepath.Base(mf.Path)), data); err != nil {
			return res, fmt.Errorf("archive %s: %w", relName(l, mf.Path), err)
		}
	}
	return res, nil
}

// archiveFile moves src (whose content is data) to dst, merging into dst
// when it exists.
func archiveFile(src, dst string, data []byte) error {
	old, err := os.ReadFile(dst)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Rename(src, dst)
	}
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for line := range bytes.Lines(old) {
		have[string(bytes.TrimSuffix(line, []byte{'\n'}))] = true
	}
	merged := old
	if len(merged) > 0 && merged[len(merged)-1] != '\n' {
		merged = append(merged, '\n')
	}
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if len(bytes.TrimSpace(line)) == 0 || have[string(line)] {
			continue
		}
		have[string(line)] = true
		merged = append(merged, line...)
		merged = append(merged, '\n')
	}
	if err := atomicfile.WriteFile(dst, merged, 0o644); err != nil {
		return err
	}
	return os.Remove(src)
}

// countLines counts the non-blank lines of data.
func countLines(data []byte) int {
	n := 0
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) > 0 {
			n++
		}
	}
	return n
}

// Package gitstore commits memkeep's memory folder into the project's own
// repository without disturbing the user's work, merges memory files from
// two branches without conflicts, and reads the memory history back as a
// review (SPEC §2, §6; issue 3).
//
// A memory commit never scans the work tree and never commits what the user
// staged: it hashes only the files under .claude/memory, builds that
// subtree, splices it into HEAD's tree reusing every sibling hash, writes
// the commit, moves the branch with a compare-and-swap under git's lock
// protocol and replaces only the memory entries of the index. The order
// (index.lock, objects, ref, index) is git's own, so a crash at any point
// leaves a repository that git fsck accepts and a next run that completes.
package gitstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sys/unix"

	"github.com/memkeep/memkeep/gitstore/internal/gitindex"
	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/extcmd"
	"github.com/memkeep/memkeep/internal/fault"
	"github.com/memkeep/memkeep/internal/filelock"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/scrub"
)

// Mode is the `commit:` setting of config.yaml.
type Mode string

const (
	// ModeAuto commits every consolidation.
	ModeAuto Mode = "auto"
	// ModeStage writes the objects and the memory index entries and leaves
	// the commit to the user.
	ModeStage Mode = "stage"
	// ModeOff touches nothing in git.
	ModeOff Mode = "off"
)

// Status says what a call to Commit did.
type Status string

const (
	Committed Status = "committed" // a new commit is on the branch
	Staged    Status = "staged"    // ModeStage: index entries updated, no commit
	NoChange  Status = "unchanged" // memory equals HEAD's: no commit made
	Deferred  Status = "deferred"  // not now (Reason says why); retried next call
	Waiting   Status = "waiting"   // MinInterval: the change waits for the next commit
	Disabled  Status = "off"       // ModeOff
)

// Trailer is a "Key: Value" line at the end of the commit message.
type Trailer struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Options tune one commit.
type Options struct {
	// Mode is auto when empty.
	Mode Mode
	// Scan, when set, is the user's secret scanner (config.yaml's scan:).
	// memkeep's commits are made with git plumbing and run no git hook,
	// the user's pre-commit hook included; Scan is how a scanner vets a
	// memory commit instead. It runs through sh -c in the work tree's
	// root, with MEMKEEP_MEMORY_DIR naming the memory about to be committed
	// (memkeep's copy under the git dir), before the
	// commit is made; a non-zero exit defers the commit with its output.
	Scan string
	// Message, when set, replaces the computed subject (memkeep commit -m);
	// the per-layer summary then opens the body.
	Message string
	// Body is extra text after the subject.
	Body string
	// Trailers are appended (e.g. Memkeep-Session: <id>). Trailers of
	// deferred calls are carried over into the commit that finally lands.
	Trailers []Trailer
	// MinInterval, when set, lets a change wait in memkeep's copy of the
	// memory when the last memory commit is younger than this (hooks: a
	// commit per turn would hold git's index lock several times a second
	// with a few sessions open). Its trailers are kept for the commit that
	// comes next.
	MinInterval time.Duration
	// Quiet, when set, lets the change wait while git has been in use in
	// the work tree within this time (the index, HEAD or its reflog
	// changed by someone else): git fails at once on an index.lock held
	// by another process, so a memory commit made while a person works
	// with git could make their next command fail. Hooks and background
	// runs set it; a person's own `memkeep commit` does not.
	Quiet time.Duration
	// Auto marks a commit memkeep makes on its own initiative (hooks,
	// background runs): a change of the event stream alone waits for a
	// commit that carries memory, instead of making one of its own.
	Auto bool
	// LockWait bounds the wait for another memkeep process committing in
	// the same work tree; zero means 5 s. Git's own index.lock is only
	// retried for a few tens of milliseconds.
	LockWait time.Duration
}

// Result reports what Commit did.
type Result struct {
	Status  Status   `json:"status"`
	Commit  string   `json:"commit,omitempty"`
	Parent  string   `json:"parent,omitempty"`
	Branch  string   `json:"branch,omitempty"`
	Subject string   `json:"subject,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	Changed []string `json:"changed,omitempty"` // memory paths that differ from HEAD
}

// deferral is a condition under which committing now would be wrong; the
// memory change waits in the work tree and a marker under the state dir.
type deferral struct{ reason string }

func (d deferral) Error() string { return d.reason }

func deferf(format string, a ...any) error { return deferral{fmt.Sprintf(format, a...)} }

// testHook, when set by tests, runs after each named step of a commit; an
// error it returns aborts the commit there, as a crash would.
var testHook func(step string) error

func step(name string) error {
	fault.Point("commit-" + name)
	if testHook != nil {
		return testHook(name)
	}
	return nil
}

const memRel = memdir.MemoryRel

// Commit records the memory folder of the work tree in git according to
// o.Mode. Conditions that make a commit wrong right now (detached HEAD, a
// merge, rebase, cherry-pick or revert in progress, git's index.lock held,
// a split or sparse index, a bare repository, no repository) return a
// Deferred result and a nil error: the change stays in the work tree, a
// marker under the state dir remembers it, and the next call commits it.
// An unexpected failure also defers (and writes the marker) but returns the
// error too, so `memkeep commit` can report it while hooks ignore it.
func Commit(l memdir.Layout, o Options) (Result, error) {
	if o.Mode == "" {
		o.Mode = ModeAuto
	}
	switch o.Mode {
	case ModeOff:
		if err := mirror(l); err != nil {
			return Result{Status: Disabled, Reason: "commit: off in config.yaml"}, err
		}
		return Result{Status: Disabled, Reason: "commit: off in config.yaml"}, nil
	case ModeAuto, ModeStage:
	default:
		return Result{}, fmt.Errorf("unknown commit mode %q (want auto, stage or off)", o.Mode)
	}
	if l.GitDir == "" || l.Root == "" {
		return Result{Status: Deferred, Reason: "no git repository: memory stays in the folder until `git init`"}, nil
	}
	if o.MinInterval > 0 {
		if fi, err := os.Stat(lastCommitPath(l)); err == nil {
			if age := time.Since(fi.ModTime()); age >= 0 && age < o.MinInterval {
				werr := writePending(l, fmt.Sprintf("waiting: the last memory commit was %s ago; memkeep commits at most every %s from a hook", age.Round(time.Second), o.MinInterval), o.Trailers)
				return Result{Status: Waiting, Reason: "the last memory commit is recent"}, werr
			}
		}
	}
	if o.Quiet > 0 {
		if t := lastGitActivity(l); !t.IsZero() && time.Since(t) < o.Quiet {
			werr := writePending(l, "waiting: git is in use in this work tree; the memory commit follows once it is quiet", o.Trailers)
			return Result{Status: Waiting, Reason: "git is in use in this work tree"}, werr
		}
	}
	if fi, err := os.Stat(l.GitDir); err != nil || !fi.IsDir() {
		return Result{Status: Deferred, Reason: "no git repository at " + l.GitDir}, nil
	}
	r, err := repo.Open(l.GitDir, l.CommonDir)
	if err != nil {
		return Result{Status: Deferred, Reason: err.Error()}, nil
	}
	defer r.Close()
	// core.bare in the shared config describes the main repository; a
	// linked worktree of a bare repository has a work tree all the same.
	if filepath.Clean(l.GitDir) == filepath.Clean(l.CommonDir) && r.Config.Bool("core", "bare", false) {
		return deferResult(l, o, deferf("the repository is bare: there is no work tree to take memory from"))
	}
	if v, _ := r.Config.Get("extensions", "", "objectformat"); v != "" && !strings.EqualFold(v, "sha1") {
		return deferResult(l, o, deferf("the repository uses %s object ids; memkeep commits only to SHA-1 repositories", v))
	}
	if v, _ := r.Config.Get("extensions", "", "refstorage"); v != "" && !strings.EqualFold(v, "files") {
		return deferResult(l, o, deferf("the repository stores refs in %s; memkeep only moves branches stored as files", v))
	}
	wait := o.LockWait
	if wait == 0 {
		wait = 5 * time.Second
	}
	lk, err := filelock.Acquire(filepath.Join(l.StateDir(), "commit.lock"), wait)
	if err != nil {
		return deferResult(l, o, deferf("another memkeep commit is still running (%v)", err))
	}
	defer lk.Unlock()
	defer releaseOnSignal(l)()
	if err := l.PrepareShadow(); err != nil {
		return deferResult(l, o, err)
	}
	if o.Scan != "" {
		if err := runScan(l, o.Scan); err != nil {
			return deferResult(l, o, deferral{err.Error()})
		}
	}

	pend, _ := Pending(l)
	if pend != nil {
		o.Trailers = mergeTrailers(pend.Trailers, o.Trailers)
	}
	var res Result
	for attempt := 0; ; attempt++ {
		res, err = commitOnce(l, r, o)
		if errors.Is(err, repo.ErrRefMoved) && attempt < 3 {
			continue // someone moved the branch between our read and the swap: rebuild on the new tip
		}
		break
	}
	if err != nil {
		return deferResult(l, o, err)
	}
	if res.Status != Deferred {
		os.Remove(pendingPath(l))
	}
	if res.Status == Committed {
		touch(lastCommitPath(l))
	}
	return res, nil
}

// lastIndexPath is touched each time memkeep writes git's index, so that
// its own writes are not taken for a person's git at work (Quiet).
func lastIndexPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "last-index") }

// lastGitActivity is when git last changed the index, HEAD or HEAD's
// reflog in this work tree; zero when the newest change is memkeep's own.
// (A held index.lock is not activity here: the commit defers on it, with
// its own reason, and a lock a crashed git left is for the person to see.)
func lastGitActivity(l memdir.Layout) time.Time {
	var latest time.Time
	for _, p := range []string{filepath.Join(l.GitDir, "index"), filepath.Join(l.GitDir, "HEAD"), filepath.Join(l.GitDir, "logs", "HEAD")} {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(latest) {
			latest = fi.ModTime()
		}
	}
	if fi, err := os.Stat(lastIndexPath(l)); err == nil && !latest.After(fi.ModTime()) {
		return time.Time{}
	}
	return latest
}

// lastCommitPath is touched by every memory commit (MinInterval).
func lastCommitPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "last-commit") }

func touch(p string) {
	now := time.Now()
	if os.Chtimes(p, now, now) != nil {
		_ = atomicfile.WriteFile(p, nil, 0o644)
	}
}

// ScanTimeout bounds the user's secret scanner.
const ScanTimeout = 30 * time.Second

// runScan runs the secret scanner over the memory folder.
func runScan(l memdir.Layout, command string) error {
	cmd := extcmd.Command(ScanTimeout, "sh", "-c", command)
	cmd.Dir = l.Root
	cmd.Env = append(os.Environ(), "MEMKEEP_MEMORY_DIR="+l.MemoryDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the secret scanner (scan: %s in config.yaml) refused the memory commit: %v: %s; fix or forget what it found (memkeep forget), then memkeep commit", command, err, firstLines(out.String(), 3))
	}
	return nil
}

func deferResult(l memdir.Layout, o Options, err error) (Result, error) {
	res := Result{Status: Deferred, Reason: err.Error()}
	werr := writePending(l, res.Reason, o.Trailers)
	var d deferral
	if errors.As(err, &d) {
		return res, werr
	}
	return res, err
}

// inProgress names a git operation that owns the index and HEAD right now.
func inProgress(gitDir string) string {
	for _, c := range []struct{ name, what string }{
		{"MERGE_HEAD", "a merge"},
		{"rebase-merge", "a rebase"},
		{"rebase-apply", "a rebase or git am"},
		{"CHERRY_PICK_HEAD", "a cherry-pick"},
		{"REVERT_HEAD", "a revert"},
		{"BISECT_LOG", "a bisect"},
	} {
		if _, err := os.Lstat(filepath.Join(gitDir, c.name)); err == nil {
			return fmt.Sprintf("%s is in progress (%s): the memory commit waits until it is concluded or aborted", c.what, c.name)
		}
	}
	return ""
}

// indexLock is git's index.lock held by us.
type indexLock struct {
	f    *os.File
	path string
	done bool
}

func (k *indexLock) release() {
	if k.done {
		return
	}
	k.f.Close()
	repo.RemoveLock(k.path)
	k.done = true
}

// lockIndex creates index.lock exclusively; a lock held by git is retried
// for about 50 ms and then reported.
func lockIndex(l memdir.Layout) (*indexLock, error) {
	p := filepath.Join(l.GitDir, "index.lock")
	for i := 0; ; i++ {
		f, err := repo.CreateLock(p)
		if err == nil {
			recordLock(l, p)
			return &indexLock{f: f, path: p}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if i >= 10 {
			return nil, deferf("%s exists: another git process is using the index (if none is running, remove the file)", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A memkeep process that dies mid-commit (killed by Claude Code's hook
// timeout, say) leaves git lock files that no git process owns. Each lock
// memkeep creates is recorded in commit-inflight with the process id, the
// lock's inode and its birth time; the next commit, holding memkeep's own
// commit lock, removes exactly those locks when that process is gone.
//
// Pid and inode alone do not prove a lock is memkeep's: after the user
// removes a stale index.lock as git advises, git's next lock file may get
// the same inode number, and removing it breaks the user's commit. A
// reused inode gets a new generation number, and the new file a new birth
// time; where the file system keeps neither, memkeep cannot prove anything
// and leaves the lock to the user.

func inflightPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "commit-inflight") }

// lockID identifies one lock file: its inode, the inode's generation
// (which ext4, xfs and btrfs draw anew each time an inode number is
// reused; -1 where the file system has none) and the file's birth time
// (zero where unknown).
type lockID struct {
	ino        uint64
	gen        int64
	bsec, bnsc int64
}

func (id lockID) String() string {
	return fmt.Sprintf("%d %d %d.%09d", id.ino, id.gen, id.bsec, id.bnsc)
}

// fsIocGetversion is FS_IOC_GETVERSION, _IOR('v', 1, long), which
// x/sys/unix does not name.
const fsIocGetversion = 0x80087601

// statLock is the lock file's identity; ok is false when it is missing or
// nothing tells a reused inode from the original (no generation and no
// birth time).
func statLock(p string) (id lockID, ok bool) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return lockID{}, false
	}
	defer unix.Close(fd)
	var st unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_BTIME, &st) != nil {
		return lockID{}, false
	}
	id = lockID{ino: st.Ino, gen: -1}
	if g, err := unix.IoctlGetInt(fd, fsIocGetversion); err == nil {
		id.gen = int64(uint32(g))
	}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.bsec, id.bnsc = st.Btime.Sec, int64(st.Btime.Nsec)
	}
	return id, id.gen != -1 || id.bsec != 0
}

func recordLock(l memdir.Layout, lockPath string) {
	id, ok := statLock(lockPath)
	if !ok {
		return // nothing could prove it ours later: never removed by memkeep
	}
	f, err := os.OpenFile(inflightPath(l), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%d %s %s\n", os.Getpid(), id, lockPath)
	f.Close()
}

// RecoverLocks removes the locks a dead memkeep commit left, as the next
// commit would, when no commit is running now; it costs one stat when
// there is nothing to recover.
func RecoverLocks(l memdir.Layout) {
	if _, err := os.Stat(inflightPath(l)); err != nil {
		return
	}
	lk, err := filelock.Acquire(filepath.Join(l.StateDir(), "commit.lock"), 0)
	if err != nil {
		return // a commit runs: it cleans up itself
	}
	defer lk.Unlock()
	cleanStaleLocks(l)
}

// releaseOnSignal makes SIGTERM, SIGINT and SIGHUP during a commit remove
// the git locks this process holds before it exits, as git does, so that
// a memkeep stopped by Claude Code or the user never leaves index.lock
// behind for the user's next git command. The locks are the ones
// repo.CreateLock knows (the file record in commit-inflight is for a
// process killed outright, which runs no handler): a signal that lands
// between a lock's creation and its record still finds it. It returns the
// function that ends the watch.
func releaseOnSignal(l memdir.Layout) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			repo.ReleaseLocks()
			os.Remove(inflightPath(l))
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// removeRecordedLocks removes the recorded locks whose process mine
// accepts and that are still the very files that process created.
func removeRecordedLocks(l memdir.Layout, mine func(pid int) bool) {
	b, err := os.ReadFile(inflightPath(l))
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var pid int
		var want lockID
		var path string
		if n, _ := fmt.Sscanf(line, "%d %d %d %d.%d %s", &pid, &want.ino, &want.gen, &want.bsec, &want.bnsc, &path); n != 6 || !mine(pid) {
			continue // not a line this version wrote, or not that process's
		}
		path = line[strings.Index(line, " /")+1:] // the path may hold spaces
		if got, ok := statLock(path); ok && got == want {
			os.Remove(path)
		}
	}
}

func cleanStaleLocks(l memdir.Layout) {
	b, err := os.ReadFile(inflightPath(l))
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var pid int
		fmt.Sscanf(line, "%d", &pid)
		if pid == os.Getpid() || pid <= 0 || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			return // its owner may still be alive: leave everything
		}
	}
	removeRecordedLocks(l, func(int) bool { return true })
	os.Remove(inflightPath(l))
}

// readIndex loads the index, or an empty v2 index when there is none yet.
func readIndex(gitDir string) (*gitindex.Index, time.Time, error) {
	return readIndexFile(filepath.Join(gitDir, "index"))
}

// readIndexFile loads an index file: git's, or memkeep's shadow.index.
func readIndexFile(p string) (*gitindex.Index, time.Time, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return &gitindex.Index{Version: 2}, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	ix, err := gitindex.Parse(b)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", p, err)
	}
	return ix, fi.ModTime(), nil
}

// reusable reports whether the index entry still describes the file, so its
// hash can be taken without reading the file: same mode and stat data, and
// not racily clean (modified in the same instant the index was written).
func reusable(e *gitindex.Entry, mode uint32, st gitindex.Stat, idxMtime time.Time) bool {
	if e.Mode() != mode || e.IntentToAdd() || idxMtime.IsZero() {
		return false
	}
	es := e.Stat()
	if es.MtimeSec != st.MtimeSec || es.MtimeNsec != st.MtimeNsec || es.CtimeSec != st.CtimeSec ||
		es.CtimeNsec != st.CtimeNsec || es.Size != st.Size || es.Ino != st.Ino || es.UID != st.UID || es.GID != st.GID {
		return false
	}
	return time.Unix(int64(es.MtimeSec), int64(es.MtimeNsec)).Before(idxMtime)
}

type builtFile struct {
	rel  string // relative to memRel
	mode uint32
	hash plumbing.Hash
}

// commitOnce makes one attempt at a memory commit. Everything that may
// take time (hashing and writing the memory's objects, the commit, and
// its signature, which may wait on gpg) is done before any of git's locks
// is taken, against an index read without the lock; index.lock is taken
// only for the moment of writing: the index is read again under it, and
// only its memory entries are replaced. A branch moved meanwhile fails the
// ref's compare-and-swap (repo.ErrRefMoved) and the caller tries again.
func commitOnce(l memdir.Layout, r *repo.Repo, o Options) (Result, error) {
	cleanStaleLocks(l)
	if why := inProgress(l.GitDir); why != "" {
		return Result{}, deferral{why}
	}
	if cmd := userGit(l); cmd != "" {
		return Result{}, deferf("%s is running in this work tree: memory is committed after it, so that it never fails because of memkeep", cmd)
	}
	head, err := r.ReadHead()
	if err != nil {
		return Result{}, err
	}
	if head.Detached() && o.Mode == ModeAuto {
		return Result{}, deferf("HEAD is detached (at %s): memory is committed when a branch is checked out", head.Hash.String()[:12])
	}
	// What came into HEAD's memory by other means (a pull, a merge, a
	// checkout) is merged into the shadow first, or the commit would undo it.
	if err := syncShadow(l, r); err != nil {
		return Result{}, err
	}
	ix, idxMtime, err := readIndex(l.GitDir)
	if err != nil {
		return Result{}, err
	}
	var lo, hi int
	check := func() error {
		if err := ix.Unsupported(); err != nil {
			return deferral{err.Error()}
		}
		lo, hi = ix.Range(memRel)
		for k := lo; k < hi; k++ {
			e := &ix.Entries[k]
			if e.Stage() != 0 {
				return deferf("%s has an unresolved conflict in the index: resolve it (git add) and memkeep commits next time", e.Name)
			}
			if e.SkipWorktree() {
				return deferf("%s is outside the sparse checkout: memkeep cannot commit memory it cannot see", e.Name)
			}
		}
		if _, ok := ix.Find(memRel); ok {
			return fmt.Errorf("the index tracks a file named %s where the memory folder belongs", memRel)
		}
		return nil
	}
	if err := check(); err != nil {
		return Result{}, err
	}
	if err := step("read-index"); err != nil {
		return Result{}, err
	}
	// lock takes index.lock, for the moment of writing, and reads the
	// index again under it: the user may have staged files meanwhile.
	var lock *indexLock
	// entries are the memory folder's index entries once the work tree is
	// written: known only under index.lock (materialize).
	var (
		work         []workFile
		blob         blobFunc
		entries      []gitindex.Entry
		materialized bool
		refMoved     bool // the branch points at the new commit
	)
	defer func() {
		if lock != nil {
			lock.release()
			os.Remove(inflightPath(l))
		}
	}()
	takeLock := func() error {
		var err error
		if cmd := userGit(l); cmd != "" {
			return deferf("%s is running in this work tree: memory is committed after it, so that it never fails because of memkeep", cmd)
		}
		if lock, err = lockIndex(l); err != nil {
			return err
		}
		// The index is the lock renamed: it gets the mode git gives it.
		if err := repo.AdjustShared(lock.path, r.SharedPerm()); err != nil {
			return err
		}
		if err := step("lock-index"); err != nil {
			return err
		}
		if why := inProgress(l.GitDir); why != "" {
			return deferral{why}
		}
		if ix, idxMtime, err = readIndex(l.GitDir); err != nil {
			return err
		}
		if err := check(); err != nil {
			return err
		}
		// The branch moved since it was read (the user committed): start
		// again on the new tip before anything is written.
		if now, err := r.ReadHead(); err != nil {
			return err
		} else if now.Hash != head.Hash || now.Branch != head.Branch {
			return repo.ErrRefMoved
		}
		if entries, err = materialize(l, r, ix, idxMtime, lo, hi, work, blob); err != nil {
			return err
		}
		materialized = true
		return step("write-work-tree")
	}
	// A commit that fails after writing the work tree puts the files back
	// as they were, under the same lock: the work tree never holds memory
	// the index and HEAD do not.
	defer func() {
		if materialized && !refMoved && lock != nil && !lock.done {
			unmaterialize(l, r, work)
		}
	}()

	var oldRoot, oldMem plumbing.Hash
	var replace *stretch // HEAD is memkeep's own unpushed commit: replace it
	if !head.Hash.IsZero() {
		c, err := r.Commit(head.Hash)
		if err != nil {
			return Result{}, err
		}
		oldRoot = c.TreeHash
		if oldMem, err = r.SubtreeAt(oldRoot, memRel); err != nil {
			return Result{}, err
		}
		if o.Mode == ModeAuto {
			replace = ownStretch(r, head, c, oldMem)
		}
	}

	if fi, err := os.Stat(l.MemoryDir()); err != nil || !fi.IsDir() {
		return Result{Status: NoChange, Reason: "no memory yet (memkeep init makes " + memRel + ")"}, nil
	}
	shadow, fresh, err := shadowFiles(l, r, ix, true)
	if err != nil {
		return Result{}, err
	}
	heads, err := headFiles(r, oldMem)
	if err != nil {
		return Result{}, err
	}
	if work, err = planWork(l, o, ix, idxMtime, shadow, heads); err != nil {
		return Result{}, err
	}
	if err := step("write-blobs"); err != nil {
		return Result{}, err
	}
	memTree, err := writeTrees(r, built(work))
	if err != nil {
		return Result{}, err
	}
	if err := step("write-trees"); err != nil {
		return Result{}, err
	}
	blob = blobReader(r, fresh)
	sameEntries := func() bool {
		if !materialized || hi-lo != len(entries) {
			return false
		}
		for k := range entries {
			a, b := &ix.Entries[lo+k], &entries[k]
			if a.Name != b.Name || !bytes.Equal(a.Hdr, b.Hdr) {
				return false
			}
		}
		return true
	}
	// The new index goes into index.lock in the background while the
	// commit and the ref are written (with core.fsync=index the two fsyncs
	// overlap instead of adding up). The rename that publishes it happens
	// only after the branch has moved.
	fsyncIndex, fsyncRef := r.Config.Fsync()
	var indexDone chan error
	startIndex := func() {
		if indexDone != nil || !materialized || sameEntries() {
			return // written already, no lock taken (nothing to write), or nothing changed
		}
		ix.ReplaceRange(lo, hi, entries)
		// Entries racily clean against the index read would look clean
		// against the one written now: git could then miss a change to
		// them made in that second.
		ix.SmudgeRacy(idxMtime.Unix(), lo, lo+len(entries))
		if err := ix.PrepareRewrite(memRel); err != nil {
			indexDone = make(chan error, 1)
			indexDone <- deferral{err.Error()}
			return
		}
		data := ix.Bytes()
		indexDone = make(chan error, 1)
		go func() {
			if _, err := lock.f.Write(data); err != nil {
				indexDone <- err
				return
			}
			if fsyncIndex {
				indexDone <- lock.f.Sync()
				return
			}
			indexDone <- nil
		}()
	}
	defer func() {
		if indexDone != nil && lock != nil && !lock.done {
			<-indexDone // never close the lock under a running write
		}
	}()
	writeIndex := func() error {
		startIndex()
		if indexDone == nil {
			return nil
		}
		err := <-indexDone
		indexDone = nil
		if err != nil {
			return err
		}
		if err := step("write-index-lock"); err != nil {
			return err
		}
		if err := lock.f.Close(); err != nil {
			return err
		}
		if err := repo.RenameLock(lock.path, filepath.Join(l.GitDir, "index")); err != nil {
			return err
		}
		lock.done = true
		clearJournal(l)
		touch(lastIndexPath(l))
		return nil
	}

	reviewFrom := oldMem
	if replace != nil && memTree != oldMem {
		if memTree == replace.parentMem {
			replace = nil // the stretch undid itself: commit the undoing
		} else {
			reviewFrom = replace.parentMem // the subject says the combined change
		}
	}
	rev, err := reviewTrees(r, reviewFrom, memTree, blob)
	if err != nil {
		return Result{}, err
	}
	res := Result{Branch: strings.TrimPrefix(head.Branch, "refs/heads/"), Changed: rev.paths()}
	if o.Mode == ModeStage || memTree == oldMem {
		if !changesWorkTree(work) && indexCurrent(ix, idxMtime, work) {
			// Nothing to write: no lock taken at all.
		} else if err := takeLock(); err != nil {
			return Result{}, err
		}
	}
	if o.Mode == ModeStage {
		if err := writeIndex(); err != nil {
			return Result{}, err
		}
		res.Status, res.Subject = Staged, rev.Subject()
		if memTree == oldMem {
			res.Status, res.Reason = NoChange, "memory is the same as in HEAD"
		}
		return res, nil
	}
	if memTree == oldMem {
		// Also the way a run that crashed after moving the branch finishes:
		// the index still holds the old memory entries and is refreshed here.
		if err := writeIndex(); err != nil {
			return Result{}, err
		}
		res.Status, res.Reason = NoChange, "memory is the same as in HEAD: no commit made"
		return res, nil
	}

	if o.Auto {
		var changes []fileDiff
		if err := diffTrees(r, oldMem, memTree, "", &changes); err != nil {
			return Result{}, err
		}
		if !slices.ContainsFunc(changes, func(c fileDiff) bool { return !strings.HasPrefix(c.rel, "stream/") }) {
			if err := writeIndex(); err != nil {
				return Result{}, err
			}
			res.Status, res.Reason = Waiting, "only events changed: they go with the next commit of memory"
			return res, nil
		}
	}
	newRoot, err := splice(r, oldRoot, strings.Split(memRel, "/"), memTree)
	if err != nil {
		return Result{}, err
	}
	subject := rev.Subject()
	if o.Message == "" {
		o.Body = strings.TrimSpace(rev.Counts() + "\n\n" + o.Body)
	}
	an, ae := r.Config.Identity("author")
	cn, ce := r.Config.Identity("committer")
	now := repo.Now()
	if replace != nil {
		o.Trailers = mergeTrailers(replace.trailers, o.Trailers)
	}
	o.Trailers = append(o.Trailers, ownTrailer)
	c := &repo.Commit{
		Author:    repo.Signature{Name: an, Email: ae, When: now},
		Committer: repo.Signature{Name: cn, Email: ce, When: now},
		Message:   scrub.Text(message(subject, o), l.Root),
		TreeHash:  newRoot,
	}
	switch {
	case replace != nil:
		c.ParentHashes = []plumbing.Hash{replace.parent}
	case !head.Hash.IsZero():
		c.ParentHashes = []plumbing.Hash{head.Hash}
	}
	if sign, err := signer(r.Config, cn+" <"+ce+">"); err != nil {
		return Result{}, err
	} else if sign != nil {
		if err := signCommit(c, sign); err != nil {
			return Result{}, deferral{err.Error()}
		}
	}
	ch, err := r.WriteObject(plumbing.CommitObject, repo.EncodeCommit(c))
	if err != nil {
		return Result{}, err
	}
	if err := step("write-commit"); err != nil {
		return Result{}, err
	}
	if err := takeLock(); err != nil {
		return Result{}, err
	}
	startIndex()
	first := strings.SplitN(c.Message, "\n", 2)[0]
	logMsg := "commit: " + first
	switch {
	case replace != nil:
		logMsg = "commit (amend): " + first
	case head.Hash.IsZero():
		logMsg = "commit (initial): " + first
	}
	err = r.UpdateRef(repo.RefUpdate{
		Name: head.Branch, Old: head.Hash, New: ch, Who: c.Committer, Msg: logMsg, HeadLog: true, Fsync: fsyncRef,
		OnLocked:     func(p string) { recordLock(l, p) },
		BeforeRename: func() error { return step("write-reflog") },
	})
	if err != nil {
		if errors.Is(err, repo.ErrLocked) {
			return Result{}, deferral{err.Error()}
		}
		return Result{}, err
	}
	refMoved = true
	// The shadow is now based on the new commit (a crash before this
	// line costs the next sync a merge that changes nothing).
	_ = writeBase(l, shadowBase{ch, memTree})
	if err := step("update-ref"); err != nil {
		return Result{}, err
	}
	if err := writeIndex(); err != nil {
		return Result{}, err
	}
	res.Status, res.Commit, res.Subject = Committed, ch.String(), first
	if !head.Hash.IsZero() {
		res.Parent = head.Hash.String()
	}
	return res, nil
}

// writeTrees builds and stores the memory subtree from its files (paths
// relative to the memory folder, sorted) and returns its hash; zero when
// there are no files.
func writeTrees(r *repo.Repo, files []builtFile) (plumbing.Hash, error) {
	if len(files) == 0 {
		return plumbing.ZeroHash, nil
	}
	var ents []repo.TreeEntry
	for i := 0; i < len(files); {
		f := files[i]
		dir, rest, isDir := strings.Cut(f.rel, "/")
		if !isDir {
			ents = append(ents, repo.TreeEntry{Name: f.rel, Mode: filemode.FileMode(f.mode), Hash: f.hash})
			i++
			continue
		}
		j := i
		var sub []builtFile
		for j < len(files) && strings.HasPrefix(files[j].rel, dir+"/") {
			sub = append(sub, builtFile{strings.TrimPrefix(files[j].rel, dir+"/"), files[j].mode, files[j].hash})
			j++
		}
		_ = rest
		h, err := writeTrees(r, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		ents = append(ents, repo.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h})
		i = j
	}
	return r.WriteTree(ents)
}

// splice replaces the folder at path inside root with sub (zero removes
// it), rewriting only the trees along the path: every sibling keeps its
// hash, so .claude/settings.json and the rest of the project are untouched.
func splice(r *repo.Repo, root plumbing.Hash, path []string, sub plumbing.Hash) (plumbing.Hash, error) {
	ents, err := r.Tree(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	ents = append([]repo.TreeEntry(nil), ents...)
	pos := -1
	for i, e := range ents {
		if e.Name == path[0] {
			if e.Mode != filemode.Dir {
				return plumbing.ZeroHash, fmt.Errorf("HEAD has a file named %q where the memory folder %s belongs", e.Name, memRel)
			}
			pos = i
		}
	}
	child := sub
	if len(path) > 1 {
		var old plumbing.Hash
		if pos >= 0 {
			old = ents[pos].Hash
		}
		if child, err = splice(r, old, path[1:], sub); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	switch {
	case child.IsZero() && pos >= 0:
		ents = append(ents[:pos], ents[pos+1:]...)
	case child.IsZero():
	case pos >= 0:
		ents[pos].Hash = child
	default:
		ents = append(ents, repo.TreeEntry{Name: path[0], Mode: filemode.Dir, Hash: child})
	}
	if len(ents) == 0 && len(path) < len(strings.Split(memRel, "/")) {
		return plumbing.ZeroHash, nil // an emptied folder disappears, as in git
	}
	return r.WriteTree(ents)
}

// ownTrailer marks the commits memkeep makes: only those may be replaced
// by the next memory commit (see ownStretch).
var ownTrailer = Trailer{Key: "Memkeep-Commit", Value: "memory only"}

// stretch is memkeep's own memory commit at HEAD that the next memory
// commit replaces, so that a branch shows one memory commit between two of
// the user's: its parent, the parent's memory, and its trailers.
type stretch struct {
	parent    plumbing.Hash
	parentMem plumbing.Hash
	trailers  []Trailer
}

// ownStretch returns the stretch HEAD (commit c, memory subtree mem) ends
// when HEAD is memkeep's own commit: it carries memkeep's trailer, has one
// parent, changes nothing but the memory folder (a user's amend of it is
// the user's), and neither a remote-tracking ref nor another branch holds
// it (history others have is never rewritten). nil otherwise.
func ownStretch(r *repo.Repo, head repo.Head, c *repo.Commit, mem plumbing.Hash) *stretch {
	h := head.Hash
	if len(c.ParentHashes) != 1 || !strings.Contains(c.Message, "\n"+ownTrailer.Key+": "+ownTrailer.Value+"\n") {
		return nil
	}
	p, err := r.Commit(c.ParentHashes[0])
	if err != nil {
		return nil
	}
	pmem, err := r.SubtreeAt(p.TreeHash, memRel)
	if err != nil {
		return nil
	}
	if root, err := splice(r, p.TreeHash, strings.Split(memRel, "/"), mem); err != nil || root != c.TreeHash {
		return nil
	}
	tips, err := r.TipsExcept(head.Branch)
	if err != nil {
		return nil
	}
	for _, t := range tips {
		if t == h {
			return nil
		}
		if bases, err := r.MergeBase(h, t); err != nil || slices.Contains(bases, h) {
			return nil
		}
	}
	st := &stretch{parent: c.ParentHashes[0], parentMem: pmem}
	for line := range strings.SplitSeq(c.Message, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && k == "Memkeep-Session" {
			st.trailers = append(st.trailers, Trailer{Key: k, Value: v})
		}
	}
	return st
}

// message assembles subject, optional body and trailers. The caller
// scrubs it: a -m text, a concept's name or a rule can carry a secret, and
// a commit message is as permanent as the memory.
func message(summary string, o Options) string {
	var b strings.Builder
	subject := strings.TrimSpace(o.Message)
	body := strings.TrimSpace(o.Body)
	if subject == "" {
		subject = summary
	} else if summary != "" {
		body = strings.TrimSpace(summary + "\n\n" + body)
	}
	b.WriteString(subject)
	b.WriteString("\n")
	if body != "" {
		b.WriteString("\n" + body + "\n")
	}
	if len(o.Trailers) > 0 {
		b.WriteString("\n")
		for _, t := range o.Trailers {
			fmt.Fprintf(&b, "%s: %s\n", t.Key, t.Value)
		}
	}
	return b.String()
}

func mergeTrailers(a, b []Trailer) []Trailer {
	seen := map[Trailer]bool{}
	var out []Trailer
	for _, t := range append(append([]Trailer(nil), a...), b...) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// PendingCommit is the marker a deferred commit leaves under the state dir.
type PendingCommit struct {
	Reason   string    `json:"reason"`
	Since    time.Time `json:"since"`
	Trailers []Trailer `json:"trailers,omitempty"`
}

func pendingPath(l memdir.Layout) string { return filepath.Join(l.StateDir(), "commit-pending.json") }

// Pending returns the deferred commit waiting in the state dir, or nil.
func Pending(l memdir.Layout) (*PendingCommit, error) {
	b, err := os.ReadFile(pendingPath(l))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p PendingCommit
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", pendingPath(l), err)
	}
	return &p, nil
}

func writePending(l memdir.Layout, reason string, trailers []Trailer) error {
	if l.GitDir == "" {
		return nil
	}
	p := PendingCommit{Reason: reason, Since: repo.Now().UTC().Truncate(time.Second), Trailers: trailers}
	if old, _ := Pending(l); old != nil {
		p.Since = old.Since
		p.Trailers = mergeTrailers(old.Trailers, trailers)
	}
	b, _ := json.MarshalIndent(p, "", "  ")
	return atomicfile.WriteFile(pendingPath(l), append(b, '\n'), 0o644)
}

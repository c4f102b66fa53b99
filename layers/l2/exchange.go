// Package l2 is the second memory layer: one record per user-request →
// resolution cycle of a session (an exchange), and verified facts, kept in
// sessions/<base>.l2.json beside the session's L1 file.
//
// Exchanges come from two paths. The subconscious path (Extract) reads L1
// without any model and writes what the agent was asked, what it read,
// edited and ran, and what came of it, with a significance from explained
// signals. The conscious path is the agent or the user saying what matters
// (memkeep remember, learn, decide, l2 add). When both describe the same
// experience, Converge links them and boosts both: two independent
// witnesses make a memory more trustworthy.
package l2

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"time"
)

// Sources of an exchange.
const (
	Conscious    = "conscious"    // written by the agent or the user
	Subconscious = "subconscious" // extracted from L1 by memkeep
)

// Types of an exchange, from the signals that scored it.
const (
	TypeIteration  = "iteration"  // something failed, was changed, then worked
	TypeCorrection = "correction" // the user corrected the agent
	TypeDecision   = "decision"   // a choice was made, with its reason
	TypeInsight    = "insight"    // something learned about the project
	TypeError      = "error"      // a failure that was not resolved
	TypeRoutine    = "routine"    // reading, routine commands
)

// Types lists the valid types, for validation messages.
var Types = []string{TypeIteration, TypeCorrection, TypeDecision, TypeInsight, TypeError, TypeRoutine}

// Exchange is one L2 record. Facts use the same type with File and Lines
// set. Field order is the JSON order in the file.
type Exchange struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
	Details string `json:"details"`
	// Files are the files the exchange changed (or, for a conscious
	// record, the files it is about), repo-relative and sorted.
	Files []string `json:"files"`
	// Read are files only read, sorted; Commands are the shell commands
	// run, in the order first run.
	Read     []string `json:"read,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Keywords []string `json:"keywords"`
	// L1Range is the first and last L1 line (1-based, inclusive) covered.
	L1Range      [2]int   `json:"l1_range"`
	Source       string   `json:"source"`
	Significance float64  `json:"significance"`
	Type         string   `json:"type"`
	Tags         []string `json:"tags"`
	// Rule is a standing instruction the user stated in the exchange
	// ("always run gofmt before committing"), the raw material of L4 rules.
	Rule string `json:"rule,omitempty"`
	// Problem is the first failure of the exchange and Fix what followed
	// it and worked: the raw material of L4 solutions.
	Problem string `json:"problem,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// MoreProblems are the other failures the exchange recovered from,
	// in order, each with its fix: a problem that recurs across sessions
	// is often not the first of its exchange.
	MoreProblems []ProblemFix `json:"more_problems,omitempty"`
	// TTLDays is 0 for records that never expire (conscious ones).
	TTLDays    int      `json:"ttl_days"`
	Expires    string   `json:"expires"`
	Concept    string   `json:"concept"`
	Convergent bool     `json:"convergent"`
	Links      []string `json:"links"`
	Created    string   `json:"created"`
	Updated    string   `json:"updated"`
	// File and Lines are set on facts only: where in the project the fact
	// holds, verified against L1.
	File  string `json:"file,omitempty"`
	Lines string `json:"lines,omitempty"`
}

// ProblemFix is a failure and what was done until a later attempt of the
// same command or file worked.
type ProblemFix struct {
	Problem string `json:"problem"`
	Fix     string `json:"fix"`
}

// Problems lists every problem of the exchange, the first one first.
func (e *Exchange) Problems() []ProblemFix {
	if e.Problem == "" {
		return nil
	}
	return append([]ProblemFix{{e.Problem, e.Fix}}, e.MoreProblems...)
}

// IsFact reports whether the record is a fact rather than an exchange.
func (e *Exchange) IsFact() bool { return e.File != "" }

// MinSignificance is the least significance a subconscious exchange needs
// to be stored; below it the exchange was routine and is only counted as
// consolidated.
const MinSignificance = 0.3

// TTLDays gives the lifetime of a subconscious record by significance:
// 7 days up to 0.5, 30 up to 0.8, 90 above. Conscious records never
// expire (0).
func TTLDays(source string, significance float64) int {
	switch {
	case source == Conscious:
		return 0
	case significance < 0.5:
		return 7
	case significance <= 0.8:
		return 30
	}
	return 90
}

// SetTTL fills TTLDays and Expires from the source, significance and
// creation time.
func (e *Exchange) SetTTL() {
	e.TTLDays = TTLDays(e.Source, e.Significance)
	e.Expires = ""
	if e.TTLDays > 0 {
		if t, err := time.Parse(time.RFC3339, e.Created); err == nil {
			e.Expires = t.AddDate(0, 0, e.TTLDays).Format(time.DateOnly)
		}
	}
}

// Expired reports whether the record's expiry date is before the date of
// at. Pass the project's latest activity (LatestActivity), not the clock:
// a TTL measures how long a memory stays fresh while the project is worked
// on, so history imported months late, or a project left alone for a
// while, is not expired by the calendar. An expired record is still
// memory: it leaves the session-start context and memory.md's recent list
// and ranks lower in recall, but it is never deleted for its age.
func (e *Exchange) Expired(at time.Time) bool {
	return e.Expires != "" && e.Expires < at.UTC().Format(time.DateOnly)
}

// LatestActivity is the time of the newest record in any of the sessions
// (the later of its created and updated times): the project's own "now"
// against which TTLs count. It is the zero time when there is no record,
// before which nothing is expired.
func LatestActivity(sessions []*File) time.Time {
	var latest string
	for _, s := range sessions {
		for _, l := range [][]Exchange{s.Exchanges, s.Facts} {
			for i := range l {
				latest = max(latest, l[i].Created, l[i].Updated)
			}
		}
	}
	t, _ := time.Parse(time.RFC3339, latest)
	return t
}

// MakeID derives a record id from its kind prefix ("x", "f"), the
// session's file stem and the content that identifies the record: the
// same record gets the same id in every clone, different records (or the
// same words in another session) different ones, without a shared counter.
func MakeID(prefix, base, identity string) string {
	h := sha256.Sum256([]byte(base + "\x00" + identity))
	return prefix + "-" + hex.EncodeToString(h[:4])
}

// round2 keeps two decimals, so scores serialise the same everywhere.
func round2(f float64) float64 { return math.Round(f*100) / 100 }

// clamp01 bounds a score to 0–1.
func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }

// Timestamp formats a time as records store it: RFC 3339, UTC, seconds.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// normTS turns an L1 timestamp (milliseconds, as Claude Code writes it)
// into a record timestamp (seconds).
func normTS(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return Timestamp(t)
}

// sortedSet returns the distinct non-empty strings of l in order, never nil.
func sortedSet(l []string) []string {
	out := make([]string, 0, len(l))
	for _, s := range l {
		if s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Normalize puts a record in its canonical form: sorted, de-duplicated
// lists that are never null, two-decimal significance, TTL derived.
func (e *Exchange) Normalize() {
	e.Files = sortedSet(e.Files)
	e.Read = sortedSet(e.Read)
	if len(e.Read) == 0 {
		e.Read = nil
	}
	e.Keywords = sortedSet(e.Keywords)
	e.Tags = sortedSet(e.Tags)
	e.Links = sortedSet(e.Links)
	e.Significance = round2(clamp01(e.Significance))
	e.SetTTL()
}

// Package proctime measures whole-process wall time of a command, the
// figure a Claude Code user waits for on every hook call. Benchmarks compare
// it with a floor measured in the same run (`true`), because the machines
// these numbers come from are noisy and only ratios travel well.
package proctime

import (
	"bytes"
	"fmt"
	"os/exec"
	"sort"
	"time"
)

// Run is one command to time.
type Run struct {
	Path  string
	Args  []string
	Dir   string
	Env   []string // nil inherits the environment
	Stdin []byte
	// Before, when set, runs before each run, outside the timing (to reset
	// state the command changes).
	Before func() error
}

// Sample runs r n times (after warmup runs) and returns the wall times.
// A run that fails is an error: a timing of a failing command means nothing.
func Sample(r Run, warmup, n int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := 0; i < warmup+n; i++ {
		if r.Before != nil {
			if err := r.Before(); err != nil {
				return nil, err
			}
		}
		cmd := exec.Command(r.Path, r.Args...)
		cmd.Dir = r.Dir
		cmd.Env = r.Env
		cmd.Stdin = bytes.NewReader(r.Stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			return nil, fmt.Errorf("%s %v: %v: %s", r.Path, r.Args, err, stderr.String())
		}
		if i >= warmup {
			out = append(out, d)
		}
	}
	return out, nil
}

// Interleaved runs each of runs n times (after warmup rounds), one of
// each in turn, and returns their wall times by run. Interleaving makes a
// slow spell of a noisy machine touch every command alike, so that their
// ratios hold when the absolute times do not.
func Interleaved(runs []Run, warmup, n int) ([][]time.Duration, error) {
	out := make([][]time.Duration, len(runs))
	for i := 0; i < warmup+n; i++ {
		for j, r := range runs {
			d, err := Sample(r, 0, 1)
			if err != nil {
				return nil, err
			}
			if i >= warmup {
				out[j] = append(out[j], d[0])
			}
		}
	}
	return out, nil
}

// Median of ds (which it sorts).
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// Ms formats d in milliseconds with two decimals.
func Ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

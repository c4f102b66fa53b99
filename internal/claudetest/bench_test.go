package claudetest

import (
	"context"
	"sort"
	"testing"
	"time"
)

// BenchmarkRun measures one whole `claude -p` run against the scripted
// server: process start, one model turn, no tools, no hooks. It is the
// unit of CI time for the end-to-end tests:
//
//	go test -run '^$' -bench Run -benchtime 5x ./internal/claudetest
func BenchmarkRun(b *testing.B) {
	bin := Require(b)
	h := New(b, bin, Script{})
	var times []time.Duration
	for b.Loop() {
		res, err := h.Run(context.Background(), "say done")
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("run failed: %+v", res.JSON)
		}
		times = append(times, res.Elapsed)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(times[len(times)-1].Milliseconds()), "max-ms")
}

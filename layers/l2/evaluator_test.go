package l2

import (
	"errors"
	"testing"
	"time"

	"github.com/memkeep/memkeep/internal/extcmd"
)

// TestEvaluatorTimeoutIsEnforced: an evaluator whose child keeps the pipe
// open (`sleep 50; true` took 50 s under a 30 s limit) is killed at its
// limit, and the heuristic scores stand.
func TestEvaluatorTimeoutIsEnforced(t *testing.T) {
	eval := CommandEvaluator("sleep 50; true", 200*time.Millisecond)
	start := time.Now()
	_, err := eval([]Exchange{{ID: "x-1", Summary: "s"}})
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the evaluator ran %v", took)
	}
	if !errors.Is(err, extcmd.ErrTimeout) {
		t.Errorf("err = %v, want a timeout", err)
	}
	scores, err := CommandEvaluator(`cat >/dev/null; echo '{"x-1": 0.7}'`, 5*time.Second)([]Exchange{{ID: "x-1"}})
	if err != nil || scores["x-1"] != 0.7 {
		t.Errorf("a working evaluator: %v, %v", scores, err)
	}
}

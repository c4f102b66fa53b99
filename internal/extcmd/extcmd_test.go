package extcmd

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// TestGrandchildHoldingThePipeIsKilled: a shell whose child keeps stdout
// open (the evaluator's `sleep 50; true` took 50 s) ends at the deadline.
func TestGrandchildHoldingThePipeIsKilled(t *testing.T) {
	c := Command(300*time.Millisecond, "sh", "-c", "sleep 50; true")
	var out bytes.Buffer
	c.Stdout = &out
	start := time.Now()
	err := c.Run()
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("took %v", took)
	}
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("err = %v, want ErrTimeout", err)
	}
}

func TestFastProgramRunsNormally(t *testing.T) {
	c := Command(5*time.Second, "sh", "-c", "cat; echo done")
	c.Stdin = bytes.NewReader([]byte("in\n"))
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Run(); err != nil || out.String() != "in\ndone\n" {
		t.Fatalf("got %q, %v", out.String(), err)
	}
	if err := Command(5*time.Second, "sh", "-c", "exit 3").Run(); err == nil || errors.Is(err, ErrTimeout) {
		t.Errorf("a failing program: %v", err)
	}
}

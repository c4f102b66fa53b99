package gitstore

import (
	"testing"
	"time"
)

func TestStepTimes(t *testing.T) {
	l := genRepo(t, 20000, false)
	for i := 0; i < 5; i++ {
		event(t, l.Root)
		last := time.Now()
		start := last
		var s string
		testHook = func(step string) error {
			s += step + "=" + time.Since(last).Round(100*time.Microsecond).String() + " "
			last = time.Now()
			return nil
		}
		Commit(l, Options{})
		testHook = nil
		t.Log(s, "end", time.Since(last).Round(100*time.Microsecond), "total", time.Since(start).Round(100*time.Microsecond))
	}
}

// Package fault lets tests crash memkeep at a named step, for real: when
// the environment variable MEMKEEP_FAULT names a step, the process kills
// itself with SIGKILL when it reaches it, as a power cut or Claude Code's
// hook timeout would; "step:hang" makes it wait there instead, for a test
// that sends a signal. Unset, a step costs a comparison (the variable is
// read once per process).
package fault

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

var spec = sync.OnceValue(func() string { return os.Getenv("MEMKEEP_FAULT") })

// Point is the step called name.
func Point(name string) {
	s := spec()
	if s == "" || !strings.HasPrefix(s, name) {
		return
	}
	switch s[len(name):] {
	case "":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case ":hang":
		for {
			time.Sleep(time.Hour)
		}
	}
}

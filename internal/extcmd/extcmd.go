// Package extcmd runs the external programs memkeep calls (gpg,
// ssh-keygen, a configured evaluator or scanner) so that none can hold a
// hook or a commit past its time limit.
//
// exec.CommandContext alone is not enough: it kills the direct child, but
// a shell's grandchild (`sh -c 'sleep 50; true'`) keeps the output pipe
// open and Wait blocks until it exits. Each program here starts in a
// process group of its own; at the deadline the whole group is killed, and
// Wait gives up on pipes still held open shortly after.
package extcmd

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// pipeGrace bounds how long Wait keeps copying a killed program's output
// (a descendant that escaped the group may hold the pipe).
const pipeGrace = 500 * time.Millisecond

// ErrTimeout is wrapped by the error of a program killed at its deadline.
var ErrTimeout = errors.New("timed out")

// Command is exec.Command for a program that must end within timeout.
// The caller sets Stdin, Stdout and Stderr and calls Run.
func Command(timeout time.Duration, name string, args ...string) *Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	c := exec.CommandContext(ctx, name, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error {
		// The negative pid names the process group Setpgid made.
		return syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	c.WaitDelay = pipeGrace
	return &Cmd{Cmd: c, ctx: ctx, cancel: cancel, timeout: timeout}
}

// Cmd is an *exec.Cmd bound to a deadline.
type Cmd struct {
	*exec.Cmd
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
}

// Run starts the program and waits for it, killing its process group at
// the deadline; the error then wraps ErrTimeout.
func (c *Cmd) Run() error {
	defer c.cancel()
	err := c.Cmd.Run()
	if c.ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%s: killed after %v: %w", c.Path, c.timeout, ErrTimeout)
	}
	return err
}

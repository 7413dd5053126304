// Package killtimer arms a timer in the kernel that ends this process with
// SIGKILL once it expires: the deadline of the other clients' hook
// commands, where a client runs a call whose hook timed out
// (docs/agents.md#timeouts). A timer of the process's own (a goroutine, a
// Go timer, SIGALRM) stops with the process when it is stopped (SIGSTOP)
// and can be caught or ignored; this one is the kernel's, and its SIGKILL
// ends a stopped process too.
package killtimer

import (
	"errors"
	"time"
)

// ErrUnsupported is Arm's error where the system has no such timer (all
// but Linux): the hook command then supervises gitwarrant from the shell.
var ErrUnsupported = errors.New("this system has no timer that kills a stopped process")

// Arm arms the timer: after d, the kernel sends this process SIGKILL. A
// process has one such timer per call; none is ever disarmed, since the
// hook ends long before.
func Arm(d time.Duration) error {
	if d <= 0 {
		return errors.New("killtimer: the deadline must be positive")
	}
	return arm(d)
}

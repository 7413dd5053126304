//go:build !linux

package killtimer

import "time"

// arm: macOS and the BSDs have POSIX timers, but none whose expiry ends a
// stopped process, and Windows has no SIGKILL.
func arm(time.Duration) error { return ErrUnsupported }

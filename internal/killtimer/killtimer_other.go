//go:build !(linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64))

package killtimer

import "time"

// arm: macOS and the BSDs have POSIX timers, but none whose expiry ends a
// stopped process, and Windows has no SIGKILL; Linux on the architectures
// killtimer_linux.go does not lay out struct sigevent for falls back too.
func arm(time.Duration) error { return ErrUnsupported }

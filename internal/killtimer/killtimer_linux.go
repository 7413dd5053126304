//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64)

package killtimer

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sigevent is struct sigevent as Linux lays it out on the 64-bit
// architectures of the build tag: sigev_value (a pointer-sized union),
// sigev_signo, sigev_notify, then a union that fills it to 64 bytes.
// (32-bit ones put sigev_signo at offset 4, MIPS puts sigev_notify first:
// they take the shell's watchdog.) golang.org/x/sys/unix has no such type,
// nor timer_create.
type sigevent struct {
	value  uint64
	signo  int32
	notify int32
	_      [48]byte
}

// sigevSignal is SIGEV_SIGNAL: the timer's expiry sends sigev_signo to the
// process.
const sigevSignal = 0

func arm(d time.Duration) error {
	ev := sigevent{signo: int32(unix.SIGKILL), notify: sigevSignal}
	var id int32 // timer_t is an int for the system call
	if _, _, e := unix.RawSyscall(unix.SYS_TIMER_CREATE, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&ev)), uintptr(unsafe.Pointer(&id))); e != 0 {
		return e
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(d.Nanoseconds())}
	if _, _, e := unix.RawSyscall6(unix.SYS_TIMER_SETTIME, uintptr(id), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		return e
	}
	return nil
}

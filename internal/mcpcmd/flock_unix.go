//go:build unix

package mcpcmd

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive lock on path without waiting; the lock lasts
// as long as the returned file stays open (the kernel drops it when the
// process dies, so a crashed server never leaves a stale lock).
func tryLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLockHeld
		}
		return nil, err
	}
	return f, nil
}

// detachAttr starts the server in a session of its own, so it outlives
// the SessionStart hook that started it and its process group.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

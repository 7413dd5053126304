//go:build unix

package chain

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on f, waiting for it.
// flock is per open file description, so it excludes other processes and
// other File values in this process alike (docs/design.md#the-record: appends are safe
// under concurrency).
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("lock %s: %w; check that the directory is writable and on a local file system", f.Name(), err)
		}
		return nil
	}
}

// unlockFile releases the lock; closing the file would release it too.
func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

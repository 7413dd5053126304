//go:build unix

package chain

import (
	"fmt"
	"syscall"
)

// lockAt opens (creating) the lock file at path and takes an exclusive
// advisory lock (flock) on it, waiting for it. flock is per open file
// description, so it excludes other processes and other locks taken in
// this process alike (docs/design.md#the-record: appends are safe under
// concurrency). The file is opened with open(2) itself, not os.OpenFile,
// which on Linux adds five system calls (non-blocking mode, a poller
// registration refused) to every lock taken.
func lockAt(path string) (func(), error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o644)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w; check the directory's permissions", path, err)
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("lock %s: %w; check that the directory is writable and on a local file system", path, err)
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		syscall.Close(fd)
	}, nil
}

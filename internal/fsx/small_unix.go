//go:build unix

package fsx

import (
	"io/fs"
	"syscall"
)

// WriteSmall is os.WriteFile without the *os.File: on Linux an os.OpenFile
// of a regular file costs five system calls beyond open, write and close
// (non-blocking mode set, a poller registration refused, the mode set
// back), which a server answering a hook call in under a millisecond
// notices (docs/performance.md#the-http-hook-in-the-server). Like
// os.WriteFile it creates or truncates, and is not atomic.
func WriteSmall(path string, data []byte, mode fs.FileMode) error {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, uint32(mode.Perm()))
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	for len(data) > 0 && err == nil {
		var n int
		n, err = syscall.Write(fd, data)
		if err == syscall.EINTR {
			err = nil
			continue
		}
		data = data[max(n, 0):]
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

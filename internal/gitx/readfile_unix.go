//go:build unix

package gitx

import (
	"io/fs"
	"syscall"
)

// readFileInto appends the file at path to buf. It is os.ReadFile without
// the *os.File: no poller registration, finalizer or Stat allocation for
// each of the hundred-odd loose objects a warrant diff reads (about a
// quarter of reading a small loop file, measured on bench/diff.sh's
// repository).
func readFileInto(path string, buf []byte) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	b, err := readFdInto(fd, buf)
	if err != nil {
		return b, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return b, nil
}

// readFdInto appends what fd holds, to its end, to buf.
func readFdInto(fd int, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// readSmall reads the file at path into buf, in one read, and reports
// whether it fit: false when the file is absent, a symbolic link (never
// followed), unreadable, or fills buf. A FIFO or device is opened without
// blocking and read at most once; the caller checks what it got (BlobAt:
// against a Git id).
func readSmall(path string, buf []byte) ([]byte, bool) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Read(fd, buf[:cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 || n == cap(buf) {
			return nil, false
		}
		return buf[:n], true
	}
}

//go:build unix

package gitx

import (
	"io/fs"
	"syscall"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
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
	b, err := fsx.ReadFd(fd, buf)
	if err != nil {
		return b, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return b, nil
}

// readSmall reads the regular file at path whole when it holds at most
// limit bytes, into a slice of its size; false when it is absent, not a
// regular file (a symbolic link is never followed, a FIFO or device never
// read), larger, unreadable, or changes size while read.
func readSmall(path string, limit int64) ([]byte, bool) {
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
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > limit {
		return nil, false
	}
	// one read of the size fstat gave; a file that grew or shrank since
	// is not the blob anyway
	b := make([]byte, st.Size)
	for {
		n, err := syscall.Read(fd, b)
		if err == syscall.EINTR {
			continue
		}
		return b, err == nil && n == len(b)
	}
}

//go:build unix

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// AppendShared appends line to the file at path, creating it (0644), in
// one write, and never into a file RewriteShared has replaced: the write
// holds a shared flock on the open file, and a file found unlinked once
// the lock is held (renamed over while this waited) is opened again —
// each such turn means a rewrite finished, so the turns are bounded only
// loosely (maxReopen), never given up after a few while rewrites go on.
// Appends from several processes never interleave (O_APPEND, one write),
// and cost an open, a flock, an fstat, the write and a close — no
// directory entry is made once the file exists.
func AppendShared(path string, line []byte) error {
	for range maxReopen {
		var fd int
		err := retry(func() (err error) {
			fd, err = syscall.Open(path, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT|syscall.O_CLOEXEC, 0o644)
			return err
		})
		if err != nil {
			return &fs.PathError{Op: "open", Path: path, Err: err}
		}
		if err := retry(func() error { return syscall.Flock(fd, syscall.LOCK_SH) }); err != nil {
			syscall.Close(fd)
			return &fs.PathError{Op: "flock", Path: path, Err: err}
		}
		var st syscall.Stat_t
		if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
			syscall.Close(fd)
			return &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		if st.Nlink == 0 {
			syscall.Close(fd) // replaced while this waited for the lock
			continue
		}
		var n int
		err = retry(func() (err error) { n, err = syscall.Write(fd, line); return err })
		if err == nil && n != len(line) {
			err = errors.New("short write")
		}
		if cerr := syscall.Close(fd); err == nil {
			err = cerr
		}
		if err != nil {
			return &fs.PathError{Op: "write", Path: path, Err: err}
		}
		return nil
	}
	return &fs.PathError{Op: "write", Path: path, Err: errors.New("the file was replaced on every try")}
}

const maxReopen = 10000

// RewriteShared replaces the file at path with rewrite(its bytes) —
// its last limit bytes, from the first line that starts within them,
// when it is longer — holding an exclusive flock on it from before the read until after the
// new file is renamed over it, so that every AppendShared either lands
// before the read or in the new file. A file that is absent, or was
// itself replaced while this waited, is left alone.
func RewriteShared(path string, limit int64, rewrite func([]byte) []byte) error {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close() // and so unlocked, after the rename
	fd := int(f.Fd())
	if err := retry(func() error { return syscall.Flock(fd, syscall.LOCK_EX) }); err != nil {
		return &fs.PathError{Op: "flock", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Nlink == 0 {
		return nil
	}
	data, err := ReadLastLines(f, st.Size, limit)
	if err != nil {
		return err
	}
	return WriteReplace(path, rewrite(data), fs.FileMode(st.Mode).Perm())
}

// minRead is the least room ReadFd reads into: more than most of the
// small files git keeps (HEAD, a ref, a config) hold.
const minRead = 512

// ReadFd appends what fd holds, to its end, to buf. It reads at least
// minRead bytes at a time: a config, HEAD or a ref is then one read and
// the read that finds the end, where growing from nothing took six
// (docs/performance.md#the-http-hook-in-the-server).
func ReadFd(fd int, buf []byte) ([]byte, error) {
	for {
		if cap(buf)-len(buf) < minRead {
			buf = slices.Grow(buf, minRead)
		}
		var n int
		err := retry(func() (err error) { n, err = syscall.Read(fd, buf[len(buf):cap(buf)]); return err })
		if err != nil {
			return buf, err
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// retry runs f again while it is interrupted.
func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

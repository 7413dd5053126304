package fsx

import (
	"io/fs"
	"syscall"
	"time"
)

// StampOf is the stamp of a file's stat result, usable (ReadCache) only
// for a regular file.
func StampOf(fi fs.FileInfo) Stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}
	}
	return stampOf(st)
}

func stampOf(st *syscall.Stat_t) Stamp {
	return Stamp{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: int64(st.Size), Mode: st.Mode,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), ok: st.Mode&syscall.S_IFMT == syscall.S_IFREG}
}

// ReadFile is os.ReadFile, answered from what c keeps when path's stat
// gives the stamp its bytes were read under (a stat instead of open,
// fstat, reads and close); the bytes returned are the caller's own. It
// follows a symbolic link, as open does.
func (c *ReadCache) ReadFile(path string) ([]byte, error) {
	var st syscall.Stat_t
	if c.held(path) && retry(func() error { return syscall.Stat(path, &st) }) == nil {
		if b, ok := c.Lookup(path, stampOf(&st)); ok {
			return b, nil
		}
	}
	began := time.Now()
	var fd int
	err := retry(func() (err error) { fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); return err })
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	// Room for the file as stat sized it and the read that meets its end;
	// a file that grew meanwhile is read on to its end.
	b, err := ReadFd(fd, make([]byte, 0, max(st.Size, 0)+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	c.Keep(path, stampOf(&st), began, b)
	return b, nil
}

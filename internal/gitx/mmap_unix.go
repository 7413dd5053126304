//go:build unix

package gitx

import (
	"fmt"
	"io/fs"
	"syscall"
)

// mapFile maps the file at path read-only into memory, as Git maps its
// packs: pages are read from the page cache as they are touched, and
// nothing is copied.
func mapFile(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Size == 0 {
		return []byte{}, nil
	}
	if int64(int(st.Size)) != st.Size {
		return nil, fmt.Errorf("%s: too large to map", path)
	}
	b, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: err}
	}
	return b, nil
}

// unmapFile releases what mapFile mapped.
func unmapFile(b []byte) {
	if len(b) > 0 {
		syscall.Munmap(b)
	}
}

//go:build unix

package record

import (
	"errors"
	"os"
	"syscall"
)

// errNotRegular is a journal path that holds something other than a
// regular file: a symbolic link, a FIFO, a directory.
var errNotRegular = errors.New("not a regular file")

// openJournal opens the journal at path without following a symbolic
// link (O_NOFOLLOW) and without blocking on a FIFO: a journal that leads
// elsewhere is never read nor written through.
func openJournal(path string, flag int) (*os.File, error) {
	fh, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, errNotRegular
		}
		return nil, err
	}
	fi, err := fh.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errNotRegular
	}
	if err != nil {
		fh.Close()
		return nil, err
	}
	return fh, nil
}

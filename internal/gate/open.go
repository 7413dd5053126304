package gate

import (
	"os"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// openRegular opens the file at p (a symbolic link followed) for reading
// when it is a regular file. The open does not wait (fsx.OpenNoWait), and the
// kind is read from the open file, not from the name: a FIFO the agent
// swaps in after a check of the name would hold a plain open until someone
// writes to it, and the hook with it (docs/threat-model.md#files-the-gate-reads).
func openRegular(p string) (*os.File, os.FileInfo, bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|fsx.OpenNoWait, 0)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

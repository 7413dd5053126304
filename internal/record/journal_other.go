//go:build !unix

package record

import (
	"errors"
	"os"
)

// errNotRegular is a journal path that holds something other than a
// regular file.
var errNotRegular = errors.New("not a regular file")

// openJournal opens the journal at path once Lstat has found a regular
// file there. Appends need flock(2), which this platform lacks
// (chain.Lock), so no journal is ever written here.
func openJournal(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return os.OpenFile(path, flag, 0o644)
}

package chain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Lock takes the exclusive lock at path (creating it and its directory),
// waiting for it, and returns the function that releases it. It is the one
// lock every record writer takes: chain.File.Append, the record's ref
// appends and the commit hooks (docs/record.md#concurrency). The directory
// is made only when the lock file cannot be opened for its lack: the http
// hook's server takes this lock for every check it records
// (docs/record.md#the-journal).
func Lock(path string) (func(), error) {
	unlock, err := lockAt(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create directory for lock %s: %w — make it writable", path, err)
		}
		unlock, err = lockAt(path)
	}
	return unlock, err
}

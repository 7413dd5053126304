package chain

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock takes the exclusive lock at path (creating it and its directory),
// waiting for it, and returns the function that releases it. It is the one
// lock every record writer takes: chain.File.Append, the record's ref
// appends and the commit hooks (docs/record.md#concurrency).
func Lock(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create directory for lock %s: %w — make it writable", path, err)
	}
	lf, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w; check the directory's permissions", path, err)
	}
	if err := lockFile(lf); err != nil {
		lf.Close()
		return nil, err
	}
	return func() { unlockFile(lf); lf.Close() }, nil
}

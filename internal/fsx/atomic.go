// Package fsx holds the one way gitwarrant replaces a file it edits in a
// user's tree (context files, settings, hook scripts). It is a leaf: no
// processes, no terminal.
package fsx

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic writes data to path through a temporary file in the same
// directory, synced to disk, then renamed into place and the directory
// synced: a reader sees the old file or the new one, never a mix, and a
// crash right after the call does not leave an empty file behind
// (docs/design.md#enforcement-surfaces). A zero mode means 0644. Missing
// parent directories are created.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return write(path, data, mode, true)
}

// WriteReplace is WriteAtomic without the syncs, for files that can be
// rebuilt from a durable source and sit on a path where a sync costs
// more than the work (the commit hooks' copies of the record's ref and
// their notes to each other, docs/record.md#commit-hooks): a reader still
// sees the old file or the new one, but a crash may lose the new one.
func WriteReplace(path string, data []byte, mode fs.FileMode) error {
	return write(path, data, mode, false)
}

func write(path string, data []byte, mode fs.FileMode, sync bool) (err error) {
	if mode == 0 {
		mode = 0o644
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".gitwarrant-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w — check the directory's permissions", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if sync {
		if err = tmp.Sync(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if !sync {
		return nil
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // not every file system syncs directories
		d.Close()
	}
	return nil
}

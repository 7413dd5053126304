//go:build !unix

package fsx

import (
	"errors"
	"io/fs"
	"os"
)

// AppendShared appends line to the file at path, creating it, in one
// write. Without flock a RewriteShared running at the same time may drop
// it (append_unix.go holds the lock).
func AppendShared(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RewriteShared replaces the file at path with rewrite(its bytes); an
// absent file is left alone.
func RewriteShared(path string, rewrite func([]byte) []byte) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return WriteReplace(path, rewrite(data), 0o644)
}

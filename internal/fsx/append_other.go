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

// RewriteShared replaces the file at path with rewrite(its bytes), its
// last limit bytes from the first line that starts within them when it
// is longer; an absent file is left alone.
func RewriteShared(path string, limit int64, rewrite func([]byte) []byte) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	data, err := ReadLastLines(f, info.Size(), limit)
	f.Close()
	if err != nil {
		return err
	}
	return WriteReplace(path, rewrite(data), 0o644)
}

//go:build !unix

package gitx

import (
	"bytes"
	"os"
)

// readFileInto appends the file at path to buf.

func readFileInto(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	b := bytes.NewBuffer(buf)
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}

// readSmall reads the regular file at path whole when it holds at most
// limit bytes (never following a symbolic link).
func readSmall(path string, limit int64) ([]byte, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, false
	}
	b, err := os.ReadFile(path)
	return b, err == nil && int64(len(b)) <= limit
}

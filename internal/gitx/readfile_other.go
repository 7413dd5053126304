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

// readSmall reads the regular file at path into buf and reports whether
// it fit (never following a symbolic link).
func readSmall(path string, buf []byte) ([]byte, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() >= int64(cap(buf)) {
		return nil, false
	}
	b, err := readFileInto(path, buf[:0])
	if err != nil || len(b) >= cap(buf) {
		return nil, false
	}
	return b, true
}

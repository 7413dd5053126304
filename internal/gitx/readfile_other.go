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

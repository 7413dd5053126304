//go:build !unix

package fsx

import (
	"io/fs"
	"os"
)

// WriteSmall is os.WriteFile (small_unix.go says why it is not, there).
func WriteSmall(path string, data []byte, mode fs.FileMode) error {
	return os.WriteFile(path, data, mode)
}

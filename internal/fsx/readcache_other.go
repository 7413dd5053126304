//go:build !linux

package fsx

import (
	"io/fs"
	"os"
)

// StampOf gives no usable stamp here: ReadCache keeps nothing, and every
// read reads.
func StampOf(fs.FileInfo) Stamp { return Stamp{} }

// ReadFile is os.ReadFile: only Linux's stat is read for stamps
// (readcache_linux.go).
func (c *ReadCache) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

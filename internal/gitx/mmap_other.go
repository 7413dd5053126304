//go:build !unix

package gitx

import "os"

// mapFile reads the file at path whole where mmap is not at hand.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

// unmapFile leaves the bytes to the collector.
func unmapFile([]byte) {}

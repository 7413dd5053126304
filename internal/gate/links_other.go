//go:build !unix

package gate

import "os"

// linkCount is 1: hard links are not read on this system.
func linkCount(os.FileInfo) uint64 { return 1 }

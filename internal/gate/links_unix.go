//go:build unix

package gate

import (
	"os"
	"syscall"
)

// linkCount is a file's st_nlink (1 where the system does not say).
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

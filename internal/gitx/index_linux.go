package gitx

import (
	"io/fs"
	"syscall"
)

// statData is the stat data Git keeps in an index entry for fi.
func statData(fi fs.FileInfo) ([10]uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [10]uint32{}, false
	}
	return [10]uint32{
		uint32(st.Ctim.Sec), uint32(st.Ctim.Nsec), uint32(st.Mtim.Sec), uint32(st.Mtim.Nsec),
		uint32(st.Dev), uint32(st.Ino), modeOf(fi), st.Uid, st.Gid, uint32(st.Size),
	}, true
}

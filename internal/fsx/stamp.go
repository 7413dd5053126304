package fsx

// A Stamp is what stat(2) says of a regular file's content: device and
// inode, size, mode, and its modification and change times to the
// nanosecond. Two equal stamps of one path, the first taken before a
// read of a settled file (ReadCache), mean the same bytes.
type Stamp struct {
	Dev, Ino     uint64
	Size         int64
	Mode         uint32
	Mtime, Ctime int64 // nanoseconds since the epoch
	ok           bool  // taken from a regular file on a system that gives all of the above
}

package fsx

import (
	"bytes"
	"sync"
	"time"
)

// Reading a small file again, trusted to stat data (docs/performance.md#stat-trust).
//
// A warm server decides every hook call from the same few files: the
// loops, .git/config and ~/.gitconfig, HEAD, the record's refs. Opening
// and reading each costs four system calls where one stat says whether
// it changed, and system calls are a third or more of a decision's cost
// in the server (docs/performance.md#the-http-hook-in-the-server). So a file's
// bytes are kept with its Stamp, and a later read whose stat gives the
// same stamp returns them without opening the file — as git's index
// trusts stat data.
//
// A stat stands for a read only once the file's last change is settled:
// its modification and change times are over Settle older than the clock
// when the read began. A write after that read sets the change time to
// the file system's clock then, which is later than the kept change time
// by more than the time stamps' grain (a kernel tick, or whole seconds
// on some file systems), so the stamps differ; a file changed within
// Settle of its read is read again on every call until it settles. The
// change time cannot be set by a program (only the clock can move it),
// and the inode and device catch a file replaced by rename. What this
// trusts is git's racy-git rule: the local clock and the file system's
// move forward together.

// Settle is how long before a read a file must have last changed for its
// stamp to stand for its bytes afterwards.
const Settle = 3 * time.Second

// ReadCache keeps small files' bytes by path, with their stamps. Its
// zero value is not usable; NewReadCache makes one. It is safe for
// concurrent use.
type ReadCache struct {
	mu       sync.Mutex
	files    map[string]readEntry
	bytes    int   // held in files
	maxFile  int64 // larger files are never kept
	maxBytes int   // past this, files is emptied
	settle   time.Duration
	reads    int // files opened and read (tests count them)
}

type readEntry struct {
	st   Stamp
	data []byte
}

// NewReadCache keeps files of at most maxFile bytes, maxBytes in all.
func NewReadCache(maxFile int64, maxBytes int) *ReadCache {
	return &ReadCache{files: map[string]readEntry{}, maxFile: maxFile, maxBytes: maxBytes, settle: Settle}
}

// Lookup returns a copy of the bytes kept for path when they were read
// under st, a stamp just taken of path; for a caller that reads the file
// its own way (a loop file, never through a link: loops.Cache).
func (c *ReadCache) Lookup(path string, st Stamp) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.files[path]
	if !ok || e.st != st {
		return nil, false
	}
	return bytes.Clone(e.data), true
}

// held reports whether anything is kept for path (a stat is then worth
// its cost).
func (c *ReadCache) held(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.files[path]
	return ok
}

// Keep stores data, read from path whose stamp was st before the read,
// when the read began at began (the clock before st was taken) and the
// file had settled by then; otherwise it forgets path.
func (c *ReadCache) Keep(path string, st Stamp, began time.Time, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	if old, ok := c.files[path]; ok {
		c.bytes -= len(old.data)
		delete(c.files, path)
	}
	if !st.settledBy(began.Add(-c.settle)) || int64(len(data)) > c.maxFile || st.Size != int64(len(data)) {
		return
	}
	if c.bytes+len(data) > c.maxBytes {
		clear(c.files)
		c.bytes = 0
	}
	c.files[path] = readEntry{st: st, data: bytes.Clone(data)}
	c.bytes += len(data)
}

// settledBy reports whether the file's last change was before t.
func (s Stamp) settledBy(t time.Time) bool {
	lim := t.UnixNano()
	return s.ok && s.Mtime < lim && s.Ctime < lim
}

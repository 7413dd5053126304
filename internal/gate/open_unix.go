//go:build unix

package gate

import "syscall"

// openNoWait is added to the open of a file the agent may have written: a
// FIFO in its place would otherwise hold the open, and the hook with it,
// until someone writes to it; a regular file ignores it.
const openNoWait = syscall.O_NONBLOCK

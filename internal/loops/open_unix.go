//go:build unix

package loops

import "syscall"

// openNoWait is added to the open of a loop file: a FIFO swapped in for
// the file after its Lstat would otherwise hold the open, and the hook,
// until someone writes to it; a regular file ignores it.
const openNoWait = syscall.O_NONBLOCK

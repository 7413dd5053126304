//go:build unix

package fsx

import "syscall"

// OpenNoWait is added to the open of a file the agent may have written (a
// loop, a Makefile, a script): a FIFO swapped in for it would otherwise
// hold the open, and the hook with it, until someone writes to it; a
// regular file ignores the flag (docs/threat-model.md#files-the-gate-reads).
const OpenNoWait = syscall.O_NONBLOCK

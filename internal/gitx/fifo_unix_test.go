//go:build unix

package gitx

import (
	"errors"
	"syscall"
)

var errNoFIFO = errors.New("no FIFOs here")

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

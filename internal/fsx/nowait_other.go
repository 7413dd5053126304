//go:build !unix

package fsx

// OpenNoWait: no FIFOs to swap in here (see nowait_unix.go).
const OpenNoWait = 0

//go:build !unix

package gate

// openNoWait: no FIFOs to swap in here (see open_unix.go).
const openNoWait = 0

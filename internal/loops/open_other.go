//go:build !unix

package loops

// openNoWait: no FIFOs to swap in here (see open_unix.go).
const openNoWait = 0

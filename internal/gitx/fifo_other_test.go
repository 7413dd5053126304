//go:build !unix

package gitx

import "errors"

var errNoFIFO = errors.New("no FIFOs here")

func mkfifo(string) error { return errNoFIFO }

//go:build !unix

package record

import "errors"

// lockWriter mirrors chain's refusal off unix: no flock, no safe catch-up.
func lockWriter(path string) (func(), error) {
	return nil, errors.New("the record lock needs flock(2), which this platform lacks; run gitwarrant on Linux, macOS or a BSD")
}

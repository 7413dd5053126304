//go:build !unix

package chain

import "errors"

// lockAt is not implemented off unix: gitwarrant's append lock relies on
// flock(2). Refusing is safer than appending without mutual exclusion.
func lockAt(path string) (func(), error) {
	return nil, errors.New("appending to the record needs flock(2), which this platform lacks; run gitwarrant on Linux, macOS or a BSD")
}

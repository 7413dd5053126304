//go:build !unix

package mcpcmd

import (
	"errors"
	"os"
	"syscall"
)

func tryLock(string) (*os.File, error) {
	return nil, errors.New("serve --detach needs file locks this system does not offer: run `gitwarrant serve` yourself")
}

func detachAttr() *syscall.SysProcAttr { return nil }

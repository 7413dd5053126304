package mcpcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// The files of the per-repository hook server in the clone's state
// directory (docs/hook-protocol.md#the-http-hook): the lock its process
// holds while it runs, the address it serves, and its log.
const (
	serveLockFile = "serve.lock"
	serveAddrFile = "serve.json"
	serveLogFile  = "serve.log"
)

// serveState is serve.json: where the repository's hook server listens.
type serveState struct {
	Addr    string    `json:"addr"`
	PID     int       `json:"pid"`
	Version string    `json:"version"`
	Started time.Time `json:"started"`
}

func readServeState(dir string) (serveState, error) {
	var st serveState
	data, err := os.ReadFile(filepath.Join(dir, serveAddrFile))
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fmt.Errorf("%s: %v", filepath.Join(dir, serveAddrFile), err)
	}
	return st, nil
}

func writeServeState(dir string, st serveState) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return fsx.WriteAtomic(filepath.Join(dir, serveAddrFile), append(data, '\n'), 0o600)
}

// removeServeState removes serve.json when it is this process's.
func removeServeState(dir string) {
	if st, err := readServeState(dir); err == nil && st.PID == os.Getpid() {
		_ = os.Remove(filepath.Join(dir, serveAddrFile))
	}
}

// errLockHeld says another process holds the repository's server lock.
var errLockHeld = errors.New("another gitwarrant server holds this repository's lock")

// waitServeState waits up to d for the server holding the lock to write
// its address (it takes the lock before it listens).
func waitServeState(dir string, d time.Duration) (serveState, error) {
	deadline := time.Now().Add(d)
	for {
		st, err := readServeState(dir)
		if err == nil || time.Now().After(deadline) {
			return st, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

//go:build unix

package testkit

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
)

// SwapFIFO keeps swapping, by rename, a regular file holding content and
// a FIFO in at path until the test ends — what a process the agent started
// could do to a file the gate reads — and returns a func that lets an open
// stuck on the FIFO go (it opens the FIFO for writing) and stops the swap.
func SwapFIFO(t testing.TB, path, content string) (release func()) {
	t.Helper()
	dir := filepath.Dir(path)
	reg, fifo := filepath.Join(dir, ".swap-reg"), filepath.Join(dir, ".swap-fifo")
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; !stop.Load(); i++ {
			if i%2 == 0 {
				_ = os.WriteFile(reg, []byte(content), 0o644)
				_ = os.Rename(reg, path)
			} else {
				_ = syscall.Mkfifo(fifo, 0o644)
				_ = os.Rename(fifo, path)
			}
		}
	}()
	release = func() {
		if stop.Swap(true) {
			return
		}
		<-done
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	t.Cleanup(release)
	return release
}

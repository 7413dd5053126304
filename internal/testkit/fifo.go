//go:build unix

package testkit

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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

// NeverHangs runs read n times, each with 5 s to return, while a SwapFIFO
// swap goes on: a read stuck on the FIFO fails the test (after release
// lets it go), named by what.
func NeverHangs(t testing.TB, release func(), what string, n int, read func()) {
	t.Helper()
	for i := 0; i < n; i++ {
		returned := make(chan struct{})
		go func() { read(); close(returned) }()
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
			release()
			t.Fatalf("%s hung on a FIFO swapped in for the file (read %d)", what, i)
		}
	}
}

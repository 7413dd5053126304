//go:build unix

package loops

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestLoopFileSwappedForAFIFO: a loop file swapped for a FIFO between its
// Lstat and its open is an error, never a wait: without the sandbox, code
// the agent runs can write .gitwarrant/, and a hook stuck in an open is a
// hook the client times out and lets the call run
// (docs/threat-model.md#files-the-gate-reads).
func TestLoopFileSwappedForAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fix.loop.md")
	release := testkit.SwapFIFO(t, p, "---\nname: fix\n---\n")
	for i := 0; i < 200000; i++ {
		returned := make(chan struct{})
		go func() { _, _ = readFile(p); close(returned) }()
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
			release()
			t.Fatalf("reading a loop file hung on a FIFO swapped in for it (read %d)", i)
		}
	}
}

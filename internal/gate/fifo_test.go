//go:build unix

package gate

import (
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestFilesTheGateReadsCannotHangIt: the gate reads files the agent may
// write — a Makefile, a script, a program it compares with gitwarrant —
// and a FIFO in their place would hold a plain open(2) until someone
// writes to it: the hook hangs and a client that runs a call whose hook
// timed out runs it (docs/threat-model.md#files-the-gate-reads). A check
// of the file's kind before the open does not help: a process the agent
// started swaps a regular file and a FIFO under the same name, and the
// open meets the FIFO. Each read here runs while that swap goes on; none
// may hang.
func TestFilesTheGateReadsCannotHangIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "Makefile")
	release := testkit.SwapFIFO(t, p, "test:\n\tgo test ./...\n")
	reads := map[string]func(){
		"readSmall": func() { readSmall(p, 1<<20) },
		"compiled":  func() { compiled(p) },
		"fileHash":  func() { fileHash(p) },
	}
	for name, read := range reads {
		testkit.NeverHangs(t, release, name, 20000, read)
	}
}

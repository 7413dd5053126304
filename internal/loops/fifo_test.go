//go:build unix

package loops

import (
	"path/filepath"
	"testing"

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
	testkit.NeverHangs(t, release, "reading a loop file", 200000, func() { _, _ = readFile(p) })
}

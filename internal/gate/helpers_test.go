package gate

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// newLoopsRepo makes a Git repository with an empty project and returns
// its root and loops folder.
func newLoopsRepo(tb testing.TB) (root, dir string) {
	tb.Helper()
	root = tb.TempDir()
	if out, err := exec.Command("git", "init", "-q", "-b", "main", root).CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v %s", err, out)
	}
	dir = filepath.Join(root, ".gitwarrant", "loops")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return root, dir
}

// Package testkit is what black-box tests share: the real gitwarrant
// binary, built once per test process. Only _test.go files import it.
package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once   sync.Once
	binDir string
	err    error
)

// Binary returns the path of a gitwarrant binary built from this module,
// building it on first use. A build failure fails the test.
func Binary(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		if binDir, err = os.MkdirTemp("", "gitwarrant-bin-"); err != nil {
			return
		}
		// gitwarrant-mcp beside gitwarrant, as `go install ./cmd/...`
		// puts them: `gitwarrant mcp` and `serve` run it.
		out, buildErr := exec.Command("go", "build", "-o", binDir+string(filepath.Separator),
			"github.com/gitwarrant/gitwarrant/cmd/gitwarrant", "github.com/gitwarrant/gitwarrant/cmd/gitwarrant-mcp").CombinedOutput()
		if buildErr != nil {
			err = fmt.Errorf("building gitwarrant: %v\n%s", buildErr, out)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(binDir, "gitwarrant")
}

// Cleanup removes the built binary; call it from TestMain after m.Run.
func Cleanup() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

package eval

import (
	"os"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestMain removes the binary TestPeerGuards builds (internal/testkit).
func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

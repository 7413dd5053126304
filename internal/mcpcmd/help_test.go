package mcpcmd

import (
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/term"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestFlagPlaceholdersAreValueNames walks gitwarrant-mcp's flags as the
// cli package walks gitwarrant's: a word in backticks in a flag's usage is
// its placeholder in the help, so it must name the value
// (docs/design.md#help-text).
func TestFlagPlaceholdersAreValueNames(t *testing.T) {
	root := cli.NewServerRootCmd(&cli.App{IO: &term.Streams{}, Getenv: func(string) string { return "" }}, Commands()...)
	for _, p := range testkit.FlagPlaceholderProblems(root) {
		t.Error(p)
	}
}

package mcpcmd

import (
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/term"
)

// TestGitwarrantDoesNotLinkTheSDK keeps the MCP SDK out of the gitwarrant
// binary: Claude Code starts it before every tool call, and the SDK's
// package initialisation cost that start-up about 2 ms (docs/mcp.md#cost).
// gitwarrant-mcp, which serves the tools, must link it.
func TestGitwarrantDoesNotLinkTheSDK(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	heavy := func(p string) bool {
		return strings.HasPrefix(p, "github.com/modelcontextprotocol/") || strings.HasPrefix(p, "github.com/google/jsonschema-go") || p == "encoding/gob"
	}
	for _, p := range deps("github.com/gitwarrant/gitwarrant/cmd/gitwarrant") {
		if heavy(p) {
			t.Errorf("cmd/gitwarrant links %s: the MCP SDK belongs in cmd/gitwarrant-mcp only", p)
		}
	}
	linked := false
	for _, p := range deps("github.com/gitwarrant/gitwarrant/cmd/gitwarrant-mcp") {
		linked = linked || strings.HasPrefix(p, "github.com/modelcontextprotocol/go-sdk/mcp")
	}
	if !linked {
		t.Error("cmd/gitwarrant-mcp does not link the MCP SDK: the check above proves nothing")
	}
}

// TestServerBinaryHoldsOnlyTheServer: gitwarrant-mcp's command tree is mcp
// and serve (and cobra's help and completion). The hook denies an agent's
// run of gitwarrant's own binary under any name or link, by inode or
// content; a copy of a binary that held `amend` or `hook` under another
// name would not be recognised.
func TestServerBinaryHoldsOnlyTheServer(t *testing.T) {
	root := cli.NewRootCmd(&cli.App{IO: &term.Streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, Getenv: func(string) string { return "" }}, Commands()...)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var names []string
	for _, c := range root.Commands() {
		names = append(names, c.Name())
		switch c.Name() {
		case "mcp", "serve", "help", "completion":
		default:
			t.Errorf("gitwarrant-mcp holds %q: it must hold the server's commands only", c.Name())
		}
	}
	if !slices.Contains(names, "mcp") || !slices.Contains(names, "serve") {
		t.Errorf("gitwarrant-mcp's commands are %v, want mcp and serve among them", names)
	}
}

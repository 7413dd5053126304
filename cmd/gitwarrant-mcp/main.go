//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command gitwarrant-mcp serves gitwarrant's agent tools over MCP (stdio)
// and Streamable HTTP with a REST mirror. `gitwarrant mcp` and
// `gitwarrant serve` run it. It is a binary of its own so that the MCP
// SDK's start-up is paid by the server only, never by the hook Claude Code
// runs before each tool call (docs/mcp.md#cost); and it holds those two
// commands only, so no name or link it is run under reaches a command only
// people may run (the hook recognises its own binary, not this one).
// The go:debug lines match cmd/gitwarrant's.
package main

import (
	"context"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/mcpcmd"
)

func main() {
	os.Exit(cli.ServerMain(context.Background(), cli.NewSystemApp(), os.Args[1:], mcpcmd.Commands()...))
}

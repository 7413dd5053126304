//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command gitwarrant is the permission layer and paper trail for AI agents
// working in a Git repository.
//
// The go:debug lines above keep the runtime from reading the cgroup tree at
// start-up and from watching it afterwards: Claude Code starts this binary
// before every tool call, and that reading was a tenth of its start-up
// (docs/threat-model.md#cost). GOMAXPROCS is then the CPU count; set
// GODEBUG=containermaxprocs=1 for a long-running `gitwarrant serve` in a
// CPU-limited container.
package main

import (
	"context"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), cli.NewSystemApp(), os.Args[1:]))
}

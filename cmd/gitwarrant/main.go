//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command gitwarrant is the permission layer and paper trail for AI agents
// working in a Git repository.
//
// The go:debug lines above keep the runtime from applying the cgroup's CPU
// limit and from watching it afterwards: Claude Code starts this binary
// before every tool call (docs/threat-model.md#cost). Go 1.26 still reads
// the cgroup files once at start-up, only to count whether the setting
// changed anything (runtime/cgroup_linux.go, defaultGOMAXPROCSInit).
// GOMAXPROCS is then the CPU count; set GODEBUG=containermaxprocs=1 for a
// long-running `gitwarrant serve` in a CPU-limited container.
package main

import (
	"context"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), cli.NewSystemApp(), os.Args[1:]))
}

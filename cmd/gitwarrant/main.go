// Command gitwarrant is the permission layer and paper trail for AI agents
// working in a Git repository.
package main

import (
	"context"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), cli.NewSystemApp(), os.Args[1:]))
}

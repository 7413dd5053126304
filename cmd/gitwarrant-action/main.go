// Command gitwarrant-action is the GitHub Action's entry point
// (docs/ci.md#the-github-action); action.yml builds and runs it.
package main

import (
	"context"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/ghaction"
	"github.com/sethvargo/go-githubactions"
)

func main() {
	os.Exit(ghaction.Run(context.Background(), githubactions.New(githubactions.WithGetenv(ghaction.Getenv))))
}

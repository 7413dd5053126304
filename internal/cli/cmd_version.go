package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

func newVersionCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the gitwarrant version and matching engine",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(app.IO.Out, "gitwarrant %s (engine %s, loop spec v%d)\n", Version, loops.EngineVersion, loops.SpecVersion)
			return nil
		},
	}
}

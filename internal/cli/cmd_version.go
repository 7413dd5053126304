package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

// versionJSON is the stable --json shape of `version`.
type versionJSON struct {
	Version  string `json:"version"`
	Engine   string `json:"engine"`
	LoopSpec int    `json:"loop_spec"`
}

func newVersionCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "print the gitwarrant version and matching engine",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return emitJSON(app, versionJSON{Version: Version, Engine: loops.EngineVersion, LoopSpec: loops.SpecVersion}, ExitOK)
			}
			fmt.Fprintf(app.IO.Out, "gitwarrant %s (engine %s, loop spec v%d)\n", Version, loops.EngineVersion, loops.SpecVersion)
			return nil
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

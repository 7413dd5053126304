package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/templates"
	"github.com/spf13/cobra"
)

type templateJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func newTemplatesCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "templates",
		Short: "list the starter loop templates",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ts := templates.List()
			if asJSON {
				out := make([]templateJSON, 0, len(ts))
				for _, t := range ts {
					out = append(out, templateJSON{t.Name, t.Description})
				}
				return writeJSON(app.IO.Out, out)
			}
			st := app.IO.Style()
			for _, t := range ts {
				fmt.Fprintf(app.IO.Out, "  %-22s %s\n", st.Cyan(t.Name), t.Description)
			}
			fmt.Fprintln(app.IO.Out, st.Dim("\n  use: gitwarrant new <name> --template <template>"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

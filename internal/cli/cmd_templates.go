package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/templates"
	"github.com/spf13/cobra"
)

// templatesJSON is the stable --json shape of `templates`.
type templatesJSON struct {
	Templates []templateJSON `json:"templates"`
}

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
				out := templatesJSON{Templates: make([]templateJSON, 0, len(ts))}
				for _, t := range ts {
					out.Templates = append(out.Templates, templateJSON{t.Name, t.Description})
				}
				return emitJSON(app, out, ExitOK)
			}
			st := app.IO.Style()
			for _, t := range ts {
				fmt.Fprintf(app.IO.Out, "  %-22s %s\n", st.Cyan(t.Name), t.Description)
			}
			fmt.Fprintln(app.IO.Out, st.Dim("\n  use: gitwarrant new <name> --template <template>"))
			return nil
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

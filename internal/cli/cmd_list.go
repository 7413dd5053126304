package cli

import (
	"errors"
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

// listJSON is the stable --json shape of `list`: the loops that load and
// the files that do not (also reported on stderr; exit 1).
type listJSON struct {
	Loops  []loopSummaryJSON `json:"loops"`
	Errors []loadErrorJSON   `json:"errors"`
}

// loadErrorJSON is a loop file that failed to load: where and why.
type loadErrorJSON struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

type loopSummaryJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	Allows      int    `json:"allows"`
	Asks        int    `json:"asks"`
	Nevers      int    `json:"nevers"`
	Abstract    bool   `json:"abstract,omitempty"`
	Extends     string `json:"extends,omitempty"`
}

func newListCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "list the loops (a loop file that fails to parse is reported, exit 1)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := app.Project()
			if err != nil {
				return err
			}
			ls, errs := loops.LoadDir(p.LoopsDir())
			if asJSON {
				out := listJSON{Loops: make([]loopSummaryJSON, 0, len(ls)), Errors: make([]loadErrorJSON, 0, len(errs))}
				for _, l := range ls {
					out.Loops = append(out.Loops, summarize(l))
				}
				for _, e := range errs {
					out.Errors = append(out.Errors, loadErrorToJSON(e))
				}
				if err := writeJSON(app.IO.Out, out); err != nil {
					return err
				}
			} else {
				printLoopList(app, ls, len(errs))
			}
			for _, e := range errs {
				fmt.Fprintf(app.IO.Err, "gitwarrant: %v\n", e)
			}
			if len(errs) > 0 {
				return Silent(ExitError1)
			}
			return nil
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

func loadErrorToJSON(err error) loadErrorJSON {
	var le *loops.Error
	if errors.As(err, &le) {
		return loadErrorJSON{Path: le.File, Line: le.Line, Message: le.Msg, Hint: le.Hint}
	}
	return loadErrorJSON{Message: err.Error()}
}

func summarize(l *loops.Loop) loopSummaryJSON {
	w := &l.Warrant
	return loopSummaryJSON{
		Name: l.Name, Description: l.Description, Path: l.Path,
		Allows: len(w.Read) + len(w.Draft) + len(w.Change) + len(w.Send),
		Asks:   len(w.Ask), Nevers: len(w.Never),
		Abstract: l.Abstract, Extends: l.Extends.Text,
	}
}

// printLoopList prints the loops; broken is how many loop files failed to
// load (their errors go to stderr), so an all-broken folder is not "no
// loops yet".
func printLoopList(app *App, ls []*loops.Loop, broken int) {
	st := app.IO.Style()
	if len(ls) == 0 {
		if broken > 0 {
			fmt.Fprintf(app.IO.Out, "no loop loads: %s failed to load (below) — fix each at the line shown\n", pluralize(broken, "loop file"))
			return
		}
		fmt.Fprintln(app.IO.Out, "no loops yet — create one with `gitwarrant new <name> --template <t>`")
		return
	}
	for _, l := range ls {
		s := summarize(l)
		desc := l.Description
		switch {
		case l.Abstract:
			desc = st.Yellow("[abstract baseline]") + " " + desc
		case l.Extends.Text != "":
			desc = st.Dim("[extends "+l.Extends.Text+"]") + " " + desc
		}
		fmt.Fprintf(app.IO.Out, "  %-24s %s\n", st.Cyan(l.Name), desc)
		fmt.Fprintln(app.IO.Out, st.Dim(fmt.Sprintf("  %-24s %d allow · %d ask · %d never", "", s.Allows, s.Asks, s.Nevers)))
	}
}

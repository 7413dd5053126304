package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

// loopJSON is the stable --json shape of a loop's five layers.
type loopJSON struct {
	Name        string              `json:"name"`
	Description string              `json:"description,omitempty"`
	Version     int                 `json:"version"`
	Triggers    []string            `json:"triggers"`
	Goal        string              `json:"goal,omitempty"`
	Stop        string              `json:"stop,omitempty"`
	Budget      string              `json:"budget,omitempty"`
	Brief       string              `json:"brief"`
	Procedure   string              `json:"procedure"`
	Preamble    string              `json:"preamble,omitempty"`
	Warrant     map[string][]string `json:"warrant"`
	Reserved    []string            `json:"reserved"`
	Record      []string            `json:"record"`
	Path        string              `json:"path"`
	Blob        string              `json:"blob"`
}

func loopToJSON(l *loops.Loop) loopJSON {
	w := map[string][]string{}
	for _, name := range loops.Lists {
		w[name] = loops.Texts(l.Warrant.List(name))
	}
	return loopJSON{
		Name: l.Name, Description: l.Description, Version: l.Version,
		Triggers: loops.Texts(l.Triggers), Goal: l.Goal, Stop: l.Stop, Budget: l.Budget,
		Brief: l.Brief, Procedure: l.Procedure, Preamble: l.Preamble, Warrant: w,
		Reserved: loops.Texts(l.Reserved), Record: loops.Texts(l.Record), Path: l.Path, Blob: l.BlobID,
	}
}

func newShowCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show <loop>",
		Short: "print a loop's five layers",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := app.Project()
			if err != nil {
				return err
			}
			l, err := loadLoop(p, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(app.IO.Out, loopToJSON(l))
			}
			printLoop(app, l)
			return nil
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

func printLoop(app *App, l *loops.Loop) {
	st := app.IO.Style()
	out := app.IO.Out
	fmt.Fprintf(out, "%s — %s\n", st.Bold(l.Name), l.Description)
	for _, kv := range [][2]string{{"goal", l.Goal}, {"stop", l.Stop}, {"budget", l.Budget}} {
		if kv[1] != "" {
			fmt.Fprintf(out, "  %-7s %s\n", kv[0]+":", kv[1])
		}
	}
	section(out, st.Bold("1. Brief — what to know"), l.Preamble, l.Brief)
	section(out, st.Bold("2. Procedure — how it is done"), l.Procedure)
	fmt.Fprintf(out, "\n%s\n", st.Bold("3. Warrant — what it may do without asking"))
	for _, name := range loops.Lists {
		items := loops.Texts(l.Warrant.List(name))
		label := name
		switch name {
		case "ask":
			label = st.Yellow(name)
		case "never":
			label = st.Red(name)
		}
		if len(items) == 0 {
			fmt.Fprintf(out, "  %-7s %s\n", label, st.Dim("—"))
			continue
		}
		fmt.Fprintf(out, "  %-7s %s\n", label, strings.Join(items, " · "))
	}
	fmt.Fprintf(out, "\n%s\n", st.Bold("4. Reserved — what stays human"))
	bullets(out, loops.Texts(l.Reserved))
	fmt.Fprintf(out, "\n%s\n", st.Bold("5. Record — the evidence owed"))
	bullets(out, loops.Texts(l.Record))
}

func section(out io.Writer, title string, texts ...string) {
	fmt.Fprintf(out, "\n%s\n", title)
	var parts []string
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		fmt.Fprintln(out, "  —")
		return
	}
	for _, line := range strings.Split(strings.Join(parts, "\n\n"), "\n") {
		fmt.Fprintf(out, "  %s\n", line)
	}
}

func bullets(out io.Writer, items []string) {
	if len(items) == 0 {
		fmt.Fprintln(out, "  —")
	}
	for _, it := range items {
		fmt.Fprintf(out, "  - %s\n", it)
	}
}

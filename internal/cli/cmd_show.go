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
	Abstract    bool                `json:"abstract,omitempty"`
	Extends     string              `json:"extends,omitempty"`
	// Inherits lists the loops folded in, oldest first; WarrantFrom names,
	// for each entry of each list, the loop it came from.
	Inherits    []string            `json:"inherits,omitempty"`
	WarrantFrom map[string][]string `json:"warrant_from,omitempty"`
}

func loopToJSON(l *loops.Loop) loopJSON {
	w := map[string][]string{}
	var from map[string][]string
	if len(l.Inherits) > 0 {
		from = map[string][]string{}
	}
	for _, name := range loops.Lists {
		w[name] = loops.Texts(l.Warrant.List(name))
		if from != nil {
			from[name] = []string{}
			for _, it := range l.Warrant.List(name) {
				from[name] = append(from[name], origin(l, it))
			}
		}
	}
	return loopJSON{
		Abstract: l.Abstract, Extends: l.Extends.Text, Inherits: l.Inherits, WarrantFrom: from,
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
			l, err := loadLoop(app, p, args[0])
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
	title := "3. Warrant — what it may do without asking"
	if l.Abstract {
		title += " (abstract: a baseline other loops extend, never checked directly)"
	}
	if len(l.Inherits) > 0 {
		title += " (extends " + strings.Join(l.Inherits, " → ") + "; each entry names its loop and line)"
	}
	fmt.Fprintf(out, "\n%s\n", st.Bold(title))
	for _, name := range loops.Lists {
		items := loops.Texts(l.Warrant.List(name))
		if len(l.Inherits) > 0 {
			for i, it := range l.Warrant.List(name) {
				items[i] += st.Dim(fmt.Sprintf(" (%s:%d)", origin(l, it), it.Line))
			}
		}
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
		sep := " · "
		if len(l.Inherits) > 0 {
			sep = "\n          " // one entry a line, so each origin reads with its entry
		}
		var prose, calls []string
		for i, it := range l.Warrant.List(name) {
			if loops.LooksTyped(it.Text) {
				calls = append(calls, items[i])
			} else {
				prose = append(prose, items[i])
			}
		}
		if len(prose) == 0 {
			prose = []string{st.Dim("(no words)")}
		}
		fmt.Fprintf(out, "  %-7s %s\n", label, strings.Join(prose, sep))
		if len(calls) > 0 {
			fmt.Fprintf(out, "  %-7s %s %s\n", "", st.Dim("tool calls:"), strings.Join(calls, sep))
		}
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

// origin names the loop an item of l came from: l itself unless inherited.
func origin(l *loops.Loop, it loops.Item) string {
	if it.From != "" {
		return it.From
	}
	return l.Name
}

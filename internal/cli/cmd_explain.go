package cli

import (
	"encoding/json"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/route"
	"github.com/spf13/cobra"
)

// explainJSON is the stable --json shape of explain.
type explainJSON struct {
	Loop    string            `json:"loop"`
	Tool    string            `json:"tool"`
	Verdict string            `json:"verdict"`
	Rule    string            `json:"rule"`
	Units   []explainUnitJSON `json:"units"`
	Exit    int               `json:"exit"`
}

type explainUnitJSON struct {
	Canonical string `json:"canonical"`
	Verdict   string `json:"verdict"`
	Rule      string `json:"rule"`
	Line      int    `json:"line,omitempty"`
	Via       string `json:"via,omitempty"`
}

func newExplainCmd(app *App) *cobra.Command {
	var loopName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [--loop L] <Tool> <input>",
		Short: "show how the hook decides a tool call: its clauses, their canonical forms, and the entry or rule that decided each",
		Long: `Decide a tool call the way the hook does and show why: each clause of a Bash
command, each file it reads or writes, and each path a file tool touches,
in canonical form, with the typed entry (file:line) or the built-in rule
that decided it. Nothing is recorded.

The input is the command for Bash, the path for Read/Edit/Write/LS/Glob/
Grep, the URL for WebFetch, the query for WebSearch, or a JSON object
(the tool_input) for any tool:

  gitwarrant explain Bash 'cd web && npm test'
  gitwarrant explain --loop fix Edit src/main.go
  gitwarrant explain WebFetch https://go.dev/doc/

Without --loop, the project's only loop decides, else the one routing picks.` + "\n" + ExitCodesHelp,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplain(app, loopName, asJSON, args[0], strings.Join(args[1:], " "))
		},
	}
	cmd.Flags().StringVar(&loopName, "loop", "", "the loop that decides (default: the routed loop)")
	jsonFlag(cmd, &asJSON)
	return cmd
}

// explainInput turns the command line into a tool_input object.
func explainInput(tool, arg string) (map[string]any, error) {
	if strings.HasPrefix(strings.TrimSpace(arg), "{") {
		var m map[string]any
		if err := json.Unmarshal([]byte(arg), &m); err != nil {
			return nil, Usagef("give the tool_input as a JSON object, or the plain command/path/URL", "the input is not a JSON object: %v", err)
		}
		return m, nil
	}
	if strings.HasPrefix(tool, "mcp__") {
		return map[string]any{}, nil
	}
	e, err := loops.ParseExample(tool+"("+arg+")", loops.Ask)
	if err != nil {
		return nil, Usagef("tools: Bash, Read, Write, Edit, MultiEdit, LS, Glob, Grep, WebFetch, WebSearch, NotebookRead, NotebookEdit, mcp__<server>__<tool>", "%v", err)
	}
	return e.Input(), nil
}

func runExplain(app *App, loopName string, asJSON bool, tool, arg string) error {
	input, err := explainInput(tool, arg)
	if err != nil {
		return err
	}
	l, err := explainLoop(app, loopName, tool, arg)
	if err != nil {
		return err
	}
	d := explainCall(app, l, tool, input, app.Cwd)
	if asJSON {
		out := explainJSON{Loop: l.Name, Tool: tool, Verdict: string(d.Verdict), Rule: d.Rule, Exit: d.Verdict.ExitCode()}
		for _, u := range d.Typed.Units {
			ju := explainUnitJSON{Canonical: u.Canon, Verdict: string(u.Verdict), Rule: u.Rule, Via: strings.Join(u.Via, ", ")}
			if u.Entry != nil {
				ju.Line = u.Entry.Line
			}
			out.Units = append(out.Units, ju)
		}
		if err := writeJSON(app.IO.Out, out); err != nil {
			return err
		}
		return Silent(d.Verdict.ExitCode())
	}
	printExplain(app, l, tool, arg, d)
	return Silent(d.Verdict.ExitCode())
}

// explainLoop picks the loop: --loop, else the only job loop, else routing.
func explainLoop(app *App, name, tool, arg string) (*loops.Loop, error) {
	p, err := app.Project()
	if err != nil {
		return nil, err
	}
	if name != "" {
		return loadJobLoop(app, p, name)
	}
	ls, errs := vouch.Loader(nil, p).LoadDir(p.LoopsDir())
	if len(errs) > 0 {
		return nil, Failf("%v — fix it (see `gitwarrant lint`), or pass --loop", errs[0])
	}
	var jobs []*loops.Loop
	for _, l := range ls {
		if !l.Abstract {
			jobs = append(jobs, l)
		}
	}
	if len(jobs) == 1 {
		return jobs[0], nil
	}
	for _, c := range route.Match(jobs, tool+" "+arg) {
		return c.Loop, nil
	}
	return nil, Usagef("pass --loop L (`gitwarrant list` names them)", "no loop covers %s %s", tool, arg)
}

func printExplain(app *App, l *loops.Loop, tool, arg string, d gate.Explanation) {
	st := app.IO.Style()
	out := app.IO.Out
	fmt.Fprintf(out, "loop %s (%s)\n", st.Bold(l.Name), l.Path)
	fmt.Fprintf(out, "call %s %s\n", tool, arg)
	badge := func(v loops.Verdict) string {
		return map[loops.Verdict]string{loops.Allow: st.Green("allow"), loops.Ask: st.Yellow("ask  "), loops.Deny: st.Red("deny ")}[v]
	}
	if d.Denied != "" {
		fmt.Fprintf(out, "  %s self-protection: %s\n", badge(loops.Deny), d.Denied)
	}
	if d.Natural != nil {
		fmt.Fprintf(out, "  %s %s (line %d) — the call's words, %q\n", badge(d.Natural.Verdict), d.Natural.Rule, d.Natural.Line, d.Natural.Pattern)
	}
	for i, u := range d.Typed.Units {
		where := ""
		if u.Entry != nil {
			where = st.Dim(fmt.Sprintf(" (%s:%d)", l.Path, u.Entry.Line))
		}
		kind := "clause"
		if u.Effect {
			kind = "effect"
		} else if u.Call.Kind != loops.ToolBash {
			kind = strings.ToLower(u.Call.Kind)
			if kind == "" {
				kind = "call"
			}
		}
		fmt.Fprintf(out, "  %d. %-6s %s\n     %s %s%s\n", i+1, kind, u.Canon, badge(u.Verdict), u.Rule, where)
	}
	fmt.Fprintf(out, "%s %s — %s\n", st.Bold("decision"), badge(d.Verdict), d.Rule)
}

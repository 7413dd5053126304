package cli

import (
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/route"
	"github.com/spf13/cobra"
)

// matchJSON is the stable --json shape of `match`.
type matchJSON struct {
	Task       string               `json:"task"`
	Covered    bool                 `json:"covered"`
	Candidates []matchCandidateJSON `json:"candidates"`
	Exit       int                  `json:"exit"`
}

type matchCandidateJSON struct {
	Loop        string   `json:"loop"`
	Description string   `json:"description"`
	Score       int      `json:"score"`
	Why         []string `json:"why"`
}

func newMatchCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "match <task…>",
		Short: "which loop covers this task? (deterministic; exit 2 when none does)",
		Long: fmt.Sprintf(`Route a task to the loops that may cover it, deterministically.

Each loop is scored lexically with the warrant's cautious matcher: its name
read as a phrase +%d, each trigger +%d, matching warrant entries +1 each (at
most %d), shared description words +1 each (at most %d). A single shared word
never routes on its own. Loops scoring %d or more are candidates; the best %d
are shown with the reasons for their score. No candidate means no loop
covers the task: ask the human.

Exit status:
  0  at least one candidate
  1  usage error, or a loop file that fails to load
  2  no loop covers the task`, route.NameWeight, route.TriggerWeight, route.WarrantCap,
			route.DescriptionCap, route.Threshold, route.MaxCandidates),
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMatch(app, asJSON, args)
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

func runMatch(app *App, asJSON bool, args []string) error {
	task := strings.TrimSpace(strings.Join(args, " "))
	if task == "" {
		return Usagef(`example: gitwarrant match "draft an appeal for my denied claim"`, "match needs a task to route")
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	// A broken loop fails the command rather than being skipped: skipping
	// it could turn "this loop covers it" into "no loop covers it".
	ls, err := loadEveryLoop(p)
	if err != nil {
		return err
	}
	cands := route.Match(ls, task)
	code := ExitOK
	if len(cands) == 0 {
		code = ExitAsk
	}
	if asJSON {
		out := matchJSON{Task: task, Covered: len(cands) > 0, Candidates: []matchCandidateJSON{}, Exit: code}
		for _, c := range cands {
			out.Candidates = append(out.Candidates, matchCandidateJSON{
				Loop: c.Loop.Name, Description: c.Loop.Description, Score: c.Score, Why: c.Why})
		}
		return emitJSON(app, out, code)
	}
	printMatch(app, task, cands)
	return Silent(code)
}

// printMatch prints the candidates the way the guide shows them.
func printMatch(app *App, task string, cands []route.Candidate) {
	st := app.IO.Style()
	w := app.IO.Out
	if len(cands) == 0 {
		fmt.Fprintf(w, "%s  %q\n", st.Yellow(st.Bold("NO LOOP")), task)
		fmt.Fprintln(w, "  No loop covers this task. Work outside a loop defaults to ask: check with a human,")
		fmt.Fprintln(w, "  or write a loop for it (`gitwarrant new <name> --template <t>`).")
		return
	}
	noun := "candidate loop"
	if len(cands) > 1 {
		noun = "candidate loops"
	}
	fmt.Fprintf(w, "%d %s for %q\n\n", len(cands), noun, task)
	for _, c := range cands {
		fmt.Fprintf(w, "  %s %s\n", st.Cyan(fmt.Sprintf("%-22s", c.Loop.Name)), c.Loop.Description)
		fmt.Fprintf(w, "  %-22s %s\n", "", st.Dim(fmt.Sprintf("score %d — %s", c.Score, strings.Join(c.Why, " · "))))
	}
}

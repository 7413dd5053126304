package cli

import (
	"fmt"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/spf13/cobra"
)

// sessionJSON is the stable --json shape of one session pin.
type sessionJSON struct {
	Session string `json:"session"`
	Loop    string `json:"loop"`
	Via     string `json:"via"`
	Why     string `json:"why,omitempty"`
	At      string `json:"at"`
}

func newSessionCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "session",
		Short: "show or set the loop each agent session works under",
		Long: `Show or set the loop each agent session in this repository works under
(docs/sessions.md) — Claude Code's, and Codex's, Gemini CLI's and Cursor's
through their prompt hooks: the loop its prompt routed to or named ("use
loop release"), with when and why. A session no prompt has pinned works under
the default loop the hook wiring names.

Pins live under the git directory (.git/gitwarrant/sessions/), never in
a commit; they expire 7 days after the session's last prompt, or when the
session ends. An agent may not run this command: moving a pin is the
person's choice.`,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "list the live session pins",
		Long:  "List the live session pins, oldest first.\n\nExit status:\n  0  listed (none is not an error)\n  1  no project",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runSessionList(app, asJSON) },
	}
	jsonFlag(list, &asJSON)
	cmd.AddCommand(list, &cobra.Command{
		Use:   "set <session-id> <loop>",
		Short: "pin a session to a job loop",
		Long:  "Pin a session to a job loop: its calls are decided under it until a prompt routes elsewhere.\n\nExit status:\n  0  pinned\n  1  no project, or a loop that is not a job loop",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessionSet(app, args[0], args[1])
		},
	}, &cobra.Command{
		Use:   "clear <session-id>",
		Short: "forget a session's pin (it goes back to the default loop)",
		Long:  "Forget a session's pin: it works under the default loop until a prompt routes it.\n\nExit status:\n  0  cleared (or there was none)\n  1  no project, or the pin cannot be removed",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			place, err := sessionPlace(app)
			if err != nil {
				return err
			}
			if err := gate.ClearPin(place, args[0]); err != nil {
				return Failf("removing the pin of session %s: %v", args[0], err)
			}
			fmt.Fprintf(app.IO.Out, "session %s: pin cleared; it works under the default loop until a prompt routes it\n", args[0])
			return nil
		},
	})
	return cmd
}

func sessionPlace(app *App) (gate.Place, error) {
	p, err := app.Project()
	if err != nil {
		return gate.Place{}, err
	}
	place := gate.FindPlace(app.Getenv, p.Dir, p.Root)
	if place.Project == nil {
		return place, &ExitError{Code: ExitError1, Err: place.ProjectErr}
	}
	return place, nil
}

func runSessionList(app *App, asJSON bool) error {
	place, err := sessionPlace(app)
	if err != nil {
		return err
	}
	pins, err := gate.ListPins(place, app.Now())
	if err != nil {
		return Failf("reading the session pins: %v", err)
	}
	if asJSON {
		out := []sessionJSON{}
		for _, p := range pins {
			out = append(out, sessionJSON{Session: p.Session, Loop: p.Loop, Via: p.Via, Why: p.Why, At: p.At.UTC().Format(time.RFC3339)})
		}
		return emitJSON(app, map[string]any{"sessions": out}, ExitOK)
	}
	if len(pins) == 0 {
		fmt.Fprintln(app.IO.Out, "no session is pinned: every session works under the default loop until a prompt routes it")
		return nil
	}
	for _, p := range pins {
		fmt.Fprintf(app.IO.Out, "%s  %-20s %s  %s", p.At.UTC().Format("2006-01-02T15:04Z"), p.Loop, p.Session, p.Via)
		if p.Why != "" {
			fmt.Fprintf(app.IO.Out, " (%s)", p.Why)
		}
		fmt.Fprintln(app.IO.Out)
	}
	return nil
}

func runSessionSet(app *App, id, name string) error {
	place, err := sessionPlace(app)
	if err != nil {
		return err
	}
	if _, err := loadJobLoop(app, place.Project, name); err != nil {
		return err
	}
	pin := gate.SessionPin{Session: id, Loop: name, Via: gate.ViaSet, Why: "set by a person", At: app.Now()}
	if err := gate.WritePin(place, pin); err != nil {
		return Failf("writing the pin of session %s: %v", id, err)
	}
	fmt.Fprintf(app.IO.Out, "session %s: works under loop %s\n", id, name)
	return nil
}

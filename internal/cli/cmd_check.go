package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

type checkOptions struct {
	examples bool
	noRecord bool
	json     bool
	quiet    bool
}

// checkJSON is the stable --json shape of a check.
type checkJSON struct {
	Loop    string `json:"loop"`
	Action  string `json:"action"`
	Target  string `json:"target"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
	From    string `json:"from,omitempty"` // the loop an inherited rule came from (extends)
	Exit    int    `json:"exit"`
	Seq     int64  `json:"seq,omitempty"`
	Hash    string `json:"hash,omitempty"`
	// Abstract says the loop is a baseline other loops extend: its own
	// warrant answered (docs/loop-format.md#extends-and-abstract).
	Abstract bool `json:"abstract,omitempty"`
}

func newCheckCmd(app *App) *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check <loop> <read|draft|change|send> <target…> | check --examples [loop…]",
		Short: "ask the warrant: allow, ask or deny?",
		Long: `Ask a loop's warrant whether an action on a target may go ahead.

The verdict is the first rule that matches: never → deny, ask → ask, the
action's own list → allow, otherwise ask (unlisted means ask). The check is
appended to the record unless --no-record is given.` + "\n" + ExitCodesHelp,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheckCmd(app, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.examples, "examples", false, "replay every loop's examples (or the named loops') through the hook's gate; exit 1 if one fails")
	cmd.Flags().BoolVar(&o.noRecord, "no-record", false, "do not append the check to the record")
	jsonFlag(cmd, &o.json)
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "print only the verdict")
	return cmd
}

func runCheckCmd(app *App, o checkOptions, args []string) error {
	if o.examples {
		return runCheckExamples(app, o, args)
	}
	if len(args) < 3 {
		return Usagef("example: gitwarrant check appeal draft \"appeal letter\"",
			"check needs <loop> <read|draft|change|send> <target…> (got %d argument(s))", len(args))
	}
	verb, err := loops.ParseVerb(args[1])
	if err != nil {
		return Usagef("the action comes second: gitwarrant check <loop> <action> <target…>", "%v", err)
	}
	target := strings.TrimSpace(strings.Join(args[2:], " "))
	if target == "" {
		return Usagef("describe what the action touches, e.g. \"appeal letter\"", "the target is empty")
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	// An abstract loop answers under its own warrant and says so: docket
	// checks its baselines directly (docs/loop-format.md#extends-and-abstract).
	l, err := loadLoop(app, p, args[0])
	if err != nil {
		return err
	}
	res, entry, recErr := gate.Check(p, gate.CheckRequest{Loop: l, Verb: verb, Target: target, Via: "cli", Record: !o.noRecord})
	if errors.Is(recErr, gitx.ErrUnsupported) {
		return &ExitError{Code: ExitError1, Err: recErr}
	}
	if recErr != nil {
		// An unrecorded check gives no verdict: stdout stays empty (no
		// "ALLOW", no `allow` under -q, no JSON object), so a script that
		// reads it cannot proceed on a check that left no trace. The
		// error goes to stderr and the exit is 1 (fail toward the human).
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("%w — no verdict is given for a check that is not recorded", recErr),
			Hint: "run `gitwarrant record verify` to see the state of the record"}
	}
	if o.json {
		out := checkJSON{Loop: l.Name, Action: string(verb), Target: target, Verdict: string(res.Verdict),
			Rule: res.Rule, Reason: res.Reason, From: res.From, Exit: res.Verdict.ExitCode(), Abstract: l.Abstract}
		if entry != nil {
			out.Seq, out.Hash = entry.Seq, entry.Hash
		}
		return emitJSON(app, out, res.Verdict.ExitCode())
	}
	printVerdict(app, l.Name, verb, target, res, o)
	if l.Abstract && !o.quiet {
		fmt.Fprintf(app.IO.Out, "  %s is abstract: a baseline other loops extend; this is its own warrant's answer\n", l.Name)
	}
	return Silent(res.Verdict.ExitCode())
}

func printVerdict(app *App, loop string, verb loops.Verb, target string, res loops.Result, o checkOptions) {
	st := app.IO.Style()
	if o.quiet {
		fmt.Fprintln(app.IO.Out, res.Verdict)
		return
	}
	badge := map[loops.Verdict]string{
		loops.Allow: st.Green(st.Bold("ALLOW")),
		loops.Ask:   st.Yellow(st.Bold("ASK  ")),
		loops.Deny:  st.Red(st.Bold("DENY ")),
	}[res.Verdict]
	fmt.Fprintf(app.IO.Out, "%s  %s → %q\n", badge, verb, target)
	fmt.Fprintf(app.IO.Out, "  %s\n", res.Reason)
	fmt.Fprintln(app.IO.Out, st.Dim(fmt.Sprintf("  rule: %s · loop: %s · exit %d", res.Rule, loop, res.Verdict.ExitCode())))
}

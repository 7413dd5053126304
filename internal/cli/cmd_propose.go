package cli

import (
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/proposals"
	"github.com/spf13/cobra"
)

type proposeOptions struct {
	remove    bool
	rationale string
	json      bool
}

func newProposeCmd(app *App) *cobra.Command {
	var o proposeOptions
	cmd := &cobra.Command{
		Use:   "propose <loop> <list> <entry> [--remove] [--rationale TEXT]",
		Short: "propose a warrant change for a person to review (changes nothing)",
		Long: `Record a proposal: a change to one of a loop's lists, with a rationale a
person reads. It changes no loop. A person applies it, signed, with
` + "`gitwarrant review`" + `; agents may run this command (and the MCP tool
propose_amendment), never amend.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runPropose(app, o, args) },
	}
	cmd.Flags().BoolVar(&o.remove, "remove", false, "propose removing the entry")
	cmd.Flags().StringVar(&o.rationale, "rationale", "", "why: the person reviewing reads this")
	jsonFlag(cmd, &o.json)
	return cmd
}

func runPropose(app *App, o proposeOptions, args []string) error {
	if len(args) != 3 {
		return Usagef(`example: gitwarrant propose appeal read "state insurance regulations" --rationale "asked four times"`, "propose needs <loop> <list> <entry> (got %d argument(s))", len(args))
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	l, err := loops.LoadByName(r.Project().LoopsDir(), args[0])
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	op := "add"
	if o.remove {
		op = "remove"
	}
	e, err := proposals.New(l.Name, args[1], op, args[2], o.rationale, l.Digest)
	if err != nil {
		return Usagef("see `gitwarrant propose --help`", "%v", err)
	}
	e.Via = "cli"
	e.Extra["credential"] = "cli"
	got, err := r.Append(e)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("recording the proposal: %w", err)}
	}
	if o.json {
		return writeJSON(app.IO.Out, map[string]any{"id": got.Hash, "seq": got.Seq, "status": proposals.Open})
	}
	fmt.Fprintf(app.IO.Out, "proposed %s %s %s %q (entry %d, id %s)\n", l.Name, args[1], op, strings.TrimSpace(args[2]), got.Seq, got.Hash)
	return nil
}

func newProposalsCmd(app *App) *cobra.Command {
	var open, asJSON bool
	cmd := &cobra.Command{
		Use:   "proposals [--open] [--json]",
		Short: "list proposals and their status: open, applied, stale or rejected",
		Long: `List the proposals in the record. Status is read from the record: applied
(a signed amend names it), rejected (a review note names it), stale (its
loop file changed since it was made; never applied) or open.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := openRecord(app)
			if err != nil {
				return err
			}
			les, err := r.Entries()
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			es := make([]chain.Entry, len(les))
			for i := range les {
				es[i] = les[i].Entry
			}
			ps := proposals.Derive(es, loopDigest(r.Project().LoopsDir()))
			var shown []proposals.Proposal
			for _, p := range ps {
				if !open || p.Status == proposals.Open {
					shown = append(shown, p)
				}
			}
			if asJSON {
				if shown == nil {
					shown = []proposals.Proposal{}
				}
				return writeJSON(app.IO.Out, map[string]any{"proposals": shown})
			}
			if len(shown) == 0 {
				fmt.Fprintln(app.IO.Out, "no proposals")
				return nil
			}
			for _, p := range shown {
				fmt.Fprintf(app.IO.Out, "%-8s %s %s %s %q  (%s, %s)\n", p.Status, p.Loop, p.List, p.Op, p.Pattern, p.Credential, p.ID[:min(len(p.ID), 19)])
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&open, "open", false, "only open proposals")
	jsonFlag(cmd, &asJSON)
	return cmd
}

package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/spf13/cobra"
)

type amendOptions struct {
	remove, noCommit, yes bool
	in, key, signer, prop string
}

func newAmendCmd(app *App) *cobra.Command {
	var o amendOptions
	cmd := &cobra.Command{
		Use:   "amend <loop> <list> <entry> [--remove] [--in <parent>] [--key PATH] [--no-commit] [--yes]",
		Short: "change a warrant, signed by you: edit the loop, record a signed amend, commit both",
		Long: `Add an entry to one of a loop's lists (read, draft, change, send, ask, never,
reserved), or take one out with --remove. The change is shown as a diff and
made as the smallest edit of the loop file; an amend entry signed with your
SSH key (git's user.signingkey when gpg.format=ssh, or --key) is appended to
the record; the loop file and the record are committed together in one
commit that holds nothing else. Human only: agents propose, people amend
(docs/signing.md).

Exit status:
  0  amended (and committed, unless --no-commit)
  1  usage error, a refused signature, or a failed commit (nothing half-done)`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAmend(app, o, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.remove, "remove", false, "remove the entry instead of adding it")
	f.StringVar(&o.in, "in", "", "amend the entry in this parent loop (an inherited entry)")
	f.StringVar(&o.key, "key", "", "SSH key to sign with (default: git's user.signingkey)")
	f.StringVar(&o.signer, "signer", "", signerFlagHelp)
	f.StringVar(&o.prop, "proposal", "", "the proposal this amend answers")
	f.BoolVar(&o.noCommit, "no-commit", false, "edit and record, but do not commit")
	f.BoolVar(&o.yes, "yes", false, "do not ask for confirmation (the amend is still signed)")
	return cmd
}

// amendPlan is everything decided before anything is written.
type amendPlan struct {
	loop, path, rel string
	before, after   []byte
	a               amend.Amend
	key             sign.Key
	signers         *sign.AllowedSigners
}

func runAmend(app *App, o amendOptions, args []string) error {
	if len(args) != 3 {
		return Usagef(`example: gitwarrant amend deploy send "push to release/*"`, "amend needs <loop> <list> <entry> (got %d argument(s))", len(args))
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	plan, err := planAmend(app, r, o, args)
	if err != nil {
		return err
	}
	return applySigned(app, r, plan, o)
}

// planAmend resolves the loop, the edit, the signing key and the signer.
func planAmend(app *App, r *record.Record, o amendOptions, args []string) (*amendPlan, error) {
	loopName, list, entry := args[0], args[1], args[2]
	dir := r.Project().LoopsDir()
	l, err := loops.LoadByName(dir, loopName)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	own, err := loops.ParseFile(l.Path)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	target := loopName
	if err := checkInherited(l, own, o, list, strings.TrimSpace(entry)); err != nil {
		return nil, err
	}
	if o.in != "" {
		target = o.in
		if own, err = loops.ParseFile(filepath.Join(dir, target+loops.FileSuffix)); err != nil {
			return nil, &ExitError{Code: ExitError1, Err: err}
		}
	}
	l = own
	after, err := loops.EditList(l.Path, l.Source, list, entry, o.remove)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	op := amend.OpAdd
	if o.remove {
		op = amend.OpRemove
	}
	plan := &amendPlan{loop: target, path: l.Path, before: l.Source, after: after,
		a: amend.Amend{Loop: target, List: list, Op: op, Pattern: strings.TrimSpace(entry), Proposal: o.prop}}
	return plan, completePlan(r, plan, o)
}

// checkInherited holds --in to the loop's parents, and sends an entry the
// loop inherits to the parent that holds it: the parent's file is the one
// that changes, and with it every loop that extends it
// (docs/signing.md#amending-a-loop-file).
func checkInherited(l, own *loops.Loop, o amendOptions, list, entry string) error {
	if o.in != "" {
		if !slices.Contains(l.Inherits, o.in) {
			return Usagef("--in names a loop this one extends (directly or not); "+l.Name+" extends "+orNone(l.Inherits),
				"%s does not extend %s", l.Name, o.in)
		}
		return nil
	}
	items, ok := l.ItemsOf(list)
	if !ok {
		return nil // EditList says which lists there are
	}
	ownItems, _ := own.ItemsOf(list)
	if slices.ContainsFunc(ownItems, func(it loops.Item) bool { return loops.EntryKey(it.Text) == loops.EntryKey(entry) }) {
		return nil // the loop's own entry, whatever its parents hold
	}
	for _, it := range items {
		if it.From != "" && loops.EntryKey(it.Text) == loops.EntryKey(entry) {
			verb := "remove it from"
			if !o.remove {
				verb = "it is already in the warrant through"
				return Usagef("nothing to add", "%s %s %q: %s %s", l.Name, list, entry, verb, it.From)
			}
			return Usagef(fmt.Sprintf("amend the parent: gitwarrant amend %s %s %q --remove --in %s (every loop that extends %s changes)", l.Name, list, entry, it.From, it.From),
				"%s %s %q is inherited from %s; %s %s with --in %s", l.Name, list, entry, it.From, verb, it.From, it.From)
		}
	}
	return nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no loop"
	}
	return strings.Join(names, ", ")
}

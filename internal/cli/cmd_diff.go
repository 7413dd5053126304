package cli

import (
	"errors"
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/parsecache"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
	"github.com/spf13/cobra"
)

func newDiffCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "diff [<base>] [<head>] [--format text|markdown|json]",
		Short: "what changed in the warrants, as widenings and narrowings, and who signed each widening",
		Long: `The semantic warrant diff: per loop, each entry added or removed per list,
classified as a widening (more an agent may do without asking) or a
narrowing, and for each widening the signed amend that covers it, verified
against the base's allowed_signers, or "unsigned" (docs/signing.md#the-warrant-diff).

Default base: the merge base with the upstream branch (HEAD when there is
none). Default head: the work tree. Revisions are read from Git objects.

Exit status:
  0  the diff was printed (whatever it holds)
  1  usage error, or a revision or file that cannot be read`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(app, format, args) },
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, markdown or json")
	return cmd
}

func runDiff(app *App, format string, args []string) error {
	if format != "text" && format != "markdown" && format != "json" {
		return Usagef("use --format text, markdown or json", "unknown format %q", format)
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	repo, err := gitx.Discover(p.Dir)
	if err != nil {
		return Usagef("run it inside the Git repository that holds the project", "diff compares Git revisions: %v", err)
	}
	projRel, err := repo.Rel(p.Dir)
	if err != nil {
		return Failf("%v", err)
	}
	baseRev := ""
	if len(args) > 0 {
		baseRev = args[0]
	} else if baseRev, err = repo.MergeBaseUpstream(); errors.Is(err, gitx.ErrNoUpstream) {
		baseRev = "HEAD"
		fmt.Fprintln(app.IO.Err, "no upstream branch: comparing with HEAD (give a base revision to compare with another)")
	} else if err != nil {
		// Comparing with HEAD instead would hide every change the
		// branch committed: say why there is no base, and how to get one.
		return &ExitError{Code: ExitError1, Err: err, Hint: "or compare with a base revision this clone holds: gitwarrant diff <base>"}
	}
	headRev := ""
	if len(args) > 1 {
		headRev = args[1]
	}
	// parses and parents kept under the git dir, as the hook keeps parses
	// (docs/signing.md#cost); none in a repository gitwarrant refuses to
	// write into (docs/design.md#repositories-gitwarrant-refuses)
	var store loops.Store
	if repo.CheckFormat() == nil {
		store = parsecache.Open(repo.CommonDir)
	}
	res, err := warrantdiff.Run(repo, projRel, p.Dir, baseRev, headRev, store)
	if err != nil {
		return Failf("%v", err)
	}
	for _, e := range res.Errors() {
		fmt.Fprintf(app.IO.Err, "warning: %v (left out of the diff)\n", e)
	}
	base, head, changes := res.Base, res.Head, res.Changes
	switch format {
	case "json":
		return warrantdiff.JSON(app.IO.Out, base.Label, head.Label, changes)
	case "markdown":
		warrantdiff.Markdown(app.IO.Out, base.Label, head.Label, changes)
	default:
		warrantdiff.Text(app.IO.Out, base.Label, head.Label, changes)
	}
	return nil
}

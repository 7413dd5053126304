package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/ci"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/spf13/cobra"
)

const zeroID = "0000000000000000000000000000000000000000"

func newHookPrePushCmd(app *App) *cobra.Command {
	var otherGates []string
	cmd := &cobra.Command{
		Use:   "pre-push [--other-gate FOLDER]... <remote> <url>",
		Short: "git pre-push: run the CI gate on what is pushed, against what the remote holds",
		Long: `Run by the pre-push git hook that ` + "`install --pre-push`" + ` writes. For each
ref pushed (read from stdin as git gives them), runs the CI gate with the
remote's current commit of that ref as the base — or, for a new branch,
<remote>/HEAD — and refuses the push when the gate fails (docs/ci.md#locally).

Exit status:
  0  the push may proceed (or nothing to check)
  1  the gate failed: the push is refused`,
		Args: cobra.RangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			remote := "origin"
			if len(args) > 0 && args[0] != "" {
				remote = args[0]
			}
			repo, projRel, err := openForCI(app)
			if err != nil {
				return err
			}
			others, err := ci.CleanOtherGates(otherGates, projRel)
			if err != nil {
				return Usagef("give each --other-gate as a project folder relative to the repository root, e.g. services/api/.gitwarrant", "%v", err)
			}
			failed := false
			sc := bufio.NewScanner(app.IO.In)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) != 4 || f[1] == zeroID {
					continue // a deletion, or not a ref line
				}
				base := f[3]
				if base == zeroID {
					base = remote + "/HEAD"
				}
				if _, err := repo.ResolveCommit(base); err != nil {
					why := ""
					if errors.Is(err, gitx.ErrShallow) {
						why = ": the clone is shallow, and `git fetch --unshallow` would let this hook compare"
					}
					fmt.Fprintf(app.IO.Err, "gitwarrant: %s: nothing to compare with (%s is not here%s); the gate runs in CI\n", f[2], base, why)
					continue
				}
				rep, err := ci.Run(repo, ci.Options{Base: base, Head: f[1], ProjRel: projRel, OtherGates: others, Home: app.Getenv("HOME")})
				if err != nil {
					return &ExitError{Code: ExitError1, Err: fmt.Errorf("pre-push %s: %w", f[2], err), Hint: "`git push --no-verify` skips this check; CI runs it again"}
				}
				if !rep.OK() {
					rep.Text(app.IO.Err)
					failed = true
				}
			}
			if failed {
				return &ExitError{Code: ExitError1, Err: fmt.Errorf("the push is refused: the gitwarrant gate failed"),
					Hint: "sign each widening with `gitwarrant amend`, restore the record, then push again"}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&otherGates, "other-gate", nil, "another project folder (e.g. services/api/.gitwarrant) that a gate of its own compares; repeatable (docs/ci.md#one-project-folder)")
	return cmd
}

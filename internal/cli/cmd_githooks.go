package cli

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

// The git hooks' entry points (docs/design.md#the-record "Anchored in the branch"). Git
// runs them from the work tree root; they must never break a commit when
// gitwarrant has nothing to do: no project, no Git, or a rebase, merge,
// cherry-pick or revert in progress.

func newHookPreCommitCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "pre-commit",
		Short: "git pre-commit: bring this writer's chain in the branch up to its ref and stage it",
		Long: `Run by the pre-commit git hook (docs/record.md#commit-hooks). Checks never
write the work tree, so the branch's copy of a chain, .gitwarrant/record/<writer>/,
is at most shorter than refs/gitwarrant/<writer>. This writes the entries
recorded since the last commit into the copy and stages them, and refuses the
commit when a record file in the work tree was edited, deleted or added by
something else — saying which file and how to restore it.

Exit status:
  0  commit may proceed (or nothing to do)
  1  commit refused`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHookPreCommit(app)
		},
	}
}

// runHookPreCommit is `hook pre-commit`; Main calls it without building the
// command tree (docs/performance.md#start-up).
func runHookPreCommit(app *App) error {
	// The hook allocates a few MB and exits: with Go's default target the
	// collector ran one cycle in every commit that carried an entry, about
	// 6 ms of CPU for nothing (bench/record_1m.sh). It runs only past 64 MB
	// (the first commit that carries a large record into the branch).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))
	r, err := hookRecord(app)
	if err != nil || r == nil {
		return err
	}
	if _, err := r.PreCommit(); err != nil {
		var ref *record.RefusalError
		hint := "fix the record, then commit again (`git commit --no-verify` skips this check)"
		if errors.As(err, &ref) {
			return &ExitError{Code: ExitError1, Err: err, Hint: hint}
		}
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("pre-commit: %w", err), Hint: hint}
	}
	return nil
}

func newHookCommitMsgCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "commit-msg <message-file>",
		Short: "git commit-msg: pin each changed chain's head in a Warrant-Head trailer",
		Long: `Run by the commit-msg git hook. Adds one trailer per record chain changed
in the commit, "Warrant-Head: <chain path> sha256:<hash>", replacing (never
duplicating) one already there for the same chain, as after an amend.

Exit status:
  0  message updated (or nothing to do)
  1  the message file could not be updated`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHookCommitMsg(app, args[0])
		},
	}
}

// runHookCommitMsg is `hook commit-msg <message-file>`; Main calls it
// without building the command tree.
func runHookCommitMsg(app *App, msgFile string) error {
	r, err := hookRecord(app)
	if err != nil || r == nil {
		return err
	}
	if _, err := r.CommitMsg(msgFile); err != nil {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("commit-msg: %w", err)}
	}
	return nil
}

// hookRecord opens the record, or returns nil when there is no project:
// a repository without gitwarrant commits as if the hook were not there.
func hookRecord(app *App) (*record.Record, error) {
	p, err := project.Find(project.Options{Dir: app.DirFlag, Env: app.Getenv, Cwd: app.Cwd})
	if errors.Is(err, project.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	r, err := record.Open(p)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	return r, nil
}

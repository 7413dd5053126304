package cli

import (
	"github.com/spf13/cobra"
)

// hookSubcommands lists the constructors of `gitwarrant hook <agent|git
// hook>` subcommands. Each surface appends its own (Claude Code here; the
// git hooks pre-commit and commit-msg in their own files). Keep sorted.
var hookSubcommands = []func(*App) *cobra.Command{
	newHookClaudeCmd,
	newHookCommitMsgCmd,
	newHookPreCommitCmd,
}

func newHookCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook <claude|pre-commit|commit-msg>",
		Short: "entry points that agents and git call: enforce the warrant, anchor the record",
		Long: `Entry points for the hooks that install writes. You rarely run these by
hand: Claude Code runs ` + "`gitwarrant hook claude`" + ` before each tool call, and git
runs the git hooks around each commit.`,
	}
	for _, add := range hookSubcommands {
		cmd.AddCommand(add(app))
	}
	return cmd
}

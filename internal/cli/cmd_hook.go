package cli

import (
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/spf13/cobra"
)

// hookSubcommands lists the constructors of `gitwarrant hook <agent|git
// hook>` subcommands. Each surface appends its own (Claude Code here; the
// git hooks pre-commit and commit-msg in their own files). Keep sorted.
// A function, not a variable, because `hook claude --help` on Main's fast
// path builds the tree again.
func hookSubcommands() []func(*App) *cobra.Command {
	return []func(*App) *cobra.Command{
		newHookClaudeCmd,
		newHookAgentCmd(hook.ClientCodex),
		newHookCommitMsgCmd,
		newHookAgentCmd(hook.ClientCursor),
		newHookAgentCmd(hook.ClientGemini),
		newHookPreCommitCmd,
		newHookPrePushCmd,
	}
}

func newHookCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook <claude|codex|gemini|cursor|pre-commit|commit-msg|pre-push>",
		Short: "entry points that agents and git call: enforce the warrant, anchor the record",
		Long: `Entry points for the hooks that install writes. You rarely run these by
hand: Claude Code runs ` + "`gitwarrant hook claude`" + ` before each tool call (Codex CLI,
Gemini CLI and Cursor run ` + "`hook codex`, `hook gemini`, `hook cursor`" + `), and git
runs the git hooks around each commit.

Exit status of a usage error (a missing or unknown hook, a wrong argument
or flag):
  2  Claude Code blocks the call, git refuses the commit (an older
     gitwarrant that does not know a newer hook's name must not let work
     through: Claude Code takes any other failure as "go ahead")`,
		Annotations: map[string]string{usageExitAnnotation: "2"},
	}
	for _, add := range hookSubcommands() {
		cmd.AddCommand(add(app))
	}
	return cmd
}

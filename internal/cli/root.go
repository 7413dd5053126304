package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/spf13/cobra"
)

// NewRootCmd builds the command tree: every command, or only the given
// ones (gitwarrant-mcp holds `mcp` and `serve` and nothing else, see
// cmd_mcp_exec.go).
func NewRootCmd(app *App, only ...func(*App) *cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "gitwarrant <command>",
		Short: "the permission layer and paper trail for AI agents in a Git repository",
		Long: `gitwarrant — brief the agent, warrant the actions, keep the record.

Each recurring task is a loop (.gitwarrant/loops/<name>.loop.md): what the
agent must know, how the work is done, what it may do without asking, what
stays human, and what evidence it owes. Before acting, an agent asks the
warrant and gets allow, ask or deny. Unlisted means ask. Every check and note
is appended to a SHA-256 hash-chained record, committed in Git.

Exit status (every command):
  0  success; verdict allow
  1  usage error, a loop that fails to load, a record that fails to verify
  2  verdict ask (a human must approve); match: no loop covers the task
  3  verdict deny (a hard stop)`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetIn(app.IO.In)
	root.SetOut(app.IO.Out)
	root.SetErr(app.IO.Err)
	root.PersistentFlags().StringVar(&app.DirFlag, "dir", "", "project directory (default: $GITWARRANT_DIR, $DOCKET_DIR, or walk up from here)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(c, "run `"+c.CommandPath()+" --help`", "%v", err)
	})
	cmds := commands()
	if len(only) > 0 {
		cmds = only
	}
	for _, add := range cmds {
		root.AddCommand(add(app))
	}
	failClosed(root)
	return root
}

// commands lists every top-level command constructor. Keep sorted. It is a
// function, not a variable, because the demo command runs Main itself.
func commands() []func(*App) *cobra.Command {
	return []func(*App) *cobra.Command{
		newAmendCmd,
		newBlessCmd,
		newCheckCmd,
		newCICmd,
		newCompileCmd,
		newDemoCmd,
		newDiffCmd,
		newDoctorCmd,
		newExplainCmd,
		newHookCmd,
		newInitCmd,
		newInstallCmd,
		newLintCmd,
		newListCmd,
		newKeysCmd,
		newMatchCmd,
		newMCPCmd,
		newMetricsCmd,
		newNewCmd,
		newProposalsCmd,
		newProposeCmd,
		newRecordCmd,
		newReviewCmd,
		newServeCmd,
		newSessionCmd,
		newShowCmd,
		newSignersCmd,
		newTemplatesCmd,
		newTextconvCmd,
		newUninstallCmd,
		newVersionCmd,
	}
}

// NewServerRootCmd is gitwarrant-mcp's command tree: cmds (the server's
// commands) under a root whose help names that binary and the exit status
// it gives — never the verdicts of gitwarrant's checks, which it does not
// give.
func NewServerRootCmd(app *App, cmds ...func(*App) *cobra.Command) *cobra.Command {
	root := NewRootCmd(app, cmds...)
	root.Use = "gitwarrant-mcp <command>"
	root.Short = "gitwarrant's MCP server: the agent tools over stdio and HTTP"
	root.Long = `gitwarrant-mcp serves gitwarrant's agent tools over MCP: on stdio (mcp) and
over Streamable HTTP with a JSON mirror and Claude Code's http hook (serve).
` + "`gitwarrant mcp` and `gitwarrant serve`" + ` run it; it is a binary of its own so
the MCP SDK's start-up is paid by the server only, never by the hook an agent
runs before each tool call (docs/mcp.md#cost).

Exit status (every command):
  0  the server stopped cleanly (end of input on stdio, or SIGINT/SIGTERM)
  1  usage error, or the server could not start or failed`
	return root
}

// ServerMain runs gitwarrant-mcp with args (NewServerRootCmd) and returns
// the process exit code.
func ServerMain(ctx context.Context, app *App, args []string, cmds ...func(*App) *cobra.Command) int {
	if app.GateSelf == "" {
		// The gate in the server guards gitwarrant's commands, so it
		// must know gitwarrant, not this binary, under another name.
		app.GateSelf, _ = findBeside(app, "gitwarrant")
	}
	root := NewServerRootCmd(app, cmds...)
	root.SetArgs(args)
	return Render(app.IO.Err, root.ExecuteContext(ctx))
}

// Main runs the CLI with args and returns the process exit code.
func Main(ctx context.Context, app *App, args []string) int {
	return MainWith(ctx, app, args)
}

// MainWith is Main with only the given commands (NewRootCmd).
func MainWith(ctx context.Context, app *App, args []string, only ...func(*App) *cobra.Command) int {
	if len(only) == 0 && len(args) >= 2 && args[0] == "hook" && args[1] == "claude" {
		// Claude Code runs this before every tool call: answer without
		// building the whole command tree (docs/threat-model.md#cost).
		// The tree is built only if the hook is asked for its help.
		return Render(app.IO.Err, runHookClaude(app, nil, args[2:]))
	}
	if len(only) == 0 && len(args) >= 2 && args[0] == "hook" && slices.Contains(hook.Clients, args[1]) {
		// The same fast path for the other clients' hooks (docs/agents.md).
		return Render(app.IO.Err, runHookAgent(app, args[1], nil, args[2:]))
	}
	if len(only) == 0 && len(args) >= 2 && args[0] == "hook" {
		// Git runs these on every commit: the exact argument lists the
		// shims pass (hooks/) are answered without cobra; anything else
		// (a flag, help, a wrong count) goes through the tree, which
		// reports it.
		switch {
		case len(args) == 2 && args[1] == "pre-commit":
			return Render(app.IO.Err, runHookPreCommit(app))
		case len(args) == 3 && args[1] == "commit-msg" && args[2] != "" && !strings.HasPrefix(args[2], "-"):
			return Render(app.IO.Err, runHookCommitMsg(app, args[2]))
		}
	}
	if len(only) == 0 && len(args) >= 1 && !asksHelp(args) {
		// The warrant diff and the CI gate run on every pull request, the
		// git hooks on every commit: the rest of the command tree is not
		// built for them (about 40 page faults of a diff's ~900,
		// bench/diff.sh; about 30 of a pre-commit's ~800). Help still
		// shows the whole tree.
		switch args[0] {
		case "diff":
			only = []func(*App) *cobra.Command{newDiffCmd}
		case "ci":
			only = []func(*App) *cobra.Command{newCICmd}
		case "hook":
			only = []func(*App) *cobra.Command{newHookCmd}
		}
	}
	root := NewRootCmd(app, only...)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return Render(app.IO.Err, err)
}

// asksHelp reports whether any argument may ask for help.
func asksHelp(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-h") || strings.HasPrefix(a, "--help") {
			return true
		}
	}
	return false
}

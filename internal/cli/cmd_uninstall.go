package cli

import (
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/spf13/cobra"
)

type uninstallOptions struct {
	json       bool
	noHook     bool
	noMCP      bool
	noGitHooks bool
	targets    []string
}

func newUninstallCmd(app *App) *cobra.Command {
	var o uninstallOptions
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "take out exactly what install added (a human-only command)",
		Long: `Remove exactly what ` + "`gitwarrant install`" + ` added: the managed block in each
context file, gitwarrant's hooks in .claude/settings.json, .codex/hooks.json,
.gemini/settings.json and .cursor/hooks.json, the http hook's key in
.claude/settings.local.json (revoked as well), its server in .mcp.json, its
lines in husky, lefthook and pre-commit configuration, and its git hooks (a
hook script install chained is moved back, byte for byte). uninstall finds its work by gitwarrant's
markers and the exact shape of what install writes — not by any record of
the install — so it works on a teammate's fresh clone too. An entry you
wrote or changed is yours and stays. A file is deleted only when its marker
says install created it and nothing else is left; every other file gets
its original bytes back, final newline, empty objects and commas included.

Loops and the record are never touched.

Exit status:
  0  removed (or nothing to remove)
  1  a file that cannot be edited safely (nothing written)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runUninstall(app, o)
		},
	}
	f := cmd.Flags()
	jsonFlag(cmd, &o.json)
	f.BoolVar(&o.noHook, "no-hook", false, "leave the agent hooks in place (Claude Code's, Codex's, Gemini CLI's and Cursor's)")
	f.BoolVar(&o.noMCP, "no-mcp", false, "leave gitwarrant's MCP server in .mcp.json")
	f.BoolVar(&o.noGitHooks, "no-git-hooks", false, "leave the git hooks in place")
	f.StringSliceVar(&o.targets, "targets", nil, "context files to clean, comma-separated (default: all)")
	return cmd
}

func runUninstall(app *App, o uninstallOptions) error {
	targets, err := pickTargets(o.targets)
	if err != nil {
		return err
	}
	root, err := uninstallRoot(app)
	if err != nil {
		return err
	}
	uo := install.UninstallOptions{
		Root: root, Targets: targets,
		KeepHook: o.noHook, KeepMCP: o.noMCP, KeepGitHooks: o.noGitHooks,
	}
	if p, err := app.Project(); err == nil {
		uo.Sandbox = sandboxFor(p) // removed only when it is exactly what install wrote
	}
	plan, err := install.PlanUninstall(uo)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	hookKey := ""
	if !o.noHook {
		hookKey = install.CurrentHookKey(root)
	}
	if err := plan.Apply(); err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if install.CurrentHookKey(root) == "" {
		if err := revokeHookKey(app, hookKey); err != nil {
			fmt.Fprintf(app.IO.Err, "gitwarrant: %v\n", err)
		}
	}
	if o.json {
		return reportPlanJSON(app, plan, 0, nil)
	}
	reportPlan(app, "uninstall", plan)
	return nil
}

// uninstallRoot is the project's root, or — when the project directory is
// already gone — the work tree holding the working directory.
func uninstallRoot(app *App) (string, error) {
	if p, err := app.Project(); err == nil {
		return p.Root, nil
	}
	r, err := gitx.Discover(app.Cwd)
	if err != nil {
		return "", Usagef("run uninstall inside the repository, or pass --dir", "no gitwarrant project and no git work tree at %s", app.Cwd)
	}
	return r.WorkTree, nil
}

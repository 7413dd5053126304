package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

type installOptions struct {
	json       bool
	loop       string
	strict     bool
	noHook     bool
	noMCP      bool
	noGitHooks bool
	targets    []string
	index      bool
	gitDiff    bool
}

func newInstallCmd(app *App) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "install",
		Short: "wire gitwarrant into this repository: context files, Claude Code hook, MCP server, git hooks",
		Long: `Wire gitwarrant into the repository, so every agent that works in it is under
the warrant — context and enforcement, committed with the code:

  - compiles the loops into every agent's context file (CLAUDE.md, AGENTS.md,
    GEMINI.md, .cursor/rules/gitwarrant.mdc, .github/copilot-instructions.md),
    inside a managed block; the rest of each file is never touched;
  - adds the PreToolUse and PostToolUse hooks to .claude/settings.json;
  - adds the gitwarrant server to .mcp.json;
  - installs the pre-commit and commit-msg git hooks, honouring
    core.hooksPath, chaining a hook script already there (it still runs,
    first), and going through husky, lefthook or the pre-commit framework
    when one of them manages the hooks.

Existing settings, hooks and MCP servers are kept. Every file is checked
before any is written: a malformed .claude/settings.json is reported with
its line and column, and nothing is written. Running install again changes
no byte unless the loops changed; ` + "`gitwarrant uninstall`" + ` takes it all out.

Exit status:
  0  installed (or already up to date)
  1  usage error, or a file that cannot be edited safely (nothing written)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runInstall(app, o)
		},
	}
	f := cmd.Flags()
	jsonFlag(cmd, &o.json)
	f.StringVar(&o.loop, "loop", "", "pin the Claude Code hook to one loop (every failure then asks)")
	f.BoolVar(&o.strict, "strict", false, "make the hook ask when no loop covers a call")
	f.BoolVar(&o.noHook, "no-hook", false, "do not add the Claude Code hook")
	f.BoolVar(&o.noMCP, "no-mcp", false, "do not add the MCP server to .mcp.json")
	f.BoolVar(&o.noGitHooks, "no-git-hooks", false, "do not install the git hooks")
	f.StringSliceVar(&o.targets, "targets", nil, "context files to compile, comma-separated (default: all of "+strings.Join(fileTargetNames(), ",")+")")
	f.BoolVar(&o.index, "index", false, "compile the compact tiered index instead of the full render")
	f.BoolVar(&o.gitDiff, "git-diff", false, "also make `git diff` of loop files show the resolved warrant (docs/signing.md#git-diff-of-loop-files)")
	return cmd
}

func runInstall(app *App, o installOptions) error {
	targets, err := pickTargets(o.targets)
	if err != nil {
		return err
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	// Refused before anything is planned: the hooks install would put in
	// place could never record here (docs/design.md#repositories-gitwarrant-refuses).
	if _, err := gitx.Discover(p.Root); errors.Is(err, gitx.ErrUnsupported) {
		return &ExitError{Code: ExitError1, Err: err}
	}
	ls, errs := loops.LoadDir(p.LoopsDir())
	if len(errs) > 0 {
		return &ExitError{Code: ExitError1, Err: errors.Join(errs...),
			Hint: "fix the loop files first: install compiles every loop, and a loop left out would vanish from the agents' context"}
	}
	if o.loop != "" {
		if _, err := loadJobLoop(p, o.loop); err != nil {
			return err
		}
	}
	opts := install.Options{
		Root: p.Root, Targets: targets, Block: compile.Compile(ls, compile.Options{}, o.index),
		MCP: !o.noMCP, GitHooks: !o.noGitHooks, Version: Version,
	}
	if !o.noHook {
		opts.Hook = install.NewHookCommands(o.loop, o.strict)
	}
	plan, err := install.PlanInstall(opts)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if err := plan.Apply(); err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	tokens := 0
	if len(targets) > 0 {
		tokens = compile.Tokens(opts.Block)
	}
	if o.json {
		return reportPlanJSON(app, plan, tokens)
	}
	reportPlan(app, "install", plan)
	if len(targets) > 0 {
		fmt.Fprintf(app.IO.Err, "context: ~%d tokens per file", tokens)
		if tokens > 3000 && !o.index {
			fmt.Fprint(app.IO.Err, " — consider `gitwarrant install --index` to keep it small")
		}
		fmt.Fprintln(app.IO.Err)
	}
	if o.gitDiff {
		return installGitDiff(app, p)
	}
	return nil
}

// fileTargetNames lists the compile targets that are files.
func fileTargetNames() []string {
	var out []string
	for _, t := range compile.Targets() {
		if t.IsFile() {
			out = append(out, t.Name)
		}
	}
	return out
}

// pickTargets resolves --targets; empty means every file target.
func pickTargets(names []string) ([]compile.Target, error) {
	if len(names) == 0 {
		names = fileTargetNames()
	}
	var out []compile.Target
	for _, n := range names {
		t, ok := compile.TargetByName(strings.TrimSpace(n))
		if !ok || !t.IsFile() {
			return nil, Usagef("choose from "+strings.Join(fileTargetNames(), ","), "--targets: unknown context file target %q", n)
		}
		out = append(out, t)
	}
	return out, nil
}

// reportPlan prints what changed (stdout), then snippets the user must add
// by hand (stdout) and notices (stderr).
func reportPlan(app *App, verb string, plan *install.Plan) {
	if len(plan.Changes) == 0 {
		fmt.Fprintf(app.IO.Out, "%s: nothing to change\n", verb)
	}
	for _, c := range plan.Changes {
		fmt.Fprintf(app.IO.Out, "%-8s %s\n", c.Action(), c.Rel)
	}
	for _, s := range plan.Snippets {
		fmt.Fprintf(app.IO.Out, "\n%s", s)
	}
	for _, n := range plan.Notices {
		fmt.Fprintf(app.IO.Err, "note: %s\n", n)
	}
}

// planJSON is the stable --json shape of install and uninstall.
type planJSON struct {
	Changes  []planChangeJSON `json:"changes"`
	Snippets []string         `json:"snippets"` // text to add by hand to files a hook manager owns
	Notices  []string         `json:"notices"`  // what was not done, and why
	// ContextTokens is the approximate size of the compiled block in each
	// context file (install only).
	ContextTokens int `json:"context_tokens,omitempty"`
}

type planChangeJSON struct {
	Action string `json:"action"` // created, updated, moved, removed
	Path   string `json:"path"`   // relative to the repository root
}

// reportPlanJSON prints the plan as JSON; notices still go to stderr too.
func reportPlanJSON(app *App, plan *install.Plan, tokens int) error {
	out := planJSON{Changes: []planChangeJSON{}, Snippets: []string{}, Notices: []string{}, ContextTokens: tokens}
	for _, c := range plan.Changes {
		out.Changes = append(out.Changes, planChangeJSON{Action: c.Action(), Path: c.Rel})
	}
	out.Snippets = append(out.Snippets, plan.Snippets...)
	out.Notices = append(out.Notices, plan.Notices...)
	for _, n := range plan.Notices {
		fmt.Fprintf(app.IO.Err, "note: %s\n", n)
	}
	return emitJSON(app, out, ExitOK)
}

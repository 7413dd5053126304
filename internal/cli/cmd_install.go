package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
)

type installOptions struct {
	json        bool
	allowManual bool
	loop        string
	defaultLoop string
	strict      bool
	noHook      bool
	noMCP       bool
	noGitHooks  bool
	prePush     bool
	targets     []string
	index       bool
	gitDiff     bool
	noSandbox   bool
	hookType    string
	hookPort    int
	agents      []string
}

func newInstallCmd(app *App) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "install",
		Short: "wire gitwarrant into this repository: context files, agent hooks, git hooks; then doctor",
		Long: `Wire gitwarrant into the repository, so every agent that works in it is under
the warrant — context and enforcement, committed with the code:

  - compiles the loops into every agent's context file (CLAUDE.md, AGENTS.md,
    GEMINI.md, .cursor/rules/gitwarrant.mdc, .github/copilot-instructions.md),
    inside a managed block; the rest of each file is never touched;
  - adds the PreToolUse, PostToolUse, UserPromptSubmit and SessionEnd hooks
    to .claude/settings.json: each session works under the loop its prompt
    routes to, else under the default loop (docs/sessions.md) — the only job
    loop, or the one --default-loop names; with several, install asks at a
    terminal and refuses without one. A gitwarrant hook a person wrote
    (pinned, strict, another timeout) is kept as it is unless --loop,
    --default-loop or --strict is given. With --hook http they are http
    hooks posting to this repository's server, with a SessionStart hook
    that starts it and the hook key in .claude/settings.local.json (kept
    out of git);
  - wires the same gate into Codex CLI (.codex/hooks.json), Gemini CLI
    (.gemini/settings.json) and Cursor (.cursor/hooks.json) for the clients
    --agents names — by default the ones whose folders or own context
    files the repository has (docs/agents.md);
  - turns on Claude Code's sandbox there, compiled from the warrant: the
    protected places read-only, the secret files its never and ask entries
    name unreadable, the network limited to the hosts it needs (unless
    --no-sandbox, or a sandbox is already configured);
  - installs the pre-commit and commit-msg git hooks where git runs them
    (core.hooksPath honoured): through husky (gitwarrant's line first in
    .husky/<hook>), lefthook (its commands: or jobs: form) or the pre-commit
    framework (a repo: local entry) when one manages the hooks, and as
    gitwarrant's own hook otherwise — chaining a hook script already there,
    which still runs first. The per-clone hook calls the gitwarrant binary
    that ran install, PATH as fallback;
  - adds the gitwarrant MCP server to .mcp.json, next to any of yours
    (--no-mcp leaves the file alone).

Everything else in those files is kept byte for byte. Every file is checked
before any is written: a malformed .claude/settings.json is reported with
its line and column, and nothing is written. Running install again changes
no byte unless the loops changed; ` + "`gitwarrant uninstall`" + ` takes out exactly what
install added. install ends with ` + "`gitwarrant doctor`" + `'s table.

Exit status:
  0  installed, and every gate it wires is live
  1  usage error, a file that cannot be edited safely (nothing written), or
     a gate that is not live — including one install could only print the
     lines for (unless --allow-manual); a broken loop or record is a
     warning and does not change the status`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runInstall(app, o)
		},
	}
	f := cmd.Flags()
	jsonFlag(cmd, &o.json)
	f.StringVar(&o.loop, "loop", "", "pin the Claude Code hook to one loop for every session, whatever its prompt says (every failure then asks)")
	f.StringVar(&o.defaultLoop, "default-loop", "", "the loop for a session no prompt routes (default: the only job loop; with several, asked at a terminal)")
	f.BoolVar(&o.strict, "strict", false, "make the hook ask when no loop covers a call")
	f.BoolVar(&o.noHook, "no-hook", false, "do not add the Claude Code hook")
	f.StringVar(&o.hookType, "hook", "command", "the Claude Code hooks' type: command (a gitwarrant process per call) or http (posted to this repository's server, which a SessionStart hook starts; docs/install.md#the-http-hook)")
	f.IntVar(&o.hookPort, "hook-port", 0, "with --hook http: the loopback port of the server (default: the one installed, else a free one)")
	f.StringSliceVar(&o.agents, "agents", nil, "the agents whose hooks to wire, comma-separated from claude,codex,gemini,cursor (default: Claude Code, and each other one whose folder or own context file the repository has)")
	f.BoolVar(&o.noSandbox, "no-sandbox", false, "do not turn on Claude Code's sandbox (doctor then fails and says what code the agent runs can reach)")
	f.BoolVar(&o.noMCP, "no-mcp", false, "do not add the gitwarrant MCP server to .mcp.json")
	f.BoolVar(&o.allowManual, "allow-manual", false, "exit 0 even when a gate needs the printed lines added by hand")
	f.BoolVar(&o.noGitHooks, "no-git-hooks", false, "do not install the git hooks")
	f.BoolVar(&o.prePush, "pre-push", false, "also install a pre-push hook that runs the CI gate (gitwarrant ci) against what the remote holds (docs/ci.md#locally)")
	f.StringSliceVar(&o.targets, "targets", nil, "context files to compile, comma-separated (default: all of "+strings.Join(fileTargetNames(), ",")+")")
	f.BoolVar(&o.index, "index", false, "compile the compact tiered index instead of the full render")
	f.BoolVar(&o.gitDiff, "git-diff", false, "also make \"git diff\" show a loop file's resolved warrant (docs/signing.md#git-diff-of-loop-files)")
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
	for _, name := range []string{o.loop, o.defaultLoop} {
		if name != "" {
			if _, err := loadJobLoop(app, p, name); err != nil {
				return err
			}
		}
	}
	if o.hookType != "command" && o.hookType != "http" {
		return Usagef("e.g. --hook http", "--hook %q: command or http", o.hookType)
	}
	explicit := o.loop != "" || o.defaultLoop != "" || o.strict
	if !o.noHook && !explicit {
		if _, w, ok := install.CurrentHTTPHook(p.Root); ok && w.Pinned() {
			o.loop, o.defaultLoop, o.strict = w.Loop, w.DefaultLoop, w.Strict
		} else if w, ok := install.CurrentWiring(p.Root); ok && w.Pinned() {
			o.loop, o.defaultLoop, o.strict = w.Loop, w.DefaultLoop, w.Strict // kept: a choice made before
		} else if o.defaultLoop, err = pickDefaultLoop(app, ls); err != nil {
			return err
		}
	}
	opts := install.Options{
		Root: p.Root, Targets: targets, Block: compile.Compile(ls, compile.Options{}, o.index),
		MCP: !o.noMCP, GitHooks: !o.noGitHooks, PrePush: o.prePush, Bin: app.Self,
	}
	if !o.noGitHooks {
		opts.PreCommitStage = preCommitStage(app)
	}
	claude, others, err := pickAgents(o.agents, p.Root)
	if err != nil {
		return err
	}
	o.noHook = o.noHook || !claude
	if len(others) > 0 {
		opts.Agents = &install.AgentHooks{Clients: others, Wiring: hook.Wiring{Loop: o.loop, DefaultLoop: o.defaultLoop, Strict: o.strict}, Explicit: explicit}
	}
	if !o.noHook {
		w := hook.Wiring{Loop: o.loop, DefaultLoop: o.defaultLoop, Strict: o.strict}
		opts.Hook = install.NewHookCommands(w, explicit)
		if o.hookType == "http" {
			if opts.Hook, err = httpHookCommands(app, p, w, o.hookPort, explicit); err != nil {
				return err
			}
		}
		if !o.noSandbox {
			opts.Sandbox = sandboxFor(p)
		}
	}
	plan, err := install.PlanInstall(opts)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if err := plan.Apply(); err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if !o.noHook && o.hookType == "http" {
		if err := ignoreLocalSettings(app, p.Root); err != nil {
			return Failf("making git ignore %s, which holds the hook key: %v", install.LocalSettingsPath, err)
		}
	}
	if o.gitDiff {
		if err := installGitDiff(app, p, o.json); err != nil {
			return err
		}
	}
	tokens := 0
	if len(targets) > 0 {
		tokens = compile.Tokens(opts.Block)
	}
	checks := runDoctor(app, !o.noGitHooks, !o.noHook)
	verdict := installVerdict(o, plan, checks)
	if o.json {
		if err := reportPlanJSON(app, plan, tokens, checks); err != nil {
			return err
		}
		return verdict
	}
	reportPlan(app, "install", plan)
	if len(targets) > 0 {
		fmt.Fprintf(app.IO.Err, "context: ~%d tokens per file", tokens)
		if tokens > 3000 && !o.index {
			fmt.Fprint(app.IO.Err, " — consider `gitwarrant install --index` to keep it small")
		}
		fmt.Fprintln(app.IO.Err)
	}
	fmt.Fprintln(app.IO.Out)
	fmt.Fprintln(app.IO.Out, "doctor:")
	printDoctor(app.IO.Out, checks)
	return verdict
}

// installVerdict decides install's exit status from the doctor's checks:
// 1 when a gate install wires is not live, or when a gate needs lines
// added by hand (unless --allow-manual). Loops, record and signers are the
// doctor's warnings here; they do not change the status.
func installVerdict(o installOptions, plan *install.Plan, checks []install.Check) error {
	var notLive []string
	manual := map[string]bool{}
	for _, m := range plan.Manual {
		manual["git "+m.Hook+" hook"] = true
	}
	for _, c := range install.GateFailures(checks) {
		if o.allowManual && manual[c.Name] {
			continue
		}
		notLive = append(notLive, c.Name)
	}
	if len(plan.Manual) > 0 && !o.allowManual {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("install could not wire %s: add the lines printed above", strings.Join(manualHooks(plan), " and ")),
			Hint: "add them, then run `gitwarrant doctor`; or pass --allow-manual to exit 0 and do it later"}
	}
	if len(notLive) > 0 {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("not live after install: %s", strings.Join(notLive, ", ")),
			Hint: "the doctor's checks say how to fix each"}
	}
	return nil
}

func manualHooks(plan *install.Plan) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range plan.Manual {
		if !seen[m.Hook] {
			seen[m.Hook] = true
			out = append(out, "the "+m.Hook+" gate")
		}
	}
	return out
}

// preCommitStage is the pre-commit framework's stage name for its
// pre-commit hooks, following the pre-commit installed here: "pre-commit"
// from 3.2 on; "commit" before 3.2 (Debian 12 ships 3.0.4), and when no
// pre-commit answers — every version accepts "commit" (3.2 and later with
// a deprecation note), while "pre-commit" stops older ones cold.
func preCommitStage(app *App) string {
	path, err := exec.LookPath("pre-commit")
	if err != nil {
		return "commit"
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "commit"
	}
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "pre-commit %d.%d", &major, &minor); err != nil {
		return "commit"
	}
	if major > 3 || (major == 3 && minor >= 2) {
		return "pre-commit"
	}
	return "commit"
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

// reportPlan prints what changed (stdout), then the lines the user must
// add by hand (stdout) and notices (stderr).
func reportPlan(app *App, verb string, plan *install.Plan) {
	if len(plan.Changes) == 0 {
		fmt.Fprintf(app.IO.Out, "%s: nothing to change\n", verb)
	}
	for _, c := range plan.Changes {
		fmt.Fprintf(app.IO.Out, "%-8s %s\n", c.Action(), c.Rel)
	}
	for _, m := range plan.Manual {
		fmt.Fprintf(app.IO.Out, "\nnot wired: the %s gate — %s. Add these lines:\n%s", m.Hook, m.Why, m.Lines)
	}
	for _, n := range plan.Notices {
		fmt.Fprintf(app.IO.Err, "note: %s\n", n)
	}
}

// planJSON is the stable --json shape of install and uninstall.
type planJSON struct {
	Changes []planChangeJSON `json:"changes"`
	Manual  []manualJSON     `json:"manual"`  // gates install could not wire, with the lines to add
	Notices []string         `json:"notices"` // what was not done, and why
	// ContextTokens is the approximate size of the compiled block in each
	// context file (install only).
	ContextTokens int `json:"context_tokens,omitempty"`
	// Doctor is the doctor's report after install (install only).
	Doctor *doctorReportJSON `json:"doctor,omitempty"`
}

type planChangeJSON struct {
	Action string `json:"action"` // created, updated, moved, removed
	Path   string `json:"path"`   // relative to the repository root
}

type manualJSON struct {
	Hook  string `json:"hook"`  // pre-commit, commit-msg
	File  string `json:"file"`  // the file to edit, relative to the root
	Why   string `json:"why"`   // why install did not do it
	Lines string `json:"lines"` // exactly what to add
}

// reportPlanJSON prints the plan (and, for install, the doctor's checks)
// as JSON; notices still go to stderr too.
func reportPlanJSON(app *App, plan *install.Plan, tokens int, checks []install.Check) error {
	out := planJSON{Changes: []planChangeJSON{}, Manual: []manualJSON{}, Notices: []string{}, ContextTokens: tokens}
	for _, c := range plan.Changes {
		out.Changes = append(out.Changes, planChangeJSON{Action: c.Action(), Path: c.Rel})
	}
	for _, m := range plan.Manual {
		out.Manual = append(out.Manual, manualJSON{Hook: m.Hook, File: m.File, Why: m.Why, Lines: m.Lines})
	}
	out.Notices = append(out.Notices, plan.Notices...)
	if checks != nil {
		d := doctorJSON(checks)
		out.Doctor = &d
	}
	for _, n := range plan.Notices {
		fmt.Fprintf(app.IO.Err, "note: %s\n", n)
	}
	return emitJSON(app, out, ExitOK)
}

// pickDefaultLoop chooses the loop for sessions no prompt routes
// (docs/sessions.md#the-default-loop): the only job loop, or the one the
// person picks at a terminal. With several and no terminal, install
// refuses rather than pick one silently — least of all the widest. With no
// job loop there is no default, and doctor warns.
func pickDefaultLoop(app *App, ls []*loops.Loop) (string, error) {
	var jobs []string
	for _, l := range ls {
		if !l.Abstract {
			jobs = append(jobs, l.Name)
		}
	}
	switch {
	case len(jobs) == 0:
		return "", nil
	case len(jobs) == 1:
		return jobs[0], nil
	case !app.IO.CanPrompt():
		return "", Usagef(fmt.Sprintf("name it: gitwarrant install --default-loop %s (a prompt naming or routing to another loop still moves its session there; docs/sessions.md)", jobs[0]),
			"this repository has %d job loops (%s), and install needs the one a session works under when its prompt routes to none", len(jobs), strings.Join(jobs, ", "))
	}
	fmt.Fprintf(app.IO.Err, "Which loop should a session work under when its prompt routes to none?\n")
	for i, n := range jobs {
		fmt.Fprintf(app.IO.Err, "  %d) %s\n", i+1, n)
	}
	fmt.Fprint(app.IO.Err, "number or name: ")
	line, _ := bufio.NewReader(app.IO.In).ReadString('\n')
	line = strings.TrimSpace(line)
	for i, n := range jobs {
		if line == n || line == fmt.Sprint(i+1) {
			return n, nil
		}
	}
	return "", Usagef("run install again and pick one of "+strings.Join(jobs, ", ")+", or pass --default-loop", "%q is not one of the loops listed", line)
}

// pickAgents resolves --agents: whether Claude Code's hook is wired, and
// which other clients' (docs/agents.md#install). Empty means Claude Code
// and every other client the repository shows signs of.
func pickAgents(names []string, root string) (bool, []string, error) {
	if len(names) == 0 {
		return true, install.DetectAgents(root), nil
	}
	claude, others := false, []string{}
	for _, n := range names {
		n = strings.TrimSpace(strings.ToLower(n))
		switch {
		case n == "claude":
			claude = true
		case slices.Contains(hook.Clients, n):
			if !slices.Contains(others, n) {
				others = append(others, n)
			}
		default:
			return false, nil, Usagef("choose from claude,"+strings.Join(hook.Clients, ","), "--agents: unknown agent %q", n)
		}
	}
	return claude, others, nil
}

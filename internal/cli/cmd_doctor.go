package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/lint"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/spf13/cobra"
)

type doctorOptions struct {
	json bool
}

func newDoctorCmd(app *App) *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "prove every gate is live in this clone, and say how to fix each one that is not",
		Long: `Check that every gate gitwarrant relies on is live in this clone:

  - the git hooks git will actually run (core.hooksPath, linked worktrees
    and the hook manager — husky, lefthook, the pre-commit framework —
    followed) reach gitwarrant, and no variable that switches them off
    (such as LEFTHOOK=0) is set in this environment;
  - the Claude Code settings (project, local, user, managed) do not disable hooks,
    hold the gitwarrant hook, and its command resolves to a binary — or,
    for the http hook (install --hook http), the server answers a probe as
    ` + "`gitwarrant hook claude`" + ` would and refuses a post without its key; a
    pinned hook without "onFailure": "block" is a warning;
  - each gitwarrant hook in .codex/hooks.json, .gemini/settings.json and
    .cursor/hooks.json blocks a probe it cannot check, run as the client
    runs it, and no switch of the client turns hooks off (Codex's hooks
    feature, Gemini CLI's hooksConfig); untrusted Codex hooks and a Gemini
    folder that is not trusted are warnings (docs/agents.md#switches);
  - every command in .mcp.json resolves, and gitwarrant's own server
    answers an MCP initialize;
  - the loops pass lint, the record verifies, allowed_signers parses.

Each problem is printed with what to do about it.

Exit status:
  0  every gate is live and nothing is broken
  1  something is not (the table says what)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			checks := runDoctor(app, true, true)
			code := ExitOK
			if !allLive(checks) {
				code = ExitError1
			}
			if o.json {
				return emitJSON(app, doctorJSON(checks), code)
			}
			printDoctor(app.IO.Out, checks)
			if code != ExitOK {
				return Silent(code)
			}
			return nil
		},
	}
	jsonFlag(cmd, &o.json)
	return cmd
}

// runDoctor runs the install checks and the project's own.
func runDoctor(app *App, gitHooks, claude bool) []install.Check {
	p, err := project.Find(project.Options{Dir: app.DirFlag, Env: app.Getenv, Cwd: app.Cwd})
	if err != nil {
		root := app.Cwd
		if errors.Is(err, project.ErrNotFound) {
			err = fmt.Errorf("no gitwarrant project here")
		}
		checks := install.Diagnose(install.DoctorEnv{Root: root, Getenv: app.Getenv}, gitHooks, claude)
		return append(checks, install.Check{Name: "project", Status: install.Fail, Detail: err.Error(), Fix: "run `gitwarrant init`"})
	}
	checks := install.Diagnose(install.DoctorEnv{Root: p.Root, Getenv: app.Getenv, LoopsDir: p.LoopsDir(), Sandbox: sandboxFor(p)}, gitHooks, claude)
	checks = append(checks, loopsCheck(p, lintOptions(app))) // the examples decide as the hook does, as `lint` has them
	checks = append(checks, recordCheck(p))
	checks = append(checks, signersCheck(p))
	return append(checks, inForceChecks(p)...)
}

// loopsCheck runs lint over the loops: an error fails, a warning warns.
func loopsCheck(p *project.Project, o lint.Options) install.Check {
	c := install.Check{Name: "loops"}
	files, err := lint.Load([]string{p.LoopsDir()})
	if err != nil {
		c.Status, c.Detail, c.Fix = install.Fail, err.Error(), "create the loops folder with `gitwarrant init`"
		return c
	}
	fs := lint.Run(files, o)
	errs, warns := lint.Count(fs)
	var first string
	for _, f := range fs {
		if f.Severity == lint.Error || errs == 0 {
			first = fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Msg)
			break
		}
	}
	switch {
	case errs > 0:
		c.Status, c.Detail, c.Fix = install.Fail, fmt.Sprintf("%d error(s), %d warning(s); first: %s", errs, warns, first), "run `gitwarrant lint` and fix what it reports"
	case warns > 0:
		c.Status, c.Detail, c.Fix = install.Warn, fmt.Sprintf("%d loop(s), %d warning(s); first: %s", len(files), warns, first), "run `gitwarrant lint`"
	default:
		c.Status, c.Detail = install.OK, fmt.Sprintf("%d loop(s) pass lint", len(files))
	}
	return c
}

func recordCheck(p *project.Project) install.Check {
	c := install.Check{Name: "record", Status: install.Fail, Fix: "run `gitwarrant record verify` for details; `gitwarrant record restore` brings a work-tree chain back to its ref"}
	r, err := record.Open(p)
	if err != nil {
		c.Detail = err.Error()
		if errors.Is(err, gitx.ErrUnsupported) {
			c.Fix = install.UnsupportedRepoFix
		}
		return c
	}
	v, err := r.Verify()
	if err != nil {
		c.Detail = err.Error()
		return c
	}
	if !v.OK() {
		var bad []string
		for _, f := range v.Findings {
			bad = append(bad, f.String())
		}
		c.Detail = strings.Join(bad, "; ")
		return c
	}
	c.Status, c.Detail, c.Fix = install.OK, fmt.Sprintf("%d chain(s) verify", len(v.Chains)), ""
	return c
}

// signersCheck parses allowed_signers with the rules amends are verified
// by (docs/signing.md#allowed-signers).
func signersCheck(p *project.Project) install.Check {
	c := install.Check{Name: "allowed_signers", Status: install.OK}
	data, err := os.ReadFile(p.AllowedSigners())
	if errors.Is(err, os.ErrNotExist) {
		c.Detail = "none yet (no human can sign an amend)"
		return c
	}
	if err != nil {
		c.Status, c.Detail = install.Fail, err.Error()
		return c
	}
	as, err := sign.ParseAllowedSigners(p.AllowedSigners(), data)
	if err != nil {
		c.Status, c.Detail = install.Fail, err.Error()
		c.Fix = "fix the line (format: principals [options] key-type key), see docs/signing.md"
		return c
	}
	c.Detail = fmt.Sprintf("%d key(s) parse", len(as.Signers))
	return c
}

func allLive(cs []install.Check) bool {
	for _, c := range cs {
		if c.Status == install.Fail {
			return false
		}
	}
	return true
}

// printDoctor prints the table: status, name, detail, then the fix.
func printDoctor(w io.Writer, cs []install.Check) {
	width := 0
	for _, c := range cs {
		width = max(width, len(c.Name))
	}
	for _, c := range cs {
		fmt.Fprintf(w, "%-4s  %-*s  %s\n", c.Status, width, c.Name, c.Detail)
		if c.Fix != "" && c.Status != install.Live && c.Status != install.OK {
			fmt.Fprintf(w, "      %-*s  fix: %s\n", width, "", c.Fix)
		}
	}
}

type doctorCheckJSON struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Gate   bool   `json:"gate"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

type doctorReportJSON struct {
	Live   bool              `json:"live"`
	Checks []doctorCheckJSON `json:"checks"`
}

func doctorJSON(cs []install.Check) doctorReportJSON {
	out := doctorReportJSON{Live: allLive(cs), Checks: []doctorCheckJSON{}}
	for _, c := range cs {
		out.Checks = append(out.Checks, doctorCheckJSON{Name: c.Name, Status: strings.ToLower(string(c.Status)), Gate: c.Gate, Detail: c.Detail, Fix: c.Fix})
	}
	return out
}

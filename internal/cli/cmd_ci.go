package cli

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/gitwarrant/gitwarrant/internal/ci"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/spf13/cobra"
)

type ciOpts struct {
	base, head, format string
	strict, presence   bool
	otherGates         []string
}

func newCICmd(app *App) *cobra.Command {
	var o ciOpts
	cmd := &cobra.Command{
		Use:   "ci [--base REV] [--head REV] [--format text|markdown|json] [--strict] [--require-user-presence] [--other-gate FOLDER]...",
		Short: "the CI gate: fail a change that widens a warrant unsigned or breaks the record",
		Long: `Compares the merge base of --base and --head with --head, reading loops,
chains and allowed_signers from Git objects only (a bare or shallow clone
works when it holds the merge base) (docs/ci.md):

  - every widening needs a signed amend new in head, verified against the
    merge base's allowed_signers;
  - every chain of the merge base is a prefix of the same chain in head,
    and every new entry verifies;
  - every Warrant-Head trailer of the commits names a head its commit's
    chain holds;
  - head's loops lint without errors;
  - the change touches no other project folder (a .gitwarrant below or
    beside this one, which agents working there would obey) unless
    --other-gate names it, and no case variant of a warrant file such as
    loops/x.LOOP.md, which a case-insensitive file system would open;
  - removing or weakening the gate itself warns (fails with --strict).

Default base: the upstream branch. Default head: HEAD.

Exit status:
  0  everything holds
  1  something does not (the report says what), or a usage or read error`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runCI(app, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.base, "base", "", "the branch the change goes into (default: the upstream branch)")
	f.StringVar(&o.head, "head", "HEAD", "the change's last commit")
	f.StringVar(&o.format, "format", "text", "text, markdown or json")
	f.BoolVar(&o.strict, "strict", false, "fail when the change removes or weakens the gate itself")
	f.BoolVar(&o.presence, "require-user-presence", false, "count only amends signed by FIDO keys (touch required)")
	f.StringArrayVar(&o.otherGates, "other-gate", nil, "another project folder (e.g. services/api/.gitwarrant) that a gate of its own compares; repeatable")
	return cmd
}

// openForCI opens the repository (bare or not) and names the project
// directory inside it.
func openForCI(app *App) (*gitx.Repo, string, error) {
	dir := app.DirFlag
	if dir == "" {
		dir = app.Cwd
	}
	repo, err := gitx.Open(dir)
	if err != nil {
		if errors.Is(err, gitx.ErrUnsupported) {
			return nil, "", Failf("%v", err)
		}
		return nil, "", Usagef("run it inside the Git repository (a bare clone works), or give --dir", "ci compares Git revisions: %v", err)
	}
	projRel := ".gitwarrant"
	if repo.WorkTree != repo.GitDir {
		if p, err := app.Project(); err == nil {
			if rel, err := repo.Rel(p.Dir); err == nil {
				projRel = rel
			}
		}
	}
	return repo, projRel, nil
}

func runCI(app *App, o ciOpts) error {
	if o.format != "text" && o.format != "markdown" && o.format != "json" {
		return Usagef("use --format text, markdown or json", "unknown format %q", o.format)
	}
	repo, projRel, err := openForCI(app)
	if err != nil {
		return err
	}
	if o.base == "" {
		if _, err := repo.Git("rev-parse", "-q", "--verify", "@{upstream}"); err != nil {
			return Usagef("give --base (e.g. --base origin/main), or set an upstream branch", "no --base and no upstream branch to compare with")
		}
		o.base = "@{upstream}"
	}
	// The gate is one short process whose memory is what the change adds
	// (its new record files, parsed): collect garbage a quarter as often,
	// within a bound (bench/ci.sh: a tenth of the gate's CPU time).
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(512 << 20)
	others, err := ci.CleanOtherGates(o.otherGates, projRel)
	if err != nil {
		return Usagef("give each --other-gate as a project folder relative to the repository root, e.g. services/api/.gitwarrant", "%v", err)
	}
	rep, err := ci.Run(repo, ci.Options{Base: o.base, Head: o.head, ProjRel: projRel, Strict: o.strict, RequireUserPresence: o.presence, OtherGates: others, Home: app.Getenv("HOME")})
	if err != nil {
		return Failf("%v", err)
	}
	switch o.format {
	case "json":
		if err := rep.JSON(app.IO.Out); err != nil {
			return Failf("%v", err)
		}
	case "markdown":
		rep.Markdown(app.IO.Out, projRel, 0)
	default:
		rep.Text(app.IO.Out)
	}
	if !rep.OK() {
		if o.format != "text" {
			fmt.Fprintf(app.IO.Err, "gitwarrant ci: %s\n", rep.Verdict())
		}
		return Silent(ExitError1)
	}
	return nil
}

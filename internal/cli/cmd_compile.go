package cli

import (
	"errors"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/spf13/cobra"
)

// suggestIndexAbove is the full-render size past which compile suggests
// --index (docs/design.md#enforcement-surfaces: "past a few thousand tokens").
const suggestIndexAbove = 3000

type compileOptions struct {
	target string
	write  bool
	loop   string
	index  bool
}

func newCompileCmd(app *App) *cobra.Command {
	var o compileOptions
	cmd := &cobra.Command{
		Use:   "compile [--target " + strings.Join(compile.TargetNames(), "|") + "] [--write] [--loop L] [--index]",
		Short: "render the loops into the context file an agent reads (CLAUDE.md, AGENTS.md, …)",
		Long: `Render every loop into a managed block between
<!-- gitwarrant:begin … --> and <!-- gitwarrant:end --> markers.

Without --write (or with --target raw) the block is printed on stdout. With
--write it is put into the target's file: the block is replaced in place (a
legacy docket block too), or appended; everything outside the markers is kept
byte for byte, and compiling again changes nothing. A marker without its
partner is an error and nothing is written.

Targets: claude → CLAUDE.md, agents → AGENTS.md, gemini → GEMINI.md,
cursor → .cursor/rules/gitwarrant.mdc, copilot → .github/copilot-instructions.md,
raw → stdout.

With --target claude --write, the sandbox, session env and deny rules
install wrote into .claude/settings.json are brought in step with the loops
too (only what this clone's install recorded writing; a sandbox edited by
hand is kept).

--index renders tiers instead of every brief: the hard stops of every loop
and one line per loop; the agent fetches a loop's details on demand. The
token estimate (bytes/4) is printed on stderr every time.

Exit status:
  0  compiled
  1  usage error, a loop that fails to parse, no loops, or a marker error`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCompile(app, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.target, "target", "raw", "where the block goes: "+strings.Join(compile.TargetNames(), ", "))
	f.BoolVar(&o.write, "write", false, "write the block into the target's file instead of printing it")
	f.StringVar(&o.loop, "loop", "", "preview one loop only (stdout; not with --write)")
	f.BoolVar(&o.index, "index", false, "render the compact tiered index instead of every loop in full")
	return cmd
}

func runCompile(app *App, o compileOptions) error {
	t, ok := compile.TargetByName(o.target)
	if !ok {
		return Usagef("targets: "+strings.Join(compile.TargetNames(), ", "), "unknown target %q", o.target)
	}
	if o.loop != "" && o.write {
		// The block always holds every loop; writing one would silently
		// drop the others from the agent's context file.
		return Usagef("drop --loop to compile every loop into the file, or drop --write to preview one loop on stdout",
			"--loop cannot be used with --write: the managed block holds every loop, and writing one would remove the others")
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	ls, err := compileLoops(app, p, o.loop)
	if err != nil {
		return err
	}
	block := compile.Compile(ls, compile.Options{}, o.index)
	reportTokens(app, ls, block, o.index)
	if !o.write || !t.IsFile() {
		fmt.Fprint(app.IO.Out, block)
		return nil
	}
	changed, err := compile.WriteTarget(p.Root, t, block)
	if err != nil {
		var me *compile.MarkerError
		if errors.As(err, &me) {
			return &ExitError{Code: ExitError1, Err: err}
		}
		return Failf("writing %s: %v", t.Path, err)
	}
	printCompiled(app, p, t, len(ls), o.index, changed)
	if t.Name == "claude" {
		return refreshSandbox(app, p) // compile_sandbox.go
	}
	return nil
}

// compileLoops loads the loops to compile: one by name, or all of them.
// Any loop that fails to parse stops the compile (nothing is printed or
// written): a block missing a loop would silently drop its hard stops.
func compileLoops(app *App, p *project.Project, name string) ([]*loops.Loop, error) {
	if name != "" {
		l, err := loadLoop(app, p, name)
		if err != nil {
			return nil, err
		}
		return []*loops.Loop{l}, nil
	}
	ls, err := loadEveryLoop(p)
	if err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		return nil, &ExitError{Code: ExitError1, Err: fmt.Errorf("no loops to compile in %s", p.LoopsDir()),
			Hint: "create one with `gitwarrant new <name> --template <t>` (see `gitwarrant templates`)"}
	}
	return ls, nil
}

// loadEveryLoop loads every loop of the project, failing with every parse
// error (each file:line) when any loop file is broken.
func loadEveryLoop(p *project.Project) ([]*loops.Loop, error) {
	ls, errs := vouch.Loader(nil, p).LoadDir(p.LoopsDir())
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return nil, &ExitError{Code: ExitError1,
			Err:  fmt.Errorf("%s failed to load:\n  %s", pluralize(len(errs), "loop file"), strings.Join(msgs, "\n  ")),
			Hint: "fix the file at the line shown, then run the command again; nothing was written"}
	}
	return ls, nil
}

// reportTokens prints the block's token estimate on stderr and, for a big
// full render, how much --index would save.
func reportTokens(app *App, ls []*loops.Loop, block string, index bool) {
	st := app.IO.ErrStyle()
	n := compile.Tokens(block)
	mode := "full render"
	if index {
		mode = "index"
	}
	fmt.Fprintf(app.IO.Err, "%s\n", st.Dim(fmt.Sprintf("≈ %d tokens (%s of %s, bytes/4)", n, mode, pluralize(len(ls), "loop"))))
	if !index && n > suggestIndexAbove {
		idx := compile.Tokens(compile.Compile(ls, compile.Options{}, true))
		fmt.Fprintf(app.IO.Err, "hint: that is a lot of context on every turn — `--index` keeps only the hard stops and one line per loop (≈ %d tokens); agents fetch details on demand\n", idx)
	}
}

// printCompiled reports a written target on stdout.
func printCompiled(app *App, p *project.Project, t compile.Target, n int, index, changed bool) {
	st := app.IO.Style()
	what := pluralize(n, "loop")
	if index {
		what = "index of " + what
	}
	line := fmt.Sprintf("%s compiled %s → %s (%s)", st.Green("✓"), what, displayTarget(app, p, t), t.Label)
	if !changed {
		line += st.Dim(" — unchanged")
	}
	fmt.Fprintln(app.IO.Out, line)
}

// displayTarget names the target file relative to the working directory
// when it is below it, else by its full path.
func displayTarget(app *App, p *project.Project, t compile.Target) string {
	abs := filepath.Join(p.Root, filepath.FromSlash(t.Path))
	if rel, err := filepath.Rel(app.Cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}

func pluralize(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package cli

import (
	"path/filepath"

	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/vouch"

	"github.com/gitwarrant/gitwarrant/internal/lint"
	"github.com/spf13/cobra"
)

// lintFindingJSON is the stable --json shape of one finding.
type lintFindingJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Severity string `json:"severity"`
	Check    string `json:"check"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

type lintJSON struct {
	Files    int               `json:"files"`
	Errors   int               `json:"errors"`
	Warnings int               `json:"warnings"`
	Findings []lintFindingJSON `json:"findings"`
}

func newLintCmd(app *App) *cobra.Command {
	var strict, asJSON bool
	cmd := &cobra.Command{
		Use:   "lint [--strict] [--json] [path…]",
		Short: "review the loop files: errors (file:line) and warnings; exit 1 on an error (--strict: on a warning too)",
		Long: `Review loop files before they bind anyone: every error with file:line, and
warnings — a file read leniently, an allow entry no tool call can use, one
its own ask or never list always catches first — and notes, which fail
nothing: what an entry the gate reads through (Bash(make *), Bash(uv *),
Bash(python -m *), Bash(npx *)) will and will not allow.

Paths are loop files or folders of them; the default is this project's
loops folder.

Exit status:
  0  no errors (and, with --strict, no warnings)
  1  an error (with --strict, a warning too), or nothing to lint`,
		RunE: func(cmd *cobra.Command, args []string) error {
			paths := args
			if len(paths) == 0 {
				p, err := app.Project()
				if err != nil {
					return err
				}
				paths = []string{p.LoopsDir()}
			}
			files, err := lint.Load(paths)
			if err != nil {
				return Usagef("name loop files or folders that exist", "lint: %v", err)
			}
			if len(files) == 0 {
				return Usagef("create one with `gitwarrant new <name> --template <t>`", "lint: no loop files in %v", paths)
			}
			fs := append(lint.Run(files, lintOptions(app)), inForceFindings(app, files)...)
			errs, warns := lint.Count(fs)
			if asJSON {
				out := lintJSON{Files: len(files), Errors: errs, Warnings: warns, Findings: []lintFindingJSON{}}
				for _, f := range fs {
					out.Findings = append(out.Findings, lintFindingJSON{File: f.File, Line: f.Line,
						Severity: string(f.Severity), Check: f.Check, Message: f.Msg, Hint: f.Hint})
				}
				if err := writeJSON(app.IO.Out, out); err != nil {
					return err
				}
			} else {
				printLint(app, fs, len(files), errs, warns)
			}
			if errs > 0 || (strict && warns > 0) {
				return Silent(ExitError1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 on warnings too")
	jsonFlag(cmd, &asJSON)
	return cmd
}

func printLint(app *App, fs []lint.Finding, files, errs, warns int) {
	st := app.IO.Style()
	for _, f := range fs {
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		sev := st.Yellow("warning")
		switch f.Severity {
		case lint.Error:
			sev = st.Red("error")
		case lint.Note:
			sev = st.Dim("note")
		}
		fmt.Fprintf(app.IO.Out, "%s: %s: %s [%s]\n", loc, sev, f.Msg, f.Check)
		if f.Hint != "" {
			fmt.Fprintf(app.IO.Out, "  %s\n", st.Dim(f.Hint))
		}
	}
	fmt.Fprintf(app.IO.Out, "%s, %s, %s\n", pluralize(files, "loop file"), pluralize(errs, "error"), pluralize(warns, "warning"))
}

// inForceFindings warns of each of the project's loop files whose bytes
// are not the version in force (docs/signing.md#only-a-signed-warrant-is-in-force).
func inForceFindings(app *App, files []*lint.File) []lint.Finding {
	p, err := app.Project()
	if err != nil {
		return nil
	}
	st, err := vouch.New(p).State()
	if err != nil {
		return []lint.Finding{{File: p.LoopsDir(), Severity: lint.Warning, Check: "in-force",
			Msg: "the record's signed entries cannot be read: " + err.Error(), Hint: "run `gitwarrant record verify`"}}
	}
	var out []lint.Finding
	for _, f := range files {
		if f.Raw == nil || filepath.Dir(f.Path) != filepath.Clean(p.LoopsDir()) {
			continue
		}
		if v := st.Decide(f.Raw.Name, f.Raw.Source); !v.InForce {
			out = append(out, lint.Finding{File: f.Path, Severity: lint.Warning, Check: "in-force", Msg: v.Note,
				Hint: "a signer reviews the change and runs `gitwarrant bless " + f.Raw.Name + "`"})
		}
	}
	return out
}

package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/templates"
	"github.com/spf13/cobra"
)

const projectReadme = `# .gitwarrant

This directory is the warrant and the record for AI agents in this repository.

- loops/<name>.loop.md — one recurring task each: brief, procedure, warrant,
  reserved, record. Review changes to these like code: they are permissions.
- record/<writer>/ — the branch's copy of the hash-chained record, one chain
  per writer, carried by each commit from refs/gitwarrant/<writer>. Never
  edit by hand; ` + "`gitwarrant record verify`" + ` shows any tampering.
- allowed_signers — the humans who may sign warrant amends (OpenSSH format).

Commit all of it. See ` + "`gitwarrant help`" + `.
`

func newInitCmd(app *App) *cobra.Command {
	var noBaseline bool
	cmd := &cobra.Command{
		Use:   "init [--no-baseline]",
		Short: "create .gitwarrant/ here (or recognise an existing .docket/)",
		Long: `Create the project directory .gitwarrant/ with loops/ and record/ in the
current directory (or --dir), and the baseline loop: the hard stops and
asks every coding agent's calls meet, which every job loop ` + "`gitwarrant new`" + `
writes extends (docs/sessions.md#the-baseline). An existing .gitwarrant/ or
docket .docket/ project is recognised and left as it is.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runInit(app, noBaseline) },
	}
	cmd.Flags().BoolVar(&noBaseline, "no-baseline", false, "do not create the baseline loop")
	return cmd
}

func runInit(app *App, noBaseline bool) error {
	root := app.Cwd
	if app.DirFlag != "" {
		root = app.DirFlag
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if filepath.Base(root) == project.DirName || filepath.Base(root) == project.LegacyDirName {
		root = filepath.Dir(root)
	}
	// Said now rather than at the first check: nothing else would work
	// here (docs/design.md#repositories-gitwarrant-refuses).
	if _, err := gitx.Discover(root); errors.Is(err, gitx.ErrUnsupported) {
		return &ExitError{Code: ExitError1, Err: err}
	}
	for _, name := range []string{project.DirName, project.LegacyDirName} {
		d := filepath.Join(root, name)
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			kind := "gitwarrant"
			if name == project.LegacyDirName {
				kind = "docket"
			}
			fmt.Fprintf(app.IO.Out, "already initialized: %s (%s project)\n", d, kind)
			return nil
		} else if err == nil {
			return Failf("%s exists but is not a directory — move it aside and run `gitwarrant init` again", d)
		}
	}
	dir := filepath.Join(root, project.DirName)
	for _, sub := range []string{"loops", "record"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return Failf("creating %s: %v", filepath.Join(dir, sub), err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(projectReadme), 0o644); err != nil {
		return Failf("writing %s: %v", filepath.Join(dir, "README.md"), err)
	}
	st := app.IO.Style()
	fmt.Fprintf(app.IO.Out, "%s initialized %s\n", st.Green("✓"), dir)
	if !noBaseline {
		t, _ := templates.Get(templates.Baseline)
		body, err := templates.Render(t, templates.Baseline, nil)
		if err == nil {
			err = writeNewFile(filepath.Join(dir, "loops", templates.Baseline+loops.FileSuffix), body)
		}
		if err != nil {
			return Failf("writing the baseline loop: %v", err)
		}
		fmt.Fprintf(app.IO.Out, "%s created %s — hard stops and asks every job loop extends\n", st.Green("✓"), filepath.Join(project.DirName, "loops", templates.Baseline+loops.FileSuffix))
	}
	if eco := templates.Detect(root).Ecosystems; len(eco) > 0 {
		// new writes these projects' own commands and folders into a template's typed entries.
		fmt.Fprintf(app.IO.Out, "  detected: %s — `gitwarrant new` names its commands and folders\n", strings.Join(eco, ", "))
	}
	fmt.Fprintln(app.IO.Out, st.Dim("  next: gitwarrant new <name> --template <t>   (gitwarrant templates lists them)"))
	return nil
}

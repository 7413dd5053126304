package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/templates"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
	"github.com/spf13/cobra"
)

func newNewCmd(app *App) *cobra.Command {
	var tmpl string
	cmd := &cobra.Command{
		Use:   "new <name> [--template T]",
		Short: "create a loop (from a template, or by a five-question interview)",
		Long: `Create .gitwarrant/loops/<name>.loop.md.

With --template, start from a starter template (see ` + "`gitwarrant templates`" + `).
Without it, answer five questions at the terminal: what the agent must know,
how the work is done, what it may do without asking, where it must stop, and
what evidence it owes. An existing loop is never overwritten.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return Usagef("example: gitwarrant new appeal --template insurance-appeal (`gitwarrant templates` lists them)",
					"new needs exactly one loop name (got %d argument(s))", len(args))
			}
			return runNew(app, args[0], tmpl)
		},
	}
	cmd.Flags().StringVarP(&tmpl, "template", "t", "", "starter template name")
	return cmd
}

func runNew(app *App, name, tmpl string) error {
	if !loops.ValidName(name) {
		return Usagef("use lowercase letters, digits and dashes, e.g. `appeal` or `fix-bug`",
			"%q is not a valid loop name", name)
	}
	p, err := app.Project()
	if err != nil {
		return err
	}
	var body []byte
	switch {
	case tmpl != "":
		t, ok := templates.Get(tmpl)
		if !ok {
			return Usagef("run `gitwarrant templates` to list them", "no template named %q", tmpl)
		}
		if body, err = templates.Render(t, name, templates.Detect(p.Root)); err != nil {
			return Failf("rendering template %s: %v", tmpl, err)
		}
	case app.IO.CanPrompt():
		if body, err = interview(app, name); err != nil {
			return err
		}
	default:
		return Usagef("pass --template T (see `gitwarrant templates`), or run it at a terminal for the interview",
			"no terminal to ask the five questions on")
	}
	extended := false
	if name != templates.Baseline {
		if b, err := loops.LoadByName(p.LoopsDir(), templates.Baseline); err == nil && b.Abstract {
			ext, err := templates.Extend(body, name, templates.Baseline)
			if err != nil {
				return Failf("adding `extends: %s` to the new loop: %v", templates.Baseline, err)
			}
			extended = len(ext) != len(body)
			body = ext
		}
	}
	path := filepath.Join(p.LoopsDir(), name+".loop.md")
	if err := writeNewFile(path, body); err != nil {
		return err
	}
	st := app.IO.Style()
	rel, _ := filepath.Rel(app.Cwd, path)
	fmt.Fprintf(app.IO.Out, "%s created %s\n", st.Green("✓"), rel)
	if extended {
		fmt.Fprintf(app.IO.Out, "  it extends %s: the baseline's hard stops and asks apply to it too\n", templates.Baseline)
	}
	fmt.Fprintln(app.IO.Out, st.Dim("  "+newNextStep(p, name)))
	return nil
}

// newNextStep says what a new loop needs before it binds an agent: install
// compiles it into every agent's context file (compile --write does one
// file), and once signing is adopted a loop written by hand allows nothing
// until a signer blesses it (docs/signing.md#adopting-signing).
func newNextStep(p *project.Project, name string) string {
	const install = "`gitwarrant install` compiles it into every agent's context file"
	if st, err := vouch.New(p).State(); err == nil && st.Adopted {
		return "review its warrant; until a signer blesses it (`gitwarrant bless " + name + " --key <key>`) it allows nothing; then " + install
	}
	return "review its warrant, then " + install
}

// writeNewFile creates path exclusively: an existing loop is never replaced.
func writeNewFile(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Failf("creating %s: %v", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return Usagef("pick another name, or edit the existing file", "%s already exists", path)
	}
	if err != nil {
		return Failf("creating %s: %v", path, err)
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		os.Remove(path)
		return Failf("writing %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return Failf("writing %s: %v", path, err)
	}
	return nil
}

var interviewQuestions = []string{
	"What must the agent know before it starts?",
	"How is this work supposed to be done?",
	"What may it do without asking? (comma-separated, concrete nouns)",
	"Where does it have to stop? (comma-separated)",
	"What evidence must it leave behind? (comma-separated)",
}

func interview(app *App, name string) ([]byte, error) {
	in := bufio.NewReader(app.IO.In)
	answers := make([]string, len(interviewQuestions))
	for i, q := range interviewQuestions {
		fmt.Fprintf(app.IO.Err, "%d/5 %s\n> ", i+1, q)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return nil, Failf("interview ended before question %d was answered — nothing was written", i+1)
		}
		answers[i] = strings.TrimSpace(line)
	}
	return templates.FromAnswers(name, templates.Answers{
		Know: answers[0], HowDone: answers[1], MayDo: answers[2], Stop: answers[3], Evidence: answers[4],
	})
}

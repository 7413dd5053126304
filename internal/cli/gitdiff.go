package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/spf13/cobra"
)

// gitDiffAttr routes loop files to the gitwarrant diff driver
// (docs/signing.md#git-diff-of-loop-files).
const gitDiffAttr = "*.loop.md diff=gitwarrant"

// installGitDiff adds the attribute line to the work tree's .gitattributes
// and the textconv to the repository's own config.
// quiet (install --json) keeps stdout for the JSON object.
func installGitDiff(app *App, p *project.Project, quiet bool) error {
	repo, err := gitx.Discover(p.Dir)
	if err != nil {
		return Usagef("run it inside a Git repository", "--git-diff: %v", err)
	}
	path := filepath.Join(repo.WorkTree, ".gitattributes")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return Failf("reading %s: %v", path, err)
	}
	if !hasLine(string(data), gitDiffAttr) {
		s := string(data)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if err := writeFileAtomic(path, []byte(s+gitDiffAttr+"\n")); err != nil {
			return Failf("writing %s: %v", path, err)
		}
		if !quiet {
			fmt.Fprintf(app.IO.Out, "%-8s %s\n", "updated", ".gitattributes")
		}
	}
	if _, err := repo.Git("config", "diff.gitwarrant.textconv", "gitwarrant textconv"); err != nil {
		return Failf("%v", err)
	}
	if !quiet {
		fmt.Fprintln(app.IO.Out, "git diff of loop files now shows the resolved warrant (diff.gitwarrant.textconv)")
	}
	return nil
}

func hasLine(s, line string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// newTextconvCmd is git's textconv for loop files: the resolved warrant,
// one `<list>: <entry>` line per entry, then the file as it is. It never
// fails, so git diff always shows something.
func newTextconvCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:    "textconv <file>",
		Short:  "render a loop file's warrant for git diff (see install --git-diff)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return Failf("%v", err)
			}
			fmt.Fprint(app.IO.Out, Textconv(data))
			return nil
		},
	}
}

var nameLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^name:\s*["']?([a-z0-9][a-z0-9-]*)`) })

// Textconv renders a loop file for git diff. git hands textconv a
// temporary file, so the loop's name is taken from its own `name:` line.
func Textconv(data []byte) string {
	name := "loop"
	if m := nameLineRE().FindSubmatch(data); m != nil {
		name = string(m[1])
	}
	var b strings.Builder
	l, err := loops.Parse(name+loops.FileSuffix, data)
	if err != nil {
		fmt.Fprintf(&b, "warrant: (the file does not parse: %v)\n", err)
	} else {
		fmt.Fprintf(&b, "warrant of %s:\n", l.Name)
		if l.Extends.Text != "" {
			// git hands textconv one blob: the parent's entries are
			// not resolved here; `gitwarrant diff` resolves them.
			fmt.Fprintf(&b, "  extends: %s\n", l.Extends.Text)
		}
		if l.Abstract {
			fmt.Fprintln(&b, "  abstract: true")
		}
		for _, list := range loops.AmendLists {
			items, _ := l.ItemsOf(list)
			for _, it := range items {
				fmt.Fprintf(&b, "  %s: %s\n", list, it.Text)
			}
		}
	}
	b.WriteString("----\n")
	b.Write(data)
	return b.String()
}

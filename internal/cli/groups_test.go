package cli_test

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/term"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
	"github.com/spf13/cobra"
)

// TestEveryGroupFailsClosed walks the whole command tree and runs the real
// binary for every command that has subcommands: a missing subcommand and
// a misspelt one must both exit 1 with the reason on stderr and nothing on
// stdout — never help and exit 0, which a CI step or a git hook would take
// for success. A group added later is walked too, so one that prints help
// and exits 0 fails here.
func TestEveryGroupFailsClosed(t *testing.T) {
	bin := testkit.Binary(t) // built from cmd/gitwarrant
	var groups []*cobra.Command
	for _, c := range commandTree() {
		if c.HasSubCommands() {
			groups = append(groups, c)
		}
	}
	seen := map[string]bool{}
	for _, g := range groups {
		seen[g.CommandPath()] = true
	}
	for _, want := range []string{"gitwarrant", "gitwarrant record", "gitwarrant hook", "gitwarrant completion"} {
		if !seen[want] {
			t.Errorf("the walk missed the group %q (found %v)", want, seen)
		}
	}
	// The hook group exits 2: its callers are Claude Code, which takes exit
	// 1 as "go ahead" and only 2 as "block", and git, which stops on both.
	wantExit := map[string]int{"gitwarrant hook": 2}
	dir := t.TempDir()
	for _, g := range groups {
		want := 1
		if c, ok := wantExit[g.CommandPath()]; ok {
			want = c
		}
		path := strings.Fields(g.CommandPath())[1:]
		sub := g.Commands()[len(g.Commands())-1].Name()
		typo := sub[:len(sub)-1] // one letter short: cobra must suggest sub
		t.Run(g.CommandPath(), func(t *testing.T) {
			stdout, stderr, code := runIn(t, dir, bin, path...)
			if code != want || stdout != "" || !(strings.Contains(stderr, "needs a command") || strings.Contains(stderr, "no command given")) || !strings.Contains(stderr, sub) {
				t.Errorf("%s with no subcommand: exit %d\nstdout: %q\nstderr: %q", g.CommandPath(), code, stdout, stderr)
			}
			stdout, stderr, code = runIn(t, dir, bin, append(path, typo)...)
			unknown := `unknown command "` + typo + `" for "` + g.CommandPath() + `"`
			if code != want || stdout != "" || !strings.Contains(stderr, unknown) || !strings.Contains(stderr, `did you mean`) || !strings.Contains(stderr, `"`+sub+`"`) {
				t.Errorf("%s %s: exit %d\nstdout: %q\nstderr: %q", g.CommandPath(), typo, code, stdout, stderr)
			}
			// `gitwarrant help <group> <typo>` names the same mistake (a
			// person asked, so exit 1 whatever the group).
			stdout, stderr, code = runIn(t, dir, bin, append([]string{"help"}, append(path, typo)...)...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, unknown) {
				t.Errorf("help %s %s: exit %d\nstdout: %q\nstderr: %q", g.CommandPath(), typo, code, stdout, stderr)
			}
		})
	}
}

// commandTree is every command of the tree the binary runs, root first.
func commandTree() []*cobra.Command {
	root := cli.NewRootCmd(&cli.App{IO: &term.Streams{}, Getenv: func(string) string { return "" }})
	out := []*cobra.Command{root}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].Commands()...)
	}
	return out
}

func runIn(t *testing.T, dir, bin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestFlagPlaceholdersAreValueNames walks every flag of every command:
// a word in backticks in a flag's usage becomes its placeholder in the
// help, so it must name the value (`--writer W`), and a flag that takes
// no value must have none (docs/design.md#help-text).
func TestFlagPlaceholdersAreValueNames(t *testing.T) {
	for _, p := range testkit.FlagPlaceholderProblems(commandTree()[0]) {
		t.Error(p)
	}
}

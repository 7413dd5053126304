package testkit

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestFlagPlaceholderProblemsCatchesEachKind holds the walk itself to the
// cases issue 28 found: a command named in backticks on a flag that takes
// no value (`--pre-push gitwarrant ci`), a placeholder with a space or one
// that is a command word (`--writer gitwarrant record verify`), in a
// subcommand's subcommand; and it passes value names (docs/design.md#help-text).
func TestFlagPlaceholderProblemsCatchesEachKind(t *testing.T) {
	root := &cobra.Command{Use: "gitwarrant"}
	record := &cobra.Command{Use: "record"}
	export := &cobra.Command{Use: "export", Run: func(*cobra.Command, []string) {}}
	install := &cobra.Command{Use: "install", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(record, install)
	record.AddCommand(export)
	var s string
	var b bool
	var n int
	export.Flags().StringVar(&s, "writer", "", "the writer (`gitwarrant record verify` names them)")
	export.Flags().StringVar(&s, "since", "", "entries after `DATE`")
	export.Flags().StringVar(&s, "from", "", "a `git` revision")
	install.Flags().BoolVar(&b, "pre-push", false, "also run `gitwarrant ci` before a push")
	install.Flags().IntVar(&n, "hook-port", 0, "the loopback `PORT`")
	install.Flags().StringVar(&s, "addr", "", "listen on `HOST:PORT`")
	install.Flags().StringVar(&s, "dir", "", "project directory (no backticks: pflag prints the type)")
	got := strings.Join(FlagPlaceholderProblems(root), "\n")
	for _, want := range []string{"gitwarrant record export --writer", "gitwarrant record export --from", "gitwarrant install --pre-push"} {
		if !strings.Contains(got, want+" ") && !strings.Contains(got, want+":") {
			t.Errorf("not reported: %s\ngot:\n%s", want, got)
		}
	}
	for _, fine := range []string{"--since", "--hook-port", "--addr", "--dir"} {
		if strings.Contains(got, fine+" ") || strings.Contains(got, fine+":") {
			t.Errorf("reported, but a value name: %s\ngot:\n%s", fine, got)
		}
	}
}

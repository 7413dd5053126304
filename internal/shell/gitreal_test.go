package shell

import (
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// realGit returns a function running the git on this machine in a fresh
// repository, with no user or system configuration.
func realGit(t *testing.T) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = env
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	run("init", "-q", ".")
	return run
}

// helperOptions reads git's --git-completion-helper-all output into the
// long option names the subcommand declares.
func helperOptions(out string) []string {
	toks := strings.Fields(out)
	var first []string
	for _, t := range toks {
		if t == "--" {
			break
		}
		first = append(first, t)
	}
	have := map[string]bool{}
	var names []string
	for _, t := range first {
		n := strings.TrimSuffix(strings.TrimPrefix(t, "--"), "=")
		if have["no-"+n] {
			continue // the positive form of a no-x option
		}
		if strings.HasPrefix(n, "no-") && have[n[3:]] {
			continue // a negation printed before "--"
		}
		have[n] = true
		names = append(names, n)
	}
	return names
}

// TestGitOptionTablesMatchGit: every long option the installed git declares
// for a subcommand is in the tables (so a prefix is never resolved here to
// an option other than git's). See docs/shell.md#git.
func TestGitOptionTablesMatchGit(t *testing.T) {
	git := realGit(t)
	subs := make([]string, 0, len(gitOptTable()))
	for s := range gitOptTable() {
		subs = append(subs, s)
	}
	sort.Strings(subs)
	for _, sub := range subs {
		args := append(strings.Fields(sub), "--git-completion-helper-all")
		names := helperOptions(git(args...))
		if len(names) == 0 {
			t.Errorf("git %s: no options from the completion helper", sub)
			continue
		}
		table := lookupGitOpts(sub)
		for _, n := range names {
			if table.find(n) == nil {
				t.Errorf("git %s --%s: not in the option table (regenerate gitopts_table.go or add it to gitopts_extra.go)", sub, n)
			}
		}
	}
}

// TestGitPrefixesMatchGit: for every prefix of every option (and of its
// --no- form) of some subcommands, the parser and the installed git agree
// on whether it is ambiguous, unknown or an option.
func TestGitPrefixesMatchGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git a few thousand times")
	}
	git := realGit(t)
	for _, sub := range []string{"push", "commit", "reset", "gc", "branch", "reflog expire"} {
		table := lookupGitOpts(sub)
		seen := map[string]bool{}
		var prefixes []string
		for _, o := range table.long {
			if o.alias != "" {
				continue
			}
			for _, base := range []string{o.long, "no-" + o.long} {
				for i := 1; i <= len(base); i++ {
					p := base[:i]
					if !seen[p] {
						seen[p] = true
						prefixes = append(prefixes, p)
					}
				}
			}
		}
		for _, p := range prefixes {
			out := git(append(strings.Fields(sub), "--"+p+"=x", "-h")...)
			real := "ok"
			switch {
			case strings.Contains(out, "ambiguous option"):
				real = "ambiguous"
			case strings.Contains(out, "unknown option"):
				real = "unknown"
			}
			op, _, _, _, amb := table.matchLong(p + "=x")
			mine := "ok"
			switch {
			case amb != nil:
				mine = "ambiguous"
			case op == nil:
				mine = "unknown"
			}
			if mine != real && !newerOnly(sub, p) {
				t.Errorf("git %s --%s: git says %s, the parser %s (%s)", sub, p, real, mine, strings.SplitN(out, "\n", 2)[0])
			}
		}
	}
}

// newerOnly: prefixes whose reading differs only because gitopts_extra.go
// adds options the installed git does not have.
func newerOnly(sub, p string) bool {
	extra := gitOptExtra()[sub][0]
	for _, f := range strings.Fields(extra) {
		name := strings.TrimRight(strings.Split(f, ">")[0], "=!")
		if strings.HasPrefix(name, p) || strings.HasPrefix("no-"+name, p) {
			return true
		}
	}
	return false
}

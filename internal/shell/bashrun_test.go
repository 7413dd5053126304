package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestClausesMatchBashRuns runs commands under bash with stubs for rm,
// git, cp, chmod and touch first on PATH (each logs its argv and does
// nothing): every command bash actually ran is among the clauses the
// parser found.
func TestClausesMatchBashRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash and real commands a few hundred times")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\nprintf '%s' \"${0##*/}\" >> \"$STUBLOG\"\nfor a in \"$@\"; do printf '\\037%s' \"$a\" >> \"$STUBLOG\"; done\nprintf '\\n' >> \"$STUBLOG\"\n"
	for _, n := range []string{"rm", "git", "cp", "chmod", "touch"} {
		if err := os.WriteFile(filepath.Join(bin, n), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	corpus := append(slices.Clone(everywhere),
		`git push origin feature-branch:ma''in # push to the feature branch`,
		`G=git; $G push --force origin main`,
		`echo 'git push -f' > s.sh && sh s.sh`,
		`git -c alias.p='push --force' p origin main`,
		`env -S 'git push' --mirror`,
		`xargs -I{} git push origin {} <<< main`,
		`find . -maxdepth 0 -exec git push origin main \;`,
		`F=.gitwarrant; rm -rf $F`,
		`cd /tmp && git push`,
		`echo git push | sh`,
		`printf 'git\x20push\n' | bash`,
		`bash -c "$(printf 'git push -f')"`,
	)
	ran, matched := 0, 0
	for i, src := range corpus {
		// a log per command: a stray process of an earlier one cannot
		// write into it
		log := filepath.Join(dir, fmt.Sprintf("log%d", i))
		work := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", src)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + work, "STUBLOG=" + log, "LC_ALL=C", "SHELL=/bin/bash"}
		cmd.Stdin = strings.NewReader("")
		// commands that never end (watch, entr …) are stopped with their
		// children
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = time.Second
		_ = cmd.Run()
		cancel()
		data, err := os.ReadFile(log)
		if err != nil {
			continue // nothing stubbed ran (a wrapper not installed, …)
		}
		s := Parse(src)
		var clauses [][]string
		for _, c := range s.Clauses {
			args := c.Strings()
			if len(args) > 0 {
				args[0] = baseName(args[0])
			}
			clauses = append(clauses, args)
		}
		lines := strings.Split(string(data), "\n")
		// the last element is "" after a complete line; a stub stopped
		// while logging (a loop that never ends) leaves a partial one
		lines = lines[:len(lines)-1]
		for _, line := range lines {
			argv := strings.Split(line, "\x1f")
			ran++
			if slices.ContainsFunc(clauses, func(c []string) bool { return slices.Equal(c, argv) }) {
				matched++
				continue
			}
			// a command that got operands from input (xargs, find -exec)
			// matches a clause that is a prefix of it and opaque
			prefix := false
			for _, c := range s.Clauses {
				args := c.Strings()
				if len(args) > 0 {
					args[0] = baseName(args[0])
				}
				if c.Opaque && len(args) <= len(argv) && slices.EqualFunc(args, argv[:len(args)], func(a, b string) bool {
					return a == b || strings.Contains(a, "{}") // xargs -I{}, find -exec … {}
				}) {
					prefix = true
				}
			}
			if prefix {
				matched++
				continue
			}
			t.Errorf("%s: bash ran %q, which no clause names:\n%s", src, argv, dump(s))
		}
	}
	if ran < len(everywhere)/2 {
		t.Errorf("only %d stubbed commands ran; the test is not exercising bash", ran)
	}
	t.Logf("%d commands bash ran, %d found among the clauses", ran, matched)
}

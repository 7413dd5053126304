package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run install against repositories shaped like real ones, with
// the real hook managers: husky 9 and lefthook 1 and 2 from npm, installed
// under $GITWARRANT_HOOKTOOLS (lefthook1/, lefthook2/, husky9/ — npm
// prefixes; .ci/run makes them), and pre-commit from the system (Debian
// ships 3.0.4). A tool that is missing skips its test, saying how to get
// it; CI has them all.

// skipOrFail skips a test whose tool is missing — or fails it in CI, where
// .ci/run sets GITWARRANT_REQUIRE_HOOKTOOLS so a missing tool cannot pass
// as a skip.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("GITWARRANT_REQUIRE_HOOKTOOLS") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// hookTool returns the path of a tool under $GITWARRANT_HOOKTOOLS (rel may
// be a glob), or skips.
func hookTool(t *testing.T, sub, rel, install string) string {
	t.Helper()
	dir := os.Getenv("GITWARRANT_HOOKTOOLS")
	if dir == "" {
		skipOrFail(t, "GITWARRANT_HOOKTOOLS is not set: run .ci/run, or `npm install --prefix <dir>/%s %s` and set GITWARRANT_HOOKTOOLS=<dir>", sub, install)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, sub, rel))
	if len(matches) == 0 {
		skipOrFail(t, "%s is missing: `npm install --prefix %s %s` (or run .ci/run)", filepath.Join(dir, sub, rel), filepath.Join(dir, sub), install)
	}
	return matches[0]
}

// systemTool finds a tool on the PATH of the machine (before testEnv
// narrows it), or skips.
func systemTool(t *testing.T, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		skipOrFail(t, "%s is not installed: %s (or run .ci/run)", name, install)
	}
	return p
}

// onPath puts tools on the test's PATH under their own names.
func onPath(t *testing.T, tools map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, p := range tools {
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// run runs a program in dir, failing the test on error.
func run(t *testing.T, dir, prog string, args ...string) string {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// managerCycle is the acceptance cycle for one fixture: install (exit 0,
// every gate live), a second install that changes nothing, doctor live, a
// commit that runs gitwarrant's gate and the user's own hook (marker), a
// forged record refused, then uninstall back to the bytes of before.
func managerCycle(t *testing.T, root, marker string, extra func()) {
	t.Helper()
	before := snapshot(t, root)
	out, errs, code := gw(t, root, "install")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	for _, g := range []string{"live  git pre-commit hook", "live  git commit-msg hook", "live  Claude Code hook"} {
		if !strings.Contains(out, g) {
			t.Errorf("install's doctor table lacks %q:\n%s%s", g, out, errs)
		}
	}
	installed := snapshot(t, root)
	if out, errs, code := gw(t, root, "install"); code != 0 || !strings.Contains(out, "install: nothing to change") {
		t.Errorf("second install: exit %d\n%s%s", code, out, errs)
	}
	sameSnapshot(t, "second install", installed, snapshot(t, root))
	if out, errs, code := gw(t, root, "doctor"); code != 0 {
		t.Errorf("doctor after install: exit %d\n%s%s", code, out, errs)
	}
	if extra != nil {
		extra()
	}

	// A commit runs the user's hook and gitwarrant's, which stages the chain.
	if out, errs, code := gw(t, root, "record", "add", "release", "--did", "cut the release"); code != 0 {
		t.Fatalf("record add: exit %d\n%s%s", code, out, errs)
	}
	write(t, filepath.Join(root, "x.txt"), "x\n", 0o644)
	git(t, root, "add", "x.txt")
	commit := git(t, root, "commit", "-m", "x")
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the user's own hook did not run:\n%s", commit)
	}
	if files := git(t, root, "show", "--name-only", "--format=", "HEAD"); !strings.Contains(files, ".gitwarrant/record/") {
		t.Fatalf("gitwarrant's pre-commit did not stage the record:\n%s\n%s", files, commit)
	}
	if msg := git(t, root, "log", "-1", "--format=%B"); !strings.Contains(msg, "Warrant-Head:") {
		t.Fatalf("gitwarrant's commit-msg did not add the trailer:\n%s", msg)
	}

	// A forged record: an entry edited after the fact. The gate refuses it.
	chains, _ := filepath.Glob(filepath.Join(root, ".gitwarrant/record/*/*.jsonl")) // a writer's segments (docs/record.md#the-branch-copy)
	if len(chains) != 1 {
		t.Fatalf("want one chain, got %v", chains)
	}
	orig := read(t, chains[0])
	write(t, chains[0], strings.Replace(orig, "cut the release", "cut the relaese", 1), 0o644)
	git(t, root, "add", chains[0])
	if out, err := gitErr(root, "commit", "-m", "forged"); err == nil {
		t.Fatalf("a forged record was committed:\n%s", out)
	} else if !strings.Contains(out, "gitwarrant") {
		t.Fatalf("the forged commit failed, but not by gitwarrant:\n%s", out)
	}
	write(t, chains[0], orig, 0o644)
	git(t, root, "add", chains[0])

	out, errs, code = gw(t, root, "uninstall")
	if code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	after := snapshot(t, root)
	for k := range after {
		if strings.HasPrefix(k, ".gitwarrant/record/") || k == "x.txt" {
			delete(after, k)
		}
	}
	sameSnapshot(t, "after uninstall", before, after)
}

// lefthookNative is lefthook's own binary in its npm package for this
// platform (the .bin entry is a node wrapper; the binary needs no node).
const lefthookNative = "node_modules/lefthook-*/bin/lefthook"

// handSettings holds a hand-written, pinned gitwarrant hook with its own
// timeout next to another hook, and no final newline (problems 1 and 5).
const handSettings = `{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/guard.sh"}]},
      {"matcher": "*", "hooks": [{"type": "command", "command": "gitwarrant hook claude --loop release", "timeout": 20, "onFailure": "block"}]}
    ]
  }
}`

// Repository 1: hand-written Claude Code hooks and lefthook 1's commands:
// form, with comments.
func TestRealLefthook1CommandsForm(t *testing.T) {
	lefthook := hookTool(t, "lefthook1", lefthookNative, "lefthook@1")
	root := newProject(t)
	onPath(t, map[string]string{"lefthook": lefthook}) // lefthook 1's hook scripts look for it there
	marker := filepath.Join(t.TempDir(), "lint-ran")
	write(t, filepath.Join(root, ".claude/settings.json"), handSettings, 0o644)
	lf := "# lefthook: keep this comment\npre-commit:\n  parallel: false\n  commands:\n    # the user's own check\n    lint:\n      run: touch '" + marker + "'\ncommit-msg:\n  commands:\n    msg:\n      run: test -s {1}\n"
	write(t, filepath.Join(root, "lefthook.yml"), lf, 0o644)
	run(t, root, lefthook, "install")
	managerCycle(t, root, marker, func() {
		s := read(t, filepath.Join(root, ".claude/settings.json"))
		if !strings.Contains(s, `"command": "gitwarrant hook claude --loop release", "timeout": 20`) || strings.Count(s, "gitwarrant hook claude\"") > 0 {
			t.Errorf("the hand-written pinned hook was not kept as it was:\n%s", s)
		}
		// lefthook 1's script looks for lefthook on PATH: without it the
		// hook does nothing, and doctor says so.
		path := os.Getenv("PATH")
		t.Setenv("PATH", strings.Join(filepath.SplitList(path)[1:], string(os.PathListSeparator)))
		if out, _, code := gw(t, root, "doctor"); code != 1 || !strings.Contains(out, "it finds no lefthook") {
			t.Errorf("doctor with lefthook unreachable: want exit 1 naming it, got %d:\n%s", code, out)
		}
		t.Setenv("PATH", path)
		// lefthook-local.yml merged over the config can skip gitwarrant.
		local := filepath.Join(root, "lefthook-local.yml")
		write(t, local, "pre-commit:\n  commands:\n    gitwarrant-record:\n      skip: true\n", 0o644)
		if out, _, code := gw(t, root, "doctor"); code != 1 || !strings.Contains(out, "lefthook-local.yml:4 skips gitwarrant's command") {
			t.Errorf("doctor with a local skip: want exit 1 naming it, got %d:\n%s", code, out)
		}
		os.Remove(local)
		got := read(t, filepath.Join(root, "lefthook.yml"))
		if !strings.HasPrefix(got, "# lefthook: keep this comment\npre-commit:\n  parallel: false\n  commands:\n    # gitwarrant:begin pre-commit") ||
			!strings.Contains(got, "    # the user's own check\n    lint:\n") {
			t.Errorf("lefthook.yml not edited in place, comments and order kept:\n%s", got)
		}
	})
}

// Repository 2: lefthook 2's jobs: form, a job that exits early, and no
// commit-msg hook configured yet (problem 2).
func TestRealLefthook2JobsForm(t *testing.T) {
	lefthook := hookTool(t, "lefthook2", lefthookNative, "lefthook@2")
	root := newProject(t)
	onPath(t, map[string]string{"lefthook": lefthook})
	marker := filepath.Join(t.TempDir(), "early-ran")
	lf := "pre-commit:\n  jobs:\n    - name: early\n      run: touch '" + marker + "'; exit 0\n    - run: echo second"
	write(t, filepath.Join(root, "lefthook.yml"), lf, 0o644) // no final newline
	run(t, root, lefthook, "install")
	managerCycle(t, root, marker, func() {
		got := read(t, filepath.Join(root, "lefthook.yml"))
		if !strings.HasPrefix(got, "pre-commit:\n  jobs:\n    # gitwarrant:begin pre-commit") || !strings.Contains(got, "\ncommit-msg:\n  jobs:\n    - name: gitwarrant-trailer") {
			t.Errorf("lefthook.yml: want gitwarrant's jobs in the jobs: form:\n%s", got)
		}
		// `lefthook install`, as the note asks: lefthook takes the
		// commit-msg slot over (moving gitwarrant's script to commit-msg.old)
		// and runs gitwarrant's job itself; uninstall still restores it all.
		run(t, root, lefthook, "install")
		if _, err := os.Stat(filepath.Join(root, ".git/hooks/commit-msg.old")); err != nil {
			t.Errorf("lefthook did not move gitwarrant's commit-msg aside: %v", err)
		}
		if out, _, code := gw(t, root, "doctor"); code != 0 {
			t.Errorf("doctor after lefthook install: exit %d\n%s", code, out)
		}
		out := run(t, root, lefthook, "dump")
		if !strings.Contains(out, "gitwarrant hook pre-commit") || !strings.Contains(out, "gitwarrant hook commit-msg") {
			t.Errorf("lefthook 2 does not see gitwarrant's jobs:\n%s", out)
		}
	})
}

// Repository 3: husky 9, a user script that exits early with 0, and an
// existing .mcp.json (problems 3 and 7).
func TestRealHusky9(t *testing.T) {
	husky := hookTool(t, "husky9", "node_modules/husky/bin.js", "husky@9")
	node := systemTool(t, "node", "install Node.js")
	root := newProject(t)
	marker := filepath.Join(t.TempDir(), "husky-ran")
	mcp := `{"mcpServers": {"github": {"command": "sh", "args": ["-c", "exit 0"]}}}`
	write(t, filepath.Join(root, ".mcp.json"), mcp, 0o644)
	write(t, filepath.Join(root, ".claude/settings.json"), "{\n  \"permissions\": {},\n  \"hooks\": {}\n}", 0o644)
	run(t, root, node, husky)
	write(t, filepath.Join(root, ".husky/pre-commit"), "touch '"+marker+"'\n# nothing staged for the linter: done\nexit 0\nnpm test", 0o644)
	managerCycle(t, root, marker, func() {
		pc := read(t, filepath.Join(root, ".husky/pre-commit"))
		if first := strings.SplitN(pc, "\n", 2)[0]; !strings.Contains(first, "gitwarrant hook pre-commit") {
			t.Errorf(".husky/pre-commit: gitwarrant's line is not first:\n%s", pc)
		}
		if m := read(t, filepath.Join(root, ".mcp.json")); !strings.Contains(m, `"gitwarrant"`) || !strings.Contains(m, `"github"`) {
			t.Errorf(".mcp.json should keep the user's servers and add gitwarrant's:\n%s", m)
		}
	})
}

// Repository 4: the pre-commit framework (Debian's 3.0.4: stages named
// "commit"), and CLAUDE.md a symlink to AGENTS.md (problem 4).
func TestRealPreCommitFramework(t *testing.T) {
	preCommit := systemTool(t, "pre-commit", "apt-get install pre-commit")
	bash := systemTool(t, "bash", "install bash")
	root := newProject(t)
	onPath(t, map[string]string{"pre-commit": preCommit, "bash": bash})
	marker := filepath.Join(t.TempDir(), "mine-ran")
	cfg := "# pre-commit, offline\nrepos:\n  - repo: local\n    hooks:\n      - id: mine\n        name: mine\n        entry: touch " + marker + "\n        language: system\n        always_run: true\n        pass_filenames: false\n"
	write(t, filepath.Join(root, ".pre-commit-config.yaml"), cfg, 0o644)
	write(t, filepath.Join(root, "AGENTS.md"), "# Agents\n\nRun the tests.", 0o644)
	if err := os.Symlink("AGENTS.md", filepath.Join(root, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	run(t, root, preCommit, "install")
	git(t, root, "add", ".pre-commit-config.yaml")
	managerCycle(t, root, marker, func() {
		got := read(t, filepath.Join(root, ".pre-commit-config.yaml"))
		if !strings.HasPrefix(got, "# pre-commit, offline\nrepos:\n  # gitwarrant:begin repo") || !strings.HasSuffix(got, cfg[len("# pre-commit, offline\nrepos:\n"):]) {
			t.Errorf(".pre-commit-config.yaml not edited in place:\n%s", got)
		}
		if l, err := os.Readlink(filepath.Join(root, "CLAUDE.md")); err != nil || l != "AGENTS.md" {
			t.Errorf("CLAUDE.md is no longer a symlink to AGENTS.md: %q %v", l, err)
		}
		// The framework refuses an unstaged config; the user commits it.
		git(t, root, "add", ".pre-commit-config.yaml")
	})
}

package record

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// preCommitConfig wires the commit hooks through the pre-commit framework
// as local system hooks (the installer's own wiring is tested in
// internal/install; this tests what the hooks do under the framework).
const preCommitConfig = `repos:
- repo: local
  hooks:
  - id: gitwarrant-pre-commit
    name: gitwarrant pre-commit
    entry: gitwarrant hook pre-commit
    language: system
    pass_filenames: false
    always_run: true
    stages: [commit]
  - id: gitwarrant-commit-msg
    name: gitwarrant commit-msg
    entry: gitwarrant hook commit-msg
    language: system
    always_run: true
    stages: [commit-msg]
`

// TestPreCommitFrameworkStashesAndPasses: the pre-commit framework stashes
// unstaged changes before the hooks run and fails a hook that leaves files
// modified; ours stages what it writes, so commits after checks pass, the
// user's unstaged change comes back, and each commit carries the entries.
func TestPreCommitFrameworkStashesAndPasses(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("the pre-commit framework is not installed (.ci/run installs it from Debian)")
	}
	dir, p := newRepo(t)
	env := append(gitEnv(), "PATH="+filepath.Dir(needBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out, code := gw(t, dir, "new", "fix", "--template", "fix-bug-on-branch"); code != 0 {
		t.Fatal(out)
	}
	os.WriteFile(filepath.Join(dir, ".pre-commit-config.yaml"), []byte(preCommitConfig), 0o644)
	run("pre-commit", "install", "-t", "pre-commit", "-t", "commit-msg")
	run("git", "add", "-A")
	run("git", "commit", "-q", "-m", "loop")
	r := openT(t, p)
	for i := 0; i < 3; i++ {
		appendN(t, r, 5, "work")
		os.WriteFile(filepath.Join(dir, "README"), []byte("unstaged edit\n"), 0o644)
		name := "f" + string(rune('a'+i)) + ".txt"
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
		run("git", "add", name)
		out := run("git", "commit", "-m", "work "+name)
		if !strings.Contains(out, "Stashing unstaged files") {
			t.Fatalf("the framework did not stash:\n%s", out)
		}
		if st := run("git", "status", "--porcelain"); st != " M README\n" {
			t.Fatalf("status after commit %d:\n%s", i, st)
		}
		if msg := run("git", "log", "-1", "--format=%B"); !strings.Contains(msg, "Warrant-Head: .gitwarrant/record/") {
			t.Fatalf("no pin:\n%s", msg)
		}
		run("git", "checkout", "--", "README")
	}
	mustVerify(t, r)
	w := writerOf(t, r)
	if files := run("git", "ls-files", r.rel(r.WriterDir(w))); strings.Count(files, "\n") != 3 {
		t.Fatalf("want one file per commit:\n%s", files)
	}
}

// TestHookManagersCarryTheRecord: under husky and lefthook (its commands:
// and jobs: forms) the commit hooks carry the entries recorded since the
// last commit, pin the head, and leave only the user's own changes.
func TestHookManagersCarryTheRecord(t *testing.T) {
	lefthookCommands := "pre-commit:\n  commands:\n    gitwarrant:\n      run: gitwarrant hook pre-commit\ncommit-msg:\n  commands:\n    gitwarrant:\n      run: gitwarrant hook commit-msg {1}\n"
	lefthookJobs := "pre-commit:\n  jobs:\n    - name: gitwarrant\n      run: gitwarrant hook pre-commit\ncommit-msg:\n  jobs:\n    - name: gitwarrant\n      run: gitwarrant hook commit-msg {1}\n"
	cases := []struct {
		name, tool string
		setup      func(t *testing.T, dir string, run func(string, ...string) string)
	}{
		{"husky", "husky", func(t *testing.T, dir string, run func(string, ...string) string) {
			os.MkdirAll(filepath.Join(dir, ".husky"), 0o755)
			os.WriteFile(filepath.Join(dir, ".husky", "pre-commit"), []byte("gitwarrant hook pre-commit\n"), 0o755)
			os.WriteFile(filepath.Join(dir, ".husky", "commit-msg"), []byte("gitwarrant hook commit-msg \"$1\"\n"), 0o755)
			run("husky")
		}},
		{"lefthook commands", "lefthook", func(t *testing.T, dir string, run func(string, ...string) string) {
			os.WriteFile(filepath.Join(dir, "lefthook.yml"), []byte(lefthookCommands), 0o644)
			run("lefthook", "install")
		}},
		{"lefthook jobs", "lefthook", func(t *testing.T, dir string, run func(string, ...string) string) {
			os.WriteFile(filepath.Join(dir, "lefthook.yml"), []byte(lefthookJobs), 0o644)
			run("lefthook", "install")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("%s is not installed (npm i %s)", c.tool, c.tool)
			}
			dir, p := newRepo(t)
			env := append(gitEnv(), "PATH="+filepath.Dir(needBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
			run := func(name string, args ...string) string {
				t.Helper()
				cmd := exec.Command(name, args...)
				cmd.Dir, cmd.Env = dir, env
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			if out, code := gw(t, dir, "new", "fix", "--template", "fix-bug-on-branch"); code != 0 {
				t.Fatal(out)
			}
			c.setup(t, dir, run)
			run("git", "add", "-A")
			run("git", "commit", "-q", "-m", "loop and hooks")
			r := openT(t, p)
			for i := 0; i < 2; i++ {
				last := appendN(t, r, 4, "work")
				os.WriteFile(filepath.Join(dir, "README"), []byte("unstaged edit\n"), 0o644)
				name := fmt.Sprintf("f%d.txt", i)
				os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
				run("git", "add", name)
				run("git", "commit", "-q", "-m", "work "+name)
				if msg := run("git", "log", "-1", "--format=%B"); !strings.Contains(msg, "Warrant-Head: .gitwarrant/record/"+writerOf(t, r)+"/ "+last.Hash) {
					t.Fatalf("no pin of %s:\n%s", last.Hash, msg)
				}
				if st := run("git", "status", "--porcelain"); st != " M README\n" {
					t.Fatalf("status after commit %d:\n%s", i, st)
				}
			}
			mustVerify(t, r)
		})
	}
}

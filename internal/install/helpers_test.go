package install

import (
	"crypto/sha256"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/compile"
)

// testEnv isolates git from the machine's config (a global core.hooksPath
// would redirect every hook) and gives the hooks a PATH holding only the
// tools they need — never an installed gitwarrant, so the shim's
// "gitwarrant missing" branch is what runs here; the black-box tests run
// the real binary.
func testEnv(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"git", "sh", "dirname", "basename", "touch", "cat", "env", "echo"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	// The sandbox's backend, for doctor (docs/install.md#the-sandbox):
	// .ci/run installs it; without it doctor fails, as it should.
	for _, tool := range []string{"bwrap", "socat"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", bin)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"} {
		t.Setenv(k, v)
	}
}

// newRepo makes a git repository with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	testEnv(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "root")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func write(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot maps every file of the work tree, plus .git/config and
// .git/hooks, to its mode and SHA-256 (a symlink to its target). The rest
// of .git changes with every commit and is not install's.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	walk := func(dir string) {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() && rel == ".git" && dir == root {
				return fs.SkipDir
			}
			if d.IsDir() {
				return nil
			}
			fi, _ := os.Lstat(p)
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, _ := os.Readlink(p)
				m[rel] = "link " + target
				return nil
			}
			b, _ := os.ReadFile(p)
			m[rel] = fmt.Sprintf("%v %x", fi.Mode(), sha256.Sum256(b))
			return nil
		})
	}
	walk(root)
	walk(filepath.Join(root, ".git", "hooks"))
	if b, err := os.ReadFile(filepath.Join(root, ".git", "config")); err == nil {
		m[".git/config"] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return m
}

func sameSnapshot(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, fmt.Sprintf("  %s: %q → %q", k, v, got[k]))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("  %s: new (%s)", k, v))
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Fatalf("%s: files differ:\n%s", what, strings.Join(diffs, "\n"))
	}
}

// testOptions installs every surface with a small block.
func testOptions(root string) Options {
	var targets []compile.Target
	for _, tg := range compile.Targets() {
		if tg.IsFile() {
			targets = append(targets, tg)
		}
	}
	return Options{
		Root: root, Targets: targets, Block: compile.Block("## gitwarrant\n\nCheck before acting.\n"),
		Hook: NewHookCommands(hook.Wiring{}, false), MCP: true, GitHooks: true,
	}
}

func doInstall(t *testing.T, o Options) *Plan {
	t.Helper()
	p, err := PlanInstall(o)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if err := p.Apply(); err != nil {
		t.Fatalf("install apply: %v", err)
	}
	return p
}

func doUninstall(t *testing.T, root string) *Plan {
	t.Helper()
	o := testOptions(root)
	p, err := PlanUninstall(UninstallOptions{Root: root, Targets: o.Targets})
	if err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	if err := p.Apply(); err != nil {
		t.Fatalf("uninstall apply: %v", err)
	}
	return p
}

// installTwiceThenUninstall is the shared acceptance cycle: install, a
// second install that changes nothing, and an uninstall back to before.
// check runs between the installs, on the installed tree.
func installTwiceThenUninstall(t *testing.T, root string, o Options, check func()) {
	t.Helper()
	before := snapshot(t, root)
	doInstall(t, o)
	installed := snapshot(t, root)
	if check != nil {
		check()
	}
	again := doInstall(t, o)
	if len(again.Changes) != 0 {
		t.Errorf("second install planned %d change(s): %+v", len(again.Changes), again.Changes[0].Rel)
	}
	sameSnapshot(t, "second install", installed, snapshot(t, root))
	doUninstall(t, root)
	sameSnapshot(t, "after uninstall", before, snapshot(t, root))
}

package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// The black-box tests drive the real gitwarrant binary, built once (lazily,
// so the package's other tests still run while another package is mid-edit),
// against real repositories.

// TestMain removes the built binary afterwards.
func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

// gitwarrantBin returns the directory holding the built binary.
func gitwarrantBin(t *testing.T) string {
	t.Helper()
	return filepath.Dir(testkit.Binary(t))
}

// gw runs the binary in dir and returns stdout, stderr and the exit code.
func gw(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(testkit.Binary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// newProject is a repository with a gitwarrant project and one loop, and
// the binary first on PATH (as for a user who installed it).
func newProject(t *testing.T) string {
	t.Helper()
	bin := gitwarrantBin(t)
	root := newRepo(t)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, args := range [][]string{{"init"}, {"new", "release", "--template", "cut-release"}} {
		if out, errs, code := gw(t, root, args...); code != 0 {
			t.Fatalf("gitwarrant %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	return root
}

func TestBlackBoxInstallRoundTrip(t *testing.T) {
	root := newProject(t)
	marker := filepath.Join(t.TempDir(), "ran")
	write(t, filepath.Join(root, ".claude/settings.json"), userSettings, 0o644)
	write(t, filepath.Join(root, ".mcp.json"), userMCP, 0o644)
	write(t, filepath.Join(root, "AGENTS.md"), "# Agents\n\nRun tests first.\n", 0o644)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"), userHook(marker), 0o755)
	before := snapshot(t, root)

	out, errs, code := gw(t, root, "install")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	for _, f := range []string{"CLAUDE.md", "AGENTS.md", ".claude/settings.json", ".git/hooks/pre-commit"} {
		if !strings.Contains(out, f) {
			t.Errorf("install output does not mention %s:\n%s", f, out)
		}
	}
	installed := snapshot(t, root)
	out, errs, code = gw(t, root, "install")
	if code != 0 || !strings.Contains(out, "nothing to change") {
		t.Fatalf("second install: exit %d\n%s%s", code, out, errs)
	}
	sameSnapshot(t, "second install", installed, snapshot(t, root))

	// A real commit runs the chained user hook and gitwarrant's own hooks.
	write(t, filepath.Join(root, "x.txt"), "x\n", 0o644)
	git(t, root, "add", "x.txt")
	if commit := git(t, root, "commit", "-m", "x"); strings.Contains(commit, "not on PATH") {
		t.Fatalf("the shim did not find gitwarrant on PATH:\n%s", commit)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the chained pre-commit hook did not run")
	}
	os.Remove(filepath.Join(root, "x.txt"))

	out, errs, code = gw(t, root, "uninstall")
	if code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	after := snapshot(t, root)
	for k := range after {
		if strings.HasPrefix(k, ".gitwarrant/record/") {
			delete(after, k) // the commit's hooks may have started a chain
		}
	}
	sameSnapshot(t, "after uninstall", before, after)
}

func TestBlackBoxPinnedInstallWritesBlockingHook(t *testing.T) {
	root := newProject(t)
	if out, errs, code := gw(t, root, "install", "--loop", "release", "--strict", "--no-git-hooks", "--no-mcp", "--targets", "agents"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	s := read(t, filepath.Join(root, ".claude/settings.json"))
	if !strings.Contains(s, "--loop release --strict") || !strings.Contains(s, `"onFailure": "block"`) {
		t.Fatalf("pinned settings:\n%s", s)
	}
	for _, absent := range []string{".mcp.json", "CLAUDE.md", ".git/hooks/pre-commit"} {
		if _, err := os.Stat(filepath.Join(root, absent)); err == nil {
			t.Errorf("%s written despite the --no-… flags", absent)
		}
	}
	if _, errs, code := gw(t, root, "install", "--loop", "nope"); code != 1 || !strings.Contains(errs, "nope") {
		t.Fatalf("unknown --loop: exit %d, %s", code, errs)
	}
}

func TestBlackBoxMalformedSettingsExit1NothingWritten(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, ".claude/settings.json"), "{\n  \"permissions\": {\n    \"allow\": [\"x\",]\n  }\n}\n", 0o644)
	before := snapshot(t, root)
	_, errs, code := gw(t, root, "install")
	if code != 1 || !strings.Contains(errs, ".claude/settings.json:3:") {
		t.Fatalf("want exit 1 naming .claude/settings.json:3:…, got %d:\n%s", code, errs)
	}
	sameSnapshot(t, "failed install", before, snapshot(t, root))
}

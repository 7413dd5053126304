package record

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/hooks"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestMain doubles as an appender process: with
// GW_TEST_APPEND=<project dir>,<count> set, the test binary appends count
// notes through Record.Append and exits — real processes for the
// concurrency and SIGKILL tests.
func TestMain(m *testing.M) {
	if spec := os.Getenv("GW_TEST_APPEND"); spec != "" {
		os.Exit(appenderMain(spec))
	}
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

func appenderMain(spec string) int {
	dir, countS, _ := strings.Cut(spec, ",")
	count, _ := strconv.Atoi(countS)
	r, err := Open(&project.Project{Dir: dir, Root: filepath.Dir(dir)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; i < count; i++ {
		if _, err := r.Append(note(fmt.Sprintf("pid %d step %d", os.Getpid(), i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// appender starts a process appending count notes to the project at dir.
func appender(t testing.TB, projectDir string, count int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(gitEnv(), fmt.Sprintf("GW_TEST_APPEND=%s,%d", projectDir, count))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// needBinary is the real gitwarrant binary, for the tests that drive it
// through git hooks and the CLI.
func needBinary(t testing.TB) string { return testkit.Binary(t) }

// gw runs the gitwarrant binary in dir; it returns combined output and
// the exit code.
func gw(t testing.TB, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(needBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// installHooks writes the hook scripts `gitwarrant install` writes
// (hooks/), calling this build of gitwarrant (the installer itself is
// tested in internal/install).
func installHooks(t testing.TB, dir string) {
	t.Helper()
	bin := needBinary(t)
	dst := strings.TrimSpace(git(t, dir, "rev-parse", "--git-path", "hooks"))
	if !filepath.IsAbs(dst) {
		dst = filepath.Join(dir, dst)
	}
	os.MkdirAll(dst, 0o755)
	for _, name := range hooks.Names {
		script, _ := hooks.Shim(name, bin)
		if err := os.WriteFile(filepath.Join(dst, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

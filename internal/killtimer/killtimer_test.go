//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64)

package killtimer

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestMain: the test binary run with KILLTIMER_CHILD set is the process
// under test: it arms the timer for 300 ms, then stops itself (stop) or
// sleeps, and says "survived" if it is still there after 5 s.
func TestMain(m *testing.M) {
	if how := os.Getenv("KILLTIMER_CHILD"); how != "" {
		if err := Arm(300 * time.Millisecond); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(3)
		}
		if how == "stop" {
			_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		}
		time.Sleep(5 * time.Second)
		os.Stdout.WriteString("survived")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestArmKills: the armed process is killed with SIGKILL at its deadline,
// whether it runs or is stopped (SIGSTOP) — what neither a Go timer nor
// SIGALRM does.
func TestArmKills(t *testing.T) {
	for _, how := range []string{"run", "stop"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "KILLTIMER_CHILD="+how)
		start := time.Now()
		out, err := cmd.Output()
		took := time.Since(start)
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: the process was not killed: %v, stdout %q", how, err, out)
		}
		if ee.ExitCode() == 3 {
			t.Fatalf("%s: Arm failed: %s", how, ee.Stderr)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("%s: the process ended with %v, want SIGKILL", how, ws)
		}
		if took < 300*time.Millisecond || took > 4*time.Second {
			t.Errorf("%s: killed after %v, want at its 300 ms deadline", how, took)
		}
	}
}

func TestArmRefusesNoDeadline(t *testing.T) {
	if Arm(0) == nil {
		t.Fatal("Arm(0) armed a timer that would kill at once")
	}
}

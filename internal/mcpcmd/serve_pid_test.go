package mcpcmd

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestServeIsTheServer: SIGKILL to the pid `gitwarrant serve` was started
// as stops the server. Run as a child of gitwarrant, the server outlived
// it — still listening, still committing its journal — because a killed
// parent passes nothing on (docs/mcp.md#the-server-binary).
func TestServeIsTheServer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server runs as a child where the process cannot be replaced")
	}
	bin := testkit.Binary(t)
	root, home := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
	initc := exec.Command(bin, "init")
	initc.Dir, initc.Env = root, env
	if out, err := initc.CombinedOutput(); err != nil {
		t.Fatalf("gitwarrant init: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = root, env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := ""
	sc := bufio.NewScanner(stderr)
	for addr == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
			addr, _, _ = strings.Cut(rest, "/")
		}
	}
	if addr == "" {
		t.Fatal("serve did not say where it listens")
	}
	if c, err := net.Dial("tcp", addr); err != nil {
		t.Fatalf("the server does not accept at %s: %v", addr, err)
	} else {
		c.Close()
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return // nothing listens: the killed process was the server
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("%s still accepts 5 s after serve's pid %d was killed: the server outlived it", addr, cmd.Process.Pid)
		}
	}
}

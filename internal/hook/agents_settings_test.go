package hook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stubGitwarrant writes a stand-in gitwarrant running script into a new
// directory, which it returns, with the tools the commands need.
func stubGitwarrant(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gitwarrant"), []byte("#!/bin/sh\necho $$ > "+filepath.Join(dir, "pid")+"\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"cat", "sleep"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAgentCommandsWatchdog runs the commands install writes for the
// other clients' hooks under each POSIX shell a client may use (Codex runs
// them with the user's $SHELL: bash or zsh, Gemini CLI with bash, doctor
// with sh) against a gitwarrant that answers, blocks, crashes, is killed,
// hangs or stops itself: every failure blocks a tool call with a reason,
// the hook's stdin reaches gitwarrant, nothing outlives the hook, and the
// prompt hook lets the prompt through. The watchdog's wait is cut to 1 s
// here; install_agents.txtar and TestAgentHookFailures wait the real one.
func TestAgentCommandsWatchdog(t *testing.T) {
	short := func(cmd string) string {
		out := strings.ReplaceAll(cmd, "sleep "+strconv.Itoa(AgentWait)+" ", "sleep 1 ")
		if out == cmd {
			t.Fatalf("no watchdog in %s", cmd)
		}
		return out
	}
	w := Wiring{DefaultLoop: "fix"}
	cases := []struct {
		name, script string
		status       int
		stdout       string
		stderr       string
	}{
		{"answers", "cat", 0, `{"tool_name":"Bash"}`, ""},
		{"blocks", "cat >/dev/null; echo no >&2; exit 2", 2, "", "no\n"},
		{"blocks at once", "echo no >&2; exit 2", 2, "", "no\n"},
		{"crashes", "exit 1", 2, "", "gitwarrant hook codex failed (exit 1), so the call is blocked"},
		{"is killed", "kill -9 $$", 2, "", "gitwarrant hook codex failed (exit 137), so the call is blocked"},
		{"hangs", "exec sleep 30", 2, "", "gitwarrant hook codex gave no answer within 20 s and was stopped, so the call is blocked"},
		{"stops", "kill -STOP $$", 2, "", "so the call is blocked"},
	}
	for _, shell := range []string{"sh", "bash", "zsh"} {
		sh, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("no %s: skipped", shell)
			continue
		}
		for _, c := range cases {
			for _, event := range []string{"pre", "prompt"} {
				dir := stubGitwarrant(t, c.script)
				cmd := short(w.AgentPre("codex"))
				if event == "prompt" {
					cmd = short(w.AgentPrompt("codex"))
				}
				run := exec.Command(sh, "-c", cmd)
				run.Env = []string{"PATH=" + dir}
				run.Stdin = strings.NewReader(`{"tool_name":"Bash"}`)
				var stdout, stderr strings.Builder
				run.Stdout, run.Stderr = &stdout, &stderr
				err := run.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				want := c.status
				if event == "prompt" {
					want = 0 // a prompt is never blocked
				}
				// A block's reason is gitwarrant's stderr alone: no word of
				// the shell's (a "Terminated" of the watchdog) joins it.
				exact := c.status == 2 && strings.HasPrefix(c.name, "blocks")
				if code != want || stdout.String() != c.stdout || event == "pre" && !strings.Contains(stderr.String(), c.stderr) || exact && event == "pre" && stderr.String() != c.stderr {
					t.Errorf("%s, gitwarrant %s, %s hook: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
						shell, c.name, event, code, stdout.String(), stderr.String(), want, c.stdout, c.stderr)
				}
				if c.name == "answers" {
					// Without sleep on PATH the watchdog is off, not firing.
					os.Remove(filepath.Join(dir, "sleep"))
					run := exec.Command(sh, "-c", cmd)
					run.Env = []string{"PATH=" + dir}
					run.Stdin = strings.NewReader(`{"tool_name":"Bash"}`)
					if out, err := run.Output(); err != nil || string(out) != c.stdout {
						t.Errorf("%s, %s hook without sleep on PATH: %v, stdout %q", shell, event, err, out)
					}
				}
				if b, err := os.ReadFile(filepath.Join(dir, "pid")); err == nil {
					pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
					if pid > 0 && syscall.Kill(pid, 0) == nil {
						t.Errorf("%s, gitwarrant %s, %s hook: gitwarrant (pid %d) outlived the hook", shell, c.name, event, pid)
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			}
		}
	}
}

// TestAgentCommandsBeforeTheWatchdog: the commands install wrote before
// the watchdog are still read back as install's, so a second install
// brings them up to date and uninstall removes them.
func TestAgentCommandsBeforeTheWatchdog(t *testing.T) {
	for _, w := range []Wiring{{}, {Loop: "fix"}, {DefaultLoop: "fix", Strict: true}} {
		for _, c := range Clients {
			// Before the watchdog, and under the watchdog whose trap raced.
			for event, cmd := range map[string]string{"pre": w.LegacyAgentPre(c), "prompt": w.legacyAgentPrompt(c), "pre ": w.agentPre(c, racyWatchdog()), "prompt ": w.agentPrompt(c, racyWatchdog())} {
				event = strings.TrimSpace(event)
				client, got, ev, ok := ParseAgentWiring(cmd)
				if !ok || client != c || got != w || ev != event {
					t.Errorf("%s: got %s %+v %s %v", cmd, client, got, ev, ok)
				}
			}
			for event, cmd := range map[string]string{"pre": w.AgentPre(c), "prompt": w.AgentPrompt(c)} {
				client, got, ev, ok := ParseAgentWiring(cmd)
				if !ok || client != c || got != w || ev != event {
					t.Errorf("%s: got %s %+v %s %v", cmd, client, got, ev, ok)
				}
				if _, _, _, ok := ParseAgentWiring(strings.Replace(cmd, "sleep 20", "sleep 2000", 1)); ok {
					t.Errorf("a changed watchdog is read as install's: %s", cmd)
				}
			}
		}
	}
}

// TestAgentCommandsLeaveNoSleep: a gitwarrant that answers at once ends
// the watchdog while it is still starting its sleep, and no sleep may
// outlive the hook. Under dash and bash one did in about a third of such
// hooks while the trap sent TERM to a pid assigned after the fork.
func TestAgentCommandsLeaveNoSleep(t *testing.T) {
	var w Wiring
	for _, shell := range []string{"sh", "bash", "zsh"} {
		sh, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("no %s: skipped", shell)
			continue
		}
		dir := stubGitwarrant(t, "exit 0")
		sleep := filepath.Join(dir, "sleep")
		real, err := os.Readlink(sleep)
		if err != nil {
			t.Fatal(err)
		}
		// The stand-in sleep notes its pid, then becomes the real one.
		pids := filepath.Join(dir, "sleeps")
		if err := os.Remove(sleep); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sleep, []byte("#!/bin/sh\necho $$ >> "+pids+"\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		for range 40 {
			for _, cmd := range []string{w.AgentPre("codex"), w.AgentPrompt("codex")} {
				run := exec.Command(sh, "-c", cmd)
				run.Env = []string{"PATH=" + dir}
				run.Stdin = strings.NewReader(`{"tool_name":"Bash"}`)
				_ = run.Run() // the status is TestAgentCommandsWatchdog's
			}
		}
		time.Sleep(200 * time.Millisecond) // a killed sleep's last instants
		b, _ := os.ReadFile(pids)
		for _, f := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(f)
			if pid > 0 && running(pid) {
				t.Errorf("%s: a watchdog's sleep (pid %d) outlived the hook", shell, pid)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// running reports whether process pid exists and is not a zombie (one
// that ended, waiting to be reaped, where /proc says so).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

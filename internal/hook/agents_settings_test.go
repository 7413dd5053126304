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

	"github.com/gitwarrant/gitwarrant/internal/testkit"
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

// noTimer makes a stand-in answer `--stop-after` as a gitwarrant that can
// arm no kill timer does: exit AgentNoTimer at once, the payload unread.
const noTimer = `case " $* " in *" --stop-after "*) exit 3;; esac
`

// TestAgentCommandsWatchdog runs the commands install writes for the
// other clients' hooks under each POSIX shell a client may use (Codex runs
// them with the user's $SHELL: bash or zsh, Gemini CLI with bash, doctor
// with sh) against a gitwarrant that answers, blocks, crashes, is killed,
// hangs or stops itself: every failure blocks a tool call with a reason,
// the hook's stdin reaches gitwarrant, nothing outlives the hook, and the
// prompt hook lets the prompt through. Each runs twice: with the kernel
// timer (the real gitwarrant, hung on a stdin that never ends, for the
// hung and stopped ones) and, where gitwarrant arms none (exit 3), under
// the shell's watchdog. The deadline is cut to 1 s here;
// install_agents.txtar and TestAgentHookFailures wait the real one.
func TestAgentCommandsWatchdog(t *testing.T) {
	short := func(cmd string) string {
		sleep, timer := "sleep "+strconv.Itoa(AgentWait)+" ", "--stop-after "+strconv.Itoa(AgentWait)+" "
		if !strings.Contains(cmd, sleep) || !strings.Contains(cmd, timer) {
			t.Fatalf("no watchdog or no kill timer in %s", cmd)
		}
		return strings.ReplaceAll(strings.ReplaceAll(cmd, sleep, "sleep 1 "), timer, "--stop-after 1 ")
	}
	real := testkit.Binary(t)
	w := Wiring{DefaultLoop: "fix"}
	type standIn struct {
		name, script string
		status       int
		stdout       string
		stderr       string
	}
	cases := []standIn{
		{"answers", "cat", 0, `{"tool_name":"Bash"}`, ""},
		{"blocks", "cat >/dev/null; echo no >&2; exit 2", 2, "", "no\n"},
		{"blocks at once", "echo no >&2; exit 2", 2, "", "no\n"},
		{"crashes", "exit 1", 2, "", "gitwarrant hook codex failed (exit 1), so the call is blocked"},
		{"is killed", "kill -9 $$", 2, "", "gitwarrant hook codex failed (exit 137), so the call is blocked"},
	}
	fifo := filepath.Join(t.TempDir(), "never")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The real gitwarrant reads a stdin whose writer never closes it (this
	// script holds it): it hangs; and, for "stops", is stopped as well.
	hung := "exec " + real + ` "$@" 0<>` + fifo
	timerCases := append(cases,
		standIn{"hangs", hung, 2, "", "gitwarrant hook codex failed (exit 137), so the call is blocked: run it by hand to see why (it was killed: it gave no answer within 20 s"},
		standIn{"stops", "(sleep 0.3; kill -STOP $$) </dev/null >/dev/null 2>&1 &\n" + hung, 2, "", "so the call is blocked"}) // zsh: "failed (exit 147)", as its wait returns on the stop
	var watchdogCases []standIn
	for _, c := range append(cases,
		standIn{"hangs", "exec sleep 30", 2, "", "gitwarrant hook codex gave no answer within 20 s and was stopped, so the call is blocked"},
		standIn{"stops", "kill -STOP $$", 2, "", "so the call is blocked"}) {
		c.script = noTimer + c.script
		watchdogCases = append(watchdogCases, c)
	}
	for _, shell := range []string{"sh", "bash", "zsh"} {
		sh, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("no %s: skipped", shell)
			continue
		}
		for mode, cases := range map[string][]standIn{"timer": timerCases, "watchdog": watchdogCases} {
			for _, c := range cases {
				for _, event := range []string{"pre", "prompt"} {
					dir := stubGitwarrant(t, c.script)
					cmd := short(w.AgentPre("codex"))
					if event == "prompt" {
						cmd = short(w.AgentPrompt("codex"))
					}
					checkStandIn(t, sh, shell+", "+mode, cmd, dir, event, c.name, c.status, c.stdout, c.stderr)
				}
			}
		}
	}
}

// checkStandIn runs cmd, the hook command for event, under sh against the
// stand-in gitwarrant in dir, and checks its exit status, stdout and
// stderr, and that nothing it started outlives it.
func checkStandIn(t *testing.T, sh, how, cmd, dir, event, name string, status int, wantOut, wantErr string) {
	t.Helper()
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
	want := status
	if event == "prompt" {
		want = 0 // a prompt is never blocked
	}
	// A block's reason is gitwarrant's stderr alone: no word of the
	// shell's (a "Terminated" of the watchdog) joins it.
	exact := status == 2 && strings.HasPrefix(name, "blocks")
	if status == 2 && event == "pre" && !exact && !strings.HasPrefix(stderr.String(), "gitwarrant hook codex ") {
		t.Errorf("%s, gitwarrant %s: the reason does not come first: %q", how, name, stderr.String())
	}
	if code != want || stdout.String() != wantOut || event == "pre" && !strings.Contains(stderr.String(), wantErr) || exact && event == "pre" && stderr.String() != wantErr {
		t.Errorf("%s, gitwarrant %s, %s hook: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
			how, name, event, code, stdout.String(), stderr.String(), want, wantOut, wantErr)
	}
	if name == "answers" {
		// Without sleep on PATH the watchdog is off, not firing.
		os.Remove(filepath.Join(dir, "sleep"))
		run := exec.Command(sh, "-c", cmd)
		run.Env = []string{"PATH=" + dir}
		run.Stdin = strings.NewReader(`{"tool_name":"Bash"}`)
		if out, err := run.Output(); err != nil || string(out) != wantOut {
			t.Errorf("%s, %s hook without sleep on PATH: %v, stdout %q", how, event, err, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "pid")); err == nil {
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 && running(pid) {
			t.Errorf("%s, gitwarrant %s, %s hook: gitwarrant (pid %d) outlived the hook", how, name, event, pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestAgentCommandsBeforeTheWatchdog: the commands install wrote before
// the watchdog are still read back as install's, so a second install
// brings them up to date and uninstall removes them.
func TestAgentCommandsBeforeTheWatchdog(t *testing.T) {
	for _, w := range []Wiring{{}, {Loop: "fix"}, {DefaultLoop: "fix", Strict: true}} {
		for _, c := range Clients {
			// Before the watchdog, under the watchdog whose trap raced, and
			// under the watchdog alone, before the kill timer.
			for event, cmd := range map[string]string{"pre": w.LegacyAgentPre(c), "prompt": w.legacyAgentPrompt(c), "pre ": w.watchdogPre(c, racyWatchdog()), "prompt ": w.watchdogPrompt(c, racyWatchdog()),
				"pre  ": w.watchdogPre(c, watchdog()), "prompt  ": w.watchdogPrompt(c, watchdog())} {
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
		dir := stubGitwarrant(t, noTimer+"exit 0") // the watchdog's path
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

package hook

import (
	"strconv"
	"strings"
)

// AgentWait is how long, in seconds, the commands install writes for a
// client's hooks wait for `gitwarrant hook <client>` before they kill it
// (and block the call, for a tool-call hook). It lies above the hook's own deadline (the
// decision answers ask after 10 s) and well below the timeout install
// writes into the client's file (60 s), because Codex and Gemini CLI run a
// call whose hook timed out (docs/agents.md#failures).
const AgentWait = 20

// AgentNoTimer is the exit status of `hook <client> --stop-after N` when
// it could arm no kill timer (any system but Linux): it exits at once,
// before reading the payload, and the command runs it again under the
// shell's watchdog. gitwarrant exits 3 for nothing else.
const AgentNoTimer = 3

// AgentPre is the shell command install writes for client's tool-call
// hook. Codex, Gemini CLI and Cursor take a failure of a hook — any exit
// status but 2 (0 with an answer), a crash, a kill, a timeout — as "go
// ahead", so the command turns every status of `gitwarrant hook <client>`
// but 0 and 2 into exit 2 with a reason on stderr, and a gitwarrant that
// has not answered within AgentWait seconds (hung, stopped, stuck on a
// lock) is killed, and the call blocked, too: a killed, crashed or hung
// gitwarrant blocks the call (docs/agents.md#failures). A missing
// gitwarrant blocks under a pinned wiring and stays out of the way
// otherwise, as the Claude Code hook does.
//
// The deadline is kept in one of two ways (docs/agents.md#timeouts).
// gitwarrant runs with --stop-after AgentWait (see timed): on Linux it
// arms a kernel timer whose SIGKILL ends it even when stopped, which
// costs no process. Where it cannot (exit AgentNoTimer, before it reads
// stdin), the command runs it again under the shell's watchdog (see
// watched).
func (w Wiring) AgentPre(client string) string {
	cmd := "gitwarrant hook " + client + " --event pre" + w.args()
	return w.agentMissing() + timed(cmd, watchdog()) + blockUnless02(client, true)
}

// blockUnless02 maps the status $s of gitwarrant onto the hook's: 0 and 2
// stand, anything else blocks with a reason ($t is 3 when the shell's
// watchdog killed gitwarrant). With timer, a 137 — a SIGKILL, the kernel
// timer's or another's — says so; without, it is the text of the commands
// from before the timer (watchdogPre), which must stay as it was.
func blockUnless02(client string, timer bool) string {
	wait := strconv.Itoa(AgentWait)
	killed := ""
	if timer {
		killed = `elif [ $s -eq 137 ]; then echo "gitwarrant hook ` + client + ` failed (exit 137), so the call is blocked: run it by hand to see why (it was killed: it gave no answer within ` + wait + ` s, or something else killed it)" >&2; `
	}
	return `[ $s -eq 0 ] || [ $s -eq 2 ] || { if [ $t -eq 3 ]; then echo "gitwarrant hook ` + client + ` gave no answer within ` + wait + ` s and was stopped, so the call is blocked: run it by hand to see why" >&2; ` +
		killed + `else echo "gitwarrant hook ` + client + ` failed (exit $s), so the call is blocked: run it by hand to see why" >&2; fi; exit 2; }; exit $s`
}

// timed runs cmd with --stop-after AgentWait and leaves its status in $s;
// where it armed no timer, it runs cmd again under the watchdog dog. cmd
// runs in the background, with stdin through fd 3 as in watched, and the
// shell waits for it: dash reports a foreground command that a signal
// ended ("Killed") on the stderr the client reads, before the reason,
// and says nothing of a waited-for background one.
func timed(cmd, dog string) string {
	return "exec 3<&0; " + cmd + " --stop-after " + strconv.Itoa(AgentWait) + " <&3 3<&- & p=$!; exec 3<&-; wait $p 2>/dev/null; s=$?; " + killStopped + "t=0; if [ $s -eq " + strconv.Itoa(AgentNoTimer) + " ]; then " + watched(cmd, dog) + "fi; "
}

// watchdogPre is the command install wrote for client's tool-call hook
// before the kill timer, with the shell's watchdog dog alone: install
// and uninstall still take it for their own.
//
// The watchdog is POSIX sh (macOS has no timeout(1)): gitwarrant runs in
// the background with the hook's stdin given explicitly (an asynchronous
// command's stdin is /dev/null otherwise); a subshell sleeps AgentWait
// seconds and then kills it with SIGKILL — which a stopped process cannot
// hold off — and exits 3 (also when the shell's TERM comes between the
// kill and the exit); once gitwarrant is done, the shell ends the
// subshell, whose trap ends its sleep (see watchdog), so nothing outlives
// the hook. The
// sleep's output goes nowhere, so no pipe the client reads stays open.
// A sleep that fails (not on PATH) arms no watchdog rather than killing
// every gitwarrant at once.
// dash makes an asynchronous command's stdin /dev/null before its own
// redirections, so the hook's stdin goes through fd 3. zsh's wait returns
// when the process stops (status 128 + SIGSTOP, SIGTSTP, SIGTTIN or
// SIGTTOU): the stopped gitwarrant is killed then, as it would still hold
// the client's pipes.
func (w Wiring) watchdogPre(client, dog string) string {
	cmd := "gitwarrant hook " + client + " --event pre" + w.args()
	return w.agentMissing() + watched(cmd, dog) + blockUnless02(client, false)
}

// agentMissing is what a tool-call hook does when gitwarrant is not on
// PATH: block under a pinned wiring, stay out of the way otherwise.
func (w Wiring) agentMissing() string {
	if w.Pinned() {
		return "command -v gitwarrant >/dev/null 2>&1 || { echo 'gitwarrant is not installed, and this repository pins a gitwarrant gate, so the call is blocked: install it with `" + InstallHint + "` and make sure it is on PATH' >&2; exit 2; }; "
	}
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; "
}

// watchdog is the subshell that kills gitwarrant ($p) after AgentWait
// seconds. Its trap ends the sleep with SIGKILL, named by $! (which the
// shell sets as it forks, where an assignment after the fork left a
// window for the trap to find no pid): a TERM that reaches the forked
// child before it has become sleep is caught by the trap it inherited and
// lost at the exec, so a TERM left a sleep behind about one fast hook in
// three under dash and bash (TestAgentCommandsLeaveNoSleep). Before the
// fork $! is still gitwarrant's pid, which the trap leaves alone.
func watchdog() string {
	return "(f=0; trap '[ $! = $p ] || kill -9 $! 2>/dev/null; exit $f' TERM; sleep " + strconv.Itoa(AgentWait) + " </dev/null >/dev/null 2>&1 & wait $! || exit 0; f=3; kill -9 $p 2>/dev/null; exit 3)"
}

// racyWatchdog is the watchdog install wrote before watchdog's: install and
// uninstall still take its commands for their own.
func racyWatchdog() string {
	return "(f=0; trap 'kill $w 2>/dev/null; exit $f' TERM; sleep " + strconv.Itoa(AgentWait) + " </dev/null >/dev/null 2>&1 & w=$!; wait $w || exit 0; f=3; kill -9 $p 2>/dev/null; exit 3)"
}

// watched runs cmd under the watchdog dog and leaves its exit status in
// $s, and in $t 3 when the watchdog killed it.
func watched(cmd, dog string) string {
	return "exec 3<&0; " + cmd + " <&3 3<&- & p=$!; exec 3<&-; " + dog + " & d=$!; " +
		"wait $p 2>/dev/null; s=$?; " + killStopped + "kill $d 2>/dev/null; wait $d 2>/dev/null; t=$?; "
}

// killStopped kills gitwarrant ($p) when the shell's wait returned because
// it stopped (zsh's does: status 128 + SIGSTOP, SIGTSTP, SIGTTIN or
// SIGTTOU), since it would still hold the client's pipes.
const killStopped = "case $s in 14[7-9]|150) kill -9 $p 2>/dev/null;; esac; "

// LegacyAgentPre is the command install wrote for client's tool-call hook
// before it had a watchdog: install and uninstall still take it for their
// own, so a second install brings it up to date and uninstall removes it.
func (w Wiring) LegacyAgentPre(client string) string {
	missing := w.agentMissing()
	return missing + "gitwarrant hook " + client + " --event pre" + w.args() + `; s=$?; [ $s -eq 0 ] || [ $s -eq 2 ] || { echo "gitwarrant hook ` + client + ` failed (exit $s), so the call is blocked: run it by hand to see why" >&2; exit 2; }; exit $s`
}

// AgentPrompt is the shell command for client's prompt hook, which pins
// the session to a loop. It never blocks the prompt, and it runs under the
// same deadline as AgentPre: a hung gitwarrant would otherwise hold the
// client — Gemini CLI 0.61 kills only the hook's shell at its timeout and
// then waits for the pipes the stopped gitwarrant still holds, for ever
// (observed in TestAgentHookFailures).
func (w Wiring) AgentPrompt(client string) string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; " + timed("gitwarrant hook "+client+" --event prompt"+w.args(), watchdog()) + "exit 0"
}

// WatchdogAgentPre and WatchdogAgentPrompt are the commands install wrote
// before the kill timer, for install's tests.
func (w Wiring) WatchdogAgentPre(client string) string { return w.watchdogPre(client, watchdog()) }
func (w Wiring) WatchdogAgentPrompt(client string) string {
	return w.watchdogPrompt(client, watchdog())
}

// watchdogPrompt is the prompt command install wrote before the kill
// timer, under the watchdog dog (see watchdogPre).
func (w Wiring) watchdogPrompt(client, dog string) string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; " + watched("gitwarrant hook "+client+" --event prompt"+w.args(), dog) + "exit 0"
}

// legacyAgentPrompt is the prompt command install wrote before the
// watchdog (see LegacyAgentPre).
func (w Wiring) legacyAgentPrompt(client string) string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook " + client + " --event prompt" + w.args() + " || exit 0"
}

// ParseAgentWiring reads back the client, wiring and event ("pre" or
// "prompt") of a command install wrote for Codex, Gemini CLI or Cursor; ok
// is false for anything else.
func ParseAgentWiring(cmd string) (client string, w Wiring, event string, ok bool) {
	for _, c := range Clients {
		if _, rest, found := strings.Cut(cmd, "gitwarrant hook "+c); found && (rest == "" || rest[0] == ' ' || rest[0] == ';') {
			client = c
			break
		}
	}
	if client == "" {
		return "", w, "", false
	}
	w, event, ok = parseWiringArgs(cmd, "gitwarrant hook "+client, true)
	if !ok {
		return "", w, "", false
	}
	var want string
	switch event {
	case "pre":
		if cmd == w.LegacyAgentPre(client) || cmd == w.watchdogPre(client, racyWatchdog()) || cmd == w.watchdogPre(client, watchdog()) {
			return client, w, event, true
		}
		want = w.AgentPre(client)
	case "prompt":
		if cmd == w.legacyAgentPrompt(client) || cmd == w.watchdogPrompt(client, racyWatchdog()) || cmd == w.watchdogPrompt(client, watchdog()) {
			return client, w, event, true
		}
		want = w.AgentPrompt(client)
	}
	return client, w, event, want == cmd
}

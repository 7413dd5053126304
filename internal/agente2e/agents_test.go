package agente2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// These tests drive the real Codex CLI and Gemini CLI (pinned by
// testdata/codex and testdata/gemini-cli) against scripted model servers,
// in projects wired only by `gitwarrant install --agents …`
// (docs/agents.md#real-clients). Each session asks for the same four
// calls: a force push, a write into .gitwarrant/, a read of .env — each
// refused by the hook — and the tests, which run.

// agentFiles is a Go module with a test, a secret and a remote.
var agentFiles = map[string]string{
	"go.mod":      "module example.com/e2e\n\ngo 1.21\n",
	"add.go":      "package e2e\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a + b }\n",
	"add_test.go": addTest,
	".env":        "API_TOKEN=hunter2\n",
}

const evilLoop = "---\nname: evil\ndescription: x\nversion: 1\nwarrant:\n  send: [anything]\n---\n"

// agentCheck is what the record must hold for one call, and a word the
// client must show the model.
type agentCheck struct {
	verdict string
	says    string
}

func newAgentProject(t *testing.T, client string) *agente2e.Project {
	t.Helper()
	switch client {
	case "codex":
		agente2e.CodexBin(t)
	case "gemini":
		agente2e.GeminiBin(t)
	}
	return agente2e.NewProject(t, testkit.Binary(t), agente2e.Setup{Files: agentFiles, Origin: true,
		Install: []string{"--agents", "claude," + client, "--no-mcp"}})
}

// assertAgentRecord checks each call's entry: the client named in via,
// the verdict, the session's loop.
func assertAgentRecord(t *testing.T, p *agente2e.Project, via string, want []agentCheck, ids []string) {
	t.Helper()
	var got []agente2e.RecordEntry
	for _, e := range p.Record() {
		if e.Entry.Kind == "check" && e.Entry.Via == via {
			got = append(got, e)
		}
	}
	if len(got) < len(want) {
		t.Fatalf("record: %d checks via %q, want at least %d: %+v", len(got), via, len(want), got)
	}
	for i, w := range want {
		found := false
		for _, e := range got {
			if (ids == nil || e.Entry.ToolUseID == ids[i]) && e.Entry.Verdict == w.verdict && strings.Contains(e.Entry.Target+" "+e.Entry.Rule, w.says) {
				found = true
			}
		}
		if !found {
			t.Errorf("record: no %s check for call %d (%q) via %q: %+v", w.verdict, i, w.says, via, got)
		}
	}
}

// TestCodexGate: Codex, with nothing else in the way (approvals and
// sandbox bypassed, hook trust bypassed), runs only what the hook allows.
func TestCodexGate(t *testing.T) {
	t.Parallel()
	p := newAgentProject(t, "codex")
	head := p.Git("--git-dir", p.Origin, "rev-parse", "main")
	calls := []agente2e.ToolCall{
		{Name: "exec_command", Input: map[string]any{"cmd": "git push --force origin HEAD:main"}},
		{Name: "apply_patch", Input: map[string]any{"input": "*** Begin Patch\n*** Add File: .gitwarrant/loops/evil.loop.md\n" + plus(evilLoop) + "*** End Patch\n"}},
		{Name: "exec_command", Input: map[string]any{"cmd": "cat .env"}},
		{Name: "exec_command", Input: map[string]any{"cmd": "go test -count=1 ./..."}},
	}
	res := p.Codex(agente2e.CodexRun{Prompt: "fix the bug in Add and run the tests", Script: agente2e.Script{Calls: calls},
		Args: []string{"--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"}})
	if res.Err != nil {
		t.Fatalf("codex exec: %v\nstderr: %s", res.Err, res.Stderr)
	}
	checkFour(t, p, head, "blocked by PreToolUse hook", "ok  \texample.com/e2e", res.Output)
	ids := []string{"call_e2e_00", "call_e2e_01", "call_e2e_02", "call_e2e_03"}
	assertAgentRecord(t, p, "hook codex", []agentCheck{{"deny", "pushing to main"}, {"deny", "self-protection"}, {"deny", "secrets"}, {"allow", "go test"}}, ids)
}

// TestGeminiGate: Gemini CLI in YOLO mode (every call approved by the
// client itself) runs only what the hook allows.
func TestGeminiGate(t *testing.T) {
	t.Parallel()
	p := newAgentProject(t, "gemini")
	head := p.Git("--git-dir", p.Origin, "rev-parse", "main")
	calls := []agente2e.ToolCall{
		{Name: "run_shell_command", Input: map[string]any{"command": "git push --force origin HEAD:main", "description": "push"}},
		{Name: "write_file", Input: map[string]any{"file_path": p.Path(".gitwarrant/loops/evil.loop.md"), "content": evilLoop}},
		// Gemini CLI's read_file refuses .env itself before any hook runs
		// ("Path not in workspace"), so the read goes through the shell.
		{Name: "run_shell_command", Input: map[string]any{"command": "cat .env", "description": "read"}},
		{Name: "run_shell_command", Input: map[string]any{"command": "go test -count=1 ./...", "description": "test"}},
	}
	res := p.Gemini(agente2e.GeminiRun{Prompt: "fix the bug in Add and run the tests", Script: agente2e.Script{Calls: calls}, Args: []string{"--yolo"}})
	if res.Err != nil {
		t.Fatalf("gemini -p: %v\nstdout: %s\nstderr: %s", res.Err, res.Stdout, res.Stderr)
	}
	checkFour(t, p, head, "Tool execution blocked", "ok  \\texample.com/e2e", res.FunctionResponse)
	assertAgentRecord(t, p, "hook gemini", []agentCheck{{"deny", "pushing to main"}, {"deny", "self-protection"}, {"deny", "secrets"}, {"allow", "go test"}}, nil)
}

// plus prefixes every line of s with "+", as a patch's added lines.
func plus(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("+" + l)
		}
	}
	return b.String()
}

// TestAgentHookFailures: the hook command install writes blocks the call
// when gitwarrant itself is killed, crashes or hangs, under each client's
// own rules — Codex and Gemini CLI run a call whose hook exits with any
// other status than 2, is killed, or passes its timeout
// (docs/agents.md#failures). A stand-in gitwarrant first on PATH fails in
// each way; the call must not run. The hung one is the real gitwarrant,
// reading a stdin that never ends and then stopped (SIGSTOP): its kernel
// timer kills it after hook.AgentWait seconds, well before the client's
// own timeout (60 s, as install writes it) would let the call run. The
// one that arms no timer (exit 3, as off Linux) and then stops itself is
// killed by the command's shell watchdog at the same deadline.
func TestAgentHookFailures(t *testing.T) {
	t.Parallel()
	never := filepath.Join(t.TempDir(), "never")
	if err := syscall.Mkfifo(never, 0o600); err != nil {
		t.Fatal(err)
	}
	failures := map[string]string{
		"killed":         "#!/bin/sh\nkill -9 $$\n",
		"crashed":        "#!/bin/sh\necho 'panic: runtime error' >&2\nexit 1\n",
		"hung":           "#!/bin/sh\n(sleep 1; kill -STOP $$) </dev/null >/dev/null 2>&1 &\nexec GITWARRANT \"$@\" 0<>" + never + "\n",
		"hung, no timer": "#!/bin/sh\ncase \" $* \" in *\" --stop-after \"*) exit 3;; esac\nkill -STOP $$\n",
	}
	says := map[string]string{
		"killed":         "failed (exit 137), so the call is blocked",
		"crashed":        "failed (exit 1), so the call is blocked",
		"hung":           fmt.Sprintf("failed (exit 137), so the call is blocked: run it by hand to see why (it was killed: it gave no answer within %d s", hook.AgentWait),
		"hung, no timer": fmt.Sprintf("gave no answer within %d s and was stopped, so the call is blocked", hook.AgentWait),
	}
	for _, client := range []string{"codex", "gemini"} {
		t.Run(client, func(t *testing.T) {
			t.Parallel()
			p := newAgentProject(t, client)
			for name, script := range failures {
				p.AddTool("gitwarrant", strings.ReplaceAll(script, "GITWARRANT", p.Gitwarrant))
				mark := "ran-" + strings.NewReplacer(" ", "-", ",", "").Replace(name)
				var out string
				var ok bool
				switch client {
				case "codex":
					res := p.Codex(agente2e.CodexRun{Prompt: "touch a file", Args: []string{"--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"},
						Script: agente2e.Script{Calls: []agente2e.ToolCall{{Name: "exec_command", Input: map[string]any{"cmd": "touch " + mark}}}}})
					out, ok = res.Output(0)
				case "gemini":
					res := p.Gemini(agente2e.GeminiRun{Prompt: "touch a file", Args: []string{"--yolo"},
						Script: agente2e.Script{Calls: []agente2e.ToolCall{{Name: "run_shell_command", Input: map[string]any{"command": "touch " + mark}}}}})
					out, ok = res.FunctionResponse(0)
				}
				if _, err := os.Stat(p.Path(mark)); err == nil {
					t.Errorf("%s: the call ran although gitwarrant was %s (output %q)", client, name, out)
				}
				if !ok || !strings.Contains(out, says[name]) {
					t.Errorf("%s, gitwarrant %s: output %q (sent: %v), want the hook command's reason", client, name, out, ok)
				}
			}
		})
	}
}

// checkFour checks the four calls of TestCodexGate and TestGeminiGate by
// what the client told the model (output(i)): the first three blocked
// with gitwarrant's reason and without effect, the tests run and passed.
func checkFour(t *testing.T, p *agente2e.Project, originMain, blocked, passed string, output func(int) (string, bool)) {
	t.Helper()
	for i, says := range []string{"never: pushing to main", "self-protection", "never: secrets", passed} {
		out, ok := output(i)
		switch {
		case !ok:
			t.Errorf("call %d: the client sent back nothing for it", i)
		case i < 3 && !strings.Contains(out, blocked):
			t.Errorf("call %d ran; the client said %q", i, out)
		case !strings.Contains(out, says):
			t.Errorf("call %d: the client said %q, want %q in it", i, out, says)
		}
	}
	if got := p.Git("--git-dir", p.Origin, "rev-parse", "main"); got != originMain {
		t.Errorf("origin main moved to %s", got)
	}
	if p.ReadFile(".gitwarrant/loops/evil.loop.md") != "" {
		t.Error("an agent wrote into .gitwarrant/")
	}
}

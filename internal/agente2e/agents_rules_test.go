package agente2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// rule is one way a hook can answer, and whether the pinned client then
// runs the call (docs/agents.md#failures).
type rule struct {
	name, script string
	runs         bool
}

// hookRules are the answers both clients are held to: exit 2 with a
// reason on stderr blocks; a failing, killed or timed-out hook lets the
// call run. These are the clients' rules, not gitwarrant's:
// they are why the command install writes turns every failure into exit 2.
var hookRules = []rule{
	{"exit 2 with a reason", "echo nope >&2; exit 2", false},
	{"exit 1", "echo nope >&2; exit 1", true},
	{"killed", "kill -9 $$", true},
	{"past its timeout", "sleep 4", true},
}

// TestCodexHookRules establishes how Codex 0.171.0 treats a PreToolUse
// hook's answers: a plain folder with only .codex/hooks.json, so only the
// hook under test decides.
func TestCodexHookRules(t *testing.T) {
	t.Parallel()
	bin := agente2e.CodexBin(t)
	rules := append(hookRules,
		rule{"exit 2 without a reason", "exit 2", true},
		rule{"ask", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"nope"}}'`, true})
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			hookFile(t, dir, ".codex/hooks.json", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":%q,"timeout":2}]}]}}`, r.script)
			res := agente2e.RunCodex(t, agente2e.CodexRun{Bin: bin, Dir: dir, Prompt: "touch a file",
				Args:   []string{"--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"},
				Script: agente2e.Script{Calls: []agente2e.ToolCall{{Name: "exec_command", Input: map[string]any{"cmd": "touch ran"}}}}})
			out, _ := res.Output(0)
			checkRan(t, dir, r, out)
		})
	}
}

// TestGeminiHookRules does the same for Gemini CLI 0.61.0's BeforeTool
// hook (its sessions cost several times Codex's, so only the rules the
// install's command rests on). Its "ask" is not among them: in a
// non-interactive session it waits for an answer no one can give, until the
// session is killed.
func TestGeminiHookRules(t *testing.T) {
	t.Parallel()
	bin := agente2e.GeminiBin(t)
	rules := hookRules
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			hookFile(t, dir, ".gemini/settings.json", `{"hooks":{"BeforeTool":[{"matcher":"*","hooks":[{"type":"command","command":%q,"timeout":2000}]}]}}`, r.script)
			res := agente2e.RunGemini(t, agente2e.GeminiRun{Bin: bin, Dir: dir, Prompt: "touch a file", Args: []string{"--yolo"},
				Script: agente2e.Script{Calls: []agente2e.ToolCall{{Name: "run_shell_command", Input: map[string]any{"command": "touch ran"}}}}})
			out, _ := res.FunctionResponse(0)
			checkRan(t, dir, r, out)
		})
	}
}

// hookFile writes a hook script answering with script and the client's
// settings file (format holds one %q for the script's path).
func hookFile(t *testing.T, dir, rel, format, script string) {
	t.Helper()
	path := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\ncat >/dev/null\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(strings.Replace(format, "%q", `"`+path+`"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkRan(t *testing.T, dir string, r rule, out string) {
	t.Helper()
	_, err := os.Stat(filepath.Join(dir, "ran"))
	if ran := err == nil; ran != r.runs {
		t.Errorf("hook %s: the call ran = %v, want %v (the client told the model %q)", r.name, ran, r.runs, out)
	}
}

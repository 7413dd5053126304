package agente2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// serverPID is the pid in .git/gitwarrant/serve.json, 0 when there is none.
func serverPID(p *agente2e.Project) int {
	var st struct {
		PID int `json:"pid"`
	}
	data, err := os.ReadFile(p.Path(".git/gitwarrant/serve.json"))
	if err != nil || json.Unmarshal(data, &st) != nil {
		return 0
	}
	return st.PID
}

// stopServer ends the repository's hook server (one this test's project
// started) and waits until it is gone.
func stopServer(t *testing.T, p *agente2e.Project) {
	t.Helper()
	pid := serverPID(p)
	if pid == 0 {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGCONT)
	_ = syscall.Kill(pid, syscall.SIGTERM)
	for i := 0; i < 200 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(25 * time.Millisecond)
	}
}

// TestClaudeHTTPHook runs the real client with the hooks `install --hook
// http --loop fix` writes (docs/hook-protocol.md#the-http-hook): the
// SessionStart hook starts the repository's server, a denied call is
// refused through the http hook and an allowed one runs, each recorded
// with via hook-http; then a server that is not running, one that does not
// answer in time, and a wrong key each block a call that would run.
func TestClaudeHTTPHook(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Files: map[string]string{"README.md": "e2e\n"}, Install: []string{"--hook", "http", "--loop", "fix"}, Origin: true})
	t.Cleanup(func() { stopServer(t, p) })
	if strings.Contains(p.Git("ls-files"), "settings.local.json") {
		t.Fatalf("the hook key was committed: %s", p.Git("ls-files"))
	}
	stopServer(t, p) // install's doctor started one: the session must start its own
	origin := p.Git("--git-dir", p.Origin, "rev-parse", "main")
	res := p.Claude(agente2e.Session{Prompt: "ship it", Args: []string{"--permission-mode", "bypassPermissions"},
		Calls: []agente2e.ToolCall{agente2e.Bash("git push --force origin main"), agente2e.Bash("git status")}})
	if serverPID(p) == 0 {
		t.Fatalf("no server after the session: the SessionStart hook did not start one\n%s", res.DebugLog)
	}
	tr, _ := res.ToolResult(0)
	if !res.Denied(0) || !tr.IsError || !strings.HasPrefix(tr.Content, "PreToolUse:Bash hook error: ") || !strings.Contains(tr.Content, "fix: never") {
		t.Errorf("force push: tool_result %+v, want refused by the http hook's deny", tr)
	}
	if got := p.Git("--git-dir", p.Origin, "rev-parse", "main"); got != origin {
		t.Errorf("origin main moved: %s -> %s", origin, got)
	}
	if tr, _ := res.ToolResult(1); tr.IsError || !strings.Contains(tr.Content, "On branch") {
		t.Errorf("git status: tool_result %+v, want it run", tr)
	}
	for i, want := range []string{"deny", "allow"} {
		c := p.Checks(res.Result.SessionID, res.ToolUseID(i))
		if len(c) != 1 || c[0].Entry.Verdict != want || c[0].Entry.Via != "hook-http" {
			t.Errorf("call %d: record %+v, want one %s via hook-http", i, c, want)
		}
	}

	// Each failure under a call the warrant allows, so only the failure
	// can stop it. A short timeout keeps the hung case quick.
	settings := p.ReadFile(".claude/settings.json")
	p.WriteFile(".claude/settings.json", strings.ReplaceAll(settings, `"timeout": 30`, `"timeout": 3`))
	if p.ReadFile(".claude/settings.json") == settings {
		t.Fatal("could not shorten the PreToolUse hook's timeout")
	}
	blocked := func(name string, env ...string) {
		t.Helper()
		res := p.Claude(agente2e.Session{Prompt: "go", Args: []string{"--permission-mode", "bypassPermissions"}, Env: env,
			Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
		tr, _ := res.ToolResult(0)
		if strings.Contains(tr.Content, "On branch") {
			t.Errorf("%s: the call ran", name)
		}
		if !tr.IsError || !strings.Contains(tr.Content, `blocking because onFailure is "block"`) {
			t.Errorf("%s: tool_result %+v, want blocked on failure", name, tr)
		}
		t.Logf("%s: %q", name, tr.Content)
	}
	// The control: the same call runs when the server answers.
	ok := p.Claude(agente2e.Session{Prompt: "go", Args: []string{"--permission-mode", "bypassPermissions"},
		Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
	if tr, _ := ok.ToolResult(0); tr.IsError || !strings.Contains(tr.Content, "On branch") {
		t.Fatalf("control: the allowed call did not run: %+v", tr)
	}

	// Not running: a stand-in gitwarrant whose serve fails, so the
	// SessionStart hook cannot start one.
	stopServer(t, p)
	p.AddTool("gitwarrant", "#!/bin/sh\necho 'e2e: no server today' >&2\nexit 1\n")
	blocked("stopped")
	os.Remove(filepath.Join(p.BinDir, "gitwarrant"))

	// Hung: the server holds its lock and its port but answers nothing.
	p.Run("serve", "--detach", "--addr", serverAddr(t, p), "--idle-exit", "1h")
	if err := syscall.Kill(serverPID(p), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	blocked("hung")
	stopServer(t, p)

	// A wrong key: Claude Code sends it, the server refuses it with 401.
	local := p.ReadFile(".claude/settings.local.json")
	i := strings.Index(local, "gwk_")
	p.WriteFile(".claude/settings.local.json", local[:i]+"gwk_"+strings.Repeat("x", 32)+local[i+36:])
	blocked("wrong key")
	p.WriteFile(".claude/settings.local.json", local)
}

// serverAddr is the address the installed hook posts to.
func serverAddr(t *testing.T, p *agente2e.Project) string {
	t.Helper()
	s := p.ReadFile(".claude/settings.json")
	_, rest, ok := strings.Cut(s, `"url": "http://`)
	if !ok {
		t.Fatal("no http hook in .claude/settings.json")
	}
	addr, _, _ := strings.Cut(rest, "/")
	return addr
}

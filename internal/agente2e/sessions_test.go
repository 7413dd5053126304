package agente2e_test

import (
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// TestClaudeSessionWarrants: through the wiring install writes for two job
// loops (--default-loop fix; docs/sessions.md), the real client's
// UserPromptSubmit hook pins each session to the loop its prompt routes
// to, the agent is told which, and every tool call of the session is
// decided under that loop — the same push allowed under fix is asked
// under release.
func TestClaudeSessionWarrants(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Files: goModule, More: map[string]string{"release": "cut-release"},
		Install: []string{"--default-loop", "fix"}, Origin: true})
	push := agente2e.Bash("git push origin HEAD:fix/issue-12")

	fix := p.Claude(agente2e.Session{Prompt: "fix the crash in Add: there is a failing test, a regression", Calls: []agente2e.ToolCall{
		agente2e.Bash("git status"),
		agente2e.Write(p.Path("add_test.go"), addTest),
		agente2e.Bash("go test ./..."),
		push,
	}})
	if len(fix.Result.PermissionDenials) != 0 {
		t.Fatalf("the fix session's honest calls were refused: %+v", fix.Result.PermissionDenials)
	}
	for i := 0; i < 4; i++ {
		checks := p.Checks(fix.Result.SessionID, fix.ToolUseID(i))
		if len(checks) != 1 || checks[0].Entry.Verdict != "allow" || checks[0].Entry.Loop != "fix" || checks[0].Entry.LoopVia != "session:routed" {
			t.Errorf("fix session, call %d: record %+v, want one allow by fix, chosen by session:routed", i, checks)
		}
	}
	if !toldLoop(fix, "fix") {
		t.Errorf("the fix session's model was not told its loop; requests:\n%s", systemTexts(fix))
	}

	rel := p.Claude(agente2e.Session{Prompt: "cut a release: tag it and write the changelog", Calls: []agente2e.ToolCall{
		agente2e.Bash("git status"),
		push,
	}})
	if rel.Denied(0) || !rel.Denied(1) {
		t.Errorf("release session: denials %+v, want only the push refused", rel.Result.PermissionDenials)
	}
	if tr, _ := rel.ToolResult(1); !tr.IsError || !strings.Contains(tr.Content, "gitwarrant: release: ") {
		t.Errorf("release session push: tool_result %+v, want an ask by loop release", tr)
	}
	for i, want := range []string{"allow", "ask"} {
		checks := p.Checks(rel.Result.SessionID, rel.ToolUseID(i))
		if len(checks) != 1 || checks[0].Entry.Verdict != want || checks[0].Entry.Loop != "release" || checks[0].Entry.LoopVia != "session:routed" {
			t.Errorf("release session, call %d: record %+v, want one %s by release", i, checks, want)
		}
	}
	if !toldLoop(rel, "release") {
		t.Errorf("the release session's model was not told its loop; requests:\n%s", systemTexts(rel))
	}

	// A prompt that routes nowhere: the default loop decides, and says so.
	idle := p.Claude(agente2e.Session{Prompt: "hello there", Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
	checks := p.Checks(idle.Result.SessionID, idle.ToolUseID(0))
	if idle.Denied(0) || len(checks) != 1 || checks[0].Entry.Loop != "fix" || checks[0].Entry.LoopVia != "default" {
		t.Errorf("unrouted session: denials %+v, record %+v, want an allow by the default loop fix", idle.Result.PermissionDenials, checks)
	}
	if out := p.Run("session", "list"); !strings.Contains(out, rel.Result.SessionID) && !strings.Contains(out, "no session is pinned") {
		t.Errorf("session list: %s", out)
	}
}

// toldLoop reports whether the model saw the prompt hook's context naming
// loop (docs/agents-e2e.md#events: a system message in every request).
func toldLoop(r *agente2e.ClaudeResult, loop string) bool {
	return strings.Contains(systemTexts(r), `UserPromptSubmit hook additional context: gitwarrant: this session works under the loop "`+loop+`"`)
}

func systemTexts(r *agente2e.ClaudeResult) string {
	var b strings.Builder
	for _, req := range r.Requests {
		for _, m := range req.Parsed.Messages {
			if m.Role == "system" || m.Role == "user" {
				b.WriteString(m.Content.Text())
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

package agente2e_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// These tests drive the real Claude Code CLI (pinned by
// testdata/claude-code/package-lock.json) against a scripted model, in
// projects wired only by `gitwarrant install`; docs/agents-e2e.md lists
// what they establish.

// TestMain removes the binary the tests build.
func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

// pinned is the install flags of these tests: none, the wiring install
// writes on a fresh repository — one job loop, so it is the default loop
// every session works under until its prompt routes elsewhere
// (docs/sessions.md). A parameter so other wirings run through the same
// tests.
var pinned []string

// goModule is a tiny Go module, so the template's Go entries apply.
var goModule = map[string]string{
	"go.mod": "module example.com/e2e\n\ngo 1.21\n",
	"add.go": "package e2e\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a + b }\n",
}

const addTest = `package e2e

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add(2, 3) != 5")
	}
}
`

// newProject makes a project wired by install with flags; it skips before
// any work when the CLI is not installed.
func newProject(t *testing.T, s agente2e.Setup) *agente2e.Project {
	t.Helper()
	agente2e.ClaudeBin(t)
	return agente2e.NewProject(t, testkit.Binary(t), s)
}

// TestClaudeHonestCallsRun: calls the warrant allows run in the client's
// default permission mode, where -p has no one to approve a write — the
// hook's allow is what lets them through (TestClaudeWithoutHook shows the
// same write refused without it).
func TestClaudeHonestCallsRun(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Files: goModule, Install: pinned})
	calls := []agente2e.ToolCall{
		agente2e.Bash("git status"),
		agente2e.Write(p.Path("add_test.go"), addTest),
		agente2e.Bash("go test ./..."),
	}
	res := p.Claude(agente2e.Session{Prompt: "add a test for Add and run the tests", Calls: calls})
	if len(res.Result.PermissionDenials) != 0 || res.Result.IsError {
		t.Fatalf("honest calls refused: %+v\n%s", res.Result, res.Raw)
	}
	for i := range calls {
		tr, ok := res.ToolResult(i)
		if !ok || tr.IsError {
			t.Errorf("call %d (%s): tool_result %+v (sent: %v)", i, calls[i].Name, tr, ok)
		}
		checks := p.Checks(res.Result.SessionID, res.ToolUseID(i))
		if len(checks) != 1 || checks[0].Entry.Verdict != "allow" || checks[0].Entry.Loop != "fix" {
			t.Errorf("call %d: record %+v, want one allow by loop fix", i, checks)
		}
	}
	if got := p.ReadFile("add_test.go"); got != addTest {
		t.Errorf("add_test.go = %q, want the written test", got)
	}
	if tr, _ := res.ToolResult(2); !strings.Contains(tr.Content, "ok") || !strings.Contains(tr.Content, "example.com/e2e") {
		t.Errorf("go test ./... result: %q", tr.Content)
	}
	if res.Result.Result != "done" {
		t.Errorf("result text %q, want the model's final text", res.Result.Result)
	}
}

// refusal is one call the pinned warrant must stop, with the verdict the
// record must hold and how the reason the model is told begins: the
// client puts "PreToolUse:<tool> hook error: " before a deny's reason and
// nothing before an ask's (docs/agents-e2e.md#verdicts).
type refusal struct {
	call    agente2e.ToolCall
	verdict string
	reason  string
}

func (r refusal) prefix() string {
	if r.verdict == "deny" {
		return "PreToolUse:" + r.call.Name + " hook error: gitwarrant: "
	}
	return "gitwarrant: "
}

// TestClaudeRefusals: under bypassPermissions nothing but the hook stands
// between a call and its effect; every refused call must be in
// permission_denials, reach the model as an error tool_result carrying
// gitwarrant's reason, be recorded, and leave no effect.
func TestClaudeRefusals(t *testing.T) {
	t.Parallel()
	files := map[string]string{"README.md": "e2e\n", ".env": "API_TOKEN=hunter2\n", "build/out.txt": "built\n"}
	p := newProject(t, agente2e.Setup{Files: files, Install: pinned, Origin: true})
	sudoMark := p.Path("../sudo-ran")
	p.AddTool("sudo", "#!/bin/sh\necho \"$@\" > '"+sudoMark+"'\n")
	loop := p.ReadFile(".gitwarrant/loops/fix.loop.md")
	origin := p.Git("--git-dir", p.Origin, "rev-parse", "main")
	refusals := []refusal{
		{agente2e.Bash("git push --force origin main"), "deny", "fix: never: "},
		{agente2e.Bash("sudo rm -rf /home/user"), "deny", "fix: never: Bash(sudo)"},
		{agente2e.Read(p.Path(".env")), "deny", "fix: never: "},
		{agente2e.Write(p.Path(".gitwarrant/loops/fix.loop.md"), "hijacked\n"), "deny", "self-protection"},
		// An ask of the template; -p has no one to ask (docs/agents-e2e.md).
		{agente2e.Bash("rm -rf build"), "ask", "fix: ask: Bash(rm"},
	}
	var calls []agente2e.ToolCall
	for _, r := range refusals {
		calls = append(calls, r.call)
	}
	res := p.Claude(agente2e.Session{Prompt: "tidy up and ship it", Calls: calls,
		Args: []string{"--permission-mode", "bypassPermissions"}})

	for i, r := range refusals {
		if !res.Denied(i) {
			t.Errorf("call %d %v: not in permission_denials %+v", i, r.call.Input, res.Result.PermissionDenials)
		}
		tr, ok := res.ToolResult(i)
		if !ok || !tr.IsError || !strings.HasPrefix(tr.Content, r.prefix()) || !strings.Contains(tr.Content, r.reason) {
			t.Errorf("call %d %v: tool_result %+v (sent: %v), want is_error, %q… with %q", i, r.call.Input, tr, ok, r.prefix(), r.reason)
		}
		checks := p.Checks(res.Result.SessionID, res.ToolUseID(i))
		if len(checks) != 1 || checks[0].Entry.Verdict != r.verdict {
			t.Errorf("call %d %v: record %+v, want one %s", i, r.call.Input, checks, r.verdict)
		}
	}
	if got := p.Git("--git-dir", p.Origin, "rev-parse", "main"); got != origin {
		t.Errorf("origin main moved: %s -> %s", origin, got)
	}
	if _, err := os.Stat(sudoMark); err == nil {
		t.Errorf("sudo ran")
	}
	if got := p.ReadFile(".gitwarrant/loops/fix.loop.md"); got != loop {
		t.Errorf("the loop file changed:\n%s", got)
	}
	if p.ReadFile("build/out.txt") != "built\n" {
		t.Errorf("build/ was removed")
	}
	for _, r := range res.Requests {
		if strings.Contains(string(r.Body), "hunter2") {
			t.Fatalf("the .env secret reached the model (request %s)", r.Path)
		}
	}
}

// TestClaudeWithoutHook is the control of the two tests above: the same
// calls in a project installed with --no-hook. In the default mode -p
// refuses the write the hook allowed; under bypassPermissions the calls
// the hook refused run. So neither test can pass without the hook.
func TestClaudeWithoutHook(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Files: goModule, Install: []string{"--no-hook"}})
	write := p.Claude(agente2e.Session{Prompt: "add a test",
		Calls: []agente2e.ToolCall{agente2e.Write(p.Path("add_test.go"), addTest)}})
	if !write.Denied(0) || p.ReadFile("add_test.go") != "" {
		t.Errorf("without the hook, -p in default mode ran the write: %+v", write.Result)
	}

	sudoMark := p.Path("../sudo-ran")
	p.AddTool("sudo", "#!/bin/sh\necho \"$@\" > '"+sudoMark+"'\n")
	bypass := p.Claude(agente2e.Session{Prompt: "go", Args: []string{"--permission-mode", "bypassPermissions"},
		Calls: []agente2e.ToolCall{
			agente2e.Bash("sudo rm -rf /home/user"),
			agente2e.Write(p.Path(".gitwarrant/loops/fix.loop.md"), "hijacked\n"),
		}})
	if len(bypass.Result.PermissionDenials) != 0 {
		t.Errorf("without the hook, bypassPermissions refused: %+v", bypass.Result.PermissionDenials)
	}
	if _, err := os.Stat(sudoMark); err != nil {
		t.Errorf("without the hook the stand-in sudo did not run: %v", err)
	}
	if got := p.ReadFile(".gitwarrant/loops/fix.loop.md"); got != "hijacked\n" {
		t.Errorf("without the hook the loop write did not happen: %q", got)
	}
}

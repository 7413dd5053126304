package mcpcmd

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// TestServerSurfacesAllowATypedAllowedCall: the MCP tool check and the
// http hook decide with the typed allower, so a call the fix loop's
// Bash(git status *) allows is allowed on both. The gate's zero
// environment asks for every call: a surface built without the allower
// answers ask here (docs/threat-model.md#natural-language-entries-and-tool-calls).
func TestServerSurfacesAllowATypedAllowedCall(t *testing.T) {
	app, dir := hookRepo(t)
	p, err := app.Project()
	if err != nil {
		t.Fatal(err)
	}
	res, err := mcpCheck(context.Background(), app, p, mcp.CheckRequest{Loop: "fix", Tool: "Bash",
		ToolInput: map[string]any{"command": "git status"}, Caller: mcp.Caller{Via: "mcp", Credential: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "allow" || !strings.Contains(res.Rule, "Bash(git status *)") {
		t.Errorf("MCP check_action for git status: %s (%s), want allow by Bash(git status *)", res.Verdict, res.Rule)
	}
	hook := claudeHook(app, &bytes.Buffer{}, record.NewJournal(nil))
	q := url.Values{"loop": {"fix"}, "no-record": {"1"}}
	got := string(hook(context.Background(), mcp.Caller{Credential: "test"}, q, bashPayload(dir, "git status"), nil))
	if !strings.Contains(got, `"permissionDecision":"allow"`) || !strings.Contains(got, "Bash(git status *)") {
		t.Errorf("http hook for git status: %s, want allow by Bash(git status *)", got)
	}
}

package agente2e_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// TestClaudeDenyRulesWithoutHook: the permissions.deny rules install
// compiles from the typed never entries (docs/install.md#deny-rules) are
// read by the client itself. With the hook entries taken out of the
// settings (what code outside the sandbox could do), bypassPermissions
// still refuses `sudo …` — a never entry of the baseline — by the rule
// alone, and the stand-in sudo never runs; `git status` still runs, so the
// rules are not a blanket refusal.
func TestClaudeDenyRulesWithoutHook(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Install: pinned})
	var settings map[string]any
	if err := json.Unmarshal([]byte(p.ReadFile(".claude/settings.json")), &settings); err != nil {
		t.Fatal(err)
	}
	perms, _ := settings["permissions"].(map[string]any)
	if deny, _ := perms["deny"].([]any); !containsAny(deny, "Bash(sudo *)") {
		t.Fatalf("install wrote no Bash(sudo *) deny rule: %v", perms)
	}
	delete(settings, "hooks")
	b, _ := json.MarshalIndent(settings, "", "  ")
	p.WriteFile(".claude/settings.json", string(b))
	mark := p.Path("../sudo-ran")
	p.AddTool("sudo", "#!/bin/sh\necho \"$@\" > '"+mark+"'\n")
	res := p.Claude(agente2e.Session{Prompt: "clean up", Args: []string{"--permission-mode", "bypassPermissions"},
		Calls: []agente2e.ToolCall{agente2e.Bash("sudo rm -rf /home/user"), agente2e.Bash("git status")}})
	if !res.Denied(0) {
		t.Errorf("sudo was not refused by the deny rule: %+v", res.Result.PermissionDenials)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("the stand-in sudo ran")
	}
	if tr, ok := res.ToolResult(1); !ok || tr.IsError || res.Denied(1) || !strings.Contains(tr.Content, "branch") {
		t.Errorf("git status under the deny rules: %+v (sent %v)", tr, ok)
	}
}

func containsAny(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

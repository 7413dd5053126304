package agente2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// TestClaudeSandboxGoTestRuns: in a Go project wired by a default install,
// an allowed `go test` passes inside the sandbox, though Go's build cache
// is read-only there (docs/install.md#ecosystem-caches). The control
// session, with the env install wrote taken out of the settings, fails
// the way a user met it before install wrote that env: go cannot write
// the module index entry of a package it has not seen ("[setup failed]").
// Each project is a fresh folder, so its packages are new to the cache.
func TestClaudeSandboxGoTestRuns(t *testing.T) {
	t.Parallel()
	requireSandbox(t)
	files := map[string]string{"go.mod": goModule["go.mod"], "add.go": goModule["add.go"], "add_test.go": addTest,
		"sub/sub.go": "package sub\n\n// One is 1.\nconst One = 1\n"}
	p := newProject(t, agente2e.Setup{Files: files, Install: pinned})
	settings := p.ReadFile(".claude/settings.json")
	if !strings.Contains(settings, `"GODEBUG": "goindex=0"`) {
		t.Fatalf("install wrote no GODEBUG for the Go tools:\n%s", settings)
	}
	run := func() agente2e.ToolResult {
		t.Helper()
		res := p.Claude(agente2e.Session{Prompt: "run the tests", Calls: []agente2e.ToolCall{agente2e.Bash("go test -count=1 ./...")}})
		tr, ok := res.ToolResult(0)
		if !ok || res.Denied(0) {
			t.Fatalf("go test did not run: %+v %+v", res.Result.PermissionDenials, tr)
		}
		return tr
	}
	if tr := run(); tr.IsError || !strings.Contains(tr.Content, "ok  \texample.com/e2e") {
		t.Errorf("go test inside the sandbox with install's env: %s", tr.Content)
	}

	// The control: the same call without the env install wrote.
	var m map[string]any
	if err := json.Unmarshal([]byte(settings), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "env")
	b, _ := json.MarshalIndent(m, "", "  ")
	p.WriteFile(".claude/settings.json", string(b))
	if tr := run(); !tr.IsError || !strings.Contains(tr.Content, "read-only file system") || !strings.Contains(tr.Content, "[setup failed]") {
		t.Errorf("go test inside the sandbox without install's env: %s, want [setup failed] on the read-only cache", tr.Content)
	}
}

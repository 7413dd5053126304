package agente2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

func TestZProbeHeaders(t *testing.T) {
	bin := agente2e.ClaudeBin(t)
	var mu sync.Mutex
	var got []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.String()+" auth="+r.Header.Get("Authorization")+" x="+r.Header.Get("X-Gw"))
		mu.Unlock()
		io.WriteString(w, `{}`)
	}))
	defer up.Close()
	for _, local := range []bool{false, true} {
		dir := t.TempDir()
		h := map[string]any{"type": "http", "url": up.URL + "/hooks/claude?loop=fix#gitwarrant-install", "timeout": 5, "onFailure": "block",
			"headers": map[string]any{"Authorization": "Bearer $GITWARRANT_HOOK_KEY", "X-Gw": "${GITWARRANT_HOOK_KEY}"}, "allowedEnvVars": []string{"GITWARRANT_HOOK_KEY"}}
		hooks := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{h}}}}
		b, _ := json.Marshal(map[string]any{"hooks": hooks})
		os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
		os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644)
		var env []string
		if local {
			lb, _ := json.Marshal(map[string]any{"env": map[string]any{"GITWARRANT_HOOK_KEY": "gwk_LOCALabcdefghijklmnopqrstuvwxyz12"}})
			os.WriteFile(filepath.Join(dir, ".claude", "settings.local.json"), lb, 0o644)
		} else {
			env = []string{"GITWARRANT_HOOK_KEY=gwk_PROCabcdefghijklmnopqrstuvwxyz123"}
		}
		res := agente2e.RunClaude(t, agente2e.ClaudeRun{Bin: bin, Dir: dir, Prompt: "go", Env: env,
			Args:   []string{"--permission-mode", "bypassPermissions"},
			Script: agente2e.Script{Calls: []agente2e.ToolCall{agente2e.Bash("echo ran > marker")}}})
		tr, _ := res.ToolResult(0)
		t.Logf("local=%v tool result %+v", local, tr)
	}
	t.Logf("got %q", got)
}

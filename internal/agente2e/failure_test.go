package agente2e_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// hookCase is one PreToolUse hook definition and what the pinned client
// does with a Bash call under it when nothing else stands in the way
// (bypassPermissions).
type hookCase struct {
	name string
	hook func(t *testing.T, dir string) map[string]any
	runs bool   // whether the call runs
	says string // a word of the tool_result when it does not
}

// TestClaudeHookFailure establishes how the pinned client treats an http
// hook, and a hook that fails, with and without onFailure "block"
// (docs/agents-e2e.md#failures). Each case is a plain folder with only
// .claude/settings.json: no gitwarrant, so only the hook under test
// decides.
func TestClaudeHookFailure(t *testing.T) {
	t.Parallel()
	bin := agente2e.ClaudeBin(t)
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"e2e: denied over http"}}`
	var mu sync.Mutex
	var posted []byte
	var header http.Header
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted, header = b, r.Header.Clone()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, deny)
	}))
	t.Cleanup(up.Close)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "e2e: broken", http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)
	down := closedPort(t)

	httpHook := func(url string, block bool) func(*testing.T, string) map[string]any {
		return func(*testing.T, string) map[string]any {
			h := map[string]any{"type": "http", "url": url, "timeout": 5}
			if block {
				h["onFailure"] = "block"
			}
			return h
		}
	}
	cmdHook := func(script string, timeout int, block bool) func(*testing.T, string) map[string]any {
		return func(t *testing.T, dir string) map[string]any {
			path := filepath.Join(dir, "hook.sh")
			if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			h := map[string]any{"type": "command", "command": path, "timeout": timeout}
			if block {
				h["onFailure"] = "block"
			}
			return h
		}
	}
	cases := []hookCase{
		{name: "http deny", hook: httpHook(up.URL+"/hook", true), says: "PreToolUse:Bash hook error: e2e: denied over http"},
		{name: "http down onFailure block", hook: httpHook("http://"+down+"/hook", true), says: `blocking because onFailure is "block"`},
		{name: "http down", hook: httpHook("http://"+down+"/hook", false), runs: true},
		{name: "http 500 onFailure block", hook: httpHook(failing.URL+"/hook", true), says: `blocking because onFailure is "block"`},
		{name: "command exit 1 onFailure block", hook: cmdHook("echo e2e-broken >&2; exit 1", 10, true), says: `blocking because onFailure is "block"` + "\ne2e-broken"},
		{name: "command exit 1", hook: cmdHook("echo e2e-broken >&2; exit 1", 10, false), runs: true},
		{name: "command timeout onFailure block", hook: cmdHook("sleep 8", 1, true), says: `blocking because onFailure is "block"`},
		{name: "command timeout", hook: cmdHook("sleep 8", 1, false), runs: true},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			hooks := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{c.hook(t, t.TempDir())}}}}
			b, _ := json.Marshal(map[string]any{"hooks": hooks})
			os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
			os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644)
			res := agente2e.RunClaude(t, agente2e.ClaudeRun{Bin: bin, Dir: dir, Prompt: "go",
				Args:   []string{"--permission-mode", "bypassPermissions"},
				Script: agente2e.Script{Calls: []agente2e.ToolCall{agente2e.Bash("echo ran > marker")}}})
			_, err := os.Stat(filepath.Join(dir, "marker"))
			ran := err == nil
			tr, _ := res.ToolResult(0)
			t.Logf("ran=%v denied=%v tool_result is_error=%v: %q", ran, res.Denied(0), tr.IsError, tr.Content)
			if ran != c.runs {
				t.Errorf("the call ran: %v, want %v", ran, c.runs)
			}
			if !c.runs && (!tr.IsError || !strings.Contains(tr.Content, c.says)) {
				t.Errorf("tool_result %+v, want is_error saying %q", tr, c.says)
			}
		})
	}
	// The parent's cleanup runs once the parallel cases have finished.
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		var m map[string]any
		if err := json.Unmarshal(posted, &m); err != nil {
			t.Errorf("the http hook's POST body: %v\n%s", err, posted)
			return
		}
		t.Logf("http hook: Content-Type %q, User-Agent %q, payload keys %s", header.Get("Content-Type"), header.Get("User-Agent"), strings.Join(keys(m), " "))
		if m["hook_event_name"] != "PreToolUse" || m["tool_name"] != "Bash" {
			t.Errorf("the http hook's payload: %v", m)
		}
	})
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

package agente2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// CodexEnv names a Codex CLI binary to use instead of the pinned one.
const CodexEnv = "GITWARRANT_CODEX"

// InstallCodex is the command that installs the pinned Codex CLI.
const InstallCodex = "npm ci --prefix testdata/codex --ignore-scripts"

// CodexBin returns the native binary of the Codex CLI pinned by
// testdata/codex/package-lock.json: the platform package
// (@openai/codex-linux-x64 …, an optional dependency) holds it under
// vendor/<target triple>/bin/codex, which the npm wrapper's bin/codex.js
// only finds and runs. $GITWARRANT_CODEX overrides it.
func CodexBin(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(CodexEnv); p != "" {
		return p
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	triple := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	var p string
	switch runtime.GOOS {
	case "linux":
		p = filepath.Join("@openai", "codex-linux-"+arch, "vendor", triple+"-unknown-linux-musl", "bin", "codex")
	case "darwin":
		p = filepath.Join("@openai", "codex-darwin-"+arch, "vendor", triple+"-apple-darwin", "bin", "codex")
	}
	p = filepath.Join(RepoRoot(), "testdata", "codex", "node_modules", p)
	if _, err := os.Stat(p); err != nil {
		SkipOrFail(t, "the Codex CLI is not installed (%s): run `%s` (.ci/run does)", p, InstallCodex)
	}
	return p
}

// CodexServer is a scripted OpenAI Responses API on 127.0.0.1: each
// request of the conversation gets the next call of its script as a
// function_call (or, for a tool whose input is the "input" string, a
// custom_tool_call), then the final text.
type CodexServer struct {
	URL    string
	script Script
	srv    *httptest.Server

	mu       sync.Mutex
	requests []CodexRequest
}

// CodexRequest is one request the client made.
type CodexRequest struct {
	Path   string
	Body   []byte
	Parsed struct {
		Model string            `json:"model"`
		Input []json.RawMessage `json:"input"`
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
}

// NewCodexServer starts a server answering from script.
func NewCodexServer(t testing.TB, script Script) *CodexServer {
	t.Helper()
	s := &CodexServer{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Requests returns every request received so far.
func (s *CodexServer) Requests() []CodexRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]CodexRequest(nil), s.requests...)
}

// callID is the call_id the server gives the i-th call of its script.
func callID(i int) string { return fmt.Sprintf("call_e2e_%02d", i) }

func (s *CodexServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := CodexRequest{Path: r.URL.Path, Body: body}
	_ = json.Unmarshal(body, &req.Parsed)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	total := len(s.requests)
	s.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, "/responses") {
		http.Error(w, `{"error":{"message":"the e2e server knows only /responses"}}`, http.StatusNotFound)
		return
	}
	n := 0
	for _, raw := range req.Parsed.Input {
		var it struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		}
		_ = json.Unmarshal(raw, &it)
		if (it.Type == "function_call" || it.Type == "custom_tool_call") && strings.HasPrefix(it.CallID, "call_e2e_") {
			n++
		}
	}
	var item map[string]any
	switch {
	case n < len(s.script.Calls) && total <= len(s.script.Calls)+maxExtraRequests:
		c := s.script.Calls[n]
		if in, ok := c.Input["input"].(string); ok && len(c.Input) == 1 {
			item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_e2e_%02d", n), "call_id": callID(n), "name": c.Name, "input": in, "status": "completed"}
		} else {
			args, _ := json.Marshal(c.Input)
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_e2e_%02d", n), "call_id": callID(n), "name": c.Name, "arguments": string(args), "status": "completed"}
		}
	default:
		final := s.script.Final
		if final == "" {
			final = "done"
		}
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_e2e_%02d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": final, "annotations": []any{}}}}
	}
	id := fmt.Sprintf("resp_e2e_%02d", total)
	w.Header().Set("Content-Type", "text/event-stream")
	sse := func(typ string, data map[string]any) {
		data["type"] = typ
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
	}
	sse("response.created", map[string]any{"response": map[string]any{"id": id, "status": "in_progress"}})
	sse("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	sse("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	sse("response.completed", map[string]any{"response": map[string]any{"id": id, "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}}})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// CodexRun is one `codex exec` session.
type CodexRun struct {
	Bin    string // CodexBin
	Dir    string
	Home   string // HOME; a fresh one when empty
	Prompt string
	Script Script
	Args   []string // more flags for `codex exec`
	Env    []string
	PATH   string
	// Config is more of $CODEX_HOME/config.toml, after the model provider.
	Config string
}

// CodexResult is a finished session.
type CodexResult struct {
	Stdout, Stderr string
	Requests       []CodexRequest
	Took           time.Duration
	Err            error
}

// Output returns the output the client sent back for the i-th call of
// the script ("" and false when it sent none).
func (r *CodexResult) Output(i int) (string, bool) {
	out, ok := "", false
	for _, req := range r.Requests {
		for _, raw := range req.Parsed.Input {
			var it struct {
				Type   string          `json:"type"`
				CallID string          `json:"call_id"`
				Output json.RawMessage `json:"output"`
			}
			_ = json.Unmarshal(raw, &it)
			if (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") && it.CallID == callID(i) {
				var s string
				if json.Unmarshal(it.Output, &s) != nil {
					s = string(it.Output)
				}
				out, ok = s, true
			}
		}
	}
	return out, ok
}

// RunCodex runs one `codex exec` session against a fresh scripted server,
// with $CODEX_HOME/config.toml naming that server as the model provider
// and trusting the project folder.
func RunCodex(t testing.TB, run CodexRun) *CodexResult {
	t.Helper()
	srv := NewCodexServer(t, run.Script)
	home := run.Home
	if home == "" {
		home = t.TempDir()
	}
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "e2e"
check_for_update_on_startup = false
# A login shell would reset PATH from /etc/profile, losing the project's
# gitwarrant and go.
allow_login_shell = false

[model_providers.e2e]
name = "e2e"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, srv.URL, run.Dir) + run.Config
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"exec", "--skip-git-repo-check", "--json"}, run.Args...)
	args = append(args, run.Prompt)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, run.Bin, args...)
	cmd.Dir = run.Dir
	cmd.Env = append(clientEnv(home, run.PATH, "CODEX_HOME="+codexHome, "E2E_API_KEY=sk-e2e-offline", "SHELL=/bin/sh"), run.Env...)
	res := &CodexResult{}
	res.Stdout, res.Stderr, res.Took, res.Err = runClient(t, fmt.Sprintf("codex exec %q", run.Prompt), cmd)
	res.Requests = srv.Requests()
	return res
}

// Codex runs one `codex exec` session in the project: its work tree, the
// project's PATH (so the installed hook command finds its gitwarrant), a
// HOME of its own whose Codex config names the scripted server.
func (p *Project) Codex(run CodexRun) *CodexResult {
	p.T.Helper()
	run.Bin, run.Dir, run.PATH = CodexBin(p.T), p.Dir, p.path
	return RunCodex(p.T, run)
}

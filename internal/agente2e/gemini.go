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
	"strings"
	"sync"
	"testing"
	"time"
)

// GeminiEnv names a Gemini CLI entry script (bundle/gemini.js) to use
// instead of the pinned one.
const GeminiEnv = "GITWARRANT_GEMINI"

// InstallGemini is the command that installs the pinned Gemini CLI.
const InstallGemini = "npm ci --prefix testdata/gemini-cli --ignore-scripts"

// GeminiBin returns the entry script of the Gemini CLI pinned by
// testdata/gemini-cli/package-lock.json (run with node), or
// $GITWARRANT_GEMINI.
func GeminiBin(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(GeminiEnv); p != "" {
		return p
	}
	p := filepath.Join(RepoRoot(), "testdata", "gemini-cli", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
	if _, err := os.Stat(p); err != nil {
		SkipOrFail(t, "the Gemini CLI is not installed (%s): run `%s` (.ci/run does)", p, InstallGemini)
	}
	if _, err := exec.LookPath("node"); err != nil {
		SkipOrFail(t, "node is not installed: the Gemini CLI runs on it")
	}
	return p
}

// GeminiServer is a scripted Gemini API (generativelanguage) on
// 127.0.0.1: a request that offers function declarations gets the next
// call of its script, or the final text; every other request (a routing
// or next-speaker check) gets a JSON or text answer that ends the turn.
type GeminiServer struct {
	URL    string
	script Script
	srv    *httptest.Server

	mu       sync.Mutex
	requests []GeminiRequest
	main     int
}

// GeminiRequest is one request the client made.
type GeminiRequest struct {
	Path string
	Body []byte
	Main bool
	// Parsed is the decoded body.
	Parsed GeminiBody
}

// GeminiBody is the part of a generateContent body the tests read.
type GeminiBody struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []GeminiPart `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// GeminiPart is one part of a content: text, a function call or the
// response the client sent back for one.
type GeminiPart struct {
	Text         string `json:"text,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
}

// NewGeminiServer starts a server answering from script.
func NewGeminiServer(t testing.TB, script Script) *GeminiServer {
	t.Helper()
	s := &GeminiServer{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Requests returns every request received so far.
func (s *GeminiServer) Requests() []GeminiRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GeminiRequest(nil), s.requests...)
}

func (s *GeminiServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := GeminiRequest{Path: r.URL.Path, Body: body}
	_ = json.Unmarshal(body, &req.Parsed)
	for _, tl := range req.Parsed.Tools {
		if len(tl.FunctionDeclarations) > 0 {
			req.Main = true
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if req.Main {
		s.main++
	}
	over := s.main > len(s.script.Calls)+maxExtraRequests
	s.mu.Unlock()

	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
		return
	case !strings.Contains(r.URL.Path, ":generateContent") && !strings.Contains(r.URL.Path, ":streamGenerateContent"):
		http.Error(w, `{"error":{"code":404,"message":"the e2e server knows only generateContent"}}`, http.StatusNotFound)
		return
	}
	var parts []map[string]any
	switch {
	case !req.Main && req.Parsed.GenerationConfig.ResponseMimeType == "application/json":
		parts = []map[string]any{{"text": `{"next_speaker":"user","reasoning":"e2e","model_choice":"flash","complexity_reasoning":"e2e","complexity_score":1}`}}
	case !req.Main || over:
		parts = []map[string]any{{"text": "e2e side answer"}}
	default:
		n := 0
		for _, c := range req.Parsed.Contents {
			for _, p := range c.Parts {
				if c.Role == "model" && p.FunctionCall != nil {
					n++
				}
			}
		}
		if n < len(s.script.Calls) {
			c := s.script.Calls[n]
			parts = []map[string]any{{"functionCall": map[string]any{"name": c.Name, "args": c.Input}}}
		} else {
			final := s.script.Final
			if final == "" {
				final = "done"
			}
			parts = []map[string]any{{"text": final}}
		}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "gemini-e2e",
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		writeJSON(w, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	b, _ := json.Marshal(resp)
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// GeminiRun is one `gemini -p` session.
type GeminiRun struct {
	Bin    string // GeminiBin
	Dir    string
	Home   string // HOME; a fresh one when empty
	Prompt string
	Script Script
	Args   []string
	Env    []string
	PATH   string
}

// GeminiResult is a finished session.
type GeminiResult struct {
	Stdout, Stderr string
	Requests       []GeminiRequest
	Took           time.Duration
	Err            error
}

// FunctionResponse returns the text of the client's response to the i-th
// function call of the conversation ("" and false when it sent none).
func (r *GeminiResult) FunctionResponse(i int) (string, bool) {
	var last []GeminiPart
	for _, req := range r.Requests {
		if !req.Main {
			continue
		}
		var resps []GeminiPart
		for _, c := range req.Parsed.Contents {
			for _, p := range c.Parts {
				if p.FunctionResponse != nil {
					resps = append(resps, p)
				}
			}
		}
		if len(resps) > len(last) {
			last = resps
		}
	}
	if i >= len(last) {
		return "", false
	}
	return string(last[i].FunctionResponse.Response), true
}

// RunGemini runs one non-interactive session against a fresh scripted
// server. The client runs with node; its environment is built from
// nothing, as RunClaude's is.
func RunGemini(t testing.TB, run GeminiRun) *GeminiResult {
	t.Helper()
	srv := NewGeminiServer(t, run.Script)
	home := run.Home
	if home == "" {
		home = GeminiHome(t)
	}
	args := append([]string{run.Bin, "-p", run.Prompt, "--output-format", "json"}, run.Args...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = run.Dir
	cmd.Env = append(clientEnv(home, run.PATH, "GOOGLE_GEMINI_BASE_URL="+srv.URL, "GEMINI_API_KEY=e2e-offline",
		"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_TELEMETRY_ENABLED=false"), run.Env...)
	res := &GeminiResult{}
	res.Stdout, res.Stderr, res.Took, res.Err = runClient(t, fmt.Sprintf("gemini -p %q", run.Prompt), cmd)
	res.Requests = srv.Requests()
	return res
}

// GeminiHome makes a HOME whose user settings choose the Gemini API key
// (read from GEMINI_API_KEY, sent to GOOGLE_GEMINI_BASE_URL) and turn
// usage statistics off, so a session makes no request but the model's.
func GeminiHome(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	settings := `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true}}`
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// Gemini runs one `gemini -p` session in the project, as Codex does.
func (p *Project) Gemini(run GeminiRun) *GeminiResult {
	p.T.Helper()
	run.Bin, run.Dir, run.PATH = GeminiBin(p.T), p.Dir, p.path
	return RunGemini(p.T, run)
}

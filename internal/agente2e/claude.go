package agente2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// RequireEnv, when set (.ci/run sets it), turns a missing agent client
// from a skipped test into a failed one.
const RequireEnv = "GITWARRANT_REQUIRE_AGENTS"

// ClaudeEnv names a Claude Code binary to use instead of the pinned one.
const ClaudeEnv = "GITWARRANT_CLAUDE"

// InstallClaude is the command that installs the pinned Claude Code CLI.
const InstallClaude = "npm ci --prefix testdata/claude-code --ignore-scripts"

// SkipOrFail skips the test, or fails it when RequireEnv is set.
func SkipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// RepoRoot is the root of this repository's source tree.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// ClaudeBin returns the native binary of the Claude Code CLI pinned by
// testdata/claude-code/package-lock.json. npm installs it as the platform
// package, an optional dependency of @anthropic-ai/claude-code; the
// wrapper's bin/claude.exe is a stub until the postinstall script copies
// the binary over it, so with --ignore-scripts the harness runs the
// platform package's binary directly. $GITWARRANT_CLAUDE overrides it.
func ClaudeBin(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(ClaudeEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			SkipOrFail(t, "$%s names no Claude Code binary: %v", ClaudeEnv, err)
		}
		return p
	}
	mods := filepath.Join(RepoRoot(), "testdata", "claude-code", "node_modules", "@anthropic-ai")
	for _, pkg := range claudePlatforms() {
		p := filepath.Join(mods, "claude-code-"+pkg, "claude")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	SkipOrFail(t, "the Claude Code CLI is not installed (%s/claude-code-%s/claude): run `%s` (.ci/run does)",
		mods, claudePlatforms()[0], InstallClaude)
	return ""
}

// claudePlatforms names the platform packages that may hold the binary
// here, glibc first.
func claudePlatforms() []string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if runtime.GOOS == "linux" {
		return []string{"linux-" + arch, "linux-" + arch + "-musl"}
	}
	return []string{runtime.GOOS + "-" + arch}
}

// ClaudeRun is one `claude -p` session.
type ClaudeRun struct {
	Bin    string   // the CLI (ClaudeBin)
	Dir    string   // the working directory: the project
	Home   string   // HOME; a fresh one when empty
	Prompt string   // the user's prompt
	Script Script   // what the model answers
	Args   []string // more flags, e.g. --permission-mode
	Env    []string // more environment (KEY=VALUE), after the defaults
	PATH   string   // PATH for the client and its hooks
}

// ClaudeResult is a finished session: the client's JSON result and every
// request the model server received.
type ClaudeResult struct {
	Result   ResultJSON
	Raw      []byte // stdout
	Stderr   string
	Requests []Request
	Took     time.Duration
	DebugLog string // the client's --debug-file
	server   *Server
}

// ResultJSON is `claude -p --output-format json`'s result object.
type ResultJSON struct {
	Type              string             `json:"type"`
	Subtype           string             `json:"subtype"`
	IsError           bool               `json:"is_error"`
	Result            string             `json:"result"`
	SessionID         string             `json:"session_id"`
	NumTurns          int                `json:"num_turns"`
	PermissionDenials []PermissionDenial `json:"permission_denials"`
}

// PermissionDenial is one call the client did not run.
type PermissionDenial struct {
	ToolName  string         `json:"tool_name"`
	ToolUseID string         `json:"tool_use_id"`
	ToolInput map[string]any `json:"tool_input"`
}

// Denied reports whether the i-th scripted call is among the denials.
func (r *ClaudeResult) Denied(i int) bool {
	for _, d := range r.Result.PermissionDenials {
		if d.ToolUseID == r.ToolUseID(i) {
			return true
		}
	}
	return false
}

// ToolResult is the client's tool_result for the i-th scripted call; ok
// is false when the client sent none.
func (r *ClaudeResult) ToolResult(i int) (ToolResult, bool) {
	tr, ok := ToolResults(r.Requests)[r.ToolUseID(i)]
	return tr, ok
}

// ToolUseID is the id of the i-th scripted call (Server.ToolUseID).
func (r *ClaudeResult) ToolUseID(i int) string { return r.server.ToolUseID(i) }

// RunClaude runs one session against a fresh scripted server and fails the
// test when the client does not finish or its output is not a result.
func RunClaude(t testing.TB, run ClaudeRun) *ClaudeResult {
	t.Helper()
	srv := NewServer(t, run.Script)
	home := run.Home
	if home == "" {
		home = ClaudeHome(t)
	}
	debug := filepath.Join(t.TempDir(), "claude-debug.log")
	args := append([]string{"-p", run.Prompt, "--output-format", "json", "--debug-file", debug}, run.Args...)
	// A session of a few calls takes seconds; a hung client fails the
	// test with its debug log rather than waiting for go test's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, run.Bin, args...)
	cmd.Dir = run.Dir
	cmd.Env = append(claudeEnv(home, srv.URL, run.PATH), run.Env...)
	// The CPU time runClient logs counts the client's hooks and tools too
	// (the children it waited for): the figure that does not depend on
	// how busy the machine is.
	stdout, stderr, took, err := runClient(t, fmt.Sprintf("claude -p %q", run.Prompt), cmd)
	res := &ClaudeResult{Raw: []byte(stdout), Stderr: stderr, Requests: srv.Requests(), Took: took, DebugLog: debug, server: srv}
	jerr := json.Unmarshal(res.Raw, &res.Result)
	if jerr == nil && res.Result.Type != "result" {
		jerr = fmt.Errorf("the output is not a result")
	}
	if jerr == nil && srv.Overrun() {
		jerr = fmt.Errorf("the conversation went past its script")
	}
	if jerr != nil {
		t.Fatalf("claude -p %q: %v (exit: %v)\nstdout: %s\nstderr: %s\n%d requests: %s\nthe end of its debug log:\n%s",
			run.Prompt, jerr, err, stdout, stderr, len(res.Requests), kinds(res.Requests), tail(debug, 40))
	}
	return res
}

// ClaudeHome makes a HOME in which the client starts without onboarding.
func ClaudeHome(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"hasCompletedOnboarding":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// claudeEnv is the whole environment of a session: nothing is inherited
// but what a tool needs to run (Go's caches, so `go test` inside a session
// does not rebuild the standard library), so a variable of the machine
// (an API key, a Claude Code setting) cannot change what is tested.
func claudeEnv(home, baseURL, path string) []string {
	return clientEnv(home, path,
		"ANTHROPIC_BASE_URL="+baseURL, "ANTHROPIC_API_KEY=sk-ant-e2e-offline",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		// Claude Code refuses to bypass permissions as root outside a
		// sandbox; the tests run as root in CI containers.
		"IS_SANDBOX=1")
}

// clientEnv is the environment a client session starts from: HOME, PATH
// ($PATH when empty), the client's own variables, git identity and Go's
// caches — nothing else of the machine's.
func clientEnv(home, path string, client ...string) []string {
	if path == "" {
		path = os.Getenv("PATH")
	}
	env := append([]string{"HOME=" + home, "PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1"}, client...)
	env = append(env, "GIT_AUTHOR_NAME=Agent", "GIT_AUTHOR_EMAIL=agent@example.com",
		"GIT_COMMITTER_NAME=Agent", "GIT_COMMITTER_EMAIL=agent@example.com", "GIT_CONFIG_NOSYSTEM=1")
	return append(append(env, goEnv()...), "GOTOOLCHAIN=local", "GOPROXY=off")
}

// runClient runs one client session and logs its wall and CPU time (the
// CPU time counts its hooks and tools: the children it waited for).
func runClient(t testing.TB, label string, cmd *exec.Cmd) (stdout, stderr string, took time.Duration, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	took = time.Since(start)
	if ps := cmd.ProcessState; ps != nil {
		t.Logf("%s: %v, %v CPU", label, took.Round(time.Millisecond), (ps.UserTime() + ps.SystemTime()).Round(time.Millisecond))
	}
	return out.String(), errb.String(), took, err
}

// goEnv is the go command's cache and root settings as KEY=VALUE (none
// without Go).
func goEnv() []string {
	keys := []string{"GOCACHE", "GOMODCACHE", "GOROOT"}
	out, err := exec.Command("go", append([]string{"env"}, keys...)...).Output()
	if err != nil {
		return nil
	}
	var env []string
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if i < len(keys) && v != "" {
			env = append(env, keys[i]+"="+v)
		}
	}
	return env
}

// kinds lists the requests' kinds and message counts, for a failure.
func kinds(reqs []Request) string {
	var parts []string
	for _, r := range reqs {
		parts = append(parts, fmt.Sprintf("%s %s (%d messages)", r.Kind, r.Path, len(r.Parsed.Messages)))
	}
	return strings.Join(parts, ", ")
}

// tail is the last n lines of a file.
func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

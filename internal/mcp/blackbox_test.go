package mcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

// project makes a real git repository with the appeal loop, and returns
// its path.
func project(t *testing.T, bin string) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q", "-b", "main")
	run(t, dir, "git", "config", "user.email", "t@example.com")
	run(t, dir, "git", "config", "user.name", "T")
	run(t, dir, bin, "init")
	run(t, dir, bin, "new", "appeal", "--template", "insurance-appeal")
	return dir
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s %v: %v\n%s%s", name, args, err, out, stderr)
	}
	return string(out)
}

func createKey(t *testing.T, bin, dir, label, scope string) string {
	t.Helper()
	return strings.TrimSpace(run(t, dir, bin, "keys", "create", "--label", label, "--scope", scope))
}

// server is a running `gitwarrant serve`.
type server struct {
	url  string
	cmd  *exec.Cmd
	errs *bytes.Buffer
}

var addrRE = regexp.MustCompile(`serving http://([0-9.:]+)/mcp`)

func startServer(t *testing.T, bin, dir string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, errs: &bytes.Buffer{}}
	sc := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		for sc.Scan() {
			s.errs.WriteString(sc.Text() + "\n")
			if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case a := <-found:
		s.url = "http://" + a
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("serve did not start: %s", s.errs)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	return s
}

func rest(t *testing.T, url, key, tool string, args any) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(args)
	req, _ := http.NewRequest("POST", url+"/api/v1/tools/"+tool, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: not JSON: %s", tool, data)
	}
	return resp.StatusCode, m
}

// conformanceCalls exercise every tool; results that name a record
// position (seq, hash, id) are compared by shape, everything else exactly.
var conformanceCalls = []map[string]any{
	{"name": "list_loops", "arguments": map[string]any{}},
	{"name": "loop_context", "arguments": map[string]any{"loop": "appeal"}},
	{"name": "warrant_check", "arguments": map[string]any{"loop": "appeal", "action": "draft", "target": "appeal letter"}},
	{"name": "warrant_check", "arguments": map[string]any{"loop": "appeal", "action": "send", "target": "appeal email to the insurer"}},
	{"name": "warrant_check", "arguments": map[string]any{"loop": "appeal", "action": "change", "target": "accepting a settlement"}},
	{"name": "record_note", "arguments": map[string]any{"loop": "appeal", "did": "drafted the appeal letter"}},
	{"name": "match_loop", "arguments": map[string]any{"task": "appeal the insurance denial"}},
	{"name": "propose_amendment", "arguments": map[string]any{"loop": "appeal", "list": "read", "pattern": "state insurance regulations", "rationale": "asked four times"}},
	{"name": "get_metrics", "arguments": map[string]any{"loop": "appeal"}},
	{"name": "docket_warrant_check", "arguments": map[string]any{"loop": "appeal", "action": "draft", "target": "appeal letter"}},
	{"name": "warrant_check", "arguments": map[string]any{"loop": "nope", "action": "draft", "target": "x"}},
	{"name": "warrant_check", "arguments": map[string]any{"loop": "appeal", "tool": "Edit", "tool_input": map[string]any{"file_path": ".gitwarrant/loops/appeal.loop.md", "old_string": "a", "new_string": "b"}}},
	{"name": "warrant_check", "arguments": map[string]any{"tool": "Bash", "tool_input": map[string]any{"command": "ls -la # draft the appeal letter"}}},
}

type clientOut struct {
	Tools   []string `json:"tools"`
	Results []struct {
		Name       string         `json:"name"`
		IsError    bool           `json:"isError"`
		Structured map[string]any `json:"structured"`
		Text       string         `json:"text"`
	} `json:"results"`
}

// TestOfficialClientConformance drives the server with the official
// TypeScript SDK over stdio and Streamable HTTP and compares every result
// with the REST mirror's.
func TestOfficialClientConformance(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the TypeScript SDK client cannot run (CI installs it)")
	}
	clientDir := filepath.Join(repoRoot(t), "testdata", "mcp-client")
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("the TypeScript MCP SDK is not installed: run `npm ci --prefix testdata/mcp-client` (.ci/run does)")
	}
	bin := testkit.Binary(t)
	dir := project(t, bin)
	key := createKey(t, bin, dir, "ts-client", "propose")
	srv := startServer(t, bin, dir)
	calls, _ := json.Marshal(conformanceCalls)
	callsFile := filepath.Join(t.TempDir(), "calls.json")
	os.WriteFile(callsFile, calls, 0o644)

	node := func(args ...string) clientOut {
		cmd := exec.Command("node", append([]string{filepath.Join(clientDir, "client.mjs")}, args...)...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node client %v: %v\n%s", args[0], err, stderr.String())
		}
		var co clientOut
		if err := json.Unmarshal(out, &co); err != nil {
			t.Fatalf("client output: %v\n%s", err, out)
		}
		return co
	}
	stdio := node("stdio", callsFile, bin, "mcp", "--dir", dir)
	httpOut := node("http", callsFile, srv.url+"/mcp", key)

	for _, co := range []clientOut{stdio, httpOut} {
		want := []string{"docket_get_metrics", "docket_get_proposal", "docket_list_loops", "docket_loop_context", "docket_match_loop", "docket_propose_amendment", "docket_record", "docket_warrant_check",
			"get_metrics", "get_proposal", "list_loops", "loop_context", "match_loop", "propose_amendment", "record_note", "warrant_check"}
		if strings.Join(co.Tools, ",") != strings.Join(want, ",") {
			t.Fatalf("tools = %v, want %v", co.Tools, want)
		}
		if len(co.Results) != len(conformanceCalls) {
			t.Fatalf("got %d results", len(co.Results))
		}
	}
	for i, c := range conformanceCalls {
		name := c["name"].(string)
		status, r := rest(t, srv.url, key, strings.TrimPrefix(name, "docket_"), c["arguments"])
		s, h := stdio.Results[i], httpOut.Results[i]
		if s.IsError != h.IsError || s.IsError != (status != 200) {
			t.Fatalf("call %d %s: isError stdio=%v http=%v, REST status %d %v", i, name, s.IsError, h.IsError, status, r)
		}
		if s.IsError {
			var se, he map[string]any
			json.Unmarshal([]byte(s.Text), &se)
			json.Unmarshal([]byte(h.Text), &he)
			re := r["error"].(map[string]any)
			if se["code"] != re["code"] || he["code"] != re["code"] || se["code"] == nil {
				t.Fatalf("call %d %s: error codes stdio=%v http=%v REST=%v", i, name, se["code"], he["code"], re["code"])
			}
			continue
		}
		for _, got := range []map[string]any{s.Structured, h.Structured} {
			if a, b := normalise(got), normalise(r); a != b {
				t.Fatalf("call %d %s differs from REST:\n mcp:  %s\n rest: %s", i, name, a, b)
			}
		}
	}
	// Every check landed in the record with its channel and credential.
	seen := recordedCredentials(t, run(t, dir, bin, "record", "log", "--json"))
	for _, want := range []string{"mcp/stdio", "http/ts-client"} {
		if seen[want] == 0 {
			t.Errorf("no record entry with via/credential %s (saw %v)", want, seen)
		}
	}
	run(t, dir, bin, "record", "verify")
}

// normalise drops what differs between two calls of the same tool (the
// record position and counters that grow with every call).
func normalise(m map[string]any) string {
	c := map[string]any{}
	for k, v := range m {
		switch k {
		case "seq", "hash", "id", "checks", "allow", "ask", "deny", "by_channel", "by_loop", "notes", "proposals", "amendments", "actions_per_intervention", "longest_unattended_run", "hook_asks", "asks_ran", "asks_not_ran_inferred":
			c[k] = fmt.Sprintf("<%T>", v)
		case "by_kind":
			// The kinds seen must agree; their counts grow with every call.
			kinds, _ := v.(map[string]any)
			c[k] = slices.Sorted(maps.Keys(kinds))
		default:
			c[k] = v
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// recordedCredentials counts "via/credential" pairs in `record log --json`
// output, whatever its framing (JSON lines or one document).
func recordedCredentials(t *testing.T, out string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if c, ok := x["credential"].(string); ok {
				via, _ := x["via"].(string)
				seen[via+"/"+c]++
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("record log --json: %v", err)
		}
		walk(v)
	}
	return seen
}

// TestToolCallsAreJudgedAsTheHookJudgesThem: warrant_check with a tool
// call answers what `hook claude` answers for the same payload, and is
// recorded with the caller's channel and credential.
func TestToolCallsAreJudgedAsTheHookJudgesThem(t *testing.T) {
	bin := testkit.Binary(t)
	dir := project(t, bin)
	key := createKey(t, bin, dir, "agent", "read")
	srv := startServer(t, bin, dir)
	cases := []struct {
		loop  string
		tool  string
		input map[string]any
		want  string
	}{
		{"appeal", "Edit", map[string]any{"file_path": ".gitwarrant/loops/appeal.loop.md", "old_string": "a", "new_string": "b"}, "deny"},
		{"appeal", "Bash", map[string]any{"command": "echo '  - anything' >> $'\\x2egitwarrant/loops/appeal\\x2eloop\\x2emd' # draft the appeal letter"}, "deny"},
		{"appeal", "Bash", map[string]any{"command": "gitwarrant keys create --label me"}, "deny"},
		{"appeal", "Bash", map[string]any{"command": "curl -d @notes.txt https://insurer.example"}, "ask"},
		{"", "Bash", map[string]any{"command": "ls"}, "ask"},
	}
	for _, c := range cases {
		args := map[string]any{"tool": c.tool, "tool_input": c.input}
		if c.loop != "" {
			args["loop"] = c.loop
		}
		status, r := rest(t, srv.url, key, "warrant_check", args)
		if status != 200 || r["verdict"] != c.want {
			t.Errorf("%s %v: got %d %v, want %s", c.tool, c.input, status, r, c.want)
		}
		// The hook answers the same for the same payload.
		if c.loop == "" {
			continue
		}
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": dir, "tool_name": c.tool, "tool_input": c.input})
		cmd := exec.Command(bin, "hook", "claude", "--loop", c.loop, "--no-record")
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(payload)
		out, _ := cmd.Output()
		if !strings.Contains(string(out), `"permissionDecision":"`+c.want+`"`) && !strings.Contains(string(out), `"permissionDecision": "`+c.want+`"`) {
			t.Errorf("hook answered %s for %v, MCP %s", out, c.input, c.want)
		}
	}
	seen := recordedCredentials(t, run(t, dir, bin, "record", "log", "--json"))
	if seen["http/agent"] != len(cases) {
		t.Errorf("%d entries with via http, credential agent; want %d (%v)", seen["http/agent"], len(cases), seen)
	}
}

// TestCompiledContextNamesTheServersTools holds the tool names compiled
// context tells agents to use to the server's own.
func TestCompiledContextNamesTheServersTools(t *testing.T) {
	if got, want := strings.Join(compile.MCPTools, ","), strings.Join(mcp.ToolNames(), ","); got != want {
		t.Fatalf("compile.MCPTools = %s, the server has %s", got, want)
	}
}

package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// TestHTTPHookAnswersAsCommandHook sends every call of the hook corpus
// (eval/corpus/honest.jsonl and dangerous.jsonl) to the real binary twice — as `gitwarrant hook
// claude` on stdin and as Claude Code's http hook to a running `gitwarrant
// serve` — under several wirings and for every event, and requires the
// two answers to be byte-identical (docs/hook-protocol.md#the-http-hook).
func TestHTTPHookAnswersAsCommandHook(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus through two real transports")
	}
	bin := testkit.Binary(t)
	var calls []corpusCall
	for _, f := range []string{"honest.jsonl", "dangerous.jsonl"} {
		cs, err := readCorpus(f)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, cs...)
	}
	base := t.TempDir()
	servers := map[string]*hookServer{}
	compared, decided := 0, map[string]int{}
	for i, c := range calls {
		hs := servers[c.Fixture]
		if hs == nil {
			r, err := newReplay(base, c.Fixture)
			if err != nil {
				t.Fatal(err)
			}
			hs = startHookServer(t, bin, r.root, r.home)
			servers[c.Fixture] = hs
		}
		payload := corpusPayload(hs.root, c)
		// Every call under the fix loop; the dangerous and excluded ones
		// also unpinned, strict and recorded.
		wirings := [][]string{{"--loop", "fix", "--no-record"}}
		if i%20 == 0 || !strings.HasPrefix(c.ID, "h-") {
			wirings = append(wirings, []string{"--no-record"}, []string{"--strict", "--no-record"}, []string{"--default-loop", "fix"})
		}
		for _, w := range wirings {
			cmdOut := hs.command(t, payload, w...)
			httpOut := hs.post(t, payload, w...)
			if !bytes.Equal(cmdOut, httpOut) {
				t.Errorf("%s %s under %v: the http hook answered\n%s\nbut hook claude printed\n%s", c.ID, callText(c), w, httpOut, cmdOut)
			}
			compared++
			decided[verdictOf(cmdOut)]++
		}
	}
	// The other events: a prompt that pins the session, a tool call under
	// the pin, PostToolUse, SessionEnd, a payload that is not JSON.
	hs := servers["go"]
	events := []string{
		`{"session_id":"ev","cwd":"` + hs.root + `","hook_event_name":"UserPromptSubmit","prompt":"use loop fix: make the test pass"}`,
		`{"session_id":"ev","cwd":"` + hs.root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"ev1"}`,
		`{"session_id":"ev","cwd":"` + hs.root + `","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"ev1","tool_response":{"stdout":"ok"}}`,
		`{"session_id":"ev","cwd":"` + hs.root + `","hook_event_name":"SessionEnd","reason":"other"}`,
		`{"session_id":"ev","cwd":"` + hs.root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"ev2"}`,
		`{not json`,
	}
	// The events change the session's state, so each wiring replays them
	// in a session of its own. The http wiring posts PreToolUse only; its
	// other events are the command hooks (docs/hook-protocol.md#the-http-hook),
	// and the server refuses them.
	for i, e := range events {
		flag := map[string]string{"UserPromptSubmit": "prompt", "PostToolUse": "post", "SessionEnd": "session-end"}
		ev := "pre"
		for k, v := range flag {
			if strings.Contains(e, `"`+k+`"`) {
				ev = v
			}
		}
		cmdOut := hs.command(t, []byte(strings.Replace(e, `"ev"`, `"ev-command"`, 1)), "--event", ev, "--default-loop", "fix")
		var httpOut []byte
		if ev == "pre" {
			httpOut = hs.post(t, []byte(strings.Replace(e, `"ev"`, `"ev-http"`, 1)), "--default-loop", "fix")
		} else {
			if refused := hs.post(t, []byte(strings.Replace(e, `"ev"`, `"ev-http"`, 1)), "--default-loop", "fix"); !bytes.Contains(refused, []byte(`{"decision":"block","reason":"gitwarrant: the http hook answers PreToolUse only.`)) {
				t.Errorf("event %d %s posted: %s, want it refused", i, e, refused)
			}
			httpOut = hs.command(t, []byte(strings.Replace(e, `"ev"`, `"ev-http"`, 1)), "--event", ev, "--default-loop", "fix")
		}
		if !bytes.Equal(cmdOut, httpOut) {
			t.Errorf("event %d %s: the http hook answered\n%s\nbut hook claude --event %s printed\n%s", i, e, httpOut, ev, cmdOut)
		}
		if i == 0 && !bytes.Contains(cmdOut, []byte("the prompt names it")) {
			t.Errorf("the prompt did not pin the session: %s", cmdOut)
		}
		compared++
	}
	t.Logf("%d answers compared, byte for byte: %v", compared, decided)
	if decided["allow"] == 0 || decided["deny"] == 0 || decided["ask"] == 0 {
		t.Errorf("the corpus should reach every verdict: %v", decided)
	}
}

// corpusPayload is the PreToolUse payload replay.decide sends.
func corpusPayload(root string, c corpusCall) []byte {
	in := map[string]any{}
	for k, v := range c.Input {
		if s, ok := v.(string); ok && (k == "file_path" || k == "notebook_path" || k == "path") && !filepath.IsAbs(s) {
			v = filepath.Join(root, s)
		}
		in[k] = v
	}
	b, _ := json.Marshal(map[string]any{"session_id": "eval-http", "cwd": root, "hook_event_name": "PreToolUse",
		"tool_name": c.Tool, "tool_input": in, "tool_use_id": c.ID})
	return b
}

func verdictOf(out []byte) string {
	var d struct {
		H struct {
			Decision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(out, &d) != nil || d.H.Decision == "" {
		return "silent"
	}
	return d.H.Decision
}

// hookServer is a real `gitwarrant serve` in one fixture, with a hook key.
type hookServer struct {
	bin, root string
	env       []string
	url, key  string
	proc      *os.Process
}

func startHookServer(t *testing.T, bin, root, home string) *hookServer {
	t.Helper()
	hs := &hookServer{bin: bin, root: root, env: []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + root, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}}
	hs.key = strings.TrimSpace(string(hs.run(t, nil, "keys", "create", "--label", "claude-hook", "--scope", "hook")))
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = root, hs.env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hs.proc = cmd.Process
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
			addr, _, _ := strings.Cut(rest, "/")
			hs.url = "http://" + addr + "/hooks/claude"
			break
		}
	}
	if hs.url == "" {
		t.Fatal("serve did not say where it listens")
	}
	go io.Copy(io.Discard, stderr)
	return hs
}

func (hs *hookServer) run(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(hs.bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = hs.root, hs.env, bytes.NewReader(stdin)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gitwarrant %v: %v: %s", args, err, errb.String())
	}
	return out
}

// command runs `gitwarrant hook claude <flags>` on payload.
func (hs *hookServer) command(t *testing.T, payload []byte, flags ...string) []byte {
	return hs.run(t, payload, append([]string{"hook", "claude"}, flags...)...)
}

// post sends payload to the http hook wired as flags say.
func (hs *hookServer) post(t *testing.T, payload []byte, flags ...string) []byte {
	t.Helper()
	var q []string
	for i := 0; i < len(flags); i++ {
		switch flags[i] {
		case "--loop", "--default-loop":
			q = append(q, strings.TrimPrefix(flags[i], "--")+"="+flags[i+1])
			i++
		case "--strict", "--no-record":
			q = append(q, strings.TrimPrefix(flags[i], "--")+"=1")
		default:
			t.Fatalf("no query for %s", flags[i])
		}
	}
	u := hs.url
	if len(q) > 0 {
		u += "?" + strings.Join(q, "&")
	}
	req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+hs.key)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s: %s", u, resp.Status, body)
	}
	return body
}

// TestHTTPHookKilledServerLosesNoEntry: a server killed with SIGKILL right
// after answering recorded calls — their entries journalled, not all
// committed — loses none of them: `record log` and `record verify`, the
// next commands to read the record, commit the journal first and show
// every answered entry (docs/record.md#the-journal).
func TestHTTPHookKilledServerLosesNoEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	bin := testkit.Binary(t)
	r, err := newReplay(t.TempDir(), "go")
	if err != nil {
		t.Fatal(err)
	}
	journalled := 0
	var ids []string
	for round := 0; round < 5 && journalled == 0; round++ {
		hs := startHookServer(t, bin, r.root, r.home)
		for i := 0; i < 20; i++ {
			id := fmt.Sprintf("toolu_kill_%d_%d", round, i)
			payload := fmt.Sprintf(`{"session_id":"kill","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":%q}`, r.root, id)
			if out := hs.post(t, []byte(payload), "--loop", "fix"); verdictOf(out) != "allow" {
				t.Fatalf("the recorded call was answered %s", out)
			}
			ids = append(ids, id)
		}
		if err := hs.proc.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		hs.proc.Wait()
		js, _ := filepath.Glob(filepath.Join(r.root, ".git", "gitwarrant", "journal", "*.jsonl"))
		for _, j := range js {
			if fi, err := os.Stat(j); err == nil && fi.Size() > 0 {
				journalled++
			}
		}
	}
	if journalled == 0 {
		t.Log("every round's journal was committed before the kill; the entries are checked all the same")
	}
	hs := &hookServer{bin: bin, root: r.root, env: []string{"HOME=" + r.home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}}
	logged := string(hs.run(t, nil, "record", "log", "--json"))
	for _, id := range ids {
		if !strings.Contains(logged, `"`+id+`"`) {
			t.Errorf("the answered call %s is not on the record", id)
		}
	}
	hs.run(t, nil, "record", "verify") // exits non-zero on any finding
}

// TestHTTPHookKnowsGitwarrantUnderAnyName: a copy of the gitwarrant
// binary run under another name is gitwarrant to the http hook as to the
// command hook. The server is gitwarrant-mcp, so it must compare a
// command's program with the gitwarrant beside it, not with itself
// (docs/hook-protocol.md#the-http-hook); before, the http hook asked
// where `hook claude` denied.
func TestHTTPHookKnowsGitwarrantUnderAnyName(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real server")
	}
	bin := testkit.Binary(t)
	r, err := newReplay(t.TempDir(), "go")
	if err != nil {
		t.Fatal(err)
	}
	hs := startHookServer(t, bin, r.root, r.home)
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(r.root, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.root, "tools", "fmt-check"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"./tools/fmt-check uninstall", "tools/fmt-check amend fix", "./tools/fmt-check keys create --scope hook",
		"env ./tools/fmt-check uninstall", "sh -c './tools/fmt-check amend fix'", "cd tools && ./fmt-check uninstall # lint only"} {
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": hs.root, "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_copy"})
		cmdOut := hs.command(t, payload, "--loop", "fix", "--no-record")
		if v := verdictOf(cmdOut); v != "deny" {
			t.Fatalf("%s: `hook claude` answers %s, want deny (self-protection): %s", command, v, cmdOut)
		}
		if httpOut := hs.post(t, payload, "--loop", "fix", "--no-record"); !bytes.Equal(httpOut, cmdOut) {
			t.Errorf("%s:\nhttp hook:    %s\ncommand hook: %s", command, httpOut, cmdOut)
		}
	}
}

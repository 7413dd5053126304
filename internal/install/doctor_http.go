package install

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// diagnoseHTTPHook proves the http wiring live (docs/install.md#the-http-hook):
// it starts the repository's server as the SessionStart hook would, posts
// a probe call with the key Claude Code will send and requires the answer
// `gitwarrant hook claude` gives the same payload, byte for byte, and
// requires a post without the key, and with a wrong one, to be refused.
func diagnoseHTTPHook(env DoctorEnv, addr string, w hook.Wiring) []Check {
	c := Check{Name: "Claude Code hook", Gate: true}
	out := func(c Check) []Check {
		return []Check{c, sessionsCheck(env, SettingsPath, w.Pre(), "http")}
	}
	bin, ok := env.lookPath("gitwarrant")
	if !ok {
		c.Status, c.Detail = Fail, SettingsPath+": the SessionStart hook starts the http hook's server with `gitwarrant`, which is not on PATH: every tool call is blocked"
		c.Fix = "install it (" + InstallHint + ") and put it on PATH"
		return out(c)
	}
	key := CurrentHookKey(env.Root)
	if key == "" {
		key = env.Getenv(hook.KeyEnv)
	}
	if key == "" {
		c.Status, c.Detail, c.Fix = Fail, "no hook key in "+LocalSettingsPath+" (env."+hook.KeyEnv+") nor in the environment: Claude Code sends an empty key and every tool call is blocked", "run `gitwarrant install --hook http` again"
		return out(c)
	}
	if msg, err := runGitwarrant(env, bin, nil, "serve", "--detach", "--addr", addr, "--idle-exit", hook.IdleExit.String()); err != nil {
		c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("the http hook's server does not start at %s: %s", addr, firstLine(msg)), "see .git/gitwarrant/serve.log; another program may hold the port: `gitwarrant install --hook http --hook-port <port>`"
		return out(c)
	}
	probe := []byte(`{"session_id":"gitwarrant-doctor","cwd":` + quote(env.Root) + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin HEAD"},"tool_use_id":"doctor"}`)
	u := w.URL(addr)
	u += map[bool]string{true: "&", false: "?"}[strings.Contains(u, "?")] + "no-record=1"
	for _, bad := range []string{"", "gwk_doctorWrongKey000000000000000000"} {
		if st, _, err := post(u, bad, probe); err != nil || st != http.StatusUnauthorized {
			c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("the server at %s answered a post with %s with %d %v, not 401: it must need the hook key", addr, map[bool]string{true: "no key", false: "a wrong key"}[bad == ""], st, err), "stop whatever listens there, then start a session"
			return out(c)
		}
	}
	st, got, err := post(u, key, probe)
	if err != nil || st != http.StatusOK {
		c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("the server at %s refused the probe call: %d %v %s", addr, st, err, firstLine(string(got))), "run `gitwarrant install --hook http` again (the key in "+LocalSettingsPath+" may be revoked)"
		return out(c)
	}
	args := append([]string{"hook", "claude", "--no-record"}, w.Flags()...)
	want, err := runGitwarrant(env, bin, probe, args...)
	if err != nil || !bytes.Equal([]byte(want), got) {
		c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("the server at %s answered the probe %q, but `gitwarrant hook claude` answers %q: a server of another version or repository holds the port", addr, got, want), "stop it, then start a session"
		return out(c)
	}
	c.Status, c.Detail = Live, fmt.Sprintf("%s: http hook at %s — the probe answered as `gitwarrant hook claude`, posts without the key refused", SettingsPath, u[:strings.Index(u, "no-record")-1])
	return out(c)
}

// runGitwarrant runs gitwarrant in the project with the doctor's PATH; stdout comes
// back, or stderr with the error.
func runGitwarrant(env DoctorEnv, bin string, stdin []byte, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = env.Root
	cmd.Env = append(os.Environ(), "PATH="+env.Getenv("PATH"), "HOME="+env.Getenv("HOME"), "CLAUDE_PROJECT_DIR="+env.Root)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return strings.TrimSpace(stderr.String()), err
	}
	return string(out), nil
}

func post(u, key string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

package install

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
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
		if st, _, err := post(u, bad, probe); err != nil || st != 401 {
			c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("the server at %s answered a post with %s with %d %v, not 401: it must need the hook key", addr, map[bool]string{true: "no key", false: "a wrong key"}[bad == ""], st, err), "stop whatever listens there, then start a session"
			return out(c)
		}
	}
	st, got, err := post(u, key, probe)
	if err != nil || st != 200 {
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
	if w := sandboxProxyRefuses(env, addr); w != "" {
		c.Status, c.Detail = Warn, c.Detail+"; but "+w
		c.Fix = "use the command hook (`gitwarrant install --hook command`), or add \"127.0.0.1\" to sandbox.network.allowedDomains in " + SettingsPath + " knowing that it lets code the agent runs reach every loopback service"
	}
	return out(c)
}

// sandboxProxyRefuses says why Claude Code will not reach the server at
// addr although doctor did: with the sandbox on, the client sends http
// hook posts through its sandbox proxy, which refuses a host its allow
// list does not name (HTTP 403), so every tool call is blocked
// (docs/hook-protocol.md#the-http-hook). "" when the sandbox is off or
// names the host.
func sandboxProxyRefuses(env DoctorEnv, addr string) string {
	d, existed, err := loadJSON(env.Root, SettingsPath)
	if err != nil || !existed {
		return ""
	}
	got, on := sandboxOf(d)
	if !on {
		return ""
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	for _, a := range got.Network.AllowedDomains {
		if a == host {
			return ""
		}
	}
	return "the sandbox is on and sandbox.network.allowedDomains does not name " + host + ": Claude Code sends http hook posts through its sandbox proxy, which refuses them (HTTP 403), so every tool call is blocked unless the session bypasses permissions"
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

// post sends body to the http hook at u (an http:// URL on the loopback,
// w.URL's form) and returns the status and body of the answer. It speaks
// HTTP/1.0 over a plain connection instead of using net/http: this package
// is linked into the gitwarrant binary every hook call starts, and net/http
// (with crypto/tls, HTTP/2, mime and gzip) added about a tenth to the
// start-up of every process (docs/performance.md#start-up). A 1.0 request
// makes the server send the whole body and close the connection, so
// nothing here needs chunking or keep-alive.
func post(u, key string, body []byte) (int, []byte, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return 0, nil, err
	}
	if pu.Scheme != "http" || pu.Host == "" {
		return 0, nil, fmt.Errorf("%s: not an http:// URL", u)
	}
	conn, err := net.DialTimeout("tcp", pu.Host, 10*time.Second)
	if err != nil {
		return 0, nil, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return 0, nil, err
	}
	var req bytes.Buffer
	fmt.Fprintf(&req, "POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", pu.RequestURI(), pu.Host, len(body))
	if key != "" {
		fmt.Fprintf(&req, "Authorization: Bearer %s\r\n", key)
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return 0, nil, err
	}
	return readResponse(bufio.NewReader(conn))
}

// readResponse reads an HTTP/1.x answer to a 1.0 request: the status line,
// the headers, then the body — Content-Length bytes when given, else
// everything up to the close.
func readResponse(r *bufio.Reader) (int, []byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, nil, fmt.Errorf("reading the status line: %w", err)
	}
	proto, rest, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
	code, _, _ := strings.Cut(rest, " ")
	st, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil || st < 100 || st > 999 {
		return 0, nil, fmt.Errorf("not an HTTP answer: %q", strings.TrimSpace(line))
	}
	length := -1
	for {
		h, err := r.ReadString('\n')
		if err != nil {
			return st, nil, fmt.Errorf("reading the headers: %w", err)
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		name, value, _ := strings.Cut(h, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length":
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil || length < 0 {
				return st, nil, fmt.Errorf("bad Content-Length %q", value)
			}
		case "transfer-encoding":
			return st, nil, errors.New("a chunked answer to an HTTP/1.0 request")
		}
	}
	if length < 0 {
		b, err := io.ReadAll(r)
		return st, b, err
	}
	b := make([]byte, length)
	_, err = io.ReadFull(r, b)
	return st, b, err
}

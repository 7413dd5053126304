package hook

import (
	"net/url"
	"strings"
	"time"
)

// KeyEnv is the environment variable Claude Code reads the http hook's key
// from: the hook's Authorization header names it, and the hook lists it in
// allowedEnvVars, the only variables Claude Code interpolates into a
// header (docs/hook-protocol.md#the-http-hook).
const KeyEnv = "GITWARRANT_HOOK_KEY"

// IdleExit is how long the server the SessionStart hook starts waits
// without a request before it stops. A session quiet for longer finds it
// gone: its next tool call is blocked (onFailure "block") until a new or
// resumed session starts it again.
const IdleExit = 8 * time.Hour

// HTTPPath is the route of the http hook on `gitwarrant serve`.
const HTTPPath = "/hooks/claude"

// URL is the http hook's URL for a server at addr: the wiring rides in
// the query, as the flags of `hook claude` do.
func (w Wiring) URL(addr string) string {
	q := url.Values{}
	if w.Loop != "" {
		q.Set("loop", w.Loop)
	}
	if w.DefaultLoop != "" {
		q.Set("default-loop", w.DefaultLoop)
	}
	if w.Strict {
		q.Set("strict", "1")
	}
	u := "http://" + addr + HTTPPath
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// ParseURL reads back the server address and wiring of an http hook URL
// install wrote; ok is false for any other URL.
func ParseURL(u string) (addr string, w Wiring, ok bool) {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "http" || p.Path != HTTPPath || p.User != nil || p.Fragment != "" {
		return "", w, false
	}
	for k, vs := range p.Query() {
		if len(vs) != 1 {
			return "", w, false
		}
		switch k {
		case "loop":
			w.Loop = vs[0]
		case "default-loop":
			w.DefaultLoop = vs[0]
		case "strict":
			w.Strict = vs[0] == "1"
		default:
			return "", w, false
		}
	}
	if w.URL(p.Host) != u {
		return "", w, false
	}
	return p.Host, w, true
}

// AuthHeader is the header value the http hook sends: Claude Code puts the
// key from KeyEnv in place of the variable.
const AuthHeader = "Bearer $" + KeyEnv

// StartCommand is the SessionStart hook that starts this repository's
// server at addr unless it already runs (`serve --detach`). It exits 1 —
// Claude Code shows the message and goes on — when gitwarrant is missing
// or the server cannot start; the http hooks then block every tool call,
// since nothing answers them.
func StartCommand(addr string) string {
	return "command -v gitwarrant >/dev/null 2>&1 || { echo 'gitwarrant is not installed, so the http hook has no server and every tool call is blocked: install it with `" + InstallHint + "` and make sure it is on PATH' >&2; exit 1; }; " +
		"gitwarrant serve --detach --addr " + shellQuote(addr) + " --idle-exit " + IdleExit.String()
}

// ParseStartCommand returns the address of a StartCommand.
func ParseStartCommand(cmd string) (addr string, ok bool) {
	_, rest, found := strings.Cut(cmd, "gitwarrant serve --detach --addr ")
	if !found {
		return "", false
	}
	addr, _, _ = strings.Cut(rest, " ")
	addr = strings.Trim(addr, "'")
	return addr, StartCommand(addr) == cmd
}

package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// HookPath is the route Claude Code's http hook posts to
// (docs/hook-protocol.md#the-http-hook).
const HookPath = "/hooks/claude"

// ClaudeHookFunc answers one Claude Code hook call: the URL's query is the
// hook's wiring, body its payload (readErr when it could not be read
// whole). It returns the bytes `gitwarrant hook claude` would print.
type ClaudeHookFunc func(ctx context.Context, c Caller, query url.Values, body []byte, readErr error) []byte

// claudeHook serves POST /hooks/claude. Whatever the gate decides is a 200
// with the hook's answer as the body (empty when the hook stays silent):
// Claude Code reads it as a command hook's stdout. Every other status is a
// failure, which the hook's onFailure "block" turns into a refusal.
func (h *Handler) claudeHook(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeError(w, errorf("method_not_allowed", "POST the hook's payload", "%s is not allowed here", r.Method))
		return
	}
	if !loopbackPeer(r.RemoteAddr) {
		// Loopback only, even on a server started with --allow-remote: the
		// hook speaks for the agent on this machine (docs/hook-protocol.md#the-http-hook).
		writeError(w, errorf("route_unknown", "post the hook from the machine the server runs on", "the http hook answers only on loopback, not to %s", r.RemoteAddr))
		return
	}
	if h.o.ClaudeHook == nil {
		writeError(w, errorf("route_unknown", "this server does not answer hooks", "no route %s %s", r.Method, r.URL.Path))
		return
	}
	// The payload limit is the command hook's, so an oversized payload
	// gets the same answer (ask) on both transports.
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(hook.MaxInput)+1))
	var readErr error
	switch {
	case err != nil:
		readErr = err
	case len(body) > hook.MaxInput:
		readErr = hook.ErrTooLarge
	}
	out := h.o.ClaudeHook(r.Context(), callerOf(r.Context()), r.URL.Query(), body, readErr)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// authorizeRoute keeps each key to its own routes: a hook key answers
// nothing but hooks, and no agent key can post a hook event (a forged
// UserPromptSubmit would pin its session to a loop of its choosing).
func authorizeRoute(c Caller, path string) *Error {
	hookRoute := path == HookPath
	switch {
	case hookRoute && c.Scope != agentkeys.ScopeHook:
		return errorf("scope_hook", "the hook needs a key made with `gitwarrant keys create --scope hook` (install --hook http makes one)", "a %s key cannot post hook events", c.Scope)
	case !hookRoute && c.Scope == agentkeys.ScopeHook:
		return errorf("scope_hook", "use a read or propose key for the tools", "a hook key can only post to %s", HookPath)
	}
	return nil
}

// loopbackPeer reports whether a request's remote address is loopback.
func loopbackPeer(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

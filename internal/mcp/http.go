package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxBody is the largest request body the server reads (256 KiB).
const MaxBody = 262144

// HTTPOptions configure the HTTP surface.
type HTTPOptions struct {
	Keys    *agentkeys.Store
	Limits  Limits
	Now     func() time.Time
	Version string
	// CallTimeout bounds every tool call (git and checks take this context).
	CallTimeout time.Duration
	// ClaudeHook answers POST /hooks/claude (nil: the route answers 404).
	ClaudeHook ClaudeHookFunc
}

// Handler serves /mcp (Streamable HTTP), /api/v1/tools/<name> (the REST
// mirror) and /api/v1/openapi.json. Every request needs a bearer key.
type Handler struct {
	svc   *Service
	o     HTTPOptions
	lim   *limiter
	mux   *http.ServeMux
	cache *sdk.SchemaCache

	flushMu sync.Mutex
	flushed time.Time
	// last is when the last authenticated request arrived (Unix ns), for
	// the idle exit of a server the SessionStart hook started.
	last atomic.Int64
}

// NewHandler builds the HTTP surface over svc.
func NewHandler(svc *Service, o HTTPOptions) (*Handler, error) {
	if err := o.Limits.Validate(); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = 30 * time.Second
	}
	h := &Handler{o: o, lim: newLimiter(o.Limits, o.Now), mux: http.NewServeMux(), cache: sdk.NewSchemaCache()}
	// The service's guard is this handler's per-key proposal limits.
	cp := *svc
	cp.guard = h
	h.svc = &cp
	stream := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		return NewSDKServer(h.svc, callerOf(r.Context()), o.Version, h.cache)
	}, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: slog.New(slog.DiscardHandler)})
	h.mux.Handle("/mcp", stream)
	h.mux.HandleFunc("/api/v1/tools/{name}", h.rest)
	h.mux.HandleFunc("/api/v1/openapi.json", h.openapi)
	h.mux.HandleFunc(HookPath, h.claudeHook)
	h.last.Store(o.Now().UnixNano())
	return h, nil
}

type callerKey struct{}

func callerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// ServeHTTP authenticates, limits the body and the rate, then routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.known(r.URL.Path) {
		writeError(w, errorf("route_unknown", "the routes are /mcp and /api/v1 (see /api/v1/openapi.json); no route amends, merges, deletes or administers", "no route %s %s", r.Method, r.URL.Path))
		return
	}
	c, e := h.authenticate(r)
	if e == nil {
		e = authorizeRoute(c, r.URL.Path)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	h.last.Store(h.o.Now().UnixNano())
	if r.URL.Path == HookPath {
		// No rate limit: each request is a tool call the agent is making,
		// and a refused hook refuses the call (docs/hook-protocol.md#the-http-hook).
		h.touch()
		h.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, c)))
		return
	}
	if ok, wait := h.lim.request(c.KeyID); !ok {
		e := errorf("rate_limited", "wait Retry-After seconds; a person can raise the limit with `gitwarrant serve --limits`", "more than %d requests in %s for this key", h.o.Limits.Requests, h.o.Limits.RequestWindow)
		e.RetryAfter = retryAfter(wait)
		writeError(w, e)
		return
	}
	h.touch()
	if r.ContentLength > MaxBody {
		writeError(w, errorf("request_too_large", "send at most 262144 bytes", "the body is %d bytes", r.ContentLength))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	ctx, cancel := context.WithTimeout(context.WithValue(r.Context(), callerKey{}, c), h.o.CallTimeout)
	defer cancel()
	h.mux.ServeHTTP(w, r.WithContext(ctx))
}

// LastRequest is when the last authenticated request arrived (the
// handler's creation before the first).
func (h *Handler) LastRequest() time.Time { return time.Unix(0, h.last.Load()) }

func (h *Handler) known(path string) bool {
	if path == "/mcp" || path == HookPath || path == "/api/v1/openapi.json" {
		return true
	}
	name, ok := strings.CutPrefix(path, "/api/v1/tools/")
	if !ok {
		return false
	}
	_, found := lookup(name)
	return found
}

func (h *Handler) authenticate(r *http.Request) (Caller, *Error) {
	a := r.Header.Get("Authorization")
	if a == "" {
		return Caller{}, errorf("auth_missing", "send Authorization: Bearer <key>; a person makes keys with `gitwarrant keys create`", "no Authorization header")
	}
	scheme, secret, _ := strings.Cut(a, " ")
	if !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(secret, agentkeys.Prefix) {
		return Caller{}, errorf("auth_invalid", "send Authorization: Bearer gwk_…", "the Authorization header is not a gitwarrant bearer key")
	}
	k, err := h.o.Keys.Lookup(strings.TrimSpace(secret))
	switch {
	case errors.Is(err, agentkeys.ErrRevoked):
		return Caller{}, errorf("auth_revoked", "ask a person for a new key", "key %s was revoked", k.Visible)
	case errors.Is(err, agentkeys.ErrUnknown):
		return Caller{}, errorf("auth_invalid", "check the key; a person can list keys with `gitwarrant keys list`", "unknown key")
	case err != nil:
		return Caller{}, errorf("internal", "run `gitwarrant doctor` in the repository", "reading the key store: %v", err)
	}
	return Caller{Via: "http", Credential: k.Label, KeyID: k.SHA256, Scope: k.Scope}, nil
}

// touch flushes last-used times at most once a second.
func (h *Handler) touch() {
	h.flushMu.Lock()
	now := h.o.Now()
	due := now.Sub(h.flushed) >= time.Second
	if due {
		h.flushed = now
	}
	h.flushMu.Unlock()
	if due {
		_ = h.o.Keys.Flush()
	}
}

// Close writes what is pending (last-used times).
func (h *Handler) Close() error { return h.o.Keys.Flush() }

// BeforePropose implements Guard with the per-key proposal limits.
func (h *Handler) BeforePropose(c Caller, open int) *Error {
	if open >= h.o.Limits.OpenProposals {
		return errorf("open_limit", "wait until a person reviews your open proposals (gitwarrant review)", "this key has %d open proposals (limit %d)", open, h.o.Limits.OpenProposals)
	}
	if ok, wait := h.lim.proposalAllowed(c.KeyID); !ok {
		e := errorf("proposal_rate", "wait Retry-After seconds", "more than %d proposals in %s for this key", h.o.Limits.Proposals, h.o.Limits.ProposalWindow)
		e.RetryAfter = retryAfter(wait)
		return e
	}
	return nil
}

// Proposed implements Guard.
func (h *Handler) Proposed(c Caller) { h.lim.proposalStored(c.KeyID) }

// rest is the REST mirror: POST a tool's arguments as a JSON object, get
// its result as JSON.
func (h *Handler) rest(w http.ResponseWriter, r *http.Request) {
	t, _ := lookup(r.PathValue("name"))
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeError(w, errorf("method_not_allowed", "POST the tool's arguments as a JSON object", "%s is not allowed here", r.Method))
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, errorf("content_type", "send Content-Type: application/json", "content type %q", r.Header.Get("Content-Type")))
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			writeError(w, errorf("request_too_large", "send at most 262144 bytes", "the body is over %d bytes", MaxBody))
			return
		}
		writeError(w, errorf("body_invalid", "send one JSON object", "reading the body: %v", err))
		return
	}
	if !json.Valid(body) && len(strings.TrimSpace(string(body))) > 0 {
		writeError(w, errorf("body_invalid", "send one JSON object", "the body is not valid JSON"))
		return
	}
	out, err := t.call(h.svc, r.Context(), callerOf(r.Context()), body)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = errorf("internal", "try again; if it persists, run `gitwarrant doctor`", "%v", err)
		}
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func writeError(w http.ResponseWriter, e *Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, Status(e.Code), map[string]*Error{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

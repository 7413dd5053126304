package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/google/jsonschema-go/jsonschema"
)

const appealLoop = `---
name: appeal
description: Build the appeal; stop before send.
warrant:
  read: [policy documents]
  draft: [appeal letter]
  send: []
  ask: [anything sent to the insurer]
  never: [accepting a settlement]
---
# Brief
Appeals.
`

// fixture is a real git repository with one loop, a key store and a clock
// the test moves.
type fixture struct {
	t     *testing.T
	dir   string
	p     *project.Project
	keys  *agentkeys.Store
	now   time.Time
	mu    sync.Mutex
	h     *Handler
	srv   *httptest.Server
	fails bool // make Check fail as an unwritable record would
}

func newFixture(t *testing.T, lim Limits) *fixture {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "T"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.MkdirAll(filepath.Join(dir, ".gitwarrant", "loops"), 0o755)
	os.WriteFile(filepath.Join(dir, ".gitwarrant", "loops", "appeal.loop.md"), []byte(appealLoop), 0o644)
	f := &fixture{t: t, dir: dir, p: &project.Project{Dir: filepath.Join(dir, ".gitwarrant"), Root: dir}, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	f.keys = agentkeys.Open(filepath.Join(dir, ".git", "gitwarrant", "keys.json"), f.clock)
	svc := NewService(Backend{
		Project: func() (*project.Project, error) {
			if _, err := os.Stat(f.p.Dir); err != nil {
				return nil, err
			}
			return f.p, nil
		},
		Check: f.check,
		Now:   f.clock,
	})
	echo := func(_ context.Context, c Caller, q url.Values, body []byte, _ error) []byte {
		return []byte(c.Credential + " " + q.Encode() + " " + string(body))
	}
	h, err := NewHandler(svc, HTTPOptions{Keys: f.keys, Limits: lim, Now: f.clock, Version: "test", ClaudeHook: echo})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// check is a real warrant check and append, as the command layer's is.
func (f *fixture) check(ctx context.Context, p *project.Project, req CheckRequest) (CheckResult, error) {
	return f.decide(p, benchReq{CheckRequest: req})
}

// benchReq lets the benchmarks ask for the check without its append.
type benchReq struct {
	CheckRequest
	noRecord bool
}

func (f *fixture) checkNoRecord(p *project.Project, req CheckRequest) (CheckResult, error) {
	return f.decide(p, benchReq{CheckRequest: req, noRecord: true})
}

func (f *fixture) decide(p *project.Project, req benchReq) (CheckResult, error) {
	if f.fails {
		return CheckResult{}, errors.New("the record folder is not writable")
	}
	l := req.Loaded
	if l == nil {
		var err error
		if l, err = loops.LoadByName(p.LoopsDir(), req.Loop); err != nil {
			return CheckResult{}, err
		}
	}
	verb, _ := loops.ParseVerb(req.Action)
	res := loops.Check(&l.Warrant, verb, req.Target)
	if req.noRecord {
		return CheckResult{Verdict: string(res.Verdict), Reason: res.Reason, Rule: res.Rule, Loop: l.Name}, nil
	}
	rec, err := record.Open(p)
	if err != nil {
		return CheckResult{}, err
	}
	e, err := rec.Append(chain.Entry{Loop: l.Name, Kind: chain.KindCheck, Action: req.Action, Target: req.Target, Verdict: string(res.Verdict), Rule: res.Rule, Via: req.Caller.Via,
		Extra: map[string]any{"credential": req.Caller.Credential}})
	if err != nil {
		return CheckResult{}, err
	}
	return CheckResult{Verdict: string(res.Verdict), Reason: res.Reason, Rule: res.Rule, Loop: l.Name, Seq: e.Seq, Hash: e.Hash}, nil
}

func (f *fixture) key(label, scope string) string {
	f.t.Helper()
	s, _, err := f.keys.Create(label, scope)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (r reply) code() string {
	e, _ := r.body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (f *fixture) do(method, path, key, contentType string, body io.Reader) reply {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.srv.URL+path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return reply{status: resp.StatusCode, header: resp.Header, body: m, raw: raw}
}

func (f *fixture) call(key, tool string, args any) reply {
	b, _ := json.Marshal(args)
	return f.do("POST", "/api/v1/tools/"+tool, key, "application/json", bytes.NewReader(b))
}

var check = map[string]any{"loop": "appeal", "action": "draft", "target": "appeal letter"}

// TestErrorCodes produces every documented error code with its status.
func TestErrorCodes(t *testing.T) {
	lim := DefaultLimits()
	lim.Proposals, lim.OpenProposals = 1, 5
	f := newFixture(t, lim)
	rw := f.key("rw", agentkeys.ScopePropose)
	ro := f.key("ro", agentkeys.ScopeRead)
	gone := f.key("gone", agentkeys.ScopeRead)
	if _, err := f.keys.Revoke("gone"); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), MaxBody+1)
	cases := []struct {
		code string
		r    func() reply
	}{
		{"auth_missing", func() reply { return f.call("", "list_loops", map[string]any{}) }},
		{"auth_invalid", func() reply { return f.call("gwk_"+strings.Repeat("A", 32), "list_loops", map[string]any{}) }},
		{"auth_revoked", func() reply { return f.call(gone, "list_loops", map[string]any{}) }},
		{"scope_read", func() reply {
			return f.call(ro, "propose_amendment", map[string]any{"loop": "appeal", "list": "read", "pattern": "x"})
		}},
		{"scope_hook", func() reply { return f.do("POST", HookPath, rw, "application/json", strings.NewReader(`{}`)) }},
		{"scope_hook", func() reply { return f.call(f.key("hook-a", agentkeys.ScopeHook), "list_loops", map[string]any{}) }},
		{"request_too_large", func() reply {
			return f.do("POST", "/api/v1/tools/list_loops", rw, "application/json", bytes.NewReader(big))
		}},
		{"body_invalid", func() reply {
			return f.do("POST", "/api/v1/tools/list_loops", rw, "application/json", strings.NewReader(`{"a":`))
		}},
		{"content_type", func() reply {
			return f.do("POST", "/api/v1/tools/list_loops", rw, "text/plain", strings.NewReader(`{}`))
		}},
		{"method_not_allowed", func() reply { return f.do("GET", "/api/v1/tools/list_loops", rw, "", nil) }},
		{"loop_unknown", func() reply { return f.call(rw, "loop_context", map[string]any{"loop": "nope"}) }},
		{"loop_invalid", func() reply {
			os.WriteFile(filepath.Join(f.dir, ".gitwarrant", "loops", "broken.loop.md"), []byte("---\nname: broken\nnevr: [x]\n---\n"), 0o644)
			return f.call(rw, "loop_context", map[string]any{"loop": "broken"})
		}},
		{"proposal_unknown", func() reply { return f.call(rw, "get_proposal", map[string]any{"id": "sha256:00"}) }},
		{"argument_invalid", func() reply { return f.call(rw, "warrant_check", map[string]any{"loop": "appeal", "bogus": 1}) }},
		{"proposal_rate", func() reply {
			f.call(rw, "propose_amendment", map[string]any{"loop": "appeal", "list": "read", "pattern": "one"})
			return f.call(rw, "propose_amendment", map[string]any{"loop": "appeal", "list": "read", "pattern": "two"})
		}},
		{"route_unknown", func() reply { return f.do("POST", "/api/v1/amend", rw, "application/json", strings.NewReader(`{}`)) }},
		{"route_unknown", func() reply { return f.do("DELETE", "/api/v1/keys", rw, "", nil) }},
		{"record_failed", func() reply {
			f.fails = true
			defer func() { f.fails = false }()
			return f.call(rw, "warrant_check", check)
		}},
		{"internal", func() reply {
			path := f.keys.Path
			old, _ := os.ReadFile(path)
			os.WriteFile(path, []byte("{not json"), 0o600)
			defer os.WriteFile(path, old, 0o600)
			return f.call(rw, "list_loops", map[string]any{})
		}},
		{"project_missing", func() reply {
			os.Rename(f.p.Dir, f.p.Dir+".away")
			defer os.Rename(f.p.Dir+".away", f.p.Dir)
			return f.call(rw, "list_loops", map[string]any{})
		}},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		r := c.r()
		if r.code() != c.code || r.status != Status(c.code) {
			t.Errorf("%s: got status %d code %q: %s", c.code, r.status, r.code(), r.raw)
			continue
		}
		e := r.body["error"].(map[string]any)
		if e["message"] == "" || e["hint"] == "" {
			t.Errorf("%s: message or hint empty: %s", c.code, r.raw)
		}
		seen[c.code] = true
	}
	// open_limit and rate_limited have their own tests below; every other
	// declared code must have been produced here.
	for _, code := range Codes() {
		if !seen[code] && code != "open_limit" && code != "rate_limited" {
			t.Errorf("error code %s is never produced by a test", code)
		}
	}
}

// TestHookRoute: a hook key's posts reach the hook function with the
// query and body as sent, past the request limit a tool key meets, and a
// GET is refused.
func TestHookRoute(t *testing.T) {
	f := newFixture(t, DefaultLimits())
	k := f.key("claude-http-hook", agentkeys.ScopeHook)
	for i := 0; i < DefaultLimits().Requests+5; i++ {
		r := f.do("POST", HookPath+"?loop=fix", k, "application/json", strings.NewReader(`{"n":1}`))
		if r.status != 200 || string(r.raw) != `claude-http-hook loop=fix {"n":1}` {
			t.Fatalf("post %d: %d %s", i+1, r.status, r.raw)
		}
	}
	if r := f.do("GET", HookPath, k, "", nil); r.code() != "method_not_allowed" {
		t.Errorf("GET: %d %s", r.status, r.raw)
	}
	// From another machine (a server started with --allow-remote): refused.
	req := httptest.NewRequest("POST", HookPath, strings.NewReader(`{}`))
	req.RemoteAddr = "192.0.2.7:40000"
	req.Header.Set("Authorization", "Bearer "+k)
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "only on loopback") {
		t.Errorf("a remote post: %d %s", rec.Code, rec.Body)
	}
}

// TestRateLimitSlides: the 61st request in 60 s is refused with
// Retry-After, a refused request does not count, and the window slides.
func TestRateLimitSlides(t *testing.T) {
	f := newFixture(t, DefaultLimits())
	k := f.key("agent", agentkeys.ScopeRead)
	other := f.key("other", agentkeys.ScopeRead)
	for i := 0; i < 60; i++ {
		if r := f.call(k, "list_loops", map[string]any{}); r.status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.status, r.raw)
		}
		f.advance(500 * time.Millisecond) // 60 requests over 30 s
	}
	r := f.call(k, "list_loops", map[string]any{})
	if r.code() != "rate_limited" || r.status != 429 {
		t.Fatalf("61st: %d %s", r.status, r.raw)
	}
	// The oldest request was at t=0 and the clock is at 30 s: it leaves
	// the window in 30 s.
	if ra := r.header.Get("Retry-After"); ra != "30" {
		t.Fatalf("Retry-After = %q, want 30", ra)
	}
	if r := f.call(other, "list_loops", map[string]any{}); r.status != 200 {
		t.Fatalf("another key is limited too: %s", r.raw)
	}
	// Refusals do not count: hammering while limited changes nothing.
	for i := 0; i < 10; i++ {
		f.call(k, "list_loops", map[string]any{})
	}
	f.advance(30*time.Second + time.Millisecond) // t=0 leaves the window
	if r := f.call(k, "list_loops", map[string]any{}); r.status != 200 {
		t.Fatalf("after the window slid: %d %s", r.status, r.raw)
	}
	if r := f.call(k, "list_loops", map[string]any{}); r.code() != "rate_limited" {
		t.Fatalf("only one slot freed, got %d", r.status)
	}
	if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 1 {
		t.Fatalf("Retry-After must be at least 1")
	}
}

// TestProposalLimits: proposals per hour and open proposals per key; a
// refused proposal stores nothing.
func TestProposalLimits(t *testing.T) {
	lim := DefaultLimits()
	lim.Proposals, lim.OpenProposals = 3, 2
	f := newFixture(t, lim)
	k := f.key("agent", agentkeys.ScopePropose)
	prop := func(p string) reply {
		return f.call(k, "propose_amendment", map[string]any{"loop": "appeal", "list": "read", "pattern": p})
	}
	if r := prop("one"); r.status != 200 {
		t.Fatal(string(r.raw))
	}
	if r := prop("two"); r.status != 200 {
		t.Fatal(string(r.raw))
	}
	r := prop("three")
	if r.code() != "open_limit" || r.status != 429 {
		t.Fatalf("third open proposal: %d %s", r.status, r.raw)
	}
	// A loop change makes the open proposals stale, which frees the slots.
	path := filepath.Join(f.dir, ".gitwarrant", "loops", "appeal.loop.md")
	os.WriteFile(path, []byte(strings.Replace(appealLoop, "Appeals.", "Appeals, edited.", 1)), 0o644)
	if r := prop("three"); r.status != 200 {
		t.Fatalf("after stale: %s", r.raw)
	}
	r = prop("four")
	if r.code() != "proposal_rate" || r.header.Get("Retry-After") != "3600" {
		t.Fatalf("fourth in an hour: %d %s %q", r.status, r.raw, r.header.Get("Retry-After"))
	}
	rec, _ := record.Open(f.p)
	es, _ := rec.Entries()
	n := 0
	for _, e := range es {
		if e.Kind == chain.KindProposal {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d proposals stored, want 3 (refused ones store nothing)", n)
	}
}

// TestRevokedOnNextCall: `keys revoke` in another process (another Store
// on the same file) takes effect on the server's next call.
func TestRevokedOnNextCall(t *testing.T) {
	f := newFixture(t, DefaultLimits())
	k := f.key("agent", agentkeys.ScopeRead)
	if r := f.call(k, "list_loops", map[string]any{}); r.status != 200 {
		t.Fatal(string(r.raw))
	}
	other := agentkeys.Open(f.keys.Path, time.Now)
	if _, err := other.Revoke("agent"); err != nil {
		t.Fatal(err)
	}
	if r := f.call(k, "list_loops", map[string]any{}); r.code() != "auth_revoked" {
		t.Fatalf("after revoke: %d %s", r.status, r.raw)
	}
}

// TestOpenAPIWalk: every path the document lists is served, every tool is
// listed, and each result validates against its declared schema.
func TestOpenAPIWalk(t *testing.T) {
	f := newFixture(t, DefaultLimits())
	k := f.key("agent", agentkeys.ScopePropose)
	doc := f.do("GET", "/api/v1/openapi.json", k, "", nil)
	if doc.status != 200 {
		t.Fatal(string(doc.raw))
	}
	paths := doc.body["paths"].(map[string]any)
	if len(paths) != len(tools()) {
		t.Fatalf("%d paths for %d tools", len(paths), len(tools()))
	}
	args := map[string]any{
		"list_loops": map[string]any{}, "loop_context": map[string]any{"loop": "appeal"}, "warrant_check": check,
		"record_note": map[string]any{"loop": "appeal", "did": "x"}, "match_loop": map[string]any{"task": "appeal letter"},
		"propose_amendment": map[string]any{"loop": "appeal", "list": "read", "pattern": "x"}, "get_metrics": map[string]any{},
	}
	for path, item := range paths {
		name := strings.TrimPrefix(path, "/api/v1/tools/")
		a, ok := args[name]
		if name == "get_proposal" {
			p := f.call(k, "propose_amendment", map[string]any{"loop": "appeal", "list": "draft", "pattern": "y"})
			a, ok = map[string]any{"id": p.body["id"]}, true
		}
		if !ok {
			t.Fatalf("no sample arguments for %s", name)
		}
		r := f.call(k, name, a)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", name, r.status, r.raw)
		}
		post := item.(map[string]any)["post"].(map[string]any)
		schemaJSON, _ := json.Marshal(post["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"])
		var s jsonschema.Schema
		if err := json.Unmarshal(schemaJSON, &s); err != nil {
			t.Fatal(err)
		}
		res, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v any
		json.Unmarshal(r.raw, &v)
		if err := res.Validate(v); err != nil {
			t.Fatalf("%s: result does not match its schema: %v\n%s", name, err, r.raw)
		}
	}
}

// TestMalformedKeepsServing: malformed JSON-RPC, unknown methods, huge and
// truncated bodies and wrong content types get error answers, and the
// server answers the next good request.
func TestMalformedKeepsServing(t *testing.T) {
	lim := DefaultLimits()
	lim.Requests = 1000
	f := newFixture(t, lim)
	k := f.key("agent", agentkeys.ScopeRead)
	bad := []struct {
		ct, body string
	}{
		{"application/json", `{"jsonrpc":"2.0","id":1,`},
		{"application/json", `not json`},
		{"application/json", `{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`},
		{"application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"amend","arguments":{}}}`},
		{"text/plain", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"application/json", `[]`},
		{"application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"warrant_check","arguments":{"loop":"appeal","x":` + strings.Repeat(`"a",`, MaxBody/4) + `1}}}`},
	}
	for _, b := range bad {
		r := f.do("POST", "/mcp", k, b.ct, strings.NewReader(b.body))
		ok := r.status >= 400
		if !ok {
			// A JSON-RPC error or a tool error inside a 200 is an error answer too.
			ok = bytes.Contains(r.raw, []byte(`"error"`)) || bytes.Contains(r.raw, []byte(`"isError":true`))
		}
		if !ok {
			t.Errorf("%.60q got %d %s", b.body, r.status, r.raw)
		}
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", f.srv.URL+"/mcp", strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+k)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"serverInfo"`)) {
		t.Fatalf("the server stopped answering: %d %s", resp.StatusCode, body)
	}
}

// TestConcurrentClients: 50 clients, each with its own key, 200 checks
// each, give 10,000 intact entries, each naming its credential.
func TestConcurrentClients(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 recorded checks: skipped with -short")
	}
	lim := DefaultLimits()
	lim.Requests = 1000
	f := newFixture(t, lim)
	const clients, each = 50, 200
	keys := make([]string, clients)
	for i := range keys {
		keys[i] = f.key("agent-"+strconv.Itoa(i), agentkeys.ScopeRead)
	}
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				if r := f.call(keys[i], "warrant_check", check); r.status != 200 {
					errs <- string(r.raw)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	rec, _ := record.Open(f.p)
	v, err := rec.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() {
		t.Fatalf("the record does not verify: %v", v.Findings)
	}
	es, _ := rec.Entries()
	per := map[string]int{}
	for _, e := range es {
		c, _ := e.Extra["credential"].(string)
		per[c]++
	}
	if len(es) != clients*each || len(per) != clients {
		t.Fatalf("%d entries over %d credentials, want %d over %d", len(es), len(per), clients*each, clients)
	}
	for c, n := range per {
		if n != each {
			t.Fatalf("%s has %d entries", c, n)
		}
	}
}

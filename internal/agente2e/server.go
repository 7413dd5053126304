// Package agente2e drives real agent clients — today the Claude Code CLI —
// offline, against a scripted model server on loopback, in real Git
// repositories wired by `gitwarrant install` (docs/agents-e2e.md). It is
// test support: only _test.go files import it.
package agente2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// ToolCall is one tool call the scripted model makes: the tool's name as
// the client knows it (Bash, Write, Read, Edit …) and its input.
type ToolCall struct {
	Name  string
	Input map[string]any
}

// Bash is a call of the Bash tool running command.
func Bash(command string) ToolCall {
	return ToolCall{Name: "Bash", Input: map[string]any{"command": command, "description": "e2e step"}}
}

// Write is a call of the Write tool; path should be absolute, as the
// model is told to write it.
func Write(path, content string) ToolCall {
	return ToolCall{Name: "Write", Input: map[string]any{"file_path": path, "content": content}}
}

// Read is a call of the Read tool on an absolute path.
func Read(path string) ToolCall {
	return ToolCall{Name: "Read", Input: map[string]any{"file_path": path}}
}

// Edit is a call of the Edit tool replacing old with new in path.
func Edit(path, old, new string) ToolCall {
	return ToolCall{Name: "Edit", Input: map[string]any{"file_path": path, "old_string": old, "new_string": new}}
}

// Script is what the model says in one conversation: Calls in order, one
// tool_use per response, then Final as plain text.
type Script struct {
	Calls []ToolCall
	Final string
}

// ToolUseID is the id the server gives the i-th call of its script, so a
// test can find the client's tool_result and the record's check for it.
// Ids are unique to the server: a resumed session carries the calls of
// the session before it, which this server did not make.
func (s *Server) ToolUseID(i int) string { return fmt.Sprintf("toolu_e2e_%s_%02d", s.nonce, i) }

// Server is a scripted Anthropic Messages API on 127.0.0.1. It answers the
// main conversation from its Script and every side request (a title, a
// summary, a token count, a request without tools) with plain text, so
// side requests never consume the script. It records every request.
type Server struct {
	URL    string // base URL, for ANTHROPIC_BASE_URL
	script Script
	nonce  string
	srv    *httptest.Server

	mu       sync.Mutex
	requests []Request
	overrun  bool
}

// maxExtraRequests is how many requests of the conversation beyond one per
// call the server answers: retries and the final answer.
const maxExtraRequests = 8

// Overrun reports whether the conversation took more requests than its
// script allows for, and the server ended it.
func (s *Server) Overrun() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.overrun
}

func (s *Server) mainRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Kind == KindMain {
			n++
		}
	}
	return n
}

// NewServer starts a server answering from script; it stops when the test
// ends.
func NewServer(t testing.TB, script Script) *Server {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	s := &Server{script: script, nonce: hex.EncodeToString(b)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	_ = json.Unmarshal(body, &req.Parsed)
	req.Kind = classify(req)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	switch req.Kind {
	case KindCountTokens:
		writeJSON(w, map[string]any{"input_tokens": 100})
	case KindOther:
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"the e2e server knows only /v1/messages"}}`, http.StatusNotFound)
	case KindMain:
		s.answer(w, req, s.next(req))
	default:
		s.answer(w, req, reply{text: "e2e side answer", msgID: "msg_e2e_side"})
	}
}

// reply is one assistant message: a tool call, or text when call is nil.
// Each message of a conversation has its own msgID: the client merges the
// content of messages that share one into one assistant turn.
type reply struct {
	call  *ToolCall
	id    string
	text  string
	msgID string
}

// next picks the answer from the conversation itself: the number of this
// server's tool_use blocks already in it is the number of calls answered,
// so a retried request gets the same answer again.
func (s *Server) next(req Request) reply {
	n := 0
	for _, m := range req.Parsed.Messages {
		for _, b := range m.Content {
			if m.Role == "assistant" && b.Type == "tool_use" && strings.HasPrefix(b.ID, "toolu_e2e_"+s.nonce+"_") {
				n++
			}
		}
	}
	if s.mainRequests() > len(s.script.Calls)+maxExtraRequests {
		// Ends a conversation that does not advance (a client that no
		// longer sends back the calls it ran) instead of feeding it the
		// same call forever.
		s.mu.Lock()
		s.overrun = true
		s.mu.Unlock()
		return reply{text: "e2e: the conversation went past its script", msgID: "msg_e2e_overrun"}
	}
	if n < len(s.script.Calls) {
		return reply{call: &s.script.Calls[n], id: s.ToolUseID(n), msgID: fmt.Sprintf("msg_e2e_%s_%02d", s.nonce, n)}
	}
	final := s.script.Final
	if final == "" {
		final = "done"
	}
	return reply{text: final, msgID: fmt.Sprintf("msg_e2e_%s_%02d", s.nonce, n)}
}

func (s *Server) answer(w http.ResponseWriter, req Request, rep reply) {
	model := req.Parsed.Model
	if !req.Parsed.Stream {
		writeJSON(w, message(model, rep, true))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	start := message(model, rep, false)
	event(w, "message_start", map[string]any{"type": "message_start", "message": start})
	stop := "end_turn"
	if rep.call != nil {
		input, _ := json.Marshal(rep.call.Input)
		event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": rep.id, "name": rep.call.Name, "input": map[string]any{}}})
		event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		stop = "tool_use"
	} else {
		event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": rep.text}})
	}
	event(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	event(w, "message_stop", map[string]any{"type": "message_stop"})
}

// message is the assistant message of rep: empty content for a stream's
// message_start, the whole content for a non-streaming answer.
func message(model string, rep reply, full bool) map[string]any {
	content := []any{}
	stop := any(nil)
	if full {
		stop = "end_turn"
		if rep.call != nil {
			content = append(content, map[string]any{"type": "tool_use", "id": rep.id, "name": rep.call.Name, "input": rep.call.Input})
			stop = "tool_use"
		} else {
			content = append(content, map[string]any{"type": "text", "text": rep.text})
		}
	}
	return map[string]any{"id": rep.msgID, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 10}}
}

func event(w http.ResponseWriter, name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Kind sorts the requests a client makes.
type Kind string

// The kinds of request: the scripted conversation, a side request the
// client makes for itself, a token count, anything else (answered 404).
const (
	KindMain        Kind = "main"
	KindSide        Kind = "side"
	KindCountTokens Kind = "count_tokens"
	KindOther       Kind = "other"
)

// classify tells the conversation from side requests: the conversation is
// the request that offers tools; a side request (title, summary, a quota
// probe) offers none.
func classify(r Request) Kind {
	switch {
	case strings.HasSuffix(r.Path, "/v1/messages/count_tokens"):
		return KindCountTokens
	case !strings.HasSuffix(r.Path, "/v1/messages"):
		return KindOther
	case len(r.Parsed.Tools) > 0:
		return KindMain
	}
	return KindSide
}

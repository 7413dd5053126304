package agente2e

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one HTTP request the client made, as received.
type Request struct {
	Method, Path, Query string
	Header              http.Header
	Body                []byte
	Kind                Kind
	Parsed              MessagesBody // the decoded body of a /v1/messages request
}

// MessagesBody is the part of a Messages API request body the tests read.
type MessagesBody struct {
	Model    string                  `json:"model"`
	Stream   bool                    `json:"stream"`
	System   Content                 `json:"system"`
	Messages []Message               `json:"messages"`
	Tools    []struct{ Name string } `json:"tools"`
}

// Message is one turn of the conversation.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message's or the system prompt's content: the API takes a
// string or a list of blocks; a string decodes as one text block.
type Content []Block

// UnmarshalJSON accepts both shapes.
func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Text joins the text of every text block.
func (c Content) Text() string {
	var parts []string
	for _, b := range c {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Block is one content block: text, tool_use or tool_result.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *Content        `json:"content,omitempty"` // a tool_result's content
	IsError   bool            `json:"is_error,omitempty"`
}

// ToolResult is what the client sent back for one tool call.
type ToolResult struct {
	ToolUseID string
	Content   string // the text of the result
	IsError   bool
}

// ToolResults returns every tool_result block in the main conversation's
// requests, keyed by tool_use_id (the last request that carries one wins:
// later requests repeat the history).
func ToolResults(reqs []Request) map[string]ToolResult {
	out := map[string]ToolResult{}
	for _, r := range reqs {
		if r.Kind != KindMain {
			continue
		}
		for _, m := range r.Parsed.Messages {
			for _, b := range m.Content {
				if b.Type != "tool_result" {
					continue
				}
				tr := ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError}
				if b.Content != nil {
					tr.Content = b.Content.Text()
				}
				out[b.ToolUseID] = tr
			}
		}
	}
	return out
}

// UserText returns the text of every user message block of the main
// conversation's last request, in order: the prompt and whatever the
// client put beside it (hook context, reminders).
func UserText(reqs []Request) []string {
	var last *Request
	for i := range reqs {
		if reqs[i].Kind == KindMain {
			last = &reqs[i]
		}
	}
	if last == nil {
		return nil
	}
	var out []string
	for _, m := range last.Parsed.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

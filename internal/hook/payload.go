// Package hook turns Claude Code hook payloads into warrant checks
// (docs/design.md#enforcement-surfaces): it decodes the PreToolUse/PostToolUse JSON, maps a
// tool call to a verb and a plain-language target, applies the built-in
// self-protection that no loop can lift, and renders the decision JSON.
//
// It is a pure package: it reads bytes and paths and never runs processes
// or touches the terminal, so the CLI, the eval and the fuzz target all
// exercise exactly the same logic.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxInput is the largest hook payload accepted on stdin, in bytes. Claude
// Code's payloads are a few KiB (a Write carries the file's content); a
// larger one is refused rather than parsed, and a pinned gate then asks.
const MaxInput = 1 << 20

// Payload is the part of a Claude Code hook payload gitwarrant uses. New
// fields appear with every Claude Code release, so unknown fields are
// ignored (docs/hook-protocol.md#claude-code-hooks: "decode leniently"); tool_input and
// tool_response stay raw because their shape depends on the tool.
type Payload struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id"`
	PermissionMode string          `json:"permission_mode"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
}

// ErrTooLarge is returned by Decode for a payload over MaxInput.
var ErrTooLarge = fmt.Errorf("hook payload is over %d bytes (1 MiB)", MaxInput)

// Decode parses a hook payload. It fails on anything that is not one JSON
// object, on a known field of the wrong type, on a missing tool_name and on
// a tool_input that is not an object — a gate cannot reason about a call it
// cannot read, so the caller turns these errors into ask.
func Decode(data []byte) (Payload, error) {
	var p Payload
	if len(data) > MaxInput {
		return p, ErrTooLarge
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return p, errors.New("hook payload is empty: Claude Code sends one JSON object on stdin")
	}
	if trimmed[0] != '{' {
		return p, errors.New("hook payload is not a JSON object: Claude Code sends one JSON object on stdin")
	}
	if err := json.Unmarshal(trimmed, &p); err != nil {
		return Payload{}, fmt.Errorf("hook payload is not valid JSON: %v", describeJSONError(trimmed, err))
	}
	if strings.TrimSpace(p.ToolName) == "" {
		return p, errors.New(`hook payload has no "tool_name": is this a PreToolUse payload from Claude Code?`)
	}
	if len(p.ToolInput) > 0 && !isObject(p.ToolInput) && !isNull(p.ToolInput) {
		return p, fmt.Errorf(`hook payload's "tool_input" for %s is not a JSON object`, p.ToolName)
	}
	return p, nil
}

// describeJSONError adds the line of a syntax error, so a hand-fed payload
// points at its mistake.
func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: %v", line, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q must be a %s, not a JSON %s", te.Field, te.Type, te.Value)
	}
	return err.Error()
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// IsPost reports whether the payload is a PostToolUse one (it carries the
// tool's response, or says so in hook_event_name).
func (p Payload) IsPost() bool {
	return p.HookEventName == "PostToolUse" || len(p.ToolResponse) > 0
}

package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Event names of the session hooks (docs/sessions.md).
const (
	EventUserPromptSubmit = "UserPromptSubmit"
	EventSessionStart     = "SessionStart"
	EventSessionEnd       = "SessionEnd"
)

// ExtraLoopVia is the record key naming how a hook entry's loop was chosen
// (docs/sessions.md#how-a-loop-is-chosen).
const ExtraLoopVia = "loop_via"

// SessionPayload is the part of a UserPromptSubmit, SessionStart or
// SessionEnd payload gitwarrant uses; unknown fields are ignored.
type SessionPayload struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	Prompt        string `json:"prompt"`
	Source        string `json:"source"` // SessionStart: startup, resume, clear, compact
	Reason        string `json:"reason"` // SessionEnd
}

// DecodeSession parses a session hook payload. A payload without a
// session_id is refused: a pin needs the session it belongs to.
func DecodeSession(data []byte) (SessionPayload, error) {
	var p SessionPayload
	if len(data) > MaxInput {
		return p, ErrTooLarge
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return p, errors.New("hook payload is not a JSON object: Claude Code sends one JSON object on stdin")
	}
	if err := json.Unmarshal(trimmed, &p); err != nil {
		return SessionPayload{}, fmt.Errorf("hook payload is not valid JSON: %v", describeJSONError(trimmed, err))
	}
	if strings.TrimSpace(p.SessionID) == "" {
		return p, errors.New(`hook payload has no "session_id": is this a UserPromptSubmit or SessionStart payload from Claude Code?`)
	}
	return p, nil
}

// Context renders a UserPromptSubmit or SessionStart answer: context for the
// agent (hookSpecificOutput.additionalContext) and, when not empty, a line
// shown to the person (systemMessage). It never blocks the prompt.
func Context(event, context, message string) []byte {
	out := map[string]any{
		"hookSpecificOutput": map[string]any{
			"hookEventName":     event,
			"additionalContext": strings.ToValidUTF8(context, "\uFFFD"),
		},
	}
	if message != "" {
		out["systemMessage"] = strings.ToValidUTF8(message, "\uFFFD")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // `use loop <name>` reads as written
	_ = enc.Encode(out)      // only strings and maps
	return b.Bytes()
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// ClaudeHookCall is one Claude Code hook call, whichever transport brought
// it: `hook claude` reads it from its flags and stdin, `serve` from the
// URL and body of POST /hooks/claude (docs/hook-protocol.md#the-http-hook).
type ClaudeHookCall struct {
	gate.Options
	// Event is pre (PreToolUse), post (PostToolUse), prompt
	// (UserPromptSubmit) or session-end (SessionEnd).
	Event string
	// Data is the payload and ReadErr why it could not be read whole.
	Data    []byte
	ReadErr error
	// WiringErr says the hook's wiring (its flags, or its URL's query) is
	// wrong; a PreToolUse call then asks, naming Fix.
	WiringErr error
	Fix       string
}

// AnswerClaudeHook decides one Claude Code hook call and returns what the
// hook answers: the bytes `hook claude` prints, and the body `serve`
// returns, so the two transports cannot drift apart. Notes that are not
// the answer (a PostToolUse that could not be recorded) go to env.Err.
func AnswerClaudeHook(env gate.Env, c ClaudeHookCall) []byte {
	switch c.Event {
	case "prompt":
		a := gate.RoutePrompt(env, c.Options, c.Data, firstErr(c.WiringErr, c.ReadErr))
		if a.Context == "" {
			return nil
		}
		return hook.Context(hook.EventUserPromptSubmit, a.Context, a.Message) // a prompt is never blocked: the calls it leads to are
	case "session-end":
		if err := gate.EndSession(env, c.Options, c.Data, firstErr(c.WiringErr, c.ReadErr)); err != nil {
			fmt.Fprintf(env.Err, "gitwarrant: hook claude --event session-end: %v\n", err)
		}
		return nil
	case "post":
		if c.WiringErr == nil {
			if err := gate.Post(env, c.Options, c.Data, c.ReadErr); err != nil {
				fmt.Fprintf(env.Err, "gitwarrant: hook claude --post: %v\n", err)
			}
		}
		return nil // PostToolUse never blocks: the tool already ran
	case "pre":
	default:
		c.WiringErr = firstErr(c.WiringErr, fmt.Errorf("unknown --event %q (pre, post, prompt or session-end)", c.Event))
	}
	var a gate.Answer
	if c.WiringErr != nil {
		a = gate.Asks("this hook's %s is wrong (%v): %s", map[bool]string{true: "URL", false: "command line"}[c.Via == ViaHTTPHook], c.WiringErr, c.Fix)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), HookDeadline)
		a = gate.Decide(ctx, env, c.Options, c.Data, c.ReadErr)
		cancel()
	}
	if a.Silent {
		return nil
	}
	return hook.DecisionContext(string(a.Verdict), a.Reason, a.Context)
}

// ViaHTTPHook is the channel recorded with a check that came to `serve`
// as Claude Code's http hook.
const ViaHTTPHook = gate.ViaHTTPHook

// ClaudeHookEvent is the `hook claude --event` value for a payload's
// hook_event_name, so the http hook (one URL for every event) decides
// each payload as the command hook wired for its event does. An unknown
// or missing name is pre, `hook claude`'s default.
func ClaudeHookEvent(data []byte) string {
	var p struct {
		Event string `json:"hook_event_name"`
	}
	_ = json.Unmarshal(data, &p)
	switch p.Event {
	case "PostToolUse":
		return "post"
	case hook.EventUserPromptSubmit:
		return "prompt"
	case hook.EventSessionEnd:
		return "session-end"
	}
	return "pre"
}

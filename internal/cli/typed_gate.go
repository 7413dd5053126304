package cli

import (
	"encoding/json"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// gateEnvFor is the gate's environment for a command run by a person
// (explain, check --examples, lint): the decision the hook would make, in
// the directory the command runs in.
func gateEnvFor(app *App) gate.Env {
	now := app.Now
	if now == nil {
		now = time.Now
	}
	return gate.Env{Getenv: app.Getenv, Cwd: app.Cwd, Now: now, Err: app.IO.Err, Allower: gate.TypedAllower}
}

// explainCall decides tool with input under loop l as the hook would,
// with every part of the decision kept; cwd is the call's directory.
func explainCall(app *App, l *loops.Loop, tool string, input map[string]any, cwd string) gate.Explanation {
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": tool, "tool_input": input})
	return gate.Explain(gateEnvFor(app), l, payload)
}

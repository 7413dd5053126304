package cli

import (
	"encoding/json"
	"io"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// GateEnv is the gate's environment for every surface this binary and
// gitwarrant-mcp serve — the hooks, the http hook, the MCP tools, explain,
// check --examples, lint, doctor and review: app's environment and clock,
// the call's directory cwd, diagnostics to errw, and the typed allower.
// Building the environment here, once, is what keeps a surface from
// leaving the allower out; gate.Env's zero Allower asks for everything
// (docs/threat-model.md#natural-language-entries-and-tool-calls).
func GateEnv(app *App, cwd string, errw io.Writer) gate.Env {
	now := app.Now
	if now == nil {
		now = time.Now
	}
	return gate.Env{Getenv: app.Getenv, Cwd: cwd, Now: now, Err: errw, Allower: gate.TypedAllower, Self: app.GateSelf}
}

// gateEnvFor is the gate's environment for a command run by a person
// (explain, check --examples, lint): the decision the hook would make, in
// the directory the command runs in.
func gateEnvFor(app *App) gate.Env { return GateEnv(app, app.Cwd, app.IO.Err) }

// explainCall decides tool with input under loop l as the hook would,
// with every part of the decision kept; cwd is the call's directory.
func explainCall(app *App, l *loops.Loop, tool string, input map[string]any, cwd string) gate.Explanation {
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": tool, "tool_input": input})
	return gate.Explain(gateEnvFor(app), l, payload)
}

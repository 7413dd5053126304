package mcpcmd

import (
	"context"
	"encoding/json"
	"github.com/gitwarrant/gitwarrant/internal/cli"
	"io"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// mcpService builds the agent tools over this app: the project is found on
// every call (so a server started before `gitwarrant init` starts working
// once it exists), and checks go through the same path as `check` and the
// hook.
func mcpService(app *cli.App) *mcp.Service {
	return mcp.NewService(mcp.Backend{
		Project: func() (*project.Project, error) { return app.Project() },
		Check: func(ctx context.Context, p *project.Project, req mcp.CheckRequest) (mcp.CheckResult, error) {
			return mcpCheck(ctx, app, p, req)
		},
		Now: app.Now,
	})
}

// mcpCheck judges one tool's check: a self-reported action exactly as
// `gitwarrant check`, a tool call exactly as the Claude Code hook.
func mcpCheck(ctx context.Context, app *cli.App, p *project.Project, req mcp.CheckRequest) (mcp.CheckResult, error) {
	extra := map[string]any{"credential": req.Caller.Credential}
	if req.Tool != "" {
		return mcpToolCheck(ctx, app, p, req, extra)
	}
	l := req.Loaded
	if l == nil {
		var err error
		if l, err = req.Loops.LoadByName(p.LoopsDir(), req.Loop); err != nil {
			return mcp.CheckResult{}, err
		}
	}
	verb, err := loops.ParseVerb(req.Action)
	if err != nil {
		return mcp.CheckResult{}, err
	}
	res, e, err := gate.Check(p, gate.CheckRequest{Loop: l, Verb: verb, Target: req.Target, Via: req.Caller.Via, Record: true, Extra: extra})
	if err != nil {
		return mcp.CheckResult{}, err
	}
	return mcp.CheckResult{Verdict: string(res.Verdict), Reason: res.Reason, Rule: res.Rule, Loop: l.Name, Seq: e.Seq, Hash: e.Hash}, nil
}

// mcpToolCheck judges a tool call exactly as the Claude Code hook does,
// through the same gate, recorded with the caller's channel and
// credential. A call no loop covers asks (the gate's strict mode): over
// MCP there is no other permission system to fall back on.
func mcpToolCheck(ctx context.Context, app *cli.App, p *project.Project, req mcp.CheckRequest, _ map[string]any) (mcp.CheckResult, error) {
	input := req.ToolInput
	if input == nil {
		input = map[string]any{}
	}
	payload, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": p.Root, "tool_name": req.Tool, "tool_input": input})
	if err != nil {
		return mcp.CheckResult{}, err
	}
	o := gate.Options{Loop: req.Loop, LoopSet: req.Loop != "", Strict: true, Dir: p.Dir, Via: req.Caller.Via, Credential: req.Caller.Credential}
	env := cli.GateEnv(app, p.Root, io.Discard)
	ctx, cancel := context.WithTimeout(ctx, cli.HookDeadline)
	defer cancel()
	env.Loops = req.Loops // the server's parse cache (docs/mcp.md#parse-cache)
	a := gate.Decide(ctx, env, o, payload, nil)
	if a.Silent {
		a.Verdict, a.Reason = loops.Ask, "no loop covers this call: unlisted means ask"
	}
	return mcp.CheckResult{Verdict: string(a.Verdict), Reason: a.Reason, Rule: a.Rule, Loop: a.Loop, Seq: a.Seq, Hash: a.Hash}, nil
}

package cli

import (
	"encoding/json"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// callDecision is how the hook decides a tool call under one loop
// (docs/typed-entries.md#rules-of-meaning): self-protection first, then the
// loop's natural-language never and ask entries on the call's target, then
// the typed entries on every unit of the call.
type callDecision struct {
	Verdict   loops.Verdict
	Rule      string
	Reason    string
	Protected string        // the self-protection reason, when it decided
	Natural   *loops.Result // the natural-language never/ask entry, when one decided
	Typed     typed.Decision
}

// gateEnv is where a call is decided.
type gateEnv struct {
	root, projectDir, hooksDir, cwd, home string
}

func (g gateEnv) typedEnv() typed.Env {
	return typed.Env{Root: g.root, Cwd: g.cwd, Home: g.home, Branch: typed.CurrentBranch(g.root)}
}

func homeDir(app *App) string {
	if h := app.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func decideCall(g gateEnv, l *loops.Loop, tool string, input map[string]any) callDecision {
	raw, _ := json.Marshal(input)
	pl := hook.Payload{Cwd: g.cwd, HookEventName: "PreToolUse", ToolName: tool, ToolInput: raw}
	return decidePayload(g, l, pl, input)
}

func decidePayload(g gateEnv, l *loops.Loop, pl hook.Payload, input map[string]any) callDecision {
	if why, denied := hook.Protected(pl, g.projectDir, g.root, g.hooksDir); denied {
		return callDecision{Verdict: loops.Deny, Rule: "self-protection", Protected: why,
			Reason: why + " — only a person does this, whatever the loops say."}
	}
	d := callDecision{Typed: typed.Decide(l.Warrant.Typed(), typed.Units(pl.ToolName, input, g.typedEnv()))}
	if verb, target, err := hook.MapIn(pl, g.root); err == nil {
		if r := loops.Check(&l.Warrant, verb, target); r.List == "never" || r.List == "ask" {
			d.Natural = &r
		}
	}
	switch {
	case d.Natural != nil && (d.Natural.Verdict == loops.Deny || d.Typed.Verdict != loops.Deny):
		d.Verdict, d.Rule, d.Reason = d.Natural.Verdict, d.Natural.Rule, d.Natural.Reason
	default:
		d.Verdict, d.Rule = d.Typed.Verdict, d.Typed.Rule
		switch d.Verdict {
		case loops.Allow:
			d.Reason = "typed entries of the warrant allow every part of this call."
		case loops.Deny:
			d.Reason = "matches a hard stop. Never happens, with or without approval."
		default:
			d.Reason = "only typed entries (Bash(…), Edit(…), …) allow a tool call, and not every part of this one is allowed; unlisted means ask."
		}
	}
	return d
}

func (d callDecision) result() loops.Result {
	r := loops.Result{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason, List: "typed"}
	if d.Natural != nil && d.Rule == d.Natural.Rule {
		return *d.Natural
	}
	for _, u := range d.Typed.Units {
		if u.Rule == d.Rule && u.Entry != nil {
			r.Pattern, r.Line, r.List = u.Entry.Text, u.Entry.Line, u.Entry.List
			break
		}
	}
	return r
}

// inputObject decodes a payload's tool_input (nil when it is not an object).
func inputObject(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

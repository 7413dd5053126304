package gate

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// The typed side of a decision (docs/typed-entries.md#rules-of-meaning):
// a call is read as typed units (each clause, each file it touches, each
// path, host or MCP tool); a typed never entry matching any unit denies and
// an ask entry asks, wrappers looked through; the call is allowed only when
// every unit is allowed by a typed entry.

// typedEnv is where the call runs, for the typed units.
func typedEnv(c *Call, place Place, env Env) typed.Env {
	cwd := c.Payload.Cwd
	if cwd == "" {
		cwd = env.Cwd
	}
	return typed.Env{Root: place.Root, Home: place.Home, Cwd: cwd, Branch: c.currentBranch(place),
		Resolve:   func(p string) string { return Resolve(p, cwd, place.Home) },
		GitConfig: func() map[string][]string { return c.repoConfig(place) }}
}

// currentBranch is typed.CurrentBranch of the place's work tree, from
// HEAD as the call read it once (headOf) when the place has a repository.
func (c *Call) currentBranch(place Place) string {
	if place.Repo == nil {
		return typed.CurrentBranch(place.Root)
	}
	s, _ := c.headOf(place)
	ref, ok := strings.CutPrefix(s, "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}

// TypedDecision decides a call with a loop's typed entries.
func TypedDecision(l *loops.Loop, c *Call, te typed.Env) typed.Decision {
	return typedDecision(l.Warrant.Typed(), c, te)
}

// typedDecision is TypedDecision with the typed entries already compiled.
func typedDecision(tw *loops.TypedWarrant, c *Call, te typed.Env) typed.Decision {
	return decideUnits(tw, callUnits(c, te))
}

// unitSet is a call's typed units (docs/typed-entries.md), the same under
// every loop; ok is false when tool_input is not an object.
type unitSet struct {
	list []typed.Unit
	ok   bool
}

// callUnits reads the call into its typed units: the tool's own and those
// of each script it runs.
func callUnits(c *Call, te typed.Env) unitSet {
	var in map[string]any
	if json.Unmarshal(c.Payload.ToolInput, &in) != nil {
		return unitSet{}
	}
	te = te.Resolved()
	list := typed.Units(c.Payload.ToolName, in, te)
	for _, sc := range c.scripts {
		se := te
		se.Cwd = sc.dir
		list = append(list, typed.ScriptUnits(sc.script, sc.path, se)...)
	}
	return unitSet{list: list, ok: true}
}

// decideUnits decides u under tw. typed.Decide rewrites the units it is
// given (a wrapper takes the kind of what it runs), so it gets a copy:
// the same units are decided under every loop the screen reads.
func decideUnits(tw *loops.TypedWarrant, u unitSet) typed.Decision {
	if !u.ok {
		return typed.Decision{Verdict: loops.Ask, Rule: "opaque: tool_input is not an object"}
	}
	return typed.Decide(tw, slices.Clone(u.list))
}

// TypedAllower is the Allower every surface passes in Env: a call is
// allowed when a typed entry allows every unit of it.
func TypedAllower(l *loops.Loop, c *Call) (string, bool) {
	if c.typed == nil {
		return "", false
	}
	d := *c.typed
	return d.Rule, d.Verdict == loops.Allow
}

// typedScreen applies the loop's typed ask and never entries (and
// remembers the whole decision for TypedAllower).
func typedScreen(tw *loops.TypedWarrant, c *Call, te typed.Env) (loops.Result, bool) {
	d := typedDecision(tw, c, te)
	c.typed = &d
	if d.Verdict == loops.Allow {
		return loops.Result{}, false
	}
	for _, u := range d.Units {
		if u.Entry != nil && (u.Entry.List == "never" || u.Entry.List == "ask") && u.Rule == d.Rule {
			why := "matches the ask list — a human approves this every time."
			if u.Verdict == loops.Deny {
				why = "matches a hard stop. Never happens, with or without approval."
			}
			return loops.Result{Verdict: u.Verdict, List: u.Entry.List, Rule: d.Rule, Reason: why,
				Pattern: u.Entry.Text, Line: u.Entry.Line}, true
		}
	}
	for _, u := range d.Units {
		// An allow entry names the clause but cannot allow it: the clause
		// is wider than the entry's list, or runs a package script the
		// loop does not vouch for (docs/typed-entries.md#kinds). The
		// reason says so rather than "no entry allows it".
		if u.Entry != nil && u.Verdict == loops.Ask && u.Rule == d.Rule {
			return loops.Result{Verdict: loops.Ask, List: "default", Rule: d.Rule,
				Reason: "a person decides.", Pattern: u.Entry.Text, Line: u.Entry.Line}, true
		}
	}
	return loops.Result{}, false
}

// Explanation is a decision with its parts, for `gitwarrant explain`.
type Explanation struct {
	Verdict loops.Verdict
	Rule    string
	Denied  string        // self-protection, when it decided
	Natural *loops.Result // a natural-language never/ask entry, when one matched
	Typed   typed.Decision
}

// ExplainExample decides one `examples:` call of l as the hook would in
// the repository rooted at root (docs/typed-entries.md#examples): lint,
// doctor, check --examples and ci all replay examples through it.
func ExplainExample(env Env, l *loops.Loop, e loops.Example, root string) Explanation {
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": root, "tool_name": e.Tool, "tool_input": typed.ExampleInput(e, root)})
	return Explain(env, l, payload)
}

// Explain decides a payload under loop l the way decideLoop does, without
// recording, and keeps every part.
func Explain(env Env, l *loops.Loop, data []byte) Explanation {
	pl, err := hook.Decode(data)
	if err != nil {
		return Explanation{Verdict: loops.Ask, Rule: "failed closed: " + err.Error()}
	}
	place := FindPlace(env.getenv, "", env.getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, env.Cwd)
	c := Analyse(pl, place, env)
	x := Explanation{}
	if c.Denied != "" {
		x.Verdict, x.Rule, x.Denied = loops.Deny, "self-protection", strings.TrimSpace(c.Denied)
		return x
	}
	te := typedEnv(c, place, env)
	x.Typed = TypedDecision(l, c, te)
	c.typed = &x.Typed
	if r, hit := loops.Screen(l.Warrant.Natural(), c.Texts); hit {
		x.Natural = &r
		if r.Verdict == loops.Deny || x.Typed.Verdict != loops.Deny {
			x.Verdict, x.Rule = r.Verdict, r.Rule
			return x
		}
	}
	switch {
	case x.Typed.Verdict == loops.Deny:
		x.Verdict, x.Rule = loops.Deny, x.Typed.Rule
	case c.Opaque && x.Typed.Verdict == loops.Allow && (c.callOpaque || !vouched(env, place, c, l)):
		why := c.Unreadable
		if why == "" {
			why = "part of the call is built at run time or is not a command the gate can read"
		}
		x.Verdict, x.Rule = loops.Ask, "opaque: "+why
	default:
		x.Verdict, x.Rule = x.Typed.Verdict, x.Typed.Rule
		if x.Verdict == loops.Allow {
			if _, ok := env.allow(l, c); !ok {
				x.Verdict, x.Rule = loops.Ask, "default: no typed entry allows this call"
			}
		}
	}
	return x
}

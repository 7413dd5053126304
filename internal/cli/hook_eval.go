package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// evaluateHook decides one PreToolUse call (docs/design.md#enforcement-surfaces). The order matters:
// self-protection comes before everything a loop or a failure could say, and
// no path from a failure leads to allow.
func evaluateHook(app *App, o hookClaudeOptions, data []byte, readErr error) hookAnswer {
	pinned := o.pinned()
	pl, err := hook.Decode(data)
	if readErr != nil {
		err = readErr
	}
	if err != nil {
		env := findHookEnv(app, o.dir, app.Getenv("CLAUDE_PROJECT_DIR"), app.Cwd)
		if !pinned && env.project == nil {
			return hookAnswer{silent: true} // a bare hook outside a project costs nothing
		}
		return askAnswer("cannot read the hook payload: %v", err)
	}
	env := findHookEnv(app, o.dir, app.Getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, app.Cwd)
	if why, denied := hook.Protected(pl, env.projectDir, env.root, env.gitHooksDir()); denied {
		a := hookAnswer{verdict: loops.Deny, reason: hook.Reason("", "self-protection", why)}
		if env.project != nil && !o.noRecord {
			// Best effort: a deny stands even when it cannot be recorded.
			_ = appendHookEntry(env.project, hookEntry(pl, validLoopName(o.loop), "self-protection: "+why, a.verdict))
		}
		return a
	}
	if env.project == nil {
		if !pinned {
			return hookAnswer{silent: true}
		}
		return askAnswer("no gitwarrant project: %v", env.projectErr)
	}
	verb, target, err := hook.MapIn(pl, env.root)
	if err != nil {
		return askAnswer("cannot map the tool call to a check: %v", err)
	}
	l, a, done := chooseLoop(env.project, o, pl, verb, target)
	if done {
		return a
	}
	return checkHookCall(env, o, pl, l, verb, target)
}

// chooseLoop picks the loop that decides a call: the pinned one, else the
// top routing candidate (the same scoring as `gitwarrant match`). done is
// true when the answer is already known (a failure, or no coverage).
func chooseLoop(p *project.Project, o hookClaudeOptions, pl hook.Payload, verb loops.Verb, target string) (*loops.Loop, hookAnswer, bool) {
	if o.loopSet || o.loop != "" {
		l, err := loops.LoadByName(p.LoopsDir(), o.loop)
		if err != nil {
			return nil, askAnswer("the pinned loop %q cannot be loaded: %v", o.loop, err), true
		}
		if l.Abstract {
			return nil, askAnswer("the pinned loop %q is abstract: a baseline to extend, not a job to check", o.loop), true
		}
		return l, hookAnswer{}, false
	}
	// Every loop is parsed from disk on every call. A parse cache was
	// measured (8.8 → 4.1 ms for 50 loops) and rejected: a cache file is a
	// second copy of the warrant that Git, review and CI never see, so an
	// agent that found a way to write it could widen its warrant silently.
	ls, errs := loops.LoadDir(p.LoopsDir())
	if len(errs) > 0 {
		more := ""
		if len(errs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		// The broken loop may be the one that covers this call, so even an
		// unpinned hook cannot stay silent.
		return nil, askAnswer("a loop does not load, so this call cannot be routed: %v%s", errs[0], more), true
	}
	l := routeLoop(ls, verb, target, pl.ToolName+" "+target)
	if l != nil {
		return l, hookAnswer{}, false
	}
	if !o.strict {
		return nil, hookAnswer{silent: true}, true // no loop claims it: Claude Code's permissions decide
	}
	a := hookAnswer{verdict: loops.Ask, reason: hook.Reason("", "strict: no loop covers this call", "a person decides; add a loop (or a trigger) that covers it")}
	if !o.noRecord {
		if err := appendHookEntry(p, hookEntry(pl, "", "strict: no loop covers this call", loops.Ask)); err != nil {
			a.reason += fmt.Sprintf(" (and the check could not be recorded: %v)", err)
		}
	}
	return nil, a, true
}

// checkHookCall runs the warrant check, records it with via "hook", and
// turns the result into an answer. An allow survives only when it is
// recorded and its target was read in full.
func checkHookCall(env hookEnv, o hookClaudeOptions, pl hook.Payload, l *loops.Loop, verb loops.Verb, target string) hookAnswer {
	res, entry, recErr := runCheck(env.project, checkRequest{
		Loop: l, Verb: verb, Target: target, Via: "hook", Record: !o.noRecord, Extra: hookExtra(pl),
	})
	a := hookAnswer{verdict: res.Verdict, reason: hook.Reason(l.Name, res.Rule, res.Reason)}
	if res.Verdict == loops.Allow && hook.Truncated(target) {
		a.verdict = loops.Ask
		a.reason += " — but the call's arguments were too long to read in full, so a person decides"
	}
	if recErr != nil {
		if a.verdict == loops.Allow {
			a.verdict = loops.Ask
		}
		a.reason += fmt.Sprintf(" — but the check could not be recorded (%v), so a person decides", recErr)
		return a
	}
	if entry != nil {
		rememberPending(env, pl.ToolUseID, l.Name)
	}
	return a
}

// hookExtra is what a hook entry adds to a check: which tool call it was,
// so a PostToolUse note can be paired with it (hook.AskOutcomes).
func hookExtra(pl hook.Payload) map[string]any {
	m := map[string]any{hook.ExtraTool: pl.ToolName}
	if pl.ToolUseID != "" {
		m[hook.ExtraToolUseID] = pl.ToolUseID
	}
	if pl.SessionID != "" {
		m[hook.ExtraSession] = pl.SessionID
	}
	return m
}

// hookEntry builds a check entry for an answer no loop's warrant gave
// (self-protection, strict no-coverage).
func hookEntry(pl hook.Payload, loop, rule string, v loops.Verdict) chain.Entry {
	verb, target, err := hook.Map(pl)
	if err != nil {
		verb, target = loops.Send, pl.ToolName
	}
	return chain.Entry{
		Loop: loop, Kind: chain.KindCheck, Action: string(verb), Target: target,
		Verdict: string(v), Rule: rule, Via: "hook", Engine: loops.EngineVersion, Extra: hookExtra(pl),
	}
}

func appendHookEntry(p *project.Project, e chain.Entry) error {
	rec, err := record.Open(p)
	if err != nil {
		return err
	}
	_, err = rec.Append(e)
	return err
}

func validLoopName(s string) string {
	if loops.ValidName(s) {
		return s
	}
	return ""
}

package gate

import (
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/route"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// decideWarrant decides a call that self-protection let through
// (docs/threat-model.md#hard-stops): pinned, the loop decides; unpinned,
// every loop's never entries and every abstract loop's ask and never
// entries screen the call first, then the loop routing picks decides, and
// a call no loop claims is silent only when nothing matched and nothing in
// it was unreadable.
func decideWarrant(env Env, o Options, place Place, c *Call) Answer {
	p := place.Project
	if o.LoopSet || o.Loop != "" {
		l, err := env.Loops.LoadByName(p.LoopsDir(), o.Loop)
		if err != nil {
			return Asks("the pinned loop %q cannot be loaded: %v", o.Loop, err)
		}
		if l.Abstract {
			return Asks("the pinned loop %q is abstract: a baseline to extend, not a job to check", o.Loop)
		}
		return decideLoop(env, o, place, c, l)
	}
	// Every loop is read from disk on every call. A parse cache on disk was
	// measured (8.8 → 4.1 ms for 50 loops) and rejected: a cache file is a
	// second copy of the warrant that Git, review and CI never see, so an
	// agent that found a way to write it could widen its warrant silently.
	// A long-lived server's env.Loops keeps parses in memory only, and
	// reuses one only for the very bytes just read (docs/mcp.md#parse-cache).
	ls, errs := env.Loops.LoadDir(p.LoopsDir())
	if len(errs) > 0 {
		more := ""
		if len(errs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		// The broken loop may hold the hard stop for this call, so even an
		// unpinned hook cannot stay silent.
		return Asks("a loop does not load, so this call cannot be screened: %v%s", errs[0], more)
	}
	// Every loop's never entries first, then the abstract loops' ask
	// entries: the strongest verdict wins, whatever order the loops sort
	// in (a baseline's ask must not hide another loop's never).
	for _, l := range ls {
		if r, hit := loops.Screen(&loops.Warrant{Never: l.Warrant.Never}, c.Texts); hit {
			return decided(o, place, c, l, r)
		}
	}
	for _, l := range ls {
		if !Abstract(l) {
			continue
		}
		if r, hit := loops.Screen(&loops.Warrant{Ask: l.Warrant.Ask}, c.Texts); hit {
			return decided(o, place, c, l, r)
		}
	}
	// Routing reads the canonical forms, not the raw text: a comment or a
	// re-quoted word must not move a call to another loop, or out of all.
	task := c.Tool + " " + strings.Join(c.Texts, " ")
	if len(c.Texts) == 0 {
		task = c.Tool + " " + c.Target
	}
	cands := route.Match(ls, task)
	var l *loops.Loop
	for _, cand := range cands {
		if !Abstract(cand.Loop) {
			l = cand.Loop
			break
		}
	}
	if l != nil {
		return decideLoop(env, o, place, c, l)
	}
	if c.Unreadable != "" {
		return Answer{Verdict: loops.Ask, Reason: hook.Reason("", "unreadable call", c.Unreadable+" — it may touch what only a person may change, so a person decides")}
	}
	if !o.Strict {
		return Answer{Silent: true} // no loop claims it: the agent's own permissions decide
	}
	a := Answer{Verdict: loops.Ask, Reason: hook.Reason("", "strict: no loop covers this call", "a person decides; add a loop (or a trigger) that covers it")}
	if !o.NoRecord {
		if err := appendEntry(p, entryFor(c, o, "", "strict: no loop covers this call", loops.Ask)); err != nil {
			a.Reason += fmt.Sprintf(" (and the check could not be recorded: %v)", err)
		}
	}
	return a
}

// decideLoop is one loop's decision on a call: its never and ask entries
// screen the call's canonical forms; an unreadable call asks; only a typed
// entry allows; anything else asks (unlisted means ask).
func decideLoop(env Env, o Options, place Place, c *Call, l *loops.Loop) Answer {
	if r, hit := loops.Screen(l.Warrant.Natural(), c.Texts); hit {
		return decided(o, place, c, l, r)
	}
	if r, hit := typedScreen(env.Loops.Typed(l), c, typedEnv(c, place, env)); hit { // typed.go
		return decided(o, place, c, l, r)
	}
	if c.Opaque && (c.callOpaque || !vouched(env, place, c, l)) {
		why := c.Unreadable
		if why == "" {
			why = "part of the call is built at run time or is not a command the gate can read"
		}
		return decided(o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "opaque: never allowed",
			Reason: why + "; a call the gate cannot read is never allowed, so a person decides."})
	}
	if c.Secret != "" {
		return decided(o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "secrets: never allowed",
			Reason: "the call touches " + c.Secret + ", a secret or key file; no entry allows that on its own, a person decides."})
	}
	if TypedAllow != nil {
		if rule, ok := TypedAllow(l, c); ok {
			return decided(o, place, c, l, loops.Result{Verdict: loops.Allow, List: string(c.Verb), Rule: rule,
				Reason: "a typed entry of the warrant allows every action of this call."})
		}
	}
	return decided(o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "default: no typed entry allows this call",
		Reason: "only typed entries (Bash(…), Edit(…), …) allow a tool call; unlisted means ask."})
}

// decided appends the check (unless told not to) and turns it into an
// answer. An allow survives only when it is recorded and its target was
// read in full.
func decided(o Options, place Place, c *Call, l *loops.Loop, res loops.Result) Answer {
	a := Answer{Verdict: res.Verdict, Reason: hook.Reason(l.Name, res.Rule, res.Reason), Loop: l.Name, Rule: res.Rule}
	if l.Unsigned != "" { // docs/signing.md#only-a-signed-warrant-is-in-force
		a.Reason += " (" + l.Unsigned + ")"
		a.Context = "gitwarrant: " + l.Unsigned
	}
	if res.Verdict == loops.Allow && hook.Truncated(c.Target) {
		a.Verdict = loops.Ask
		a.Reason += " — but the call's arguments were too long to read in full, so a person decides"
	}
	entry, err := Record(place.Project, CheckRequest{Loop: l, Verb: c.Verb, Target: c.Target, Via: o.via(), Record: !o.NoRecord, Extra: extraFor(c.Payload, o)}, res)
	if err != nil {
		if a.Verdict == loops.Allow {
			a.Verdict = loops.Ask
		}
		a.Reason += fmt.Sprintf(" — but the check could not be recorded (%v), so a person decides", err)
		return a
	}
	if entry != nil {
		a.Seq, a.Hash = entry.Seq, entry.Hash
		rememberPending(place, c.Payload.ToolUseID, l.Name)
	}
	return a
}

// vouched reports whether every script the call runs directly whose parts
// cannot be read is one the loop vouches for: the call is allowed by its
// typed entries, and the loop does not let the agent edit the script
// (docs/threat-model.md#scripts-the-agent-wrote). Such a script is reviewed
// code, like a Makefile's recipe: its readable clauses are still screened
// by every never and ask entry and by self-protection, but what it does at
// run time (`exec "$JAVACMD" "$@"` in a build tool's wrapper) no longer
// makes the call ask. A script the agent may edit is never vouched for:
// writing it and then running it is the two-step trick the gate reads
// scripts to catch.
func vouched(env Env, place Place, c *Call, l *loops.Loop) bool {
	if c.typed == nil || c.typed.Verdict != loops.Allow {
		return false
	}
	tw := env.Loops.Typed(l)
	te := typedEnv(c, place, env)
	found := false
	for _, rs := range c.scripts {
		if !rs.opaque {
			continue
		}
		found = true
		edit := typed.Decide(tw, typed.Units(loops.ToolEdit, map[string]any{"file_path": rs.abs}, te))
		if edit.Verdict == loops.Allow {
			return false
		}
	}
	return found
}

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
// (docs/threat-model.md#hard-stops, docs/sessions.md#how-a-loop-is-chosen):
// under the wiring's --loop, else the session's pin, else the wiring's
// --default-loop, the chosen loop decides. With none of these, every loop's
// never and ask entries, typed and in words, screen the call first, then
// the loop the call's own words route to decides, and a call no loop claims
// is silent only when nothing matched and nothing in it was unreadable.
func decideWarrant(env Env, o Options, place Place, c *Call) Answer {
	p := place.Project
	ch := chooseLoop(env, o, place, c.Payload.SessionID)
	c.loopVia = ch.Via
	if ch.Err != nil {
		return Asks("%v", ch.Err)
	}
	if ch.Name != "" || ch.Via == ViaPinned {
		l, err := env.Loops.LoadByName(p.LoopsDir(), ch.Name)
		if err != nil {
			return Asks("the %s loop %q cannot be loaded: %v", viaWord(ch.Via), ch.Name, err)
		}
		if l.Abstract {
			return Asks("the %s loop %q is abstract: a baseline to extend, not a job to check", viaWord(ch.Via), ch.Name)
		}
		return decideLoop(env, o, place, c, l)
	}
	// Every loop is read from disk on every call. A long-lived server's
	// env.Loops keeps parses in memory only, and reuses one only for the
	// very bytes just read (docs/mcp.md#parse-cache).
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
	c.loopVia = ViaScreen
	if a, hit := screenAll(env, o, place, c, ls); hit {
		return a
	}
	// Routing reads the canonical forms, not the raw text: a comment or a
	// re-quoted word must not move a call to another loop, or out of all.
	task := c.Tool + " " + strings.Join(c.Texts, " ")
	if len(c.Texts) == 0 {
		task = c.Tool + " " + c.Target
	}
	for _, cand := range route.Match(ls, task) {
		if !Abstract(cand.Loop) {
			c.loopVia = ViaCall
			return decideLoop(env, o, place, c, cand.Loop)
		}
	}
	if c.Unreadable != "" || c.Opaque {
		why := c.Unreadable
		if why == "" {
			why = "part of the call runs code the gate cannot read"
		}
		return Answer{Verdict: loops.Ask, Reason: hook.Reason("", "unreadable call", why+" — it may touch what only a person may change, so a person decides")}
	}
	if !o.Strict {
		return Answer{Silent: true} // no loop says anything about it: the agent's own permissions decide
	}
	c.loopVia = ViaStrict
	a := Answer{Verdict: loops.Ask, Reason: hook.Reason("", "strict: no loop covers this call", "a person decides; add a loop (or a trigger) that covers it")}
	if !o.NoRecord {
		if err := appendEntry(env, p, entryFor(c, o, "", "strict: no loop covers this call", loops.Ask)); err != nil {
			a.Reason += fmt.Sprintf(" (and the check could not be recorded: %v)", err)
		}
	}
	return a
}

// screenAll applies every loop's never entries, then every loop's ask
// entries — in words and typed — to a call no loop was chosen for. The
// strongest verdict wins whatever order the loops sort in: a baseline's
// ask must not hide another loop's never.
func screenAll(env Env, o Options, place Place, c *Call, ls []*loops.Loop) (Answer, bool) {
	// The call's units are read once: they do not depend on the loop.
	u := callUnits(c, typedEnv(c, place, env))
	for _, list := range []string{"never", "ask"} {
		for _, l := range ls {
			w := &loops.Warrant{}
			w.SetList(list, l.Warrant.List(list))
			if r, hit := loops.Screen(w.Natural(), c.Texts); hit {
				return decided(env, o, place, c, l, r), true
			}
			if r, hit := typedStop(decideUnits(w.Typed(), u)); hit {
				return decided(env, o, place, c, l, r), true
			}
		}
	}
	return Answer{}, false
}

// typedStop finds the strongest unit of d that a never or ask entry
// matched, whatever decided d as a whole: with no loop chosen there is no
// allow side, so a wrapper's own default ask (`env rm -rf build`) must not
// hide the ask entry its command meets.
func typedStop(d typed.Decision) (loops.Result, bool) {
	var best *typed.Decided
	for i := range d.Units {
		u := &d.Units[i]
		if u.Entry == nil || (u.Entry.List != "never" && u.Entry.List != "ask") {
			continue
		}
		if best == nil || (u.Verdict == loops.Deny && best.Verdict != loops.Deny) {
			best = u
		}
	}
	if best == nil {
		return loops.Result{}, false
	}
	why := "matches the ask list — a human approves this every time."
	if best.Verdict == loops.Deny {
		why = "matches a hard stop. Never happens, with or without approval."
	}
	return loops.Result{Verdict: best.Verdict, List: best.Entry.List, Rule: best.Rule, Reason: why,
		Pattern: best.Entry.Text, Line: best.Entry.Line}, true
}

// viaWord names a chosen loop's origin in a failure message.
func viaWord(via string) string {
	switch via {
	case ViaPinned:
		return "pinned"
	case ViaDefault:
		return "default"
	}
	return "session's"
}

// decideLoop is one loop's decision on a call: its never and ask entries
// screen the call's canonical forms; an unreadable call asks; only a typed
// entry allows; anything else asks (unlisted means ask).
func decideLoop(env Env, o Options, place Place, c *Call, l *loops.Loop) Answer {
	if r, hit := loops.Screen(l.Warrant.Natural(), c.Texts); hit {
		return decided(env, o, place, c, l, r)
	}
	if r, hit := typedScreen(env.Loops.Typed(l), c, typedEnv(c, place, env)); hit { // typed.go
		return decided(env, o, place, c, l, r)
	}
	if c.Opaque && (c.callOpaque || !vouched(env, place, c, l)) {
		why := c.Unreadable
		if why == "" {
			why = "part of the call is built at run time or is not a command the gate can read"
		}
		return decided(env, o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "opaque: never allowed",
			Reason: why + "; a call the gate cannot read is never allowed, so a person decides."})
	}
	if c.Secret != "" {
		return decided(env, o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "secrets: never allowed",
			Reason: "the call touches " + c.Secret + ", a secret or key file; no entry allows that on its own, a person decides."})
	}
	if rule, ok := env.allow(l, c); ok {
		return decided(env, o, place, c, l, loops.Result{Verdict: loops.Allow, List: string(c.Verb), Rule: rule,
			Reason: "a typed entry of the warrant allows every action of this call."})
	}
	return decided(env, o, place, c, l, loops.Result{Verdict: loops.Ask, List: "default", Rule: "default: no typed entry allows this call",
		Reason: "only typed entries (Bash(…), Edit(…), …) allow a tool call; unlisted means ask."})
}

// decided appends the check (unless told not to) and turns it into an
// answer. An allow survives only when it is recorded and its target was
// read in full.
func decided(env Env, o Options, place Place, c *Call, l *loops.Loop, res loops.Result) Answer {
	a := Answer{Verdict: res.Verdict, Reason: hook.Reason(l.Name, res.Rule, res.Reason), Loop: l.Name, Rule: res.Rule}
	if l.Unsigned != "" { // docs/signing.md#only-a-signed-warrant-is-in-force
		a.Reason += " (" + l.Unsigned + ")"
		a.Context = "gitwarrant: " + l.Unsigned
	}
	if res.Verdict == loops.Allow && hook.Truncated(c.Target) {
		a.Verdict = loops.Ask
		a.Reason += " — but the call's arguments were too long to read in full, so a person decides"
	}
	entry, err := recordCheck(env, place.Project, CheckRequest{Loop: l, Verb: c.Verb, Target: c.Target, Via: o.via(), Record: !o.NoRecord, Extra: extraFor(c, o)}, res)
	if err != nil {
		if a.Verdict == loops.Allow {
			a.Verdict = loops.Ask
		}
		a.Reason += fmt.Sprintf(" — but the check could not be recorded (%v), so a person decides", err)
		return a
	}
	if entry != nil {
		a.Seq, a.Hash = entry.Seq, entry.Hash
		if o.postFollows() {
			rememberPending(place, c.Payload.ToolUseID, l.Name)
		}
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
		if rs.committed && !asCommitted(place.Root, rs.abs) {
			return false
		}
		edit := typed.Decide(tw, typed.Units(loops.ToolEdit, map[string]any{"file_path": rs.abs}, te))
		if edit.Verdict == loops.Allow {
			return false
		}
	}
	return found
}

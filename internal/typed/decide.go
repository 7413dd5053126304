package typed

import (
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Decided is one unit with what decided it.
type Decided struct {
	Unit
	Verdict loops.Verdict
	Rule    string       // "never: Bash(git push --force)", "allow change: Bash(go test *)", "opaque: …", …
	Entry   *loops.Typed // the entry that decided, nil for a built-in rule
}

// Decision is a call's verdict and its units.
type Decision struct {
	Verdict loops.Verdict
	Units   []Decided
	// Rule is the rule of the unit that decided the call: the first deny,
	// else the first ask, else the first unit's allow.
	Rule string
}

// reparsed reports whether every wrapper a clause was reached through is a
// shell re-reading a literal string (`bash -c '…'`) or a command
// substitution (`$(…)`, `…` in backquotes): the ways through that allow
// looks (docs/typed-entries.md#rules-of-meaning). A substitution's clause
// is judged on its own, so it needs an entry of its own; the clause it
// stands in is opaque unless it only prints the output (shell.EchoesParams).
func reparsed(via []string) bool {
	for _, v := range via {
		if v == "$()" || v == "``" {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "-c" {
			return false
		}
		switch f[0] {
		case "sh", "bash", "zsh", "dash":
		default:
			return false
		}
	}
	return true
}

// Decide applies a warrant's typed entries to a call's units: a never entry
// matching any unit denies and an ask entry asks (wrappers looked through);
// otherwise the call is allowed only when every unit is allowed by a typed
// entry, none is opaque, and no clause was reached through a wrapper.
func Decide(tw *loops.TypedWarrant, units []Unit) Decision {
	d := Decision{Verdict: loops.Allow}
	if len(units) == 0 {
		return Decision{Verdict: loops.Ask, Rule: "default: nothing to allow"}
	}
	wrapped(units)
	for _, u := range units {
		d.Units = append(d.Units, decideUnit(tw, u))
	}
	var first [3]string
	judged := 0
	for _, u := range d.Units {
		if !u.Screened || u.Verdict != loops.Allow {
			judged++
		}
		i := map[loops.Verdict]int{loops.Deny: 0, loops.Ask: 1, loops.Allow: 2}[u.Verdict]
		if first[i] == "" {
			first[i] = u.Rule
		}
	}
	switch {
	case judged == 0:
		d.Verdict, d.Rule = loops.Ask, "default: nothing in the call is allowed by an entry"
	case first[0] != "":
		d.Verdict, d.Rule = loops.Deny, first[0]
	case first[1] != "":
		d.Verdict, d.Rule = loops.Ask, first[1]
	default:
		d.Rule = first[2]
	}
	return d
}

func decideUnit(tw *loops.TypedWarrant, u Unit) Decided {
	if u.Call.Kind != "" {
		if e := tw.Escalating(u.Call); e != nil {
			v := loops.Ask
			if e.List == "never" {
				v = loops.Deny
			}
			return Decided{Unit: u, Verdict: v, Rule: e.List + ": " + e.Text, Entry: e}
		}
	}
	switch {
	case u.Screened:
		why := "its own clause is what an entry must allow"
		if len(u.Via) > 0 {
			why = "reached through " + strings.Join(u.Via, ", ") + ": the wrapper's clause is what an entry must allow"
		}
		return Decided{Unit: u, Verdict: loops.Allow, Rule: "screened only: " + why}
	case u.Opaque != "":
		return Decided{Unit: u, Verdict: loops.Ask, Rule: "opaque: " + u.Opaque}
	}
	e := tw.Allowing(u.Call)
	if e == nil {
		return Decided{Unit: u, Verdict: loops.Ask, Rule: "default: no typed entry allows it"}
	}
	if !ListAllows(e.List, u.Kind.Verb) {
		// Only an entry of the clause's own kind or a wider one allows it
		// (docs/typed-entries.md#kinds).
		wide := tw.AllowingWhere(u.Call, func(t *loops.Typed) bool { return ListAllows(t.List, u.Kind.Verb) })
		if wide == nil {
			return Decided{Unit: u, Verdict: loops.Ask, Rule: "kind: " + tooNarrow(e, u.Kind), Entry: e}
		}
		e = wide
	}
	for _, m := range u.Kind.Manifests {
		// The loop vouches for a manifest the agent may not edit: no
		// entry allows the edit, or an ask or never entry screens it.
		call := loops.Call{Kind: loops.ToolEdit, Path: m}
		if edit := tw.Allowing(call); edit != nil && ListAllows(edit.List, loops.Change) && tw.Escalating(call) == nil {
			return Decided{Unit: u, Verdict: loops.Ask, Rule: "opaque: " + u.Kind.Cmd + " runs a package script from " +
				filepath.Base(m.Abs) + ", which `" + edit.Text + "` lets the agent edit, so what it runs cannot be read", Entry: e}
		}
	}
	return Decided{Unit: u, Verdict: loops.Allow, Rule: "allow " + e.List + ": " + e.Text, Entry: e}
}

// tooNarrow says why an entry cannot allow a clause wider than its list:
// "`Bash(pnpm *)` is a change entry; `pnpm publish` sends a package".
func tooNarrow(e *loops.Typed, k Kind) string {
	what := k.Why
	if what == "" {
		what = "is " + string(k.Verb) + " work"
	}
	return "`" + e.Text + "` is " + article(e.List) + " " + e.List + " entry; `" + k.Cmd + "` " + what +
		" (" + string(k.Verb) + "), so it needs an entry under " + string(k.Verb) + " or a person's yes"
}

func article(list string) string {
	if list == "" {
		return "an"
	}
	switch list[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	return "a"
}

// wrapped gives each clause the widest kind of the clauses it runs through
// a wrapper (`timeout 60 pnpm publish`): they follow it with a longer Via.
// A script's clauses are judged apart (docs/typed-entries.md#kinds).
func wrapped(units []Unit) {
	for i := range units {
		u := &units[i]
		if u.Effect || u.Call.Kind != loops.ToolBash || fromScript(u.Via) {
			continue
		}
		for j := i + 1; j < len(units); j++ {
			w := units[j]
			if w.Effect {
				continue
			}
			if len(w.Via) <= len(u.Via) || fromScript(w.Via) {
				break
			}
			if rank(w.Kind.Verb) > rank(u.Kind.Verb) {
				k := w.Kind
				if k.Why != "" {
					k.Why = "runs `" + k.Cmd + "`, which " + k.Why
				} else {
					k.Why = "runs `" + k.Cmd + "`"
				}
				k.Cmd = u.Canon
				u.Kind = Wider(u.Kind, k)
			}
		}
	}
}

func fromScript(via []string) bool {
	return len(via) > 0 && strings.HasPrefix(via[0], "script ")
}

package loops

import (
	"fmt"
	"strings"
)

// Check returns the warrant's verdict on taking action verb on target. It
// is the spec's verdict algorithm — the first rule that matches decides:
//
//  1. the target matches a never entry → deny
//  2. the target matches an ask entry → ask
//  3. the target is covered by the verb's own list → allow
//  4. otherwise → ask: unlisted means ask, silence is never permission
//
// with docs/loop-format.md#the-warrant's hardening: targets and patterns are folded (Fold) before
// matching, never and ask are tried against the whole target and each of
// its clauses, and an allow needs every clause covered (else ask, rule
// `partial: <clause>`). An empty target is never allowed, and an unknown
// verb has no list, so it falls through to ask. Check is deterministic and
// keeps no state between calls.
func Check(w *Warrant, verb Verb, target string) Result {
	if w == nil {
		w = &Warrant{} // no warrant: nothing is listed, so everything asks
	}
	w = w.Natural()
	var ar arena
	s := ar.target(target)
	// ask and never also see what a command spells tersely (`git push -f`
	// is a force push). Only the cautious lists see it: it can add asks and
	// denies, never an allow.
	cs := s
	if extra := shellMeanings(target); extra != "" {
		cs = ar.target(target + "\n" + extra)
	}
	if e := firstCautious(&ar, w.Never, &cs); e != nil {
		return fromEntry(Deny, "never", e,
			"matches a hard stop. Never happens, with or without approval.")
	}
	if e := firstCautious(&ar, w.Ask, &cs); e != nil {
		return fromEntry(Ask, "ask", e,
			"matches the ask list — a human approves this every time, whatever the verb.")
	}
	if s.empty() {
		return Result{Verdict: Ask, List: "default", Rule: "default: empty target",
			Reason: "the target is empty — say what the action touches; unlisted means ask."}
	}
	list := w.List(string(verb))
	es := make([]entry, len(list))
	for i, it := range list {
		es[i] = ar.entry(it)
	}
	by, uncovered, anyCovered := allowCover(&ar, es, &s)
	switch {
	case uncovered == "":
		return fromEntry(Allow, string(verb), by,
			fmt.Sprintf("%q is within the %s warrant.", strings.TrimSpace(target), verb))
	case anyCovered:
		return Result{Verdict: Ask, List: "partial", Rule: "partial: " + uncovered,
			Reason: fmt.Sprintf("%q is not covered by the %s warrant — every part of a compound target must be; unlisted means ask.", uncovered, verb)}
	}
	return Result{Verdict: Ask, List: "default", Rule: "default: unlisted means ask",
		Reason: "unlisted means ask — silence is never permission."}
}

// Check returns the verdict of the loop's warrant on taking action verb on
// target; see the package-level Check.
func (l *Loop) Check(verb Verb, target string) Result {
	return Check(&l.Warrant, verb, target)
}

// firstCautious returns the first entry of list, in file order, that
// matches s in cautious mode, or nil.
func firstCautious(ar *arena, list []Item, s *subject) *entry {
	for _, it := range list {
		e := ar.entry(it)
		if e.hitsCautious(s) {
			return &e
		}
	}
	return nil
}

// fromEntry builds the result for a verdict decided by entry e of list.
func fromEntry(v Verdict, list string, e *entry, reason string) Result {
	rule := list + ": " + e.item.Text
	if v == Allow {
		rule = "allow " + rule
	}
	if e.item.From != "" {
		reason += " The rule is inherited from " + e.item.From + "."
	}
	return Result{Verdict: v, Reason: reason, Rule: rule, List: list,
		Pattern: e.item.Text, Line: e.item.Line, From: e.item.From}
}

// allowCover decides strict coverage of s by the allow entries es (docs/loop-format.md#the-warrant:
// an allow needs every clause covered). Each clause with content words
// (strict words, so `… to me, them` must cover `them` too) must be
// covered by some alternative of some entry; a target with no such
// clause must be covered whole. It returns the entry covering the first
// clause, the first uncovered clause ("" when all are covered), and whether
// any clause was covered.
func allowCover(ar *arena, es []entry, s *subject) (by *entry, uncovered string, anyCovered bool) {
	units := make([]*phrase, 0, len(s.clauses))
	for i := range s.clauses {
		if len(s.clauses[i].strict) > 0 {
			units = append(units, &s.clauses[i])
		}
	}
	if len(units) == 0 {
		units = append(units, &s.whole)
	}
	for _, u := range units {
		e := coveringEntry(ar, es, u, s)
		switch {
		case e == nil && uncovered == "":
			uncovered = u.text
		case e != nil:
			anyCovered = true
			if by == nil {
				by = e
			}
		}
	}
	return by, uncovered, anyCovered
}

// coveringEntry returns the first entry with an alternative covering unit
// u of target s, or nil.
func coveringEntry(ar *arena, es []entry, u *phrase, s *subject) *entry {
	for i := range es {
		e := &es[i]
		for j := range e.alts {
			a := &e.alts[j]
			if a.strictAllFiller() {
				// `anything` alone is its plain meaning; a filler piece
				// left by splitting (`the one and all`) grants nothing.
				if e.single {
					return e
				}
				continue
			}
			if a.covers(u) || a.coversAsSequence(ar, u, s) {
				return e
			}
		}
	}
	return nil
}

// coversAsSequence handles an allow alternative that is itself compound
// (`git log * | head`, `deploy then notify`): it covers clause u when the
// whole target covers the whole alternative and u covers one of the
// alternative's own clauses. Without this, splitting the target would make
// such an entry unusable.
func (a *alt) coversAsSequence(ar *arena, u *phrase, s *subject) bool {
	if !a.compound {
		return false
	}
	parts := splitClauses(a.text)
	if len(parts) < 2 || !a.covers(&s.whole) {
		return false
	}
	for _, p := range parts {
		pa := ar.alt(p)
		if !pa.strictAllFiller() && pa.covers(u) {
			return true
		}
	}
	return false
}

// Natural returns the warrant without its typed entries: they name tool
// calls for the hook (docs/typed-entries.md#rules-of-meaning), while Check
// reads a self-reported action in words.
func (w *Warrant) Natural() *Warrant {
	if !w.hasTyped() {
		return w
	}
	out := &Warrant{}
	for _, name := range Lists {
		var keep []Item
		for _, it := range w.List(name) {
			if !LooksTyped(it.Text) {
				keep = append(keep, it)
			}
		}
		out.SetList(name, keep)
	}
	return out
}

func (w *Warrant) hasTyped() bool {
	for _, name := range Lists {
		for _, it := range w.List(name) {
			if LooksTyped(it.Text) {
				return true
			}
		}
	}
	return false
}

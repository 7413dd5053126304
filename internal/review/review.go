// Package review finds where a warrant chafes (docs/review.md): asks that
// repeat in the record, and agents' open proposals, each turned into the
// exact warrant entry that would answer it. It only reads; applying is a
// person's signed amend.
package review

import (
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/proposals"
)

// Item is one candidate amendment.
type Item struct {
	Loop    string   `json:"loop"`
	List    string   `json:"list"`
	Op      string   `json:"op"`
	Pattern string   `json:"pattern"`
	Count   int      `json:"count"` // how many asks it answers (1 for a proposal)
	Samples []string `json:"samples,omitempty"`
	// Proposal is the proposal's id when the item is an agent's proposal.
	Proposal  string `json:"proposal,omitempty"`
	Rationale string `json:"rationale,omitempty"`
	// Stale proposals are shown, never applied: their loop changed since.
	Stale bool `json:"stale,omitempty"`
	// Held says why the item is not offered (an ask or never entry, the
	// baseline or self-protection matches it); empty when it is.
	Held string `json:"held,omitempty"`
}

// Key identifies an item's change.
func (it Item) Key() string { return it.Loop + "\x00" + it.List + "\x00" + it.Op + "\x00" + it.Pattern }

// Mapper turns an asked check into the entry that would allow it. ok is
// false when no single entry can (an opaque or compound tool call).
type Mapper func(e *chain.Entry) (list, pattern string, ok bool)

// Screen says why a candidate must not be offered ("" when it may be): a
// target the loop's ask or never lists, the baseline or self-protection
// match, or one the warrant already allows.
type Screen func(loop, list, pattern string, sample *chain.Entry) string

// Options narrow a review.
type Options struct {
	Min  int    // repeats needed (default 2)
	Loop string // one loop only
}

// RejectedKey is the note field that rejects an item by its change.
const RejectedKey = "rejects_change"

// Collect clusters repeated asks and reads open proposals. digest gives a
// loop file's current "sha256:<hex>" for staleness.
func Collect(entries []chain.Entry, o Options, m Mapper, screen Screen, digest func(string) string) []Item {
	if o.Min < 1 {
		o.Min = 2
	}
	clusters := map[string]*Item{}
	var order []string
	done := map[string]bool{} // amended or rejected changes
	for i := range entries {
		e := &entries[i]
		switch e.Kind {
		case chain.KindAmend:
			done[Item{Loop: e.Loop, List: str(e, "list"), Op: str(e, "op"), Pattern: str(e, "pattern")}.Key()] = true
		case chain.KindNote:
			if k := str(e, RejectedKey); k != "" {
				done[k] = true
			}
		case chain.KindCheck:
			if e.Verdict != "ask" || (o.Loop != "" && e.Loop != o.Loop) || e.Loop == "" {
				continue
			}
			list, pattern, ok := m(e)
			if !ok {
				continue
			}
			it := Item{Loop: e.Loop, List: list, Op: "add", Pattern: pattern}
			c := clusters[it.Key()]
			if c == nil {
				c = &it
				clusters[it.Key()] = c
				order = append(order, it.Key())
			}
			c.Count++
			if len(c.Samples) < 3 && !contains(c.Samples, e.Target) {
				c.Samples = append(c.Samples, e.Target)
			}
			// Only silence is offered: an ask that a rule made (the loop's
			// ask list, a baseline, an opaque or secret call, an uncovered
			// clause) is policy, however often it recurs.
			if c.Held == "" && !strings.HasPrefix(e.Rule, "default:") {
				c.Held = "asked by rule " + e.Rule
			}
			if c.Held == "" && c.Count == 1 {
				c.Held = screen(e.Loop, list, pattern, e)
			}
		}
	}
	var out []Item
	for _, k := range order {
		c := clusters[k]
		if c.Count >= o.Min && c.Held == "" && !done[k] {
			out = append(out, *c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	for _, p := range proposals.Derive(entries, digest) {
		if (o.Loop != "" && p.Loop != o.Loop) || (p.Status != proposals.Open && p.Status != proposals.Stale) {
			continue
		}
		it := Item{Loop: p.Loop, List: p.List, Op: p.Op, Pattern: p.Pattern, Count: 1, Proposal: p.ID, Rationale: p.Rationale, Stale: p.Status == proposals.Stale}
		if done[it.Key()] {
			continue
		}
		if it.Op == "add" {
			it.Held = screen(p.Loop, p.List, p.Pattern, nil)
		}
		out = append(out, it)
	}
	return out
}

func str(e *chain.Entry, k string) string {
	s, _ := e.Extra[k].(string)
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Generalize widens a typed Bash entry to its command and subcommand with
// " *" (`Bash(go vet ./...)` → `Bash(go vet *)`). ok is false for
// anything else, or when there is nothing to widen.
func Generalize(pattern string) (string, bool) {
	inner, ok := strings.CutPrefix(pattern, "Bash(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return "", false
	}
	fields := strings.Fields(strings.TrimSuffix(inner, ")"))
	keep := 1
	if len(fields) > 1 && !strings.HasPrefix(fields[1], "-") && !strings.ContainsAny(fields[1], "/.=*") {
		keep = 2 // a subcommand: go vet, npm run, cargo test
	}
	if len(fields) <= keep {
		return "", false
	}
	return "Bash(" + strings.Join(fields[:keep], " ") + " *)", true
}

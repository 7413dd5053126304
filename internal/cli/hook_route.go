package cli

import (
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/route"
)

// routeLoop picks the loop that decides an unpinned call: the top candidate
// of `gitwarrant match` scoring (docs/design.md#enforcement-surfaces) — unless a lower candidate's
// warrant denies the call, in which case that loop decides. Routing is
// generous by design (guide, "Routing"), so a hard stop in any loop that
// claims the call must not be skipped because another loop scored higher.
// It returns nil when no loop covers the call.
func routeLoop(ls []*loops.Loop, verb loops.Verb, target, task string) *loops.Loop {
	cands := route.Match(ls, task)
	if len(cands) == 0 {
		return nil
	}
	for _, c := range cands[1:] {
		if loops.Check(&c.Loop.Warrant, verb, target).Verdict == loops.Deny {
			return c.Loop
		}
	}
	return cands[0].Loop
}

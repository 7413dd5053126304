// Package metrics reads an autonomy posture back from the record
// (docs/review.md#metrics): how often agents ran on their own, stopped for a
// person, or hit a hard stop. It streams: entries are added one at a time
// in record order and only counters (and the pending asks of the hook) are
// kept, so a million-entry record costs what reading it costs.
package metrics

import (
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// Extra keys the hook writes (kept in step with internal/hook).
const (
	extraToolUseID = "tool_use_id"
	extraEvent     = "event"
	postToolUse    = "post_tool_use"
)

// Split is an allow/ask/deny count.
type Split struct {
	Checks int `json:"checks"`
	Allow  int `json:"allow"`
	Ask    int `json:"ask"`
	Deny   int `json:"deny"`
}

func (s *Split) add(verdict string) {
	s.Checks++
	switch verdict {
	case "allow":
		s.Allow++
	case "ask":
		s.Ask++
	case "deny":
		s.Deny++
	}
}

// Pct is a share of all checks, in whole percent (0 when there are none).
func (s Split) Pct(n int) int {
	if s.Checks == 0 {
		return 0
	}
	return (n*100 + s.Checks/2) / s.Checks
}

// Report is everything metrics says.
type Report struct {
	Split
	// ActionsPerIntervention is checks ÷ (asks + denies), a proxy: the
	// record counts verdicts, not the work between them. 0 when no check
	// stopped.
	ActionsPerIntervention float64 `json:"actions_per_intervention"`
	// LongestUnattended is the longest run of consecutive allows.
	LongestUnattended int `json:"longest_unattended_run"`
	Amendments        int `json:"amendments"`
	Proposals         int `json:"proposals"`
	Notes             int `json:"notes"`
	// HookAsks are the asks the Claude Code hook recorded; AsksRan those a
	// PostToolUse note shows ran (a person approved), AsksNotRan the rest
	// (refused or abandoned — inferred, since PostToolUse fires only when a
	// tool runs).
	HookAsks   int              `json:"hook_asks"`
	AsksRan    int              `json:"asks_ran"`
	AsksNotRan int              `json:"asks_not_ran_inferred"`
	ByLoop     map[string]Split `json:"by_loop"`
	ByChannel  map[string]Split `json:"by_channel"`
	// ByKind splits the checks by their action: for a hook call, the
	// widest kind of work among its clauses — read, change or send
	// (docs/typed-entries.md#kinds).
	ByKind map[string]Split `json:"by_kind"`
}

// Filter narrows what is counted.
type Filter struct {
	Loop  string
	Since string // an RFC 3339 timestamp or date; entries with ts before it are skipped
}

// Accumulator builds a Report from entries added in record order.
type Accumulator struct {
	f       Filter
	r       Report
	run     int
	asks    map[string]bool // hook asks by tool_use_id: ran?
	ranLate map[string]bool // post notes seen before their ask (chains merge by time)
	noID    int
}

// New starts an accumulator.
func New(f Filter) *Accumulator {
	return &Accumulator{f: f, r: Report{ByLoop: map[string]Split{}, ByChannel: map[string]Split{}, ByKind: map[string]Split{}},
		asks: map[string]bool{}, ranLate: map[string]bool{}}
}

// Add counts one entry.
func (a *Accumulator) Add(e *chain.Entry) {
	if a.f.Since != "" && e.TS < a.f.Since {
		return
	}
	if a.f.Loop != "" && e.Loop != a.f.Loop && e.Kind != chain.KindNote {
		return
	}
	switch e.Kind {
	case chain.KindCheck:
		a.check(e)
	case chain.KindAmend:
		a.r.Amendments++
	case chain.KindProposal:
		a.r.Proposals++
	case chain.KindNote:
		if ev, _ := e.Extra[extraEvent].(string); ev == postToolUse {
			if id, _ := e.Extra[extraToolUseID].(string); id != "" {
				if _, ok := a.asks[id]; ok {
					a.asks[id] = true
				} else {
					a.ranLate[id] = true
				}
			}
			return
		}
		if a.f.Loop == "" || e.Loop == a.f.Loop {
			a.r.Notes++
		}
	}
}

func (a *Accumulator) check(e *chain.Entry) {
	a.r.Split.add(e.Verdict)
	l := a.r.ByLoop[e.Loop]
	l.add(e.Verdict)
	a.r.ByLoop[e.Loop] = l
	ch := channel(e.Via)
	c := a.r.ByChannel[ch]
	c.add(e.Verdict)
	a.r.ByChannel[ch] = c
	if e.Action != "" {
		k := a.r.ByKind[e.Action]
		k.add(e.Verdict)
		a.r.ByKind[e.Action] = k
	}
	if e.Verdict == "allow" {
		a.run++
		if a.run > a.r.LongestUnattended {
			a.r.LongestUnattended = a.run
		}
	} else {
		a.run = 0
	}
	if e.Verdict == "ask" && (e.Via == "hook" || strings.HasPrefix(e.Via, "hook ")) { // Claude Code, or another client (docs/agents.md)
		a.r.HookAsks++
		id, _ := e.Extra[extraToolUseID].(string)
		if id == "" {
			a.noID++
			return
		}
		a.asks[id] = a.ranLate[id]
		delete(a.ranLate, id)
	}
}

// Report returns the counts so far.
func (a *Accumulator) Report() Report {
	r := a.r
	for _, ran := range a.asks {
		if ran {
			r.AsksRan++
		}
	}
	r.AsksNotRan = r.HookAsks - r.AsksRan
	if stops := r.Ask + r.Deny; stops > 0 {
		r.ActionsPerIntervention = float64(r.Checks) / float64(stops)
	}
	return r
}

func channel(via string) string {
	if via == "" {
		return "cli"
	}
	return via
}

// Keys returns a map's keys sorted.
func Keys(m map[string]Split) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Bar draws n of total as a bar of width cells.
func Bar(n, total, width int) string {
	if total == 0 {
		return strings.Repeat("░", width)
	}
	full := (n*width + total/2) / total
	return strings.Repeat("█", full) + strings.Repeat("░", width-full)
}

package mcp

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Limits are the per-key limits of the HTTP server
// (docs/mcp.md#keys-scopes-and-limits). None may be unlimited: a zero or
// negative value is refused by Validate.
type Limits struct {
	Requests       int           // admitted requests per RequestWindow
	RequestWindow  time.Duration // sliding
	Proposals      int           // stored proposals per ProposalWindow
	ProposalWindow time.Duration // sliding
	OpenProposals  int           // proposals not yet applied, rejected or stale
}

// DefaultLimits are 60 requests a minute, 30 proposals an hour and 20 open
// proposals per key.
func DefaultLimits() Limits {
	return Limits{Requests: 60, RequestWindow: time.Minute, Proposals: 30, ProposalWindow: time.Hour, OpenProposals: 20}
}

// Validate refuses limits that would switch a limit off.
func (l Limits) Validate() error {
	if l.Requests < 1 || l.Proposals < 1 || l.OpenProposals < 1 || l.RequestWindow <= 0 || l.ProposalWindow <= 0 {
		return fmt.Errorf("every limit must be at least 1 and every window positive (limits cannot be switched off): %+v", l)
	}
	return nil
}

// window is a sliding window of admitted event times for one key.
type window struct{ times []time.Time }

// admit records t if fewer than max events fall in (t-size, t]; otherwise
// it returns how long until the oldest leaves the window. A refused event
// is not recorded, so refusals do not extend the wait.
func (w *window) admit(t time.Time, size time.Duration, max int) (bool, time.Duration) {
	cut := t.Add(-size)
	i := 0
	for i < len(w.times) && !w.times[i].After(cut) {
		i++
	}
	w.times = w.times[i:]
	if len(w.times) >= max {
		return false, w.times[0].Sub(cut)
	}
	w.times = append(w.times, t)
	return true, 0
}

// peek says whether an event at t would be admitted, without recording it.
func (w *window) peek(t time.Time, size time.Duration, max int) (bool, time.Duration) {
	cut := t.Add(-size)
	n := 0
	var oldest time.Time
	for _, x := range w.times {
		if x.After(cut) {
			if n == 0 {
				oldest = x
			}
			n++
		}
	}
	if n >= max {
		return false, oldest.Sub(cut)
	}
	return true, 0
}

// limiter holds the windows of every key, keyed by the key's digest.
type limiter struct {
	mu        sync.Mutex
	limits    Limits
	now       func() time.Time
	requests  map[string]*window
	proposals map[string]*window
}

func newLimiter(l Limits, now func() time.Time) *limiter {
	return &limiter{limits: l, now: now, requests: map[string]*window{}, proposals: map[string]*window{}}
}

// request admits one request for key, or says how long to wait.
func (l *limiter) request(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.requests[key]
	if w == nil {
		w = &window{}
		l.requests[key] = w
	}
	return w.admit(l.now(), l.limits.RequestWindow, l.limits.Requests)
}

// proposalAllowed says whether key may store one more proposal now.
func (l *limiter) proposalAllowed(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.proposals[key]
	if w == nil {
		return true, 0
	}
	return w.peek(l.now(), l.limits.ProposalWindow, l.limits.Proposals)
}

// proposalStored counts a proposal that was stored.
func (l *limiter) proposalStored(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.proposals[key]
	if w == nil {
		w = &window{}
		l.proposals[key] = w
	}
	w.times = append(w.times, l.now())
}

// retryAfter renders a wait as Retry-After: whole seconds, at least 1.
func retryAfter(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}

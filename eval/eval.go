// Package eval is gitwarrant's red-team eval (docs/design.md#quality-bar, issue 5): generated,
// deterministic suites, each with a named invariant, that prove the warrant
// is fuzzy only toward caution, that every tamper with the record is caught,
// and that no pinned gate fails open. `go test ./eval/` runs every suite and
// fails on any violation; `go run ./eval/cmd/report` writes REPORT.md from
// the same run.
//
// Every suite draws its randomness from math/rand/v2 PCG generators seeded
// with constants, and iterates slices (never maps), so two runs produce the
// same checks, the same counts and the same report, byte for byte.
package eval

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
)

// maxExamples caps the examples a suite keeps per kind (violations, closest
// calls); counts are always exact.
const maxExamples = 6

// Example is one check worth showing: what went in, what came out, and why
// it is interesting.
type Example struct {
	Input string
	Got   string
	Note  string

	score int // closeness: higher is nearer to a violation
	order int // first-seen order, to break ties deterministically
}

// Suite is the outcome of one suite: its invariant, how many checks ran,
// every violation (counted; the first few kept), the closest calls, and
// stats reported in the open (such as how often a hard stop weakened to ask).
type Suite struct {
	Name      string
	Invariant string

	Checks     int
	Violations int
	Failures   []Example // the first maxExamples violations
	Closest    []Example // the maxExamples checks that came nearest to failing
	Stats      []Stat

	// Listed are checks the report shows in full (not capped), under
	// ListedTitle: for the corpus, every honest call that was not allowed.
	Listed      []Example
	ListedTitle string

	// Pending marks a suite whose subject is not built yet; it runs no
	// checks and says so in the report instead of pretending.
	Pending string

	seen     int
	nearKeys map[string]bool
}

// Stat is one named number reported alongside a suite.
type Stat struct {
	Name  string
	Count int
	Of    int // 0 when not a ratio
}

// newSuite starts a suite.
func newSuite(name, invariant string) *Suite {
	return &Suite{Name: name, Invariant: invariant}
}

// Check counts one check; a false ok is a violation described by ex.
func (s *Suite) Check(ok bool, ex Example) {
	s.Checks++
	s.seen++
	if ok {
		return
	}
	s.Violations++
	if len(s.Failures) < maxExamples {
		s.Failures = append(s.Failures, ex)
	}
}

// Near offers a passing check as a closest-call candidate with a closeness
// score; the suite keeps the highest scores, earliest first on ties.
func (s *Suite) Near(score int, ex Example) {
	ex.score, ex.order = score, s.seen
	i := sort.Search(len(s.Closest), func(i int) bool {
		c := s.Closest[i]
		return c.score < score
	})
	if i >= maxExamples {
		return
	}
	s.Closest = append(s.Closest, Example{})
	copy(s.Closest[i+1:], s.Closest[i:])
	s.Closest[i] = ex
	if len(s.Closest) > maxExamples {
		s.Closest = s.Closest[:maxExamples]
	}
}

// NearOnce is Near for the first offer with each key only, so the closest
// calls shown span different kinds of check instead of repeating one.
func (s *Suite) NearOnce(key string, score int, ex Example) {
	if s.nearKeys[key] {
		return
	}
	if s.nearKeys == nil {
		s.nearKeys = map[string]bool{}
	}
	s.nearKeys[key] = true
	s.Near(score, ex)
}

// Count adds n to the named stat (creating it in first-use order).
func (s *Suite) Count(name string, n, of int) {
	for i := range s.Stats {
		if s.Stats[i].Name == name {
			s.Stats[i].Count += n
			s.Stats[i].Of += of
			return
		}
	}
	s.Stats = append(s.Stats, Stat{Name: name, Count: n, Of: of})
}

// newRand returns a deterministic generator for one suite. Each suite has
// its own constant seed so adding checks to one does not reshuffle another.
func newRand(seed1, seed2 uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed1, seed2))
}

// runner is one suite's entry point.
type runner struct {
	name string
	run  func() (*Suite, error)
}

// runners lists the suites in report order.
var runners = []runner{
	{"scenarios", Scenarios},
	{"adversarial", Adversarial},
	{"properties", Properties},
	{"substitution", Substitution},
	{"tamper", Tamper},
	{"hookgate", Hookgate},
	{"warranted", Warranted},
	{"toolcalls", Toolcalls},
	{"dangerous", Dangerous},
	{"metamorphic", Metamorphic},
	{"gitgate", Gitgate},
	{"corpus", Corpus},
}

// All runs every suite, two at a time (the eval's budget is set on a
// 2-core machine), and returns them in report order. Results do not depend
// on scheduling: each suite is sequential inside.
func All() ([]*Suite, error) {
	out := make([]*Suite, len(runners))
	errs := make([]error, len(runners))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := r.run()
			if err != nil {
				err = fmt.Errorf("eval suite %s: %w", r.name, err)
			}
			out[i], errs[i] = s, err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// clip shortens s for a report cell.
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// category is s without its digits: the kind of a check, for NearOnce.
func category(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

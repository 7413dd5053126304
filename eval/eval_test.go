package eval

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
)

// results runs every suite once per test binary; the suite tests and the
// report test share it so the eval's budget is spent once.
var results = sync.OnceValues(All)

// TestSuites fails on any violation of any suite's invariant, naming the
// first few so the regression can be reproduced.
func TestSuites(t *testing.T) {
	suites, err := results()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range suites {
		t.Run(s.Name, func(t *testing.T) {
			if s.Pending != "" {
				t.Skipf("%s: %s", s.Name, s.Pending)
			}
			if s.Checks == 0 {
				t.Fatalf("suite %s ran no checks", s.Name)
			}
			for _, f := range s.Failures {
				t.Errorf("violation: %s → %s (%s)", f.Input, f.Got, f.Note)
			}
			if s.Violations > 0 {
				t.Errorf("%d of %d checks violate: %s", s.Violations, s.Checks, s.Invariant)
			}
		})
	}
}

// TestReportCurrent fails when the committed REPORT.md is not what the
// generator writes now: regenerate with `go run ./eval/cmd/report`.
func TestReportCurrent(t *testing.T) {
	suites, err := results()
	if err != nil {
		t.Fatal(err)
	}
	want := Report(suites)
	got, err := os.ReadFile("REPORT.md")
	if err != nil {
		t.Fatalf("read eval/REPORT.md: %v — generate it with `go run ./eval/cmd/report`", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("eval/REPORT.md is stale (first difference at line %d) — regenerate it with `go run ./eval/cmd/report` and commit it", firstDiffLine(got, want))
	}
}

// TestTotalChecks holds the eval to its size target: at least 110,000
// checks.
func TestTotalChecks(t *testing.T) {
	suites, err := results()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range suites {
		total += s.Checks
	}
	if total < 110000 {
		t.Errorf("the eval ran %d checks, under the 110,000 target", total)
	}
}

func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

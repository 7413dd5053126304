// Command report runs the red-team eval and writes eval/REPORT.md (run it
// from the module root: `go run ./eval/cmd/report`). It exits 1 when a
// suite has a violation, after writing the report, so the failure is on
// the page too.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gitwarrant/gitwarrant/eval"
)

func main() {
	out := flag.String("o", eval.ReportPath, "where to write the report")
	flag.Parse()
	suites, err := eval.All()
	if err != nil {
		fmt.Fprintf(os.Stderr, "report: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, eval.Report(suites), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "report: write %s: %v — run from the module root or pass -o\n", *out, err)
		os.Exit(1)
	}
	total, bad := 0, 0
	for _, s := range suites {
		total += s.Checks
		bad += s.Violations
	}
	fmt.Printf("wrote %s: %d checks, %d violations\n", *out, total, bad)
	if bad > 0 {
		os.Exit(1)
	}
}

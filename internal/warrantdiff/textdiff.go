package warrantdiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// LineDiff renders the lines that differ between a and b, each prefixed
// with its line number in b (or a, for a removed line) and `-` or `+`:
// what a person confirms before an amend is signed.
func LineDiff(a, b string) string {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var out strings.Builder
	la, lb := 1, 1
	for _, d := range diffs {
		ls := strings.SplitAfter(d.Text, "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		for _, l := range ls {
			l = strings.TrimRight(l, "\r\n")
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				la, lb = la+1, lb+1
			case diffmatchpatch.DiffDelete:
				fmt.Fprintf(&out, "%4d - %s\n", la, l)
				la++
			case diffmatchpatch.DiffInsert:
				fmt.Fprintf(&out, "%4d + %s\n", lb, l)
				lb++
			}
		}
	}
	return out.String()
}

package shell

import (
	"strings"
	"testing"
	"time"
)

// FuzzParse: no input panics (Parse recovers, and reports the recovery as
// an internal error, which fails here), every reading of every clause
// works, and one parse stays bounded in time.
func FuzzParse(f *testing.F) {
	for _, a := range issueAttacks {
		f.Add(a.src)
	}
	for _, s := range benchCommands {
		f.Add(s)
	}
	for _, s := range []string{
		"sh -c 'sh -c \"eval x\"'", "echo {1..3}{a,b}", "cat <<EOF | sh\nrm x\nEOF", "env -S 'a b' c",
		"find . -exec sh -c 'rm $1' _ {} \\;", "git -c a.b push --mirr", "x=(a b) y", "echo $'\\x'",
		"f() { f; }; f", "cd \"$x\"; rm y", "echo ${x:-$(rm y)}", "git push origin +:", "echo ~root{a,b}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		s := Parse(src)
		if s.Opaque && strings.HasPrefix(s.Why, "internal error") {
			t.Fatalf("Parse recovered from a panic on %q", src)
		}
		for _, c := range s.Clauses {
			c.Effects()
			if g, ok := c.Git(); ok && g.Push != nil {
				g.Push.Describe()
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("parse of %d bytes took %v", len(src), d)
		}
	})
}

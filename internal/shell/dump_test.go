package shell

import (
	"fmt"
	"strings"
)

// dump renders a parse for test failure messages.
func dump(s *Script) string {
	var b strings.Builder
	if s.Opaque {
		fmt.Fprintf(&b, "SCRIPT OPAQUE: %s\n", s.Why)
	}
	for _, c := range s.Clauses {
		fmt.Fprintf(&b, "via=%v argv=%q", c.Via, c.Strings())
		if len(c.Assigns) > 0 {
			for _, a := range c.Assigns {
				fmt.Fprintf(&b, " %s=%q", a.Name, a.Value.Text)
			}
		}
		for _, r := range c.Redirs {
			fmt.Fprintf(&b, " [%s%s %q]", r.Fd, r.Op, r.Target.Text)
		}
		if c.Dir != "" {
			fmt.Fprintf(&b, " dir=%s", c.Dir)
		}
		if c.Opaque {
			fmt.Fprintf(&b, " OPAQUE(%s)", c.Why)
		}
		b.WriteString("\n")
		if g, ok := c.Git(); ok {
			fmt.Fprintf(&b, "   git sub=%s args=%q opaque=%v %s config=%v\n", g.Sub, words(g.Args), g.Opaque, g.Why, g.Config)
			if g.Push != nil {
				fmt.Fprintf(&b, "   push %+v\n   describe %q\n", *g.Push, g.Push.Describe())
			}
			if len(g.Edits) > 0 {
				fmt.Fprintf(&b, "   edits %+v\n", g.Edits)
			}
		}
	}
	return b.String()
}

func words(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

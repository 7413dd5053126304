package gate

import "testing"

func TestIntersect(t *testing.T) {
	under := func(p string) string { return literalPattern(p) + "/" + string(starAll) }
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{globPattern("/r/.gitw*/loops/a.loop.md"), under("/r/.gitwarrant"), true},
		{globPattern("/r/.g?t/hooks/pre-commit"), under("/r/.git"), true},
		{globPattern("/r/.gi[t]/hooks/pre-commit"), under("/r/.git"), true},
		{globPattern("/r/*.pyc"), under("/r/.gitwarrant"), false},
		{globPattern("/r/*"), literalPattern("/r/.git"), true},
		{globPattern("/r/src/*.go"), under("/r/.git"), false},
		{globPattern("/r/**/settings.json"), literalPattern("/r/.claude/settings.json"), true},
		{globPattern("/r/.claude/*.json"), literalPattern("/r/.claude/settings.local.json"), true},
		{literalPattern("/r/a"), literalPattern("/r/a"), true},
		{literalPattern("/r/a"), literalPattern("/r/b"), false},
	} {
		if got := intersect(c.a, c.b); got != c.want {
			t.Errorf("intersect(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

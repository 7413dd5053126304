package warrantdiff

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// parentIn scans for the parent byte by byte; it must find what the
// regular expression it replaced finds, on any input.
func TestParentInMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`(?m)^extends:[ \t]*["']?([a-z0-9][a-z0-9-]*)`)
	want := func(b []byte) string {
		if m := re.FindSubmatch(frontmatter(b)); m != nil {
			return string(m[1])
		}
		return ""
	}
	cases := []string{
		"---\nname: a\nextends: base\n---\n",
		"---\nextends:base-2\n---\n",
		"---\nextends: \t'base'\n---\n",
		"---\nextends: \"-base\"\n---\n",
		"---\nextends: 'Base'\nextends: other\n---\n",
		"---\n  extends: base\n---\nextends: body\n",
		"---\nextends:\n---\n",
		"---\r\nextends: base\r\n---\r\n",
		"---extends: first\nextends: second\n---\n",
		"---\nextends: ''base\n\nextends: x-\n---\n",
		"# Brief\nextends: base\n",
		"\ufeff---\nextends: b--c # comment\n---\n",
		"---\nname: a\n---\nextends: body\n---\n",
		"---\nextends: a\n",
	}
	alphabet := []string{"extends:", "extends: ", "---", "\n", "\r", " ", "\t", "'", "\"", "a", "Z", "-", "0", "é", "#", "name: x"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var sb strings.Builder
		sb.WriteString("---\n")
		for range rng.IntN(12) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		sb.WriteString("\n---\n")
		cases = append(cases, sb.String())
	}
	found := 0
	for _, c := range cases {
		got, w := parentIn([]byte(c)), want([]byte(c))
		if got != w {
			t.Errorf("%q: parentIn %q, the regular expression %q", c, got, w)
		}
		if w != "" {
			found++
		}
	}
	if found < 1000 {
		t.Fatalf("only %d inputs name a parent: the generated cases miss the point", found)
	}
}

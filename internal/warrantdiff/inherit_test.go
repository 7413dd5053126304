package warrantdiff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// scanParent reads a parent without parsing YAML; whenever it says it is
// sure, loading the file must read the same parent (or not load at all).
func TestScanParentAgreesWithLoading(t *testing.T) {
	head := "---\nname: a\nwarrant:\n  read: [the code]\n"
	cases := []string{
		"extends: base\n",
		"extends:base-2\n",
		"extends: \t'base'\n",
		"extends: \"base\" # the baseline\n",
		"extends: base#not-a-comment\n",
		"extends: 'base\"\n",
		"extends: >-\n  base\n",
		"extends: |\n  base\n",
		"\"extends\": base\n",
		"'extends': base\n",
		"? extends\n: base\n",
		"extends: base\nextends: other\n",
		"description: it extends the baseline\n",
		"extends: Base\n",
		"extends:\n",
		"extends: ~\n",
		"extends: [base]\n",
		"extends: base\r\n",
		"extends: base-\n",
		"extends: !!str base\n",
		"  extends: base\n",
	}
	alphabet := []string{"extends:", "extends: ", "\"extends\": ", "'", "\"", "base", "b-2", "Z", " ", "\t", "#c", "\n", ">-\n  ", "|\n  ", "[", "]", "{", "}", "~"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var sb strings.Builder
		for range 1 + rng.IntN(6) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		sb.WriteString("\n")
		cases = append(cases, sb.String())
	}
	sureAndLoaded := 0
	for _, c := range cases {
		b := []byte(head + c + "---\n# Brief\nextends: body\n")
		p, sure := scanParent(b)
		if !sure {
			continue
		}
		l, err := loops.Parse("a.loop.md", b)
		if err != nil {
			continue
		}
		sureAndLoaded++
		if l.Extends.Text != p {
			t.Errorf("%q: the scan reads parent %q, loading %q", c, p, l.Extends.Text)
		}
		if got := parentOf("a.loop.md", b); got != l.Extends.Text {
			t.Errorf("%q: parentOf %q, loading %q", c, got, l.Extends.Text)
		}
	}
	if sureAndLoaded < 500 {
		t.Fatalf("only %d files were both scanned surely and loaded: the cases miss the point", sureAndLoaded)
	}
	// whatever the scan says, parentOf reads what loading reads
	for _, c := range cases[:21] {
		b := []byte(head + c + "---\n")
		want := ""
		if l, err := loops.Parse("a.loop.md", b); err == nil {
			want = l.Extends.Text
		}
		if got := parentOf("a.loop.md", b); got != want {
			t.Errorf("%q: parentOf %q, loading %q", c, got, want)
		}
	}
}

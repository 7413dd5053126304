package warrantdiff

import (
	"reflect"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

func TestExampleChanges(t *testing.T) {
	base := []byte("---\nname: fix\nexamples:\n  allow:\n    - Bash(go test ./...)\n  deny:\n    - Bash(git push origin main)\n    - Edit(.env)\n---\n# Brief\nexamples:\n  deny: [not frontmatter]\n")
	head := []byte("---\nname: fix\nexamples:\n  allow: []\n  deny:\n    - Bash(git push --force origin main)\n    - Edit(.env)\n    - Read(~/.ssh/id_ed25519)\n---\n")
	got := exampleChanges("fix", base, head)
	want := []struct {
		op, entry string
		kind      Kind
		line      int
	}{
		{OpRemove, "Bash(git push origin main)", Widening, 7},
		{OpAdd, "Bash(git push --force origin main)", Narrowing, 6},
		{OpAdd, "Read(~/.ssh/id_ed25519)", Narrowing, 8},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Op != w.op || g.Entry != w.entry || g.Kind != w.kind || g.Line != w.line || g.List != "examples.deny" {
			t.Errorf("%d: got %+v, want %+v", i, g, w)
		}
	}
	if c := exampleChanges("fix", base, base); len(c) != 0 {
		t.Errorf("unchanged file: %+v", c)
	}
}

// The diff takes a loaded loop's deny examples instead of parsing its
// YAML again: they must be the items, text and line, the file's YAML holds.
func TestParsedDenyMatchesYAML(t *testing.T) {
	for _, src := range []string{
		"---\nname: fix\nexamples:\n  allow:\n    - Bash(go test ./...)\n  deny:\n    - Bash(git push origin main)\n    - '  Edit(.env)  '\n---\n# Brief\nexamples:\n  deny: [not frontmatter]\n",
		"---\r\nname: fix\r\nwarrant:\r\n  never: [Bash(git push *)]\r\nexamples:\r\n  deny: [Bash(git push origin main), \"Edit(.env)\"]\r\n---\r\n",
		"\ufeff---\nname: fix\n# a comment\n\nexamples:\n  deny:\n  - Bash(git push origin main)\n  - Bash(git push origin main)\n  ask: [Bash(make deploy)]\n---\n",
		"---\nname: fix\n---\n",
	} {
		l, err := loops.Parse("fix"+loops.FileSuffix, []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		got, want := parsedDeny(l), denyExamples([]byte(src))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: parsed %+v, YAML %+v", src, got, want)
		}
	}
}

package warrantdiff

import "testing"

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

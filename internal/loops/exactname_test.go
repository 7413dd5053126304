package loops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder where the upper-case name opens the same file is treated as a
// case-insensitive one: the listing must then hold the exact name. A hard
// link stands in for case folding here (no case-insensitive file system
// on the test machines); the refusal is exactIn's, tested on listings.
func TestLoadByNameInAFoldingFolder(t *testing.T) {
	dir := t.TempDir()
	loop := "---\nname: x\ndescription: d\nwarrant:\n  read: [the wiki]\n---\n# Brief\nb\n"
	child := "---\nname: y\ndescription: d\nextends: x\n---\n# Brief\nb\n"
	if err := os.WriteFile(filepath.Join(dir, "x.loop.md"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "y.loop.md"), []byte(child), 0o644)
	for _, n := range []string{"X.LOOP.MD", "Y.LOOP.MD"} {
		if err := os.Link(filepath.Join(dir, strings.ToLower(n)), filepath.Join(dir, n)); err != nil {
			t.Skip("no hard links here:", err)
		}
	}
	l, err := LoadByName(dir, "y")
	if err != nil {
		t.Fatalf("the exact names are listed, so y and its parent x load: %v", err)
	}
	if len(l.Warrant.Read) != 1 {
		t.Fatalf("y inherits x's read entry: %+v", l.Warrant.Read)
	}
}

func TestExactIn(t *testing.T) {
	p := "/p/loops/x.loop.md"
	if err := exactIn(p, "x.loop.md", []string{"X.LOOP.MD", "x.loop.md"}); err != nil {
		t.Fatalf("listed exactly: %v", err)
	}
	err := exactIn(p, "x.loop.md", []string{"a.loop.md", "x.LOOP.md"})
	if err == nil || !strings.Contains(err.Error(), "named x.LOOP.md on disk, not x.loop.md") || !strings.Contains(err.Error(), "git mv x.LOOP.md x.loop.md") {
		t.Fatalf("x.LOOP.md for x.loop.md: %v", err)
	}
	if err := exactIn(p, "x.loop.md", nil); err == nil || !strings.Contains(err.Error(), "not listed under its own name") {
		t.Fatalf("an empty listing: %v", err)
	}
}

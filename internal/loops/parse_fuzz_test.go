package loops

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var nameLine = regexp.MustCompile(`(?m)^name: .*$`)

// FuzzParse checks that Parse never panics, that every rejection is an
// *Error, and that every acceptance has a valid name and version 1.
func FuzzParse(f *testing.F) {
	f.Add(fm("# Brief\nb\n# Procedure\np\n", "name: f", "warrant:", "  read: [a, b]", "  never:", "    - x"))
	f.Add(fm("", "name: f", "description: \"q: x\"", "version: 1", "record: []", "reserved: ~"))
	f.Add(fm("```\n# Brief\n```\n", "name: f", "triggers:", "  - &a x", "  - *a"))
	f.Add([]byte("---\r\nname: f\r\ngoal: |\r\n  x\r\n---\r\n"))
	if seeds, err := filepath.Glob("../templates/loops/*.loop.md"); err == nil {
		for _, p := range seeds {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(nameLine.ReplaceAll(data, []byte("name: f")))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("f.loop.md", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Msg == "" || e.Hint == "" {
				t.Fatalf("rejection %v (%T) is not a complete *Error", err, err)
			}
			return
		}
		if l.Name != "f" || !ValidName(l.Name) || l.Version != SpecVersion {
			t.Fatalf("accepted loop with name %q version %d", l.Name, l.Version)
		}
		lines := len(strings.Split(string(data), "\n"))
		for _, name := range Lists {
			checkItems(t, name, l.Warrant.List(name), lines)
		}
		checkItems(t, "reserved", l.Reserved, lines)
		checkItems(t, "record", l.Record, lines)
		checkItems(t, "triggers", l.Triggers, lines)
	})
}

// checkItems asserts every accepted item has text and a frontmatter line.
func checkItems(t *testing.T, list string, items []Item, lines int) {
	for _, it := range items {
		if strings.TrimSpace(it.Text) == "" || it.Line < 2 || it.Line > lines {
			t.Fatalf("%s item %+v: empty text or line outside the file (%d lines)", list, it, lines)
		}
	}
}

package loops

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func loopText(name, extra string) string {
	return "---\nname: " + name + "\n" + extra + "---\n# Brief\n" + name + " brief\n"
}

func TestExtendsErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		load  string
		file  string // file the error names
		line  int
		want  string
	}{
		{"path", map[string]string{"a": loopText("a", "extends: ../x.loop.md\n")}, "a", "a", 3, `extends "../x.loop.md" is a path`},
		{"file name", map[string]string{"a": loopText("a", "extends: base.loop.md\n")}, "a", "a", 3, "is a path"},
		{"bad name", map[string]string{"a": loopText("a", "extends: Base\n")}, "a", "a", 3, "is not a loop name"},
		{"empty", map[string]string{"a": loopText("a", "extends:\n")}, "a", "a", 3, "names no loop"},
		{"missing", map[string]string{"a": loopText("a", "warrant:\n  read: [x]\nextends: base\n")}, "a", "a", 5, `extends "base", but there is no base.loop.md`},
		{"self", map[string]string{"a": loopText("a", "extends: a\n")}, "a", "a", 3, "extends cycle: a → a"},
		{"cycle", map[string]string{"a": loopText("a", "extends: b\n"), "b": loopText("b", "extends: a\n")}, "a", "b", 3, "extends cycle: a → b → a"},
		{"broken parent", map[string]string{"a": loopText("a", "extends: b\n"), "b": loopText("b", "nevr: [x]\n")}, "a", "a", 3, "the parent loop b does not load"},
		{"abstract not bool", map[string]string{"a": loopText("a", "abstract: yes please\n")}, "a", "a", 3, "abstract must be true or false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, text := range tt.files {
				writeFile(t, filepath.Join(dir, n+FileSuffix), []byte(text))
			}
			_, err := LoadFile(filepath.Join(dir, tt.load+FileSuffix))
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *loops.Error", err)
			}
			if le.File != filepath.Join(dir, tt.file+FileSuffix) || le.Line != tt.line || !strings.Contains(le.Msg, tt.want) {
				t.Errorf("err = %v, want %s%s:%d: …%s…", err, tt.file, FileSuffix, tt.line, tt.want)
			}
		})
	}
}

func TestExtendsMerge(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "base.loop.md"), []byte(loopText("base",
		"abstract: true\ngoal: base goal\nstop: base stop\nbudget: 30m\nwarrant:\n  read: [Shared Notes, base notes]\n  never: [wire funds]\nreserved: [spending]\n")))
	writeFile(t, filepath.Join(dir, "mid.loop.md"), []byte(loopText("mid",
		"extends: base\nbudget: 45m\nwarrant:\n  ask: [posting publicly]\n")))
	writeFile(t, filepath.Join(dir, "leaf.loop.md"), []byte(loopText("leaf",
		"extends: mid\ngoal: leaf goal\nbudget: 10m\nwarrant:\n  read: [shared notes, leaf notes]\n  never: [deleting data]\n")))
	l, err := LoadFile(filepath.Join(dir, "leaf.loop.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := func(items []Item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.Text+"@"+it.From)
		}
		return strings.Join(s, "; ")
	}
	for _, c := range []struct{ what, got, want string }{
		{"read", got(l.Warrant.Read), "Shared Notes@base; base notes@base; leaf notes@"},
		{"never", got(l.Warrant.Never), "wire funds@base; deleting data@"},
		{"ask", got(l.Warrant.Ask), "posting publicly@mid"},
		{"reserved", got(l.Reserved), "spending@base"},
		{"goal", l.Goal, "leaf goal"},
		{"stop", l.Stop, "base stop"},
		{"budget", l.Budget, "10m"},
		{"inherits", strings.Join(l.Inherits, ","), "base,mid"},
		{"brief", l.Brief, "leaf brief"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if l.Abstract {
		t.Error("abstract is not inherited")
	}
	mid, err := LoadFile(filepath.Join(dir, "mid.loop.md"))
	if err != nil {
		t.Fatal(err)
	}
	if mid.Budget != "30m" {
		t.Errorf("mid budget = %q: a child never raises its parent's ceiling", mid.Budget)
	}
	for _, tt := range []struct{ p, c, want string }{{"1h", "2h", "1h"}, {"2h", "90m", "90m"}, {"ten tries", "5m", "ten tries"}, {"", "5m", "5m"}, {"5m", "", "5m"}} {
		if got := mergeBudget(tt.p, tt.c); got != tt.want {
			t.Errorf("mergeBudget(%q, %q) = %q, want %q", tt.p, tt.c, got, tt.want)
		}
	}
}

func TestLenientColonFields(t *testing.T) {
	src := "---\nname: a\ndescription: pick up cold: source, owner\ngoal: it's done: all of it\nwarrant:\n  read: [x]\n---\n"
	l, err := Parse("a.loop.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.Description != "pick up cold: source, owner" || l.Goal != "it's done: all of it" {
		t.Errorf("description %q, goal %q", l.Description, l.Goal)
	}
	if len(l.Warnings) != 2 || l.Warnings[0].Line != 3 || l.Warnings[1].Line != 4 {
		t.Errorf("warnings = %+v, want lines 3 and 4", l.Warnings)
	}
	// A warrant list is never read leniently: `: ` there stays an error.
	bad := "---\nname: a\nwarrant:\n  read: [x]\n  send: email: the board\n---\n"
	if _, err := Parse("a.loop.md", []byte(bad)); err == nil || !strings.Contains(err.Error(), "a.loop.md:5") {
		t.Errorf("unquoted `: ` in a warrant list: err = %v, want an error at a.loop.md:5", err)
	}
	indented := "---\nname: a\nwarrant:\n  read:\n    - notes: all\n---\n"
	if _, err := Parse("a.loop.md", []byte(indented)); err == nil {
		t.Error("`- notes: all` in a list must stay an error")
	}
}

package loops

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadFileRejects(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "real.loop.md")
	writeFile(t, good, fm("", "name: real"))

	link := filepath.Join(dir, "link.loop.md")
	if err := os.Symlink(good, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	sub := filepath.Join(dir, "sub.loop.md")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.loop.md")
	writeFile(t, big, append(fm("", "name: big"), make([]byte, MaxFileSize)...))

	cases := []struct {
		path, msg, hint string
	}{
		{link, "symbolic link", "replace the link with the file"},
		{sub, "not a regular file", "plain Markdown file"},
		{big, "over the 204800-byte limit", "split"},
		{filepath.Join(dir, "gone.loop.md"), "does not exist", "gitwarrant list"},
	}
	for _, tc := range cases {
		_, err := LoadFile(tc.path)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("LoadFile(%s) = %v, want *Error", tc.path, err)
		}
		if e.File != tc.path || !strings.Contains(e.Msg, tc.msg) || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("LoadFile(%s) = %q, want msg %q hint %q", tc.path, err, tc.msg, tc.hint)
		}
	}
	if l, err := LoadFile(good); err != nil || l.Name != "real" || l.Path != good {
		t.Errorf("LoadFile(good) = %+v, %v", l, err)
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "b.loop.md"), fm("", "name: b"))
	writeFile(t, filepath.Join(dir, "a.loop.md"), fm("", "name: a"))
	writeFile(t, filepath.Join(dir, "c.loop.md"), fm("", "name: c", "warrant:", "  nevr: [x]"))
	writeFile(t, filepath.Join(dir, "notes.md"), []byte("not a loop"))
	// An editor's lock link beside a loop being edited is not a loop.
	if err := os.Symlink("user@host.1234:1700000000", filepath.Join(dir, ".#a.loop.md")); err != nil {
		t.Fatal(err)
	}
	loops, errs := LoadDir(dir)
	var names []string
	for _, l := range loops {
		names = append(names, l.Name)
	}
	if strings.Join(names, ",") != "a,b" {
		t.Errorf("loaded %v, want [a b]", names)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "c.loop.md:4: unknown warrant list \"nevr\"") {
		t.Errorf("errors = %v, want one for c.loop.md line 4", errs)
	}
	if _, errs := LoadDir(filepath.Join(dir, "missing")); len(errs) != 1 {
		t.Errorf("LoadDir(missing) errors = %v, want one", errs)
	}
}

func TestLoadByName(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "appeal.loop.md"), fm("", "name: appeal"))
	// A loop outside dir that traversal would reach.
	writeFile(t, filepath.Join(filepath.Dir(dir), "outside.loop.md"), fm("", "name: outside"))

	if l, err := LoadByName(dir, "appeal"); err != nil || l.Name != "appeal" {
		t.Fatalf("LoadByName(appeal) = %v, %v", l, err)
	}
	for _, bad := range []string{"../outside", "Appeal", "", "a/b", "-x", "appeal.loop.md"} {
		_, err := LoadByName(dir, bad)
		if err == nil || !strings.Contains(err.Error(), "is not a loop name") {
			t.Errorf("LoadByName(%q) = %v, want a not-a-loop-name error", bad, err)
		}
	}
	_, err := LoadByName(dir, "nope")
	if err == nil || !strings.Contains(err.Error(), dir+": no loop named nope —") || !strings.Contains(err.Error(), "gitwarrant list") {
		t.Errorf("LoadByName(nope) = %v", err)
	}
}

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{"a": true, "0-x": true, "insurance-appeal": true, "": false, "-a": false, "A": false, "a_b": false, "a.b": false, "a/b": false, "é": false} {
		if got := ValidName(s); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, want)
		}
	}
}

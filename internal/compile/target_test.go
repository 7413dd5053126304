package compile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"gopkg.in/yaml.v3"
)

func mustTarget(t *testing.T, name string) Target {
	t.Helper()
	tg, ok := TargetByName(name)
	if !ok {
		t.Fatalf("no target %q", name)
	}
	return tg
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTargetsNameTheirFiles(t *testing.T) {
	want := map[string]string{"claude": "CLAUDE.md", "agents": "AGENTS.md", "gemini": "GEMINI.md",
		"cursor": ".cursor/rules/gitwarrant.mdc", "copilot": ".github/copilot-instructions.md", "raw": ""}
	if len(Targets()) != len(want) {
		t.Fatalf("%d targets, want %d", len(Targets()), len(want))
	}
	for name, path := range want {
		if tg := mustTarget(t, name); tg.Path != path || tg.Label == "" {
			t.Errorf("%s: %+v", name, tg)
		}
	}
	if _, ok := TargetByName("vim"); ok {
		t.Error("unknown target accepted")
	}
}

func TestWriteTargetKeepsHandWrittenContentAndMode(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "CLAUDE.md")
	before := "# Project notes\n\nUse tabs.\n\n"
	after := "\n## Later notes\n\nkeep me\n"
	old := BeginMarker + "\nstale\n" + EndMarker + "\n"
	if err := os.WriteFile(path, []byte(before+old+after), 0o600); err != nil {
		t.Fatal(err)
	}
	block := Compile([]*loops.Loop{appealLoop()}, Options{}, false)
	changed, err := WriteTarget(root, mustTarget(t, "claude"), block)
	if err != nil || !changed {
		t.Fatalf("first write: changed=%v err=%v", changed, err)
	}
	got := readFile(t, path)
	if got != before+block+after {
		t.Fatalf("content around the block changed:\n%s", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	changed, err = WriteTarget(root, mustTarget(t, "claude"), block)
	if err != nil || changed || readFile(t, path) != got {
		t.Fatalf("second write: changed=%v err=%v", changed, err)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*gitwarrant-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestWriteTargetRefusesOrphanAndWritesNothing(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "AGENTS.md")
	orig := "# Mine\n\n<!-- gitwarrant:begin -->\nhalf a block, someone deleted the end\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteTarget(root, mustTarget(t, "agents"), Compile([]*loops.Loop{appealLoop()}, Options{}, false))
	var me *MarkerError
	if !errors.As(err, &me) || !strings.HasPrefix(err.Error(), "AGENTS.md:3: ") {
		t.Fatalf("want AGENTS.md:3 marker error, got %v", err)
	}
	if readFile(t, path) != orig {
		t.Fatal("the file was changed despite the error")
	}
}

func TestWriteTargetCursorFrontmatter(t *testing.T) {
	root := t.TempDir()
	tg := mustTarget(t, "cursor")
	block := Compile([]*loops.Loop{appealLoop()}, Options{}, true)
	if _, err := WriteTarget(root, tg, block); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, filepath.Join(root, ".cursor", "rules", "gitwarrant.mdc"))
	if !strings.HasPrefix(got, "---\n") {
		t.Fatalf("no frontmatter:\n%s", got)
	}
	fm := got[4 : 4+strings.Index(got[4:], "---\n")]
	var meta map[string]any
	if err := yaml.Unmarshal([]byte(fm), &meta); err != nil {
		t.Fatalf("frontmatter is not YAML: %v\n%s", err, fm)
	}
	if v, ok := meta["alwaysApply"].(bool); !ok || !v {
		t.Errorf("alwaysApply = %#v, want the boolean true", meta["alwaysApply"])
	}
	if d, ok := meta["description"].(string); !ok || d == "" {
		t.Errorf("description = %#v", meta["description"])
	}
	// A user's own frontmatter is kept untouched on a recompile.
	mine := "---\ndescription: my rules\nglobs: \"*.go\"\nalwaysApply: false\n---\n\nhand-written\n"
	path := filepath.Join(root, ".cursor", "rules", "gitwarrant.mdc")
	if err := os.WriteFile(path, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteTarget(root, tg, block); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != mine+"\n"+block {
		t.Errorf("user frontmatter not kept:\n%s", got)
	}
}

func TestWriteTargetFollowsSymlink(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("shared\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(root, "CLAUDE.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	block := Compile([]*loops.Loop{appealLoop()}, Options{}, false)
	for _, name := range []string{"claude", "agents", "claude"} {
		if _, err := WriteTarget(root, mustTarget(t, name), block); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, "CLAUDE.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("CLAUDE.md symlink was replaced by a file")
	}
	if got := readFile(t, filepath.Join(root, "AGENTS.md")); got != "shared\n\n"+block {
		t.Errorf("got:\n%s", got)
	}
}

func TestRemoveTargetRestoresOrDeletes(t *testing.T) {
	root := t.TempDir()
	block := Compile([]*loops.Loop{appealLoop()}, Options{}, false)
	agents := filepath.Join(root, "AGENTS.md")
	if err := os.WriteFile(agents, []byte("# Mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"agents", "cursor", "copilot"} {
		if _, err := WriteTarget(root, mustTarget(t, name), block); err != nil {
			t.Fatal(err)
		}
		if removed, err := RemoveTarget(root, mustTarget(t, name)); err != nil || !removed {
			t.Fatalf("%s: removed=%v err=%v", name, removed, err)
		}
	}
	if got := readFile(t, agents); got != "# Mine\n" {
		t.Errorf("AGENTS.md not restored: %q", got)
	}
	for _, p := range []string{".cursor/rules/gitwarrant.mdc", ".github/copilot-instructions.md"} {
		if _, err := os.Stat(filepath.Join(root, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: created by gitwarrant but not removed (%v)", p, err)
		}
	}
}

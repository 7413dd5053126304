package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTypedChecks(t *testing.T) {
	dir := t.TempDir()
	body := `---
name: t
warrant:
  read:
    - Read(**)
    - Edit(src/**)
    - Bash(*)
    - Bash(sh *)
    - Bash(bash -c *)
    - Bash(python *)
    - Bash(python3 *)
    - Bash(node *)
    - Bash(perl *)
    - Bash(ruby *)
    - Bash(zsh *)
  change:
    - Edit(//**)
    - Edit(~/**)
    - Bash(git push origin fix/*)
    - Bash(go test *)
  send:
    - mcp__*
    - push to the feature branch
examples:
  allow:
    - Bash(go test ./...)
    - Bash(go vet ./...)
  ask:
    - Bash(git push origin main)
  deny:
    - Bash(git push origin main)
---
`
	if err := os.WriteFile(filepath.Join(dir, "t.loop.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range Run(files, Options{}) {
		got[f.Check] = append(got[f.Check], f.Msg)
	}
	// Every catch-all the issue names is refused, each as an error.
	for _, want := range []string{"Bash(*)", "Bash(sh *)", "Bash(bash -c *)", "Bash(python *)", "Bash(python3 *)", "Bash(node *)",
		"Bash(perl *)", "Bash(ruby *)", "Bash(zsh *)", "Edit(//**)", "Edit(~/**)", "mcp__*"} {
		if !anyContains(got["catch-all"], want) {
			t.Errorf("catch-all %s not refused; got %q", want, got["catch-all"])
		}
	}
	if len(got["catch-all"]) != 12 {
		t.Errorf("catch-all findings = %d, want 12: %q", len(got["catch-all"]), got["catch-all"])
	}
	if !anyContains(got["misfiled"], "Edit(src/**)") || !anyContains(got["misfiled"], "git push origin fix/*") {
		t.Errorf("misfiled = %q", got["misfiled"])
	}
	// `send` has a typed entry (mcp__*), so its prose entry is not flagged.
	if len(got["untyped-allow"]) != 0 {
		t.Errorf("untyped-allow = %q", got["untyped-allow"])
	}
	// go vet is not allowed, and no entry denies git push origin main (it asks, as the ask example says).
	if len(got["examples"]) != 2 || !anyContains(got["examples"], "go vet") {
		t.Errorf("examples = %q", got["examples"])
	}
}

func TestUntypedAllowSuggests(t *testing.T) {
	dir := t.TempDir()
	body := "---\nname: old\nwarrant:\n  send: [push to the feature branch, open a draft pull request]\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "old.loop.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := Load([]string{dir})
	var hints []string
	for _, f := range Run(files, Options{}) {
		if f.Check == "untyped-allow" {
			hints = append(hints, f.Hint)
		}
	}
	if len(hints) != 2 || !strings.Contains(hints[0], "Bash(git push origin") || !strings.Contains(hints[1], "Bash(gh pr create --draft *)") {
		t.Errorf("hints = %q", hints)
	}
}

func anyContains(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// TestNeverAllows: an allow entry whose own words make every command it
// names opaque is reported once, with why; one that could allow some call,
// a catch-all (reported as such) and the same entry under ask are not.
func TestNeverAllows(t *testing.T) {
	body := `---
name: t
warrant:
  change:
    - Bash(go generate *)
    - Bash(go generate ./...)
    - Bash(go env -w *)
    - Bash(go test -vettool=/tmp/v *)
    - Bash(vim -c *)
    - Bash(go test *)
    - Bash(go run *)
    - Bash(go env)
    - Bash(awk *)
    - Bash(sed -n *)
    - Bash(node -e *)
  ask:
    - Bash(go generate *)
---
`
	var got []string
	for _, f := range lintBody(t, body) {
		if f.Check == "never-allows" {
			if f.Severity != Warning || !strings.Contains(f.Msg, "never allows: ") {
				t.Errorf("finding %+v", f)
			}
			got = append(got, f.Msg)
		}
	}
	want := []string{"Bash(go generate *)", "Bash(go generate ./...)", "Bash(go env -w *)", "Bash(go test -vettool=/tmp/v *)", "Bash(vim -c *)"}
	if len(got) != len(want) {
		t.Fatalf("never-allows found %d, want %d: %q", len(got), len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], "change: \""+w+"\"") {
			t.Errorf("finding %d: %q, want one for %s", i, got[i], w)
		}
	}
}

// lintBody lints one loop file holding body.
func lintBody(t *testing.T, body string) []Finding {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.loop.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return Run(files, Options{})
}

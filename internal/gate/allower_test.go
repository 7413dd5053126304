package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// The allow side reaches a decision only through Env.Allower: a surface
// that leaves it out gets ask for a call a typed entry covers — never
// allow — and no allower, however generous, moves a never entry or
// self-protection toward allow
// (docs/threat-model.md#natural-language-entries-and-tool-calls).
func TestAllowerComesThroughEnvAndFailsClosed(t *testing.T) {
	root, dir := newLoopsRepo(t)
	loop := "---\nname: fix\ndescription: fix a bug\nversion: 1\nwarrant:\n  read: [Bash(git status *)]\n  send: [Bash(git push origin fix/*)]\n  never: [Bash(git push origin main)]\n---\n# Brief\n\nx\n"
	if err := os.WriteFile(filepath.Join(dir, "fix.loop.md"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(tool string, input map[string]any) []byte {
		data, _ := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
		return data
	}
	status := call("Bash", map[string]any{"command": "git status"})
	pushMain := call("Bash", map[string]any{"command": "git push origin main"})
	ownLoop := call("Edit", map[string]any{"file_path": filepath.Join(dir, "fix.loop.md"), "old_string": "never", "new_string": "ever"})
	everything := func(*loops.Loop, *Call) (string, bool) { return "allow: everything", true }
	getenv := func(string) string { return "" }
	o := Options{Loop: "fix", NoRecord: true}
	for _, c := range []struct {
		name    string
		allower Allower
		data    []byte
		want    loops.Verdict
		rule    string
	}{
		{"no allower: a covered call asks", nil, status, loops.Ask, "default: no typed entry allows this call"},
		{"the typed allower allows it", TypedAllower, status, loops.Allow, "allow read: Bash(git status *)"},
		{"no allower: never still denies", nil, pushMain, loops.Deny, "never: Bash(git push origin main)"},
		{"an allower of everything: never still denies", everything, pushMain, loops.Deny, "never: Bash(git push origin main)"},
		{"an allower of everything: self-protection still denies", everything, ownLoop, loops.Deny, "self-protection"},
	} {
		env := Env{Getenv: getenv, Cwd: root, Allower: c.allower}
		a := Decide(context.Background(), env, o, c.data, nil)
		if a.Verdict != c.want || !strings.HasPrefix(a.Rule, c.rule) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, a.Verdict, a.Rule, c.want, c.rule)
		}
	}
	// explain (and check --examples) decide as the hook does: without the
	// allower, a call the typed entries cover asks there too.
	l, err := loops.ParseFile(filepath.Join(dir, "fix.loop.md"))
	if err != nil {
		t.Fatal(err)
	}
	if x := Explain(Env{Getenv: getenv, Cwd: root}, l, status); x.Verdict != loops.Ask {
		t.Errorf("explain without an allower: %s (%s), want ask", x.Verdict, x.Rule)
	}
	if x := Explain(Env{Getenv: getenv, Cwd: root, Allower: TypedAllower}, l, status); x.Verdict != loops.Allow {
		t.Errorf("explain with the typed allower: %s (%s), want allow", x.Verdict, x.Rule)
	}
}

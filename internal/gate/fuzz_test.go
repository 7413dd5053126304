package gate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// FuzzHookPinned holds the pinned gate's promise (docs/design.md#enforcement-surfaces) against
// arbitrary stdin: in a project whose only loop allows everything, a
// pinned hook never stays silent, and a payload it cannot decode or map is
// never allowed — it asks (or, for self-protection, denies).
func FuzzHookPinned(f *testing.F) {
	root := f.TempDir()
	dir := filepath.Join(root, ".gitwarrant", "loops")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	loop := "---\nname: anything\ndescription: all allowed\nversion: 1\nwarrant:\n  read: [anything]\n  draft: [anything]\n  change: [anything]\n  send: [anything]\n  ask: []\n  never: []\n---\n# Brief\n\nx\n"
	if err := os.WriteFile(filepath.Join(dir, "anything.loop.md"), []byte(loop), 0o644); err != nil {
		f.Fatal(err)
	}
	env := Env{Getenv: func(string) string { return "" }, Cwd: root, Allower: TypedAllower}
	for _, s := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"tool_name":"Bash","tool_input":{"command":42}}`,
		`{"tool_name":"Write","tool_input":{"file_path":".gitwarrant/loops/x.loop.md"}}`,
		`{"tool_name":"mcp__a__b","tool_input":{"x":"y"}}`,
		`{"tool_input":{}}`, `not json`, ``, `{"tool_name":"Read","tool_input":[]}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		o := Options{Loop: "anything", NoRecord: true}
		if strict {
			o = Options{Strict: true, NoRecord: true}
		}
		a := decide(env, o, data, nil)
		if a.Silent {
			t.Fatalf("pinned hook stayed silent for %q", data)
		}
		p, err := hook.Decode(data)
		if err == nil {
			_, _, err = hook.MapIn(p, root)
		}
		if err != nil && a.Verdict == loops.Allow {
			t.Fatalf("malformed input %q (%v) was allowed: %s", data, err, a.Reason)
		}
	})
}

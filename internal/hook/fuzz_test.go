package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzHookInput feeds arbitrary bytes through the pure half of the hook:
// Decode, Map and Decision must never panic; a payload that
// decodes and maps must give a verb and a non-empty target; and whatever
// comes in, the decision printed is valid JSON whose verdict is one of the
// three (the pinned "never allow on failure" property is fuzzed in the cli
// package, against a real project).
func FuzzHookInput(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join("testdata", e.Name())); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{"", "{}", "null", `{"tool_name":"Bash","tool_input":{"command":"gitwarrant amend x"}}`,
		`{"tool_name":"Write","cwd":"/w","tool_input":{"file_path":"../../.git/hooks/x"}}`,
		`{"tool_name":"mcp__a__b","tool_input":{"x":[{"y":"z"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		verb, target, err := MapIn(p, "/w")
		if err == nil && (verb == "" || target == "") {
			t.Fatalf("Map gave verb %q target %q without an error", verb, target)
		}
		var out map[string]map[string]string
		if err := json.Unmarshal(Decision(string(verb), target), &out); err != nil {
			t.Fatalf("Decision is not JSON: %v", err)
		}
		if d := out["hookSpecificOutput"]["permissionDecision"]; d != "ask" {
			t.Fatalf("Decision(%q) = %q: a verb is not a verdict, so it must read as ask", verb, d)
		}
	})
}

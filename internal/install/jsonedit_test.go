package install

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// roundTrip adds the gitwarrant hooks and server to src, checks that a
// second add changes nothing, then removes them and expects src back.
func roundTrip(t *testing.T, src string) string {
	t.Helper()
	h := NewHookCommands("", false)
	d, err := parseJSONDoc("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, eg := range h.groups() {
		out, err := addHookGroup(d, eg.event, eg.group)
		if err != nil {
			t.Fatal(err)
		}
		if d, err = parseJSONDoc("s.json", out); err != nil {
			t.Fatalf("edit produced invalid JSON: %v\n%s", err, out)
		}
	}
	out, err := addMCPServer(d, MCPServer)
	if err != nil {
		t.Fatal(err)
	}
	installed := out
	if d, err = parseJSONDoc("s.json", out); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	// Second pass: byte-identical.
	for _, eg := range h.groups() {
		again, err := addHookGroup(d, eg.event, eg.group)
		if err != nil || !bytes.Equal(again, installed) {
			t.Fatalf("second add changed bytes (err %v):\n%s\n---\n%s", err, installed, again)
		}
	}
	if again, _ := addMCPServer(d, MCPServer); !bytes.Equal(again, installed) {
		t.Fatalf("second MCP add changed bytes:\n%s", again)
	}
	for _, ev := range []string{"PostToolUse", "PreToolUse"} {
		if d, _, err = removeHookGroups(d, ev); err != nil {
			t.Fatal(err)
		}
	}
	back, _, err := removeMCPServer(d)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != src {
		t.Fatalf("remove did not restore the original:\nwant %q\ngot  %q", src, back)
	}
	return string(installed)
}

func TestJSONEditRoundTripKeepsFormatting(t *testing.T) {
	cases := map[string]string{
		"empty object":   "{}\n",
		"compact":        `{"permissions":{"allow":["Bash(ls)"]}}`,
		"two-space":      "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  },\n  \"model\": \"opus\"\n}\n",
		"tabs, CRLF-ish": "{\n\t\"env\": {\"A\": \"1\"}\n}",
		"other hooks": `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
        ],
        "Stop": []
    },
    "mcpServers": {"other": {"command": "other-mcp"}}
}
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			out := roundTrip(t, src)
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			pre := v["hooks"].(map[string]any)["PreToolUse"].([]any)
			last := pre[len(pre)-1].(map[string]any)
			if last["matcher"] == nil || !strings.Contains(out, "gitwarrant hook claude") {
				t.Fatalf("gitwarrant group missing:\n%s", out)
			}
		})
	}
}

func TestJSONEditCopiesSiblingIndentation(t *testing.T) {
	src := "{\n    \"permissions\": {}\n}\n"
	out := roundTrip(t, src)
	if !strings.Contains(out, "\n    \"hooks\": {\n        \"PreToolUse\": [") {
		t.Fatalf("new member does not follow the file's 4-space indentation:\n%s", out)
	}
}

func TestJSONEditUpdatesOurGroupInPlace(t *testing.T) {
	d, _ := parseJSONDoc("s.json", []byte("{}"))
	for _, h := range []*HookCommands{NewHookCommands("", false), NewHookCommands("release", true)} {
		out, err := addHookGroup(d, "PreToolUse", h.groups()[0].group)
		if err != nil {
			t.Fatal(err)
		}
		d, _ = parseJSONDoc("s.json", out)
	}
	hooks, _ := d.root.member("hooks")
	arr, _ := hooks.member("PreToolUse")
	if len(arr.items) != 1 {
		t.Fatalf("want 1 group after re-install with other flags, got %d:\n%s", len(arr.items), d.data)
	}
	if !bytes.Contains(d.data, []byte("--loop release --strict")) || !bytes.Contains(d.data, []byte(`"onFailure": "block"`)) {
		t.Fatalf("group not updated to the pinned command:\n%s", d.data)
	}
}

func TestJSONEditLeavesMixedGroupsAlone(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"gitwarrant hook claude"},{"type":"command","command":"./mine.sh"}]}]}}`
	d, _ := parseJSONDoc("s.json", []byte(src))
	d2, removed, err := removeHookGroups(d, "PreToolUse")
	if err != nil || removed || string(d2.data) != src {
		t.Fatalf("a hand-written mixed group was touched: removed=%v err=%v\n%s", removed, err, d2.data)
	}
}

func TestMalformedJSONNamesLineAndColumn(t *testing.T) {
	src := "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n"
	_, err := parseJSONDoc(".claude/settings.json", []byte(src))
	if err == nil || !strings.Contains(err.Error(), ".claude/settings.json:3:20") {
		t.Fatalf("want an error at .claude/settings.json:3:20, got %v", err)
	}
}

func TestWrongShapeIsAnError(t *testing.T) {
	for _, src := range []string{`[]`, `{"hooks": []}`, `{"hooks": {"PreToolUse": {}}}`} {
		d, err := parseJSONDoc("s.json", []byte(src))
		if err == nil {
			_, err = addHookGroup(d, "PreToolUse", hookGroup{})
		}
		if err == nil || !strings.Contains(err.Error(), "s.json:1:") {
			t.Errorf("%s: want a positioned error, got %v", src, err)
		}
	}
}

// An empty container that gitwarrant's entry was the only item of is pruned
// on uninstall, whoever created it: JSON has no comments to tell. This is the
// one case where uninstall does not give back the bytes, and only for a
// container that held nothing.
func TestUninstallPrunesEmptiedContainers(t *testing.T) {
	d, _ := parseJSONDoc("s.json", []byte(`{"hooks": {"PreToolUse": [ ]}, "x": 1}`))
	out, _ := addHookGroup(d, "PreToolUse", NewHookCommands("", false).groups()[0].group)
	d, _ = parseJSONDoc("s.json", out)
	d, _, _ = removeHookGroups(d, "PreToolUse")
	if string(d.data) != `{"x": 1}` {
		t.Fatalf("got %s", d.data)
	}
}

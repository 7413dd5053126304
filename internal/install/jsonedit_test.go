package install

import (
	"encoding/json"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"path/filepath"
	"strings"
	"testing"
)

// roundTrip installs the gitwarrant hooks into a settings file holding
// src, checks that a second install changes nothing, then uninstalls and
// expects src back byte for byte. It returns the installed text.
func roundTrip(t *testing.T, src string) string {
	t.Helper()
	root := t.TempDir()
	path := filepath.Join(root, ".claude", "settings.json")
	write(t, path, src, 0o644)
	o := Options{Root: root, Hook: NewHookCommands(hook.Wiring{}, false)}
	for i := 0; i < 2; i++ {
		p, err := PlanInstall(o)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && len(p.Changes) != 0 {
			t.Fatalf("second install changed %s", p.Changes[0].Rel)
		}
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	installed := read(t, path)
	if _, err := parseJSONDoc("s.json", []byte(installed)); err != nil {
		t.Fatalf("install wrote invalid JSON: %v\n%s", err, installed)
	}
	p, err := PlanUninstall(UninstallOptions{Root: root, KeepMCP: true, KeepGitHooks: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if back := read(t, path); back != src {
		t.Fatalf("uninstall did not restore the original:\nwant %q\ngot  %q", src, back)
	}
	return installed
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

func TestJSONEditLeavesMixedGroupsAlone(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"gitwarrant hook claude"},{"type":"command","command":"./mine.sh"}]}]}}`
	d, _ := parseJSONDoc("s.json", []byte(src))
	d2, removed, _, err := removeHookGroups(d, "PreToolUse")
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
			_, err = addHookGroup(d, "PreToolUse", hookGroup{Hooks: []hookCmd{{}}}, created{})
		}
		if err == nil || !strings.Contains(err.Error(), "s.json:1:") {
			t.Errorf("%s: want a positioned error, got %v", src, err)
		}
	}
}

// Containers that were there before install, even empty ones, come back
// byte for byte; the ones install created go (the marker says which).
func TestUninstallKeepsEmptyContainersTheUserHad(t *testing.T) {
	for _, src := range []string{
		`{"hooks": {"PreToolUse": []}, "x": 1}`,
		"{\n  \"permissions\": {\"allow\": []},\n  \"hooks\": {}\n}",
		"{\n  \"hooks\": {\n    \"PostToolUse\": []\n  }\n}\n",
		`{"x": 1}`,
		"",
		"\n",
		" \n\n",
	} {
		roundTrip(t, src)
	}
}

// A settings file that starts with a byte order mark is refused, saying so.
func TestSettingsWithABOMSaysBOM(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".claude/settings.json"), "\ufeff{}\n", 0o644)
	_, err := PlanInstall(Options{Root: root, Hook: NewHookCommands(hook.Wiring{}, false)})
	if err == nil || !strings.Contains(err.Error(), "byte order mark (BOM)") || !strings.Contains(err.Error(), ".claude/settings.json:1:1") {
		t.Fatalf("want an error naming the BOM, got %v", err)
	}
}

// A key twice in one object is refused: install would edit the first,
// Claude Code reads the last.
func TestDuplicateKeysAreRefused(t *testing.T) {
	src := "{\n  \"hooks\": {},\n  \"hooks\": {\"PreToolUse\": []}\n}\n"
	if _, err := parseJSONDoc(".claude/settings.json", []byte(src)); err == nil || !strings.Contains(err.Error(), ".claude/settings.json:3:3") || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("want an error at .claude/settings.json:3:3 about the duplicate, got %v", err)
	}
}

package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// loadPayload reads a recorded payload from testdata with its cwd set.
func loadPayload(t testing.TB, name, cwd string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(data), "__CWD__", filepath.ToSlash(cwd)))
}

func TestMapRecordedPayloads(t *testing.T) {
	cwd := filepath.FromSlash("/w/proj")
	cases := []struct {
		file   string
		verb   loops.Verb
		target string
	}{
		{"bash", loops.Send, "git push origin main"},
		{"write", loops.Change, "docs/notes.md"},
		{"edit", loops.Change, "src/main.go"},
		{"multiedit", loops.Change, "src/util.go"},
		{"notebookedit", loops.Change, "analysis/report.ipynb"},
		{"read", loops.Read, "src/main.go"},
		{"grep", loops.Read, "TODO in src"},
		{"glob", loops.Read, "src/**/*.go"},
		{"webfetch", loops.Read, "https://pkg.go.dev/net/http"},
		{"websearch", loops.Read, "go http client timeout docs"},
		{"agent", loops.Send, "research flaky test"},
		{"mcp_github_create_issue", loops.Send, "github create_issue: acme widgets flaky test in CI TestFoo fails one run in ten. bug"},
		{"unknown", loops.Send, "TeleportFiles: production cluster"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p, err := Decode(loadPayload(t, c.file, cwd))
			if err != nil {
				t.Fatal(err)
			}
			verb, target, err := Map(p)
			if err != nil {
				t.Fatal(err)
			}
			if verb != c.verb || target != c.target {
				t.Errorf("Map = %s %q, want %s %q", verb, target, c.verb, c.target)
			}
		})
	}
}

func TestMapPathsOutsideTheProjectStayAbsolute(t *testing.T) {
	p := Payload{ToolName: "Write", Cwd: "/w/proj/sub", ToolInput: json.RawMessage(`{"file_path":"/w/proj/sub/../../other/x.go"}`)}
	if _, target, _ := MapIn(p, "/w/proj"); target != "/w/other/x.go" {
		t.Errorf("target = %q, want the cleaned absolute path", target)
	}
	p.ToolInput = json.RawMessage(`{"file_path":"/w/proj/src/a.go"}`)
	if _, target, _ := MapIn(p, "/w/proj"); target != "src/a.go" {
		t.Errorf("target = %q, want it relative to the project root", target)
	}
	p.ToolInput = json.RawMessage(`{"file_path":"b.go"}`)
	if _, target, _ := MapIn(p, "/w/proj"); target != "sub/b.go" {
		t.Errorf("relative path: target = %q, want sub/b.go", target)
	}
}

func TestMapRejectsMissingOrWrongFields(t *testing.T) {
	cases := map[string]string{
		"bash without command":  `{"tool_name":"Bash","tool_input":{"description":"x"}}`,
		"bash command a number": `{"tool_name":"Bash","tool_input":{"command":42}}`,
		"blank command":         `{"tool_name":"Bash","tool_input":{"command":"   "}}`,
		"write without path":    `{"tool_name":"Write","tool_input":{"content":"x"}}`,
		"edit path an array":    `{"tool_name":"Edit","tool_input":{"file_path":["a"]}}`,
		"grep without pattern":  `{"tool_name":"Grep","tool_input":{"path":"src"}}`,
		"grep path a bool":      `{"tool_name":"Grep","tool_input":{"pattern":"x","path":true}}`,
		"webfetch without url":  `{"tool_name":"WebFetch","tool_input":{"prompt":"x"}}`,
		"agent with nothing":    `{"tool_name":"Agent","tool_input":{}}`,
		"null tool_input":       `{"tool_name":"Bash","tool_input":null}`,
	}
	for name, in := range cases {
		p, err := Decode([]byte(in))
		if err != nil {
			t.Errorf("%s: Decode: %v", name, err)
			continue
		}
		if v, target, err := Map(p); err == nil {
			t.Errorf("%s: Map = %s %q, want an error", name, v, target)
		}
	}
}

func TestDecodeRejectsMalformedPayloads(t *testing.T) {
	cases := map[string]string{
		"empty":              "",
		"not json":           "hello",
		"array":              `[{"tool_name":"Bash"}]`,
		"truncated":          `{"tool_name":"Bash","tool_input":{"command":"ls"`,
		"trailing garbage":   `{"tool_name":"Bash","tool_input":{"command":"ls"}} x`,
		"missing tool_name":  `{"tool_input":{"command":"ls"}}`,
		"tool_name a number": `{"tool_name":7,"tool_input":{}}`,
		"tool_input string":  `{"tool_name":"Bash","tool_input":"ls"}`,
		"tool_input array":   `{"tool_name":"Bash","tool_input":["ls"]}`,
		"cwd an object":      `{"tool_name":"Bash","cwd":{},"tool_input":{"command":"ls"}}`,
	}
	for name, in := range cases {
		if p, err := Decode([]byte(in)); err == nil {
			t.Errorf("%s: Decode = %+v, want an error", name, p)
		}
	}
	big := `{"tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("a", MaxInput) + `"}}`
	if _, err := Decode([]byte(big)); err != ErrTooLarge {
		t.Errorf("oversized payload: err = %v, want ErrTooLarge", err)
	}
}

func TestDecodeIgnoresUnknownFields(t *testing.T) {
	p, err := Decode([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls","new_field":[1]},"scratchpad_dir":"/x","effort":{"level":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, target, err := Map(p); err != nil || target != "ls" {
		t.Errorf("Map = %q, %v", target, err)
	}
}

func TestHumanPartIsTruncatedAndMarked(t *testing.T) {
	long := strings.Repeat("word ", 400)
	p := Payload{ToolName: "mcp__mail__send", ToolInput: json.RawMessage(`{"to":"bob","body":"` + long + `"}`)}
	_, target, err := Map(p)
	if err != nil {
		t.Fatal(err)
	}
	if !Truncated(target) || !strings.HasPrefix(target, "mail send: bob word") {
		t.Errorf("target = %.80q…, want a marked truncation starting with the server, tool and first value", target)
	}
	short := Payload{ToolName: "mcp__mail__send", ToolInput: json.RawMessage(`{"to":"bob"}`)}
	if _, target, _ := Map(short); Truncated(target) {
		t.Errorf("short target %q marked truncated", target)
	}
}

func TestHumanPartReadsNestedValuesInKeyOrder(t *testing.T) {
	p := Payload{ToolName: "mcp__s__t", ToolInput: json.RawMessage(`{"z":"first","a":{"y":"second","b":["third",4,true]},"n":5}`)}
	if _, target, _ := Map(p); target != "s t: first second third" {
		t.Errorf("target = %q", target)
	}
}

func BenchmarkHookMap(b *testing.B) {
	data := loadPayload(b, "bash", "/w/proj")
	b.ReportAllocs()
	for b.Loop() {
		p, err := Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := Map(p); err != nil {
			b.Fatal(err)
		}
	}
}

package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

// TestTemplatesAndDocketHaveNoErrors: every template and every loop docket
// ships lints without an error (warnings are allowed: they are reported).
func TestTemplatesAndDocketHaveNoErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tm := range templates.List() {
		if err := os.WriteFile(filepath.Join(dir, tm.Name+loops.FileSuffix), tm.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{dir, "../../testdata/docket"} {
		files, err := Load([]string{d})
		if err != nil {
			t.Fatal(err)
		}
		if len(files) < 9 {
			t.Fatalf("%s: %d loop files", d, len(files))
		}
		for _, f := range Run(files, Options{}) {
			// Here examples decide by typed entries alone (Options with no
			// Examples): a deny the gate's own screens give (the secrets
			// screen for `echo "$AWS_SECRET_ACCESS_KEY"`) reads as ask.
			// testdata/script/lint_templates.txtar lints the same templates
			// through the gate, where each deny holds.
			if f.Check == "examples" && strings.Contains(f.Msg, "is listed under deny but gets ask") {
				continue
			}
			if f.Severity == Error {
				t.Errorf("%s:%d: %s [%s]", f.File, f.Line, f.Msg, f.Check)
			}
		}
	}
}

func TestFindings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name+loops.FileSuffix), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base", "---\nname: base\nabstract: true\nwarrant:\n  never: [wire funds]\n---\n")
	write("child", "---\nname: child\ndescription: pick up cold: source\nextends: base\nwarrant:\n  read: [notes]\n  draft: [summary]\n  send: [report to me, wire funds to vendors]\n---\n")
	write("orphan", "---\nname: orphan\nextends: nobody\n---\n")
	write("broken", "---\nname: broken\nwarrant:\n  nevr: [x]\n---\n")
	write("loop-a", "---\nname: loop-a\nextends: loop-b\n---\n")
	write("loop-b", "---\nname: loop-b\nextends: loop-a\n---\n")
	files, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Run(files, Options{}) {
		got = append(got, filepath.Base(f.File)+":"+itoa(f.Line)+" "+string(f.Severity)+" "+f.Check)
	}
	want := []string{
		"broken.loop.md:4 error parse",
		"child.loop.md:3 warning unquoted-colon",
		"child.loop.md:6 warning untyped-allow",
		"child.loop.md:7 warning tool-unusable",
		"child.loop.md:8 warning tool-unusable",
		"child.loop.md:8 warning tool-unusable",
		"child.loop.md:8 warning shadowed-allow",
		"child.loop.md:8 warning untyped-allow",
		"child.loop.md:8 warning untyped-allow",
		"loop-a.loop.md:3 error extends",
		"loop-b.loop.md:3 error extends",
		"orphan.loop.md:3 error extends",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	errs, warns := Count(Run(files, Options{}))
	if errs != 4 || warns != 8 {
		t.Errorf("count = %d errors, %d warnings", errs, warns)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestToolVerbsAgreeWithTheHook: the verbs lint says tool calls are checked
// as are the ones hook.Map produces for every kind of tool.
func TestToolVerbsAgreeWithTheHook(t *testing.T) {
	calls := map[string]string{
		"Read": `{"file_path":"a"}`, "Grep": `{"pattern":"x"}`, "Glob": `{"pattern":"*"}`, "LS": `{"path":"."}`,
		"WebFetch": `{"url":"https://x"}`, "WebSearch": `{"query":"x"}`,
		"Write": `{"file_path":"a"}`, "Edit": `{"file_path":"a"}`, "MultiEdit": `{"file_path":"a"}`,
		"NotebookEdit": `{"notebook_path":"a"}`, "Bash": `{"command":"ls"}`, "Task": `{"prompt":"x"}`,
		"mcp__srv__tool": `{"a":"b"}`, "SomethingNew": `{}`,
	}
	seen := map[loops.Verb]bool{}
	for tool, in := range calls {
		v, _, err := hook.Map(hook.Payload{ToolName: tool, ToolInput: json.RawMessage(in), Cwd: "/"})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if !slices.Contains(ToolVerbs, v) {
			t.Errorf("%s is checked as %s, which ToolVerbs leaves out", tool, v)
		}
		seen[v] = true
	}
	for _, v := range ToolVerbs {
		if !seen[v] {
			t.Errorf("ToolVerbs lists %s, which no tool call is checked as", v)
		}
	}
}

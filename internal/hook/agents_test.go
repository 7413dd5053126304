package hook

import (
	"encoding/json"
	"strings"
	"testing"
)

// claudeCall is one translated call, read back.
type claudeCall struct {
	Tool  string         `json:"tool_name"`
	Input map[string]any `json:"tool_input"`
	Cwd   string         `json:"cwd"`
	ID    string         `json:"tool_use_id"`
	Sess  string         `json:"session_id"`
}

func translated(t *testing.T, client, payload string) ([]claudeCall, Translated) {
	t.Helper()
	tr, err := Translate(client, "", []byte(payload))
	if err != nil {
		t.Fatalf("Translate(%s, %s): %v", client, payload, err)
	}
	var out []claudeCall
	for _, c := range tr.Calls {
		var cc claudeCall
		if err := json.Unmarshal(c, &cc); err != nil {
			t.Fatal(err)
		}
		out = append(out, cc)
	}
	return out, tr
}

// TestTranslate maps each client's calls onto the Claude Code call the gate
// decides — every path a call touches among them.
func TestTranslate(t *testing.T) {
	cases := []struct {
		name, client, payload string
		want                  []string // tool:path-or-command of each call
	}{
		{"codex bash", ClientCodex, `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}`, []string{"Bash:ls"}},
		{"codex patch, every file", ClientCodex, `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.go\n+x\n*** Update File: b.go\n@@\n-y\n+z\n*** Delete File: c.go\n*** Update File: d.go\n*** Move to: e.go\n@@\n-q\n+r\n*** End Patch"}}`,
			[]string{"Write:/p/a.go", "Edit:/p/b.go", "Edit:/p/c.go", "Edit:/p/d.go", "Write:/p/e.go"}},
		// A header with a leading space, or CRLF line ends, is a header.
		{"codex patch, hidden header", ClientCodex, "{\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":\"*** Begin Patch\\r\\n*** Add File: ok.md\\r\\n+x\\r\\n *** Add File: .gitwarrant/loops/x.loop.md\\r\\n+y\\r\\n*** End Patch\"}}",
			[]string{"Write:/p/ok.md", "Write:/p/.gitwarrant/loops/x.loop.md"}},
		// A content line that looks like a header is content.
		{"codex patch, header as content", ClientCodex, `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: notes.md\n+*** Add File: x\n*** End Patch"}}`,
			[]string{"Write:/p/notes.md"}},
		{"codex mcp", ClientCodex, `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"t"}}`, []string{"mcp__github__create_issue:"}},
		{"gemini shell in a folder", ClientGemini, `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make","dir_path":"sub"}}`, []string{"Bash:make@/p/sub"}},
		{"gemini read many", ClientGemini, `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":["a.md","**/.env"]}}`, []string{"Read:/p/a.md", "Read:/p/**/.env"}},
		{"gemini fetch each url", ClientGemini, `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"compare https://a.example/x and http://b.example"}}`, []string{"WebFetch:https://a.example/x", "WebFetch:http://b.example"}},
		{"gemini mcp by context", ClientGemini, `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"mcp_gh_create_issue","tool_input":{},"mcp_context":{"server_name":"gh","tool_name":"create_issue"}}`, []string{"mcp__gh__create_issue:"}},
		{"gemini unknown tool keeps its name", ClientGemini, `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"save_memory","tool_input":{"fact":"x"}}`, []string{"save_memory:"}},
		{"cursor shell", ClientCursor, `{"conversation_id":"k","hook_event_name":"beforeShellExecution","command":"ls","cwd":"/p"}`, []string{"Bash:ls"}},
		{"cursor read, root from workspace", ClientCursor, `{"conversation_id":"k","hook_event_name":"beforeReadFile","file_path":".env","workspace_roots":["/p"]}`, []string{"Read:/p/.env"}},
		{"cursor mcp input as a string", ClientCursor, `{"conversation_id":"k","hook_event_name":"beforeMCPExecution","tool_name":"query","tool_input":"{\"sql\":\"drop\"}"}`, []string{"mcp__cursor__query:"}},
		{"cursor pre delete", ClientCursor, `{"conversation_id":"k","hook_event_name":"preToolUse","tool_name":"Delete","tool_input":{"path":"x.go"},"cwd":"/p"}`, []string{"Edit:/p/x.go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls, _ := translated(t, c.client, c.payload)
			var got []string
			for _, cc := range calls {
				s := cc.Tool + ":"
				for _, k := range []string{"command", "file_path", "url"} {
					if v, ok := cc.Input[k].(string); ok {
						s += v
					}
				}
				if c.client == ClientGemini && cc.Tool == "Bash" && cc.Cwd != "/p" {
					s += "@" + cc.Cwd
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestTranslateRefuses: what cannot be read is an error — the caller asks —
// never an empty list of calls that would pass.
func TestTranslateRefuses(t *testing.T) {
	for _, c := range []struct{ client, payload string }{
		{ClientCodex, `not json`},
		{ClientCodex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"rm -rf /"}}`},
		{ClientCodex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** End Patch"}}`},
		{ClientGemini, `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"fetch the docs"}}`},
		{ClientGemini, `{"hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":[]}}`},
		{ClientGemini, `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":[1]}`},
		{ClientCursor, `{"hook_event_name":"beforeShellExecution","command":"  "}`},
		{ClientCursor, `{"hook_event_name":"beforeReadFile"}`},
	} {
		if tr, err := Translate(c.client, "", []byte(c.payload)); err == nil {
			t.Errorf("Translate(%s, %s) = %d calls, want an error", c.client, c.payload, len(tr.Calls))
		}
	}
}

// TestRenderPreBlocks: every verdict but allow, and every unknown verdict,
// is a block each client reads as one: exit 2 with a reason (Cursor's ask
// on a tool call is its own ask).
func TestRenderPreBlocks(t *testing.T) {
	for _, client := range Clients {
		for _, v := range []string{"deny", "ask", "", "maybe"} {
			r := RenderPre(client, "beforeReadFile", v, false, "")
			if r.Exit != 2 || strings.TrimSpace(r.Stderr) == "" {
				t.Errorf("%s %q: %+v, want exit 2 with a reason", client, v, r)
			}
		}
		if r := RenderPre(client, "", "allow", false, "ok"); r.Exit != 0 {
			t.Errorf("%s allow: %+v", client, r)
		}
	}
	if r := RenderPre(ClientCursor, "preToolUse", "ask", false, "why"); r.Exit != 0 || !strings.Contains(string(r.Stdout), `"permission":"ask"`) {
		t.Errorf("cursor ask: %+v", r)
	}
}

package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// The clients besides Claude Code whose hooks gitwarrant answers
// (docs/agents.md). Each sends its own payload; Translate turns it into the
// Claude Code payloads the gate already decides, and Render turns the
// gate's answer into what the client reads, so one gate decides every
// client's calls alike.
const (
	ClientCodex  = "codex"
	ClientGemini = "gemini"
	ClientCursor = "cursor"
)

// Clients lists the clients Translate knows, in the order install and
// doctor name them.
var Clients = []string{ClientCodex, ClientGemini, ClientCursor}

// Hook events as Translate reports them.
const (
	AgentPre    = "pre"    // a tool call is about to run
	AgentPrompt = "prompt" // the person submitted a prompt
	AgentOther  = "other"  // an event gitwarrant does not gate: answered with nothing
)

// Translated is one client payload in Claude Code's shape.
type Translated struct {
	Event string
	// Calls are PreToolUse payloads, one per action: a Codex apply_patch
	// touching three files is three calls, each decided on its own.
	Calls [][]byte
	// Prompt is a UserPromptSubmit payload (Event AgentPrompt).
	Prompt []byte
	// Inert says the tool touches nothing but the client's own state (a
	// to-do list, a question to the person): the client decides it.
	Inert bool
	// Gate is the hook event the client uses for this call, for Render:
	// Cursor answers beforeReadFile differently from beforeShellExecution.
	Gate string
}

// clientPayload is the union of the fields the three clients send.
type clientPayload struct {
	SessionID      string          `json:"session_id"`
	ConversationID string          `json:"conversation_id"` // Cursor
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"` // Cursor
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	PermissionMode string          `json:"permission_mode"`
	Prompt         string          `json:"prompt"`
	Command        string          `json:"command"`   // Cursor beforeShellExecution
	FilePath       string          `json:"file_path"` // Cursor beforeReadFile
	MCPContext     *struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context"` // Gemini
}

// Translate reads a client's hook payload. event is "" (take it from the
// payload's hook_event_name), AgentPre or AgentPrompt. An error means the
// payload cannot be read: the caller answers as for a call it cannot
// check.
func Translate(client, event string, data []byte) (Translated, error) {
	var p clientPayload
	if len(data) > MaxInput {
		return Translated{}, ErrTooLarge
	}
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return Translated{}, fmt.Errorf("hook payload is not a JSON object: %s sends one JSON object on stdin", clientName(client))
	}
	if err := json.Unmarshal(t, &p); err != nil {
		return Translated{}, fmt.Errorf("hook payload is not valid JSON: %v", describeJSONError(t, err))
	}
	if p.SessionID == "" {
		p.SessionID = p.ConversationID
	}
	if p.Cwd == "" && len(p.WorkspaceRoots) > 0 {
		p.Cwd = p.WorkspaceRoots[0]
	}
	if event == "" {
		event = eventOf(client, p.HookEventName)
	}
	out := Translated{Event: event, Gate: p.HookEventName}
	switch event {
	case AgentPrompt:
		out.Prompt, _ = json.Marshal(map[string]any{"session_id": p.SessionID, "cwd": p.Cwd,
			"hook_event_name": EventUserPromptSubmit, "prompt": p.Prompt})
		return out, nil
	case AgentPre:
	default:
		return Translated{Event: AgentOther, Gate: p.HookEventName}, nil
	}
	var calls []call
	var err error
	switch client {
	case ClientCodex:
		calls, err = codexCalls(p)
	case ClientGemini:
		calls, out.Inert, err = geminiCalls(p)
	case ClientCursor:
		calls, err = cursorCalls(p)
	default:
		return out, fmt.Errorf("unknown client %q (%s)", client, strings.Join(Clients, ", "))
	}
	if err != nil {
		return out, err
	}
	for _, c := range calls {
		cwd := p.Cwd
		if c.cwd != "" {
			cwd = c.cwd
		}
		b, err := json.Marshal(map[string]any{"session_id": p.SessionID, "cwd": cwd, "hook_event_name": "PreToolUse",
			"tool_name": c.tool, "tool_input": c.input, "tool_use_id": p.ToolUseID, "permission_mode": p.PermissionMode})
		if err != nil {
			return out, err
		}
		out.Calls = append(out.Calls, b)
	}
	return out, nil
}

func clientName(client string) string {
	return map[string]string{ClientCodex: "Codex", ClientGemini: "Gemini CLI", ClientCursor: "Cursor"}[client]
}

// eventOf maps a client's hook_event_name to the event gitwarrant answers.
func eventOf(client, name string) string {
	switch name {
	case "PreToolUse", "BeforeTool", "preToolUse", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution":
		return AgentPre
	case "UserPromptSubmit", "BeforeAgent", "beforeSubmitPrompt":
		return AgentPrompt
	}
	return AgentOther
}

// call is one Claude Code tool call: its tool, its input and, when the
// client runs it elsewhere than the session's folder, that folder.
type call struct {
	tool  string
	input map[string]any
	cwd   string
}

// inputMap decodes a tool_input; a Cursor MCP input may be a JSON string
// holding the object.
func inputMap(raw json.RawMessage) (map[string]any, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || isNull(t) {
		return map[string]any{}, nil
	}
	if t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, err
		}
		t = []byte(s)
		if !json.Valid(t) || !isObject(t) {
			return map[string]any{"input": s}, nil
		}
	}
	m := map[string]any{}
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, errors.New("tool_input is not a JSON object")
	}
	return m, nil
}

// strOf returns a string member of an input ("" when absent or not a string).
func strOf(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// codexCalls maps a Codex PreToolUse payload (Codex 0.171: Bash with
// {command}, apply_patch with {command: <patch>}, MCP tools as
// mcp__<server>__<tool>, spawn_agent).
func codexCalls(p clientPayload) ([]call, error) {
	in, err := inputMap(p.ToolInput)
	if err != nil {
		return nil, err
	}
	switch p.ToolName {
	case "apply_patch":
		patch := strOf(in, "command")
		if patch == "" {
			patch = strOf(in, "input")
		}
		return patchCalls(patch, p.Cwd)
	case "spawn_agent":
		return []call{{tool: "Agent", input: in}}, nil
	}
	return []call{{tool: p.ToolName, input: in}}, nil
}

// patchCalls turns an apply_patch envelope into one Write (Add File) or
// Edit (Update File, Delete File, and the old name of a move) per file, and
// a Write of a move's new name: every path the patch changes is decided.
func patchCalls(patch, cwd string) ([]call, error) {
	var out []call
	var cur *call
	add := func(tool, path string) {
		out = append(out, call{tool: tool, input: map[string]any{"file_path": absPath(path, cwd)}})
		cur = &out[len(out)-1]
	}
	sawBegin := false
	for _, raw := range strings.Split(patch, "\n") {
		raw = strings.TrimRight(raw, "\r")
		// Headers are read with their spaces trimmed: a header the
		// client's parser accepts with a leading space must not pass as a
		// context line here (a content line starts with + or -).
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(raw, "+") || strings.HasPrefix(raw, "-") {
			line = raw
		}
		switch {
		case line == "*** Begin Patch":
			sawBegin = true
		case strings.HasPrefix(line, "*** Add File: "):
			add("Write", strings.TrimPrefix(line, "*** Add File: "))
			cur.input["content"] = ""
		case strings.HasPrefix(line, "*** Update File: "):
			add("Edit", strings.TrimPrefix(line, "*** Update File: "))
			cur.input["old_string"], cur.input["new_string"] = "", ""
		case strings.HasPrefix(line, "*** Delete File: "):
			add("Edit", strings.TrimPrefix(line, "*** Delete File: "))
			cur.input["old_string"], cur.input["new_string"] = "", ""
		case strings.HasPrefix(line, "*** Move to: "):
			add("Write", strings.TrimPrefix(line, "*** Move to: "))
			cur.input["content"] = ""
		case cur != nil && cur.tool == "Write" && strings.HasPrefix(line, "+"):
			cur.input["content"] = cur.input["content"].(string) + line[1:] + "\n"
		case cur != nil && cur.tool == "Edit" && (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")):
			key := map[byte]string{'+': "new_string", '-': "old_string"}[line[0]]
			cur.input[key] = cur.input[key].(string) + line[1:] + "\n"
		}
	}
	if !sawBegin || len(out) == 0 {
		return nil, errors.New("apply_patch: tool_input.command is not a patch that names a file (*** Begin Patch / *** Add|Update|Delete File:), so the call cannot be checked")
	}
	return out, nil
}

func absPath(path, cwd string) string {
	path = strings.TrimSpace(path)
	if path == "" || filepath.IsAbs(path) || cwd == "" {
		return path
	}
	return filepath.Join(cwd, path)
}

// geminiInert are Gemini CLI tools that change nothing but the client's
// own state; the client decides them.
var geminiInert = map[string]bool{"write_todos": true, "update_topic": true, "ask_user": true,
	"enter_plan_mode": true, "exit_plan_mode": true, "complete_task": true, "get_internal_docs": true}

// urlPattern is compiled on first use: every hook process initialises this
// package, few read a web_fetch prompt (docs/performance.md#start-up).
var urlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>)\]]+`) })

// geminiCalls maps a Gemini CLI BeforeTool payload (Gemini CLI 0.61: tool
// names and parameters as in its tool registry).
func geminiCalls(p clientPayload) ([]call, bool, error) {
	in, err := inputMap(p.ToolInput)
	if err != nil {
		return nil, false, err
	}
	path := func(key string) string { return absPath(strOf(in, key), p.Cwd) }
	switch p.ToolName {
	case "run_shell_command":
		c := call{tool: "Bash", input: map[string]any{"command": in["command"]}}
		if d := strOf(in, "dir_path"); d != "" {
			c.cwd = absPath(d, p.Cwd)
		}
		return []call{c}, false, nil
	case "read_file":
		return []call{{tool: "Read", input: map[string]any{"file_path": path("file_path")}}}, false, nil
	case "write_file":
		return []call{{tool: "Write", input: map[string]any{"file_path": path("file_path"), "content": in["content"]}}}, false, nil
	case "replace":
		return []call{{tool: "Edit", input: map[string]any{"file_path": path("file_path"), "old_string": in["old_string"], "new_string": in["new_string"]}}}, false, nil
	case "read_many_files":
		var out []call
		list, _ := in["include"].([]any)
		for _, v := range list {
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, call{tool: "Read", input: map[string]any{"file_path": absPath(s, p.Cwd)}})
			}
		}
		if len(out) == 0 {
			return nil, false, errors.New("read_many_files: tool_input.include names no file, so the call cannot be checked")
		}
		return out, false, nil
	case "glob":
		c := map[string]any{"pattern": in["pattern"]}
		if d := path("dir_path"); d != "" {
			c["path"] = d
		}
		return []call{{tool: "Glob", input: c}}, false, nil
	case "grep_search", "search_file_content":
		c := map[string]any{"pattern": in["pattern"]}
		if d := path("dir_path"); d != "" {
			c["path"] = d
		}
		if g := strOf(in, "include_pattern"); g != "" {
			c["glob"] = g
		}
		return []call{{tool: "Grep", input: c}}, false, nil
	case "list_directory":
		return []call{{tool: "LS", input: map[string]any{"path": path("dir_path")}}}, false, nil
	case "web_fetch":
		var out []call
		for _, u := range urlPattern().FindAllString(strOf(in, "prompt"), -1) {
			out = append(out, call{tool: "WebFetch", input: map[string]any{"url": u, "prompt": strOf(in, "prompt")}})
		}
		if len(out) == 0 {
			return nil, false, errors.New("web_fetch: tool_input.prompt names no http(s) URL, so the call cannot be checked")
		}
		return out, false, nil
	case "google_web_search":
		return []call{{tool: "WebSearch", input: map[string]any{"query": in["query"]}}}, false, nil
	}
	if geminiInert[p.ToolName] {
		return nil, true, nil
	}
	if p.MCPContext != nil && p.MCPContext.ServerName != "" {
		return []call{{tool: "mcp__" + p.MCPContext.ServerName + "__" + p.MCPContext.ToolName, input: in}}, false, nil
	}
	if rest, ok := strings.CutPrefix(p.ToolName, "mcp_"); ok {
		if server, tool, ok := strings.Cut(rest, "_"); ok {
			return []call{{tool: "mcp__" + server + "__" + tool, input: in}}, false, nil
		}
	}
	return []call{{tool: p.ToolName, input: in}}, false, nil
}

// cursorTools maps Cursor's preToolUse tool names to Claude Code's.
var cursorTools = map[string]string{"Shell": "Bash", "Read": "Read", "Write": "Write", "Edit": "Edit",
	"StrReplace": "Edit", "MultiEdit": "MultiEdit", "Delete": "Edit", "Grep": "Grep", "Glob": "Glob",
	"LS": "LS", "WebFetch": "WebFetch", "WebSearch": "WebSearch", "Task": "Agent"}

// cursorCalls maps Cursor's beforeShellExecution, beforeReadFile,
// beforeMCPExecution and preToolUse payloads (docs/agents.md#the-mapping).
func cursorCalls(p clientPayload) ([]call, error) {
	switch p.HookEventName {
	case "beforeShellExecution":
		if strings.TrimSpace(p.Command) == "" {
			return nil, errors.New("beforeShellExecution: the payload has no command, so the call cannot be checked")
		}
		return []call{{tool: "Bash", input: map[string]any{"command": p.Command}}}, nil
	case "beforeReadFile":
		if strings.TrimSpace(p.FilePath) == "" {
			return nil, errors.New("beforeReadFile: the payload has no file_path, so the call cannot be checked")
		}
		return []call{{tool: "Read", input: map[string]any{"file_path": absPath(p.FilePath, p.Cwd)}}}, nil
	case "beforeMCPExecution":
		in, err := inputMap(p.ToolInput)
		if err != nil {
			return nil, err
		}
		// Cursor names the tool but not its server: no typed mcp__<server>__
		// entry can allow it, so it asks unless a loop stops it first.
		return []call{{tool: "mcp__cursor__" + p.ToolName, input: in}}, nil
	}
	in, err := inputMap(p.ToolInput)
	if err != nil {
		return nil, err
	}
	if rest, ok := strings.CutPrefix(p.ToolName, "MCP:"); ok {
		return []call{{tool: "mcp__cursor__" + rest, input: in}}, nil
	}
	tool, ok := cursorTools[p.ToolName]
	if !ok {
		tool = p.ToolName
	}
	if _, has := in["file_path"]; !has {
		if v, ok := in["path"].(string); ok && tool != "Grep" && tool != "Glob" && tool != "LS" {
			in["file_path"] = v
		}
	}
	if fp, ok := in["file_path"].(string); ok {
		in["file_path"] = absPath(fp, p.Cwd)
	}
	return []call{{tool: tool, input: in}}, nil
}

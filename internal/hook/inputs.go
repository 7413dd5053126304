package hook

import (
	"encoding/json"
	"strings"
	"sync"
)

// Field is one member of a tool_input, in input order, duplicates kept.
type Field struct {
	Key string
	Raw json.RawMessage
}

// Fields decodes a tool_input into its members in order (see parseObject).
func Fields(raw json.RawMessage) ([]Field, error) {
	obj, err := parseObject(raw)
	out := make([]Field, len(obj))
	for i, f := range obj {
		out[i] = Field{f.key, f.raw}
	}
	return out, err
}

// StringsOf returns every string member called one of keys, duplicates
// included: a second "command" or "file_path" must not slip past because
// some reader of the payload takes another member than the gate does.
func StringsOf(raw json.RawMessage, keys ...string) []string {
	obj, err := parseObject(raw)
	if err != nil {
		return nil
	}
	return obj.all(keys...)
}

// AllStrings lists every string value in a tool_input, depth first.
func AllStrings(raw json.RawMessage) []string {
	obj, err := parseObject(raw)
	if err != nil {
		return nil
	}
	return stringValues(obj, 0)
}

// all returns every string member called one of keys, duplicates included.
func (o object) all(keys ...string) []string {
	var out []string
	for _, f := range o {
		for _, k := range keys {
			if f.key == k {
				var s string
				if json.Unmarshal(f.raw, &s) == nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// Tool kinds (docs/design.md#enforcement-surfaces).
const (
	KindRead   = "read"
	KindChange = "change"
	KindShell  = "shell"
	KindAgent  = "agent"
	KindMCP    = "mcp"
	KindOther  = "other"
)

// Kind returns the canonical name of a tool (case ignored: `bash` is Bash)
// and its kind.
func Kind(name string) (string, string) {
	for _, k := range []struct {
		set  map[string]bool
		kind string
	}{{changeTools(), KindChange}, {shellTools(), KindShell}, {readTools(), KindRead}} {
		for t := range k.set {
			if strings.EqualFold(t, name) {
				return t, k.kind
			}
		}
	}
	switch {
	case strings.EqualFold(name, "Agent"), strings.EqualFold(name, "Task"):
		return name, KindAgent
	case strings.HasPrefix(name, "mcp__"):
		return name, KindMCP
	}
	return name, KindOther
}

// PathKeys are the tool_input members that name the file a tool touches.
var PathKeys = []string{"file_path", "notebook_path", "path"}

// ShellKeys are argument names under which a tool takes a shell command.
var ShellKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"command": true, "cmd": true, "script": true, "shell": true, "code": true, "commandline": true}
})

// ToolWrites reports whether an MCP or unknown tool's name says it may
// change something: a name that does not say it only reads counts as
// writing (fail toward the human).
func ToolWrites(name string) bool {
	if _, t := splitMCP(name); strings.HasPrefix(name, "mcp__") && t != "" {
		name = t // the server's name says nothing about what the tool does
	}
	lname := strings.ToLower(name)
	return containsAny(lname, writeWords) || !containsAny(lname, readWords)
}

// SplitMCP splits `mcp__<server>__<tool>`.
func SplitMCP(tool string) (server, name string) { return splitMCP(tool) }

package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// writeWords mark an MCP or unknown tool whose name says it changes
// something (mcp__filesystem__write_file, edit_file, move_file, …).
var writeWords = []string{"write", "edit", "create", "move", "delete", "remove", "rename",
	"update", "put", "patch", "set", "append", "copy", "upload", "replace", "save", "modify"}

// tool decides an MCP or unknown tool: one whose name says it writes, and
// whose arguments name a protected place (a path string, checked like a
// file write, or any string mentioning one), is denied. A filesystem MCP
// server must not become the side door the Write tool is not.
func (g guard) tool(name string, in object) (string, bool) {
	lname := strings.ToLower(name)
	writing := false
	for _, w := range writeWords {
		if strings.Contains(lname, w) {
			writing = true
			break
		}
	}
	if !writing {
		return "", false
	}
	for _, s := range stringValues(in, 0) {
		if why, hit := g.path(s); hit && looksLikePath(s) {
			return why, true
		}
		low := strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
		if m := g.mentioned(low); m != "" {
			return "the tool " + name + " writes and its arguments name " + m + "; the loops, the record, the git hooks and the hook settings are changed by a person", true
		}
	}
	return "", false
}

func looksLikePath(s string) bool {
	return !strings.ContainsAny(s, "\n") && (strings.Contains(s, "/") || strings.Contains(s, `\`) || strings.HasPrefix(s, "."))
}

// stringValues lists every string in an object, depth first.
func stringValues(in object, depth int) []string {
	var out []string
	for _, f := range in {
		out = append(out, rawStrings(f.raw, depth+1)...)
	}
	return out
}

func rawStrings(raw json.RawMessage, depth int) []string {
	t := bytes.TrimSpace(raw)
	if depth > maxHumanDepth || len(t) == 0 {
		return nil
	}
	switch t[0] {
	case '"':
		var s string
		if json.Unmarshal(t, &s) == nil {
			return []string{s}
		}
	case '{':
		if obj, err := parseObject(t); err == nil {
			return stringValues(obj, depth)
		}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(t, &items) == nil {
			var out []string
			for _, it := range items {
				out = append(out, rawStrings(it, depth+1)...)
			}
			return out
		}
	}
	return nil
}

package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// writeWords mark an MCP or unknown tool whose name says it changes
// something (mcp__filesystem__write_file, edit_file, move_file, …).
var writeWords = []string{"write", "edit", "create", "move", "delete", "remove", "rename",
	"update", "put", "patch", "set", "append", "copy", "upload", "replace", "save", "modify",
	"mv", "cp", "rm", "mkdir", "touch", "chmod", "link", "exec", "run", "shell", "bash",
	"command", "terminal", "script", "eval", "apply", "commit", "push", "install"}

// readWords mark a tool whose name says it only reads. A tool whose name
// says neither is treated as writing (docs/design.md#enforcement-surfaces: fail toward the human).
var readWords = []string{"read", "get", "list", "search", "find", "view", "show", "stat",
	"info", "fetch", "query", "describe", "diff", "log", "status", "grep", "glob", "ls", "cat", "tree"}

// containsAny reports whether a tool name holds one of words: words of up
// to three letters (mv, rm, get, run) only as a whole part of the name
// between _ - . or spaces, longer ones anywhere (write_file, FileWriter).
func containsAny(name string, words []string) bool {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	for _, w := range words {
		if len(w) > 3 && strings.Contains(name, w) {
			return true
		}
		for _, p := range parts {
			if p == w {
				return true
			}
		}
	}
	return false
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

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

// shellKeys are argument names under which a tool takes a shell command.
var shellKeys = map[string]bool{"command": true, "cmd": true, "script": true, "shell": true, "code": true, "commandline": true}

// tool decides an MCP or unknown tool: one whose name does not say it
// only reads (so `mcp__fs__mv` and `FooTool` count as writing), and
// whose arguments name a protected place (a path string, checked like a
// file write, or any string mentioning one), is denied. A filesystem MCP
// server must not become the side door the Write tool is not.
func (g guard) tool(name string, in object) (string, bool) {
	if _, t := splitMCP(name); strings.HasPrefix(name, "mcp__") && t != "" {
		name = t // the server's name says nothing about what the tool does
	}
	lname := strings.ToLower(name)
	if !containsAny(lname, writeWords) && containsAny(lname, readWords) {
		return "", false
	}
	// A tool that takes a shell command (an MCP "execute_command") gets the
	// same shell analysis as Bash.
	for _, f := range in {
		var s string
		if shellKeys[strings.ToLower(f.key)] && json.Unmarshal(f.raw, &s) == nil {
			if why, hit := g.shell(s); hit {
				return "the tool " + name + " runs a shell command and " + why, true
			}
		}
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

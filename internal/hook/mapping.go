package hook

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Tool kinds, by the verb they check as (docs/design.md#enforcement-surfaces: read-shaped tools check
// as read, file-writing tools as change, everything else as send — the most
// consequential verb, so an unknown tool falls toward ask, never allow).
var (
	readTools = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"Read": true, "Grep": true, "Glob": true, "LS": true, "NotebookRead": true, "WebFetch": true, "WebSearch": true}
	})
	changeTools = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}
	})
	shellTools = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"Bash": true, "PowerShell": true}
	})
)

// Map turns a tool call into the warrant check it stands for: a verb and the
// human part of the input as the target (docs/design.md#enforcement-surfaces). Paths are made
// relative to the payload's cwd when they lie inside it.
func Map(p Payload) (loops.Verb, string, error) {
	return MapIn(p, "")
}

// MapIn is Map with paths made relative to root (the project root) when
// they lie inside it, else to the payload's cwd, so a warrant pattern such
// as `src/` matches whichever directory Claude Code happens to be in.
func MapIn(p Payload, root string) (loops.Verb, string, error) {
	tool := p.ToolName
	in, err := parseObject(p.ToolInput)
	if err != nil {
		return "", "", fmt.Errorf("%s: %v", tool, err)
	}
	switch {
	case shellTools()[tool]:
		cmd, err := in.need(tool, "command")
		return loops.Send, strings.TrimSpace(cmd), err
	case changeTools()[tool]:
		path, err := in.need(tool, pathKey(tool))
		return loops.Change, relPath(path, p.Cwd, root), err
	case readTools()[tool]:
		target, err := readTarget(tool, in, p.Cwd, root)
		return loops.Read, target, err
	case tool == "Agent" || tool == "Task":
		target, err := agentTarget(tool, in)
		return loops.Send, target, err
	case strings.HasPrefix(tool, "mcp__"):
		server, name := splitMCP(tool)
		head := strings.TrimSpace(server + " " + name)
		if head == "" {
			head = tool
		}
		return loops.Send, joinHuman(head, in.human()), nil
	}
	return loops.Send, joinHuman(tool, in.human()), nil
}

// pathKey is the tool_input member that names the file a tool touches.
func pathKey(tool string) string {
	if strings.HasPrefix(tool, "Notebook") {
		return "notebook_path"
	}
	return "file_path"
}

func readTarget(tool string, in object, cwd, root string) (string, error) {
	switch tool {
	case "Read", "NotebookRead":
		path, err := in.need(tool, pathKey(tool))
		return relPath(path, cwd, root), err
	case "LS":
		path, err := in.need(tool, "path")
		return relPath(path, cwd, root), err
	case "WebFetch":
		return in.need(tool, "url")
	case "WebSearch":
		return in.need(tool, "query")
	}
	// Grep and Glob: the pattern, and where it is looked for.
	pattern, err := in.need(tool, "pattern")
	if err != nil {
		return "", err
	}
	path, ok, err := in.str(tool, "path")
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(path) != "" {
		return pattern + " in " + relPath(path, cwd, root), nil
	}
	return pattern, nil
}

// agentTarget is a sub-agent's description, or the start of its prompt
// when an older client sent none.
func agentTarget(tool string, in object) (string, error) {
	desc, ok, err := in.str(tool, "description")
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(desc) != "" {
		return strings.TrimSpace(desc), nil
	}
	prompt, err := in.need(tool, "prompt")
	if err != nil {
		return "", fmt.Errorf("%s: tool_input has neither a description nor a prompt, so the call cannot be checked", tool)
	}
	var h humanText
	h.addString(prompt)
	return h.String(), nil
}

// splitMCP splits `mcp__<server>__<tool>`. Server names may hold single
// underscores; the first double underscore after the prefix ends them.
func splitMCP(tool string) (server, name string) {
	rest := strings.TrimPrefix(tool, "mcp__")
	if i := strings.Index(rest, "__"); i >= 0 {
		return rest[:i], rest[i+2:]
	}
	return rest, ""
}

func joinHuman(head, human string) string {
	head = strings.TrimSpace(head)
	if human == "" {
		return head
	}
	return head + ": " + human
}

// relPath shows path relative to root (else cwd) when it lies inside, with
// forward slashes, so `src/main.go` reads the same on every platform.
// Anything outside stays absolute: `../../etc/passwd` would hide where it is.
func relPath(path, cwd, root string) string {
	p := path
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	for _, base := range []string{root, cwd} {
		if base == "" || !filepath.IsAbs(p) {
			continue
		}
		if rel, err := filepath.Rel(filepath.Clean(base), p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

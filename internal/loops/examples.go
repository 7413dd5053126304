package loops

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Example is one tool call a loop says its warrant decides a stated way
// (docs/typed-entries.md#examples), written as `Bash(git push origin main)`,
// `Edit(.env)`, `WebFetch(https://go.dev/doc)` or `mcp__github__get_issue`.
type Example struct {
	Expect Verdict // Allow, Ask or Deny
	Text   string  // as written
	Tool   string  // the Claude Code tool name: Bash, Read, Write, …
	Arg    string  // the text between the parentheses
	Line   int
}

// exampleKeys are the lists of `examples:`, by the verdict each expects.
var exampleKeys = []string{"allow", "ask", "deny"}

// exampleTools maps each tool an example may name to the tool_input
// member its argument fills.
var exampleTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Bash": "command", "Read": "file_path", "Write": "file_path", "Edit": "file_path",
		"MultiEdit": "file_path", "NotebookRead": "notebook_path", "NotebookEdit": "notebook_path",
		"LS": "path", "Glob": "pattern", "Grep": "pattern", "WebFetch": "url", "WebSearch": "query",
	}
})

// ParseExample reads one example; expect is the verdict it must get.
func ParseExample(text string, expect Verdict) (Example, error) {
	s := strings.TrimSpace(text)
	e := Example{Expect: expect, Text: s}
	if strings.HasPrefix(s, "mcp__") {
		name, _, _ := strings.Cut(s, "(")
		if strings.Count(name, "__") < 2 || strings.ContainsAny(name, " *") {
			return e, fmt.Errorf("example %q: write an MCP call as mcp__<server>__<tool>", s)
		}
		e.Tool = name
		return e, nil
	}
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return e, fmt.Errorf("example %q: write a tool call as Tool(argument), e.g. Bash(go test ./...) or Edit(src/main.go)", s)
	}
	e.Tool, e.Arg = s[:open], s[open+1:len(s)-1]
	if _, ok := exampleTools()[e.Tool]; !ok {
		names := make([]string, 0, len(exampleTools()))
		for n := range exampleTools() {
			names = append(names, n)
		}
		sort.Strings(names)
		return e, fmt.Errorf("example %q: unknown tool %q (use one of %s, or mcp__<server>__<tool>)", s, e.Tool, strings.Join(names, ", "))
	}
	if strings.TrimSpace(e.Arg) == "" {
		return e, fmt.Errorf("example %q has no argument", s)
	}
	return e, nil
}

// Input returns the example as a Claude Code tool_input object.
func (e Example) Input() map[string]any {
	in := map[string]any{}
	switch e.Tool {
	case "Write":
		in["content"] = ""
	case "Edit":
		in["old_string"], in["new_string"] = "a", "b"
	case "MultiEdit":
		in["edits"] = []any{map[string]any{"old_string": "a", "new_string": "b"}}
	case "NotebookEdit":
		in["new_source"] = ""
	}
	if key, ok := exampleTools()[e.Tool]; ok {
		in[key] = e.Arg
	}
	return in
}

// examples decodes the `examples:` map of allow, ask and deny lists.
func (c *checker) examples(v *yaml.Node) ([]Example, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, c.errf(v.Line, "examples must be a map of lists",
			"write `examples:` then indented `allow:`, `ask:` and `deny:` lists of tool calls such as `- Bash(git push origin main)`")
	}
	var out []Example
	err := c.eachPair(v, exampleKeys, "examples list", func(key string, _, lv *yaml.Node) error {
		items, err := c.list(lv, "examples."+key)
		if err != nil {
			return err
		}
		for _, it := range items {
			e, err := ParseExample(it.Text, Verdict(key))
			if err != nil {
				return c.errf(it.Line-c.off, err.Error(), "see docs/typed-entries.md#examples")
			}
			e.Line = it.Line
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

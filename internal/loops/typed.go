package loops

import (
	"fmt"
	"strings"
)

// This file parses typed warrant entries (docs/typed-entries.md#the-syntax):
// entries that name tool calls — `Read(src/**)`, `Edit(*.go)`,
// `Bash(go test *)`, `WebFetch(domain:go.dev)`, `WebSearch`,
// `mcp__github__get_issue` — instead of describing work in words. They are
// plain strings in the spec's lists, so docket still reads the file.

// Tool kinds a typed entry can name.
const (
	ToolRead      = "Read"
	ToolEdit      = "Edit"
	ToolBash      = "Bash"
	ToolWebFetch  = "WebFetch"
	ToolWebSearch = "WebSearch"
	ToolMCP       = "mcp"
)

// Typed is one parsed typed entry.
type Typed struct {
	Tool string // ToolRead … ToolMCP
	Text string // the entry as written
	Line int    // its loop-file line (0 when parsed outside a file)
	List string // the warrant list it sits in ("read" … "never"), "" outside a loop

	path *pathPattern // Read, Edit
	cmd  *cmdPattern  // Bash
	host string       // WebFetch: normalised host, without "*." when suffix
	wild bool         // WebFetch: *.host; mcp: any tool of the server
	srv  string       // mcp server ("*" for the catch-all mcp__*)
	name string       // mcp tool
}

// typedHeads are the names that open a `Name(…)` typed entry.
var typedHeads = []string{ToolRead, ToolEdit, ToolBash, ToolWebFetch}

// LooksTyped reports whether an entry is written as a typed entry (and so
// must parse as one): `Read(`, `Edit(`, `Bash(`, `WebFetch(` … `)`,
// `WebSearch`, or `mcp__…`. Anything else is a natural-language entry.
func LooksTyped(text string) bool {
	s := strings.TrimSpace(text)
	if s == ToolWebSearch || strings.HasPrefix(s, "mcp__") {
		return true
	}
	for _, h := range typedHeads {
		if strings.HasPrefix(s, h+"(") {
			return true
		}
	}
	return false
}

// ParseTyped parses one typed entry. It returns nil and no error for a
// natural-language entry, and an error saying what to write for an entry
// that looks typed but is malformed.
func ParseTyped(text string) (*Typed, error) {
	s := strings.TrimSpace(text)
	if !LooksTyped(s) {
		return nil, nil
	}
	t := &Typed{Text: s}
	var err error
	switch {
	case s == ToolWebSearch:
		t.Tool = ToolWebSearch
	case strings.HasPrefix(s, "mcp__"):
		t.Tool = ToolMCP
		err = t.parseMCP(s)
	default:
		open := strings.IndexByte(s, '(')
		t.Tool = s[:open]
		if !strings.HasSuffix(s, ")") {
			return nil, fmt.Errorf("typed entry %q does not end with `)`: write %s(<%s>)", s, t.Tool, argName(t.Tool))
		}
		arg := s[open+1 : len(s)-1]
		if strings.TrimSpace(arg) == "" {
			return nil, fmt.Errorf("typed entry %q is empty: write %s(<%s>)", s, t.Tool, argName(t.Tool))
		}
		switch t.Tool {
		case ToolRead, ToolEdit:
			t.path, err = parsePathPattern(arg)
		case ToolBash:
			t.cmd, err = parseCmdPattern(arg)
		case ToolWebFetch:
			err = t.parseDomain(arg)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("typed entry %q: %v", s, err)
	}
	return t, nil
}

func argName(tool string) string {
	switch tool {
	case ToolBash:
		return "command"
	case ToolWebFetch:
		return "domain:host"
	}
	return "path"
}

// parseMCP reads `mcp__<server>__<tool>` or `mcp__<server>__*`.
func (t *Typed) parseMCP(s string) error {
	rest := strings.TrimPrefix(s, "mcp__")
	if rest == "*" {
		t.srv, t.wild = "*", true
		return nil
	}
	i := strings.Index(rest, "__")
	if i <= 0 || i+2 >= len(rest) {
		return fmt.Errorf("write mcp__<server>__<tool> or mcp__<server>__*")
	}
	t.srv, t.name = rest[:i], rest[i+2:]
	if t.name == "*" {
		t.wild, t.name = true, ""
	}
	for _, part := range []string{t.srv, t.name} {
		if strings.ContainsAny(part, "*() \t") {
			return fmt.Errorf("server and tool names are plain words; only a whole final `*` means any tool")
		}
	}
	return nil
}

// CatchAll reports why an entry grants everything of its kind, or "" when
// it does not (docs/typed-entries.md#catch-alls). A catch-all in an allow
// list allows nothing; lint refuses it.
func (t *Typed) CatchAll() string {
	switch t.Tool {
	case ToolBash:
		return t.cmd.catchAll()
	case ToolRead, ToolEdit:
		if t.path.outside() && allStars(t.path.glob) {
			return "it names every file outside the repository"
		}
	case ToolMCP:
		if t.srv == "*" {
			return "it names every tool of every MCP server"
		}
	}
	return ""
}

// Words returns a Bash entry's literal words before its first pattern, or
// nil for an entry of another tool: every command it names opens with them.
func (t *Typed) Words() []string {
	if t.Tool != ToolBash || t.cmd == nil {
		return nil
	}
	var out []string
	for _, a := range t.cmd.args {
		if a.Glob {
			break
		}
		out = append(out, a.Text)
	}
	return out
}

// OpenEnded reports a Bash entry that names more than its literal words:
// a final ` *`, or a pattern among its words.
func (t *Typed) OpenEnded() bool {
	return t.Tool == ToolBash && t.cmd != nil && (t.cmd.rest || len(t.Words()) < len(t.cmd.args))
}

func allStars(p string) bool {
	return strings.Trim(p, "*/") == ""
}

// TypedIn returns the typed entries of the warrant's lists, each with its
// list and line, in file order (read, draft, change, send, ask, never).
// Entries that do not parse are skipped: Parse has already refused them.
func (w *Warrant) TypedIn(lists ...string) []*Typed {
	if len(lists) == 0 {
		lists = Lists
	}
	var out []*Typed
	for _, name := range lists {
		for _, it := range w.List(name) {
			t := it.typed
			if t == nil && it.lazy != nil {
				t = it.lazy.get(it.Text)
			}
			if t != nil {
				cp := *t
				t = &cp
			} else if parsed, err := ParseTyped(it.Text); err == nil {
				t = parsed
			}
			if t == nil {
				continue
			}
			t.Line, t.List = it.Line, name
			out = append(out, t)
		}
	}
	return out
}

// checkTyped refuses a warrant entry that looks typed but does not parse,
// naming its line (called from the frontmatter decoder).
func (c *checker) checkTyped(items []Item, field string) error {
	for i, it := range items {
		t, err := ParseTyped(it.Text)
		if err != nil {
			return c.errf(it.Line-c.off, fmt.Sprintf("%s: %v", field, err),
				"see docs/typed-entries.md; write it as natural language if it is not meant to name a tool call")
		}
		items[i].typed = t
	}
	return nil
}

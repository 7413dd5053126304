package loops

// Call is one unit of a tool call as typed entries see it
// (docs/typed-entries.md#rules-of-meaning): a file read or edit, one simple
// command of a Bash call, a fetched host, a web search or an MCP tool.
type Call struct {
	Kind string   // ToolRead, ToolEdit, ToolBash, ToolWebFetch, ToolWebSearch or ToolMCP
	Path FilePath // Read, Edit
	// Glob is a search pattern relative to Path (Grep's glob, Glob's
	// pattern): a Read entry must cover it as well as Path.
	Glob string
	// Tree is true for a read of everything below Path (grep -r, rg, tar
	// -c of a directory): ask and never entries screen it as every path it
	// could read.
	Tree bool
	Cmd  Command // Bash
	Host string  // WebFetch: normalised by URLHost
	MCP  string  // the MCP tool name, mcp__<server>__<tool>
}

// AllowLists are the lists whose typed entries allow calls: a typed entry
// allows the calls it names in whichever of them it sits.
var AllowLists = []string{"read", "draft", "change", "send"}

// Allows reports whether the typed entry, read as an allow entry, allows c.
// A catch-all allows nothing.
func (t *Typed) Allows(c Call) bool {
	if t.CatchAll() != "" {
		return false
	}
	switch c.Kind {
	case ToolRead, ToolEdit:
		if c.Glob != "" {
			return t.Tool == c.Kind && t.path.coversGlob(c.Path, c.Glob)
		}
		return t.MatchPath(c.Kind, c.Path)
	case ToolBash:
		return t.MatchCommand(c.Cmd)
	case ToolWebFetch:
		return t.MatchHost(c.Host)
	case ToolWebSearch:
		return t.Tool == ToolWebSearch
	case ToolMCP:
		return t.MatchMCP(c.MCP)
	}
	return false
}

// Escalates reports whether the typed entry, read as an ask or never entry,
// matches c. It is the cautious reading: a Read entry also covers edits of
// the files it names, and a Bash entry matches any call spelling its tokens.
func (t *Typed) Escalates(c Call) bool {
	switch c.Kind {
	case ToolRead:
		if c.Glob != "" && t.Tool == ToolRead && t.path.mayNameGlob(c.Glob) {
			return true
		}
		if c.Tree && t.Tool == ToolRead && t.path.mayNameBelow(c.Path) {
			return true
		}
		return t.MatchPath(ToolRead, c.Path)
	case ToolEdit:
		return t.MatchPath(ToolEdit, c.Path) || t.MatchPath(ToolRead, c.Path)
	case ToolBash:
		return t.EscalatesCommand(c.Cmd)
	case ToolWebFetch:
		return t.MatchHost(c.Host)
	case ToolWebSearch:
		return t.Tool == ToolWebSearch
	case ToolMCP:
		return t.MatchMCP(c.MCP)
	}
	return false
}

// TypedWarrant is a warrant's typed entries, parsed once for many calls.
type TypedWarrant struct {
	Allow, Ask, Never []*Typed
}

// Typed parses the warrant's typed entries.
func (w *Warrant) Typed() *TypedWarrant {
	return &TypedWarrant{
		Allow: w.TypedIn(AllowLists...),
		Ask:   w.TypedIn("ask"),
		Never: w.TypedIn("never"),
	}
}

// Allowing returns the first allow entry, in file order, that allows c,
// or nil. A Maven or Gradle command with several goals is allowed when
// each goal is (docs/typed-entries.md#build-tools).
func (tw *TypedWarrant) Allowing(c Call) *Typed {
	if t := tw.allowingAsWritten(c); t != nil {
		return t
	}
	if c.Kind == ToolBash {
		if t := tw.allowingEachGoal(c); t != nil {
			return t
		}
		return tw.allowingThroughRunner(c)
	}
	return nil
}

// AllowingWhere is Allowing with only the allow entries keep accepts (an
// entry whose list is wide enough for the call's kind).
func (tw *TypedWarrant) AllowingWhere(c Call, keep func(*Typed) bool) *Typed {
	sub := &TypedWarrant{}
	for _, t := range tw.Allow {
		if keep(t) {
			sub.Allow = append(sub.Allow, t)
		}
	}
	return sub.Allowing(c)
}

func (tw *TypedWarrant) allowingAsWritten(c Call) *Typed {
	for _, t := range tw.Allow {
		if t.Allows(c) {
			return t
		}
	}
	return nil
}

// Escalating returns the first never entry matching c, else the first ask
// entry, else nil.
func (tw *TypedWarrant) Escalating(c Call) *Typed {
	for _, list := range [][]*Typed{tw.Never, tw.Ask} {
		for _, t := range list {
			if t.Escalates(c) {
				return t
			}
		}
	}
	return nil
}

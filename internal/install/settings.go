package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/protect"
)

// Paths of the JSON files install edits, relative to the root — the ones
// self-protection guards (internal/protect).
var (
	SettingsPath = protect.ClaudeSettingsFiles[0]
	MCPPath      = protect.MCPConfigFile
)

// The matcher, timeout and command lines come from the hook package, which
// owns what `hook claude` can handle: matcher "*" sends every tool through
// the hook, Read-shaped ones included. That is deliberate (the brief asked
// for a list of acting tools instead): the guide promises that tools that
// do not exist yet check as send, and a list would let a renamed or new
// tool (Task became Agent) pass ungated. Reads check as read, and an
// uncovered read passes silently unless the gate is pinned. The timeout is
// in seconds (docs/hook-protocol.md#claude-code-hooks); the hook keeps a shorter deadline of its own.

// mcpServerName is the key of gitwarrant's server in .mcp.json.
const mcpServerName = "gitwarrant"

// hookCmd and hookGroup are the settings shapes install writes; struct field
// order fixes the key order in the file.
type hookCmd struct {
	Type      string `json:"type"`
	Command   string `json:"command,omitempty"`
	URL       string `json:"url,omitempty"` // an http hook (docs/hook-protocol.md#the-http-hook)
	Timeout   int    `json:"timeout"`
	OnFailure string `json:"onFailure,omitempty"`
	// Headers and AllowedEnvVars carry an http hook's key.
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
}

// mark appends install's marker: to a command as a shell comment, to an
// http hook's URL as its fragment, which Claude Code does not send.
func (h *hookCmd) mark(c created) {
	if h.Type == "http" {
		h.URL += c.fragment()
		return
	}
	h.Command += c.marker()
}

type hookGroup struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []hookCmd `json:"hooks"`
}

type mcpServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// HookCommands are the command lines for the Claude Code hook events.
// NewHookCommands fills them from the hook package.
type HookCommands struct {
	Pre    string // PreToolUse
	Post   string // PostToolUse
	Prompt string // UserPromptSubmit: pins the session to a loop
	End    string // SessionEnd: forgets the pin
	Pinned bool   // a loop, a default loop or strict: a failed hook must block
	// HTTP, when set, makes the hooks Claude Code's http hooks posting to
	// the repository's server, which a SessionStart hook starts.
	HTTP *HTTPHook
	// Explicit is set when --loop, --default-loop or --strict was given:
	// only then does install change a gitwarrant entry a person wrote.
	Explicit bool
}

// NewHookCommands returns the hook command lines for w
// (docs/sessions.md). explicit says the person named the wiring.
func NewHookCommands(w hook.Wiring, explicit bool) *HookCommands {
	return &HookCommands{
		Pre:      w.Pre(),
		Post:     hook.PostSettingsCommand(),
		Prompt:   w.Prompt(),
		End:      hook.SessionEndCommand(),
		Pinned:   w.Pinned(),
		Explicit: explicit,
	}
}

// installMarker ends every command install writes into a settings file (a
// shell comment, so it changes nothing when the hook runs). It makes the
// entry self-describing: uninstall removes an entry only when it carries
// the marker and still has exactly the shape install writes, and the
// marker names the containers install created for it — the file, the
// "hooks" object, the event's array — so uninstall prunes those and only
// those, on any clone, with no install state (docs/install.md#settings).
const installMarker = "# gitwarrant:install"

// created lists what an insertion created, in the marker's words. empty
// says the file held only whitespace, which install read as {}: uninstall
// gives the whitespace back.
type created struct{ file, empty, hooks, event bool }

func (c created) marker() string {
	var parts []string
	if c.file {
		parts = append(parts, "file")
	}
	if c.empty {
		parts = append(parts, "empty")
	}
	if c.hooks {
		parts = append(parts, "hooks")
	}
	if c.event {
		parts = append(parts, "event")
	}
	if len(parts) == 0 {
		return " " + installMarker
	}
	return " " + installMarker + " created=" + strings.Join(parts, ",")
}

// parseMarker splits a command into the command install wrote and what its
// marker says was created; ok is false when there is no marker.
func parseMarker(cmd string) (base string, c created, ok bool) {
	i := strings.LastIndex(cmd, " "+installMarker)
	if i < 0 {
		return cmd, c, false
	}
	rest := cmd[i+len(" "+installMarker):]
	if rest != "" {
		list, found := strings.CutPrefix(rest, " created=")
		if !found {
			return cmd, c, false
		}
		for _, p := range strings.Split(list, ",") {
			switch p {
			case "file":
				c.file = true
			case "empty":
				c.empty = true
			case "hooks":
				c.hooks = true
			case "event":
				c.event = true
			default:
				return cmd, c, false
			}
		}
	}
	return cmd[:i], c, true
}

// groups returns the settings entries for each event. A pinned gate gets
// onFailure "block" (Claude Code ≥ 2.1.295), so a hook that cannot start,
// times out or crashes blocks the call instead of letting it through; older
// versions ignore the key. The session events take no matcher.
func (h HookCommands) groups() []eventGroup {
	if h.HTTP != nil {
		return h.HTTP.groups()
	}
	pre := hookCmd{Type: "command", Command: h.Pre, Timeout: hook.SettingsTimeout}
	if h.Pinned {
		pre.OnFailure = "block"
	}
	cmd := func(c string) []hookCmd {
		return []hookCmd{{Type: "command", Command: c, Timeout: hook.SettingsTimeout}}
	}
	return []eventGroup{
		{"PreToolUse", hookGroup{Matcher: hook.Matcher, Hooks: []hookCmd{pre}}},
		{"PostToolUse", hookGroup{Matcher: hook.Matcher, Hooks: cmd(h.Post)}},
		{hook.EventUserPromptSubmit, hookGroup{Hooks: cmd(h.Prompt)}},
		{hook.EventSessionEnd, hookGroup{Hooks: cmd(h.End)}},
	}
}

// hookEvents are the events install writes, in the order it writes them;
// uninstall removes them in reverse, so the group that created the
// "hooks" object is the last one taken out.
var hookEvents = []string{"PreToolUse", "PostToolUse", hook.EventUserPromptSubmit, hook.EventSessionEnd, eventSessionStart}

type eventGroup struct {
	event string
	group hookGroup
}

// loadJSON reads a JSON settings file, returning a document for "{}" when
// it does not exist yet. A file holding only whitespace counts as "{}".
func loadJSON(root, rel string) (*jsonDoc, bool, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, existed, _, err := fileState(path)
	if err != nil {
		return nil, false, err
	}
	if !existed {
		data = []byte("{}\n")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = append([]byte("{}"), data...)
	}
	d, err := parseJSONDoc(rel, data)
	return d, existed, err
}

// objectAt returns the member key of object n, checking that it is an
// object; nil when absent.
func (d *jsonDoc) objectAt(n *jnode, key string, want byte) (*jnode, int, error) {
	v, i := n.member(key)
	if v != nil && v.kind != want {
		kind := map[byte]string{'{': "an object", '[': "an array"}[want]
		return nil, -1, fmt.Errorf("%s: %q must be %s; fix it by hand, then run install again — nothing was written", d.where(v), key, kind)
	}
	return v, i, nil
}

// settingsHook is one hook command in a settings file, as read back.
type settingsHook struct {
	Type      string          `json:"type"`
	Command   string          `json:"command"`
	Timeout   json.RawMessage `json:"timeout"`
	OnFailure string          `json:"onFailure"`
}

// ourGroup reports whether raw is exactly a group install writes — matcher
// "*", one command hook with install's timeout and (when pinned)
// onFailure, and a command install would write for some loop and mode,
// followed by install's marker — and returns what the marker says install
// created. A group a user wrote or changed (another timeout, a second hook,
// an edited command) is theirs.
func ourGroup(raw []byte) (created, bool) {
	var g map[string]json.RawMessage
	if json.Unmarshal(raw, &g) != nil {
		return created{}, false
	}
	if m, ok := g["matcher"]; (ok && string(m) != `"`+hook.Matcher+`"`) || len(g) != map[bool]int{true: 2, false: 1}[ok] {
		return created{}, false
	}
	var hs []map[string]json.RawMessage
	if json.Unmarshal(g["hooks"], &hs) != nil || len(hs) != 1 {
		return created{}, false
	}
	var h settingsHook
	b, _ := json.Marshal(hs[0])
	if json.Unmarshal(b, &h) != nil || string(h.Timeout) != fmt.Sprint(hook.SettingsTimeout) {
		return created{}, false
	}
	if h.Type == "http" {
		return ourHTTPHook(hs[0])
	}
	if h.Type != "command" {
		return created{}, false
	}
	base, c, ok := parseMarker(h.Command)
	if !ok {
		// An entry from a version that wrote no marker: removed when its
		// shape is exact, and the containers it sits in pruned when left
		// empty, as those versions did (they created them when missing).
		c = created{hooks: true, event: true}
	}
	want := 3
	switch pinned, known := installedCommand(base); {
	case !known:
		return created{}, false
	case pinned:
		want = 4
		if h.OnFailure != "block" {
			return created{}, false
		}
	}
	if len(hs[0]) != want {
		return created{}, false
	}
	return c, true
}

// installedCommand reports whether cmd is a command install writes (for
// some wiring and event), and whether that command is pinned.
func installedCommand(cmd string) (pinned, known bool) {
	if _, ok := hook.ParseStartCommand(cmd); ok {
		return false, true
	}
	w, event, ok := hook.ParseWiring(cmd)
	if !ok {
		return false, false
	}
	var want string
	switch event {
	case "pre":
		want = w.Pre()
	case "post":
		want = hook.PostSettingsCommand()
	case "prompt":
		return false, w.Prompt() == cmd // never blocks, so never onFailure
	case "session-end":
		want = hook.SessionEndCommand()
	}
	if want != cmd {
		return false, false
	}
	return event == "pre" && w.Pinned(), true
}

// existingEntry finds a gitwarrant hook command under hooks.<event> — any
// group, any shape, hand-written or not: install keeps it rather than add a
// second one. post selects `hook claude --post` entries.
func existingEntry(d *jsonDoc, event string, post bool) (group, cmd *jnode, text string) {
	hooks, _ := d.root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return nil, nil, ""
	}
	arr, _ := hooks.member(event)
	if arr == nil || arr.kind != '[' {
		return nil, nil, ""
	}
	for _, it := range arr.items {
		if it.val.kind != '{' {
			continue
		}
		hs, _ := it.val.member("hooks")
		if hs == nil || hs.kind != '[' {
			continue
		}
		for _, h := range hs.items {
			if h.val.kind != '{' {
				continue
			}
			c, _ := h.val.member("command")
			if c == nil || c.kind != '"' {
				continue
			}
			var s string
			_ = json.Unmarshal(d.data[c.start:c.end], &s)
			if hook.IsGitwarrantCommand(s) && strings.Contains(s, "--post") == post {
				return it.val, c, s
			}
		}
	}
	return nil, nil, ""
}

// addHookGroup puts group under hooks.<event>, creating missing containers
// in one insertion. The command carries install's marker, naming what the
// insertion created; file says how the file itself came to be (created,
// or whitespace read as {}).
func addHookGroup(d *jsonDoc, event string, g hookGroup, file created) ([]byte, error) {
	return addUnderHooks(d, event, file, func(c created) any {
		g.Hooks = append([]hookCmd(nil), g.Hooks...)
		g.Hooks[0].mark(c)
		return g
	})
}

// addUnderHooks puts the item made by item under hooks.<event>, creating
// missing containers in one insertion; item gets what the insertion
// creates, for its marker.
func addUnderHooks(d *jsonDoc, event string, file created, item func(created) any) ([]byte, error) {
	c := created{file: file.file, empty: file.empty}
	hooks, _, err := d.objectAt(d.root, "hooks", '{')
	if err != nil {
		return nil, err
	}
	var arr *jnode
	if hooks != nil {
		if arr, _, err = d.objectAt(hooks, event, '['); err != nil {
			return nil, err
		}
	}
	c.hooks = hooks == nil
	c.event = arr == nil
	g := item(c)
	switch {
	case hooks == nil:
		return d.insertItem(d.root, "hooks", map[string]any{event: []any{g}}), nil
	case arr == nil:
		return d.insertItem(hooks, event, []any{g}), nil
	}
	return d.insertItem(arr, "", g), nil
}

// removeHookGroups deletes every group install wrote under hooks.<event>
// (ourGroup), then prunes exactly the containers its marker says install
// created, when they are left empty. It returns the new document, whether
// it removed anything, and what the markers said about the file itself.
func removeHookGroups(d *jsonDoc, event string) (*jsonDoc, bool, created, error) {
	return removeHookItems(d, event, ourGroup)
}

// removeHookItems is removeHookGroups for the items ours recognises.
func removeHookItems(d *jsonDoc, event string, ours func([]byte) (created, bool)) (*jsonDoc, bool, created, error) {
	removed, fileCreated := false, created{}
	for {
		hooks, hi, err := d.objectAt(d.root, "hooks", '{')
		if err != nil || hooks == nil {
			return d, removed, fileCreated, err
		}
		arr, ai, err := d.objectAt(hooks, event, '[')
		if err != nil || arr == nil {
			return d, removed, fileCreated, err
		}
		idx, c := -1, created{}
		for i, it := range arr.items {
			if cc, ok := ours(d.data[it.val.start:it.val.end]); ok {
				idx, c = i, cc
			}
		}
		if idx < 0 {
			return d, removed, fileCreated, nil
		}
		removed = true
		fileCreated.file = fileCreated.file || c.file
		fileCreated.empty = fileCreated.empty || c.empty
		var out []byte
		switch {
		case len(arr.items) > 1 || !c.event:
			out = d.removeItem(arr, idx)
		case len(hooks.items) > 1 || !c.hooks:
			out = d.removeItem(hooks, ai)
		default:
			out = d.removeItem(d.root, hi)
		}
		if d, err = parseJSONDoc(d.path, out); err != nil {
			return nil, removed, fileCreated, err
		}
	}
}

// replaceCommand puts cmd in place of the command string node n.
func (d *jsonDoc) replaceCommand(n *jnode, cmd string) []byte {
	q, _ := json.Marshal(cmd)
	return splice(d.data, n.start, n.end, q)
}

// MCPServer is the .mcp.json entry install writes. Bare "gitwarrant"
// works for anyone who clones the repository with gitwarrant on PATH.
var MCPServer = mcpServer{Command: "gitwarrant", Args: []string{"mcp"}}

// MCPServerCreated is the entry install writes into a .mcp.json it
// creates: JSON has no comments, so the marker that lets uninstall delete
// the file again (and only then) rides in the server's environment, where
// it is harmless (docs/install.md#settings).
var MCPServerCreated = mcpServer{Command: "gitwarrant", Args: []string{"mcp"}, Env: map[string]string{"GITWARRANT_INSTALL": "created=file"}}

// addMCPServer puts gitwarrant's server into mcpServers, updating an
// existing "gitwarrant" entry in place; an entry already in either of
// install's shapes is left as it is.
func addMCPServer(d *jsonDoc, srv mcpServer) ([]byte, error) {
	servers, _, err := d.objectAt(d.root, "mcpServers", '{')
	if err != nil {
		return nil, err
	}
	if servers == nil {
		return d.insertItem(d.root, "mcpServers", map[string]any{mcpServerName: srv}), nil
	}
	if cur, _ := servers.member(mcpServerName); cur != nil {
		if raw := d.data[cur.start:cur.end]; sameJSON(raw, MCPServer) || sameJSON(raw, MCPServerCreated) {
			return d.data, nil
		}
		out, _ := d.replaceValue(cur, srv)
		return out, nil
	}
	return d.insertItem(servers, mcpServerName, srv), nil
}

// removeMCPServer deletes the "gitwarrant" server when it has exactly one
// of the shapes install writes (a server the user configured by hand is
// theirs), and prunes an emptied mcpServers object. created reports the
// marker that install created the file.
func removeMCPServer(d *jsonDoc) (out []byte, removed, created bool, err error) {
	servers, si, err := d.objectAt(d.root, "mcpServers", '{')
	if err != nil || servers == nil {
		return d.data, false, false, err
	}
	cur, i := servers.member(mcpServerName)
	if i < 0 {
		return d.data, false, false, nil
	}
	raw := d.data[cur.start:cur.end]
	created = sameJSON(raw, MCPServerCreated)
	if !created && !sameJSON(raw, MCPServer) {
		return d.data, false, false, nil
	}
	if len(servers.items) > 1 {
		return d.removeItem(servers, i), true, created, nil
	}
	return d.removeItem(d.root, si), true, created, nil
}

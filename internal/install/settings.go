package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// Paths of the JSON files install edits, relative to the root.
const (
	SettingsPath = ".claude/settings.json"
	MCPPath      = ".mcp.json"
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
	Command   string `json:"command"`
	Timeout   int    `json:"timeout"`
	OnFailure string `json:"onFailure,omitempty"`
}

type hookGroup struct {
	Matcher string    `json:"matcher"`
	Hooks   []hookCmd `json:"hooks"`
}

type mcpServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// HookCommands are the command lines for the two Claude Code hook events.
// NewHookCommands fills them from the hook package.
type HookCommands struct {
	Pre    string // PreToolUse
	Post   string // PostToolUse
	Pinned bool   // --loop or --strict: a failed hook must block
}

// groups returns the settings entries for each event. A pinned gate gets
// onFailure "block" (Claude Code ≥ 2.1.295), so a hook that cannot start,
// times out or crashes blocks the call instead of letting it through; older
// versions ignore the key.
func (h HookCommands) groups() []struct {
	event string
	group hookGroup
} {
	pre := hookCmd{Type: "command", Command: h.Pre, Timeout: hook.SettingsTimeout}
	if h.Pinned {
		pre.OnFailure = "block"
	}
	post := hookCmd{Type: "command", Command: h.Post, Timeout: hook.SettingsTimeout}
	return []struct {
		event string
		group hookGroup
	}{
		{"PreToolUse", hookGroup{Matcher: hook.Matcher, Hooks: []hookCmd{pre}}},
		{"PostToolUse", hookGroup{Matcher: hook.Matcher, Hooks: []hookCmd{post}}},
	}
}

// loadJSON reads a JSON settings file, returning a document for "{}" when
// it does not exist yet.
func loadJSON(root, rel string) (*jsonDoc, bool, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, existed, _, err := fileState(path)
	if err != nil {
		return nil, false, err
	}
	if !existed {
		data = []byte("{}\n")
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

// isOurGroup reports whether raw is a hook group every command of which is
// gitwarrant's. Mixed hand-written groups are the user's and stay untouched.
func isOurGroup(raw []byte) bool {
	var g struct {
		Hooks []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if json.Unmarshal(raw, &g) != nil || len(g.Hooks) == 0 {
		return false
	}
	for _, h := range g.Hooks {
		if !hook.IsGitwarrantCommand(h.Command) {
			return false
		}
	}
	return true
}

// addHookGroup puts group under hooks.<event>: updated in place when a
// gitwarrant group is there, appended otherwise; missing containers are
// created in one insertion so uninstall can remove them in one deletion.
func addHookGroup(d *jsonDoc, event string, g hookGroup) ([]byte, error) {
	hooks, _, err := d.objectAt(d.root, "hooks", '{')
	if err != nil {
		return nil, err
	}
	if hooks == nil {
		return d.insertItem(d.root, "hooks", map[string]any{event: []any{g}}), nil
	}
	arr, _, err := d.objectAt(hooks, event, '[')
	if err != nil {
		return nil, err
	}
	if arr == nil {
		return d.insertItem(hooks, event, []any{g}), nil
	}
	for _, it := range arr.items {
		if isOurGroup(d.data[it.val.start:it.val.end]) {
			out, _ := d.replaceValue(it.val, g)
			return out, nil
		}
	}
	return d.insertItem(arr, "", g), nil
}

// removeHookGroups deletes every gitwarrant group under hooks.<event>, then
// prunes containers left empty. It returns the new bytes and whether it
// removed anything.
func removeHookGroups(d *jsonDoc, event string) (*jsonDoc, bool, error) {
	removed := false
	for {
		hooks, hi, err := d.objectAt(d.root, "hooks", '{')
		if err != nil || hooks == nil {
			return d, removed, err
		}
		arr, ai, err := d.objectAt(hooks, event, '[')
		if err != nil || arr == nil {
			return d, removed, err
		}
		idx := -1
		for i, it := range arr.items {
			if isOurGroup(d.data[it.val.start:it.val.end]) {
				idx = i
			}
		}
		if idx < 0 {
			return d, removed, nil
		}
		removed = true
		var out []byte
		switch {
		case len(arr.items) > 1:
			out = d.removeItem(arr, idx)
		case len(hooks.items) > 1:
			out = d.removeItem(hooks, ai)
		default:
			out = d.removeItem(d.root, hi)
		}
		if d, err = parseJSONDoc(d.path, out); err != nil {
			return nil, removed, err
		}
	}
}

// addMCPServer puts gitwarrant's server into mcpServers, updating an
// existing "gitwarrant" entry in place.
func addMCPServer(d *jsonDoc, srv mcpServer) ([]byte, error) {
	servers, _, err := d.objectAt(d.root, "mcpServers", '{')
	if err != nil {
		return nil, err
	}
	if servers == nil {
		return d.insertItem(d.root, "mcpServers", map[string]any{mcpServerName: srv}), nil
	}
	if cur, _ := servers.member(mcpServerName); cur != nil {
		out, _ := d.replaceValue(cur, srv)
		return out, nil
	}
	return d.insertItem(servers, mcpServerName, srv), nil
}

// removeMCPServer deletes the "gitwarrant" server and prunes an emptied
// mcpServers object.
func removeMCPServer(d *jsonDoc) ([]byte, bool, error) {
	servers, si, err := d.objectAt(d.root, "mcpServers", '{')
	if err != nil || servers == nil {
		return d.data, false, err
	}
	_, i := servers.member(mcpServerName)
	if i < 0 {
		return d.data, false, nil
	}
	if len(servers.items) > 1 {
		return d.removeItem(servers, i), true, nil
	}
	return d.removeItem(d.root, si), true, nil
}

// NewHookCommands returns the hook command lines for a gate pinned to loop
// and/or strict, or unpinned when both are zero.
func NewHookCommands(loop string, strict bool) *HookCommands {
	return &HookCommands{
		Pre:    hook.SettingsCommand(loop, strict),
		Post:   hook.PostSettingsCommand(),
		Pinned: loop != "" || strict,
	}
}

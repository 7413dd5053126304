package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/protect"
)

// The hook files of the other clients (docs/agents.md#install), relative
// to the root: Codex reads a project's hooks from .codex/hooks.json (and
// from config.toml, which install leaves alone), Gemini CLI from the
// "hooks" of .gemini/settings.json, Cursor from .cursor/hooks.json.
var agentFiles = map[string]string{
	hook.ClientCodex:  protect.AgentHookFiles[0],
	hook.ClientGemini: protect.AgentHookFiles[2],
	hook.ClientCursor: protect.AgentHookFiles[3],
}

// AgentFile is the hook file install writes for client.
func AgentFile(client string) string { return agentFiles[client] }

// AgentHooks says which other clients install wires, and how.
type AgentHooks struct {
	Clients []string
	Wiring  hook.Wiring
	// Explicit: --loop, --default-loop or --strict was given, so install
	// changes a gitwarrant entry a person wrote.
	Explicit bool
}

// agentEvent is one event install wires for a client: its name in the
// client's file and whether it is a tool call (pre) or a prompt.
type agentEvent struct {
	name string
	pre  bool
}

// agentEvents are the events install wires, in the order it writes them.
// Cursor's preToolUse covers every tool; beforeReadFile also covers files
// Cursor reads for the agent outside a tool call (docs/agents.md#the-mapping).
var agentEvents = map[string][]agentEvent{
	hook.ClientCodex:  {{"PreToolUse", true}, {"UserPromptSubmit", false}},
	hook.ClientGemini: {{"BeforeTool", true}, {"BeforeAgent", false}},
	hook.ClientCursor: {{"preToolUse", true}, {"beforeReadFile", true}, {"beforeSubmitPrompt", false}},
}

// Hook timeouts written into each client's file, in its own unit: well
// above `hook <client>`'s own deadline, because a timed-out hook's call
// runs in all three (docs/agents.md#failures). Codex and Cursor count
// seconds, Gemini CLI milliseconds.
const (
	codexTimeout  = 60
	geminiTimeout = 60000
	cursorTimeout = 60
)

// cursorHook is one entry of .cursor/hooks.json; Cursor's entries carry
// the command themselves, with no nested hooks list.
type cursorHook struct {
	Command    string `json:"command"`
	Timeout    int    `json:"timeout"`
	FailClosed bool   `json:"failClosed,omitempty"`
}

// agentItem is the entry install writes for client's event running base
// (agentCommand), its command ending in marker.
func agentItem(client string, ev agentEvent, base, marker string) any {
	cmd := base + marker
	switch client {
	case hook.ClientGemini:
		g := hookGroup{Hooks: []hookCmd{{Type: "command", Command: cmd, Timeout: geminiTimeout}}}
		if ev.pre {
			g.Matcher = hook.Matcher
		}
		return g
	case hook.ClientCursor:
		return cursorHook{Command: cmd, Timeout: cursorTimeout, FailClosed: ev.pre}
	}
	return hookGroup{Hooks: []hookCmd{{Type: "command", Command: cmd, Timeout: codexTimeout}}}
}

// itemCommands returns the commands of one entry: its own (Cursor) or
// those of its hooks list.
func itemCommands(raw []byte) []string {
	var it struct {
		Command string `json:"command"`
		Hooks   []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if json.Unmarshal(raw, &it) != nil {
		return nil
	}
	out := []string{}
	if it.Command != "" {
		out = append(out, it.Command)
	}
	for _, h := range it.Hooks {
		out = append(out, h.Command)
	}
	return out
}

// ourAgentItem reports whether raw is exactly an entry install writes for
// client's event, for some wiring, with install's marker; and what the
// marker says install created.
func ourAgentItem(client string, ev agentEvent) func([]byte) (created, bool) {
	return func(raw []byte) (created, bool) {
		cmds := itemCommands(raw)
		if len(cmds) != 1 {
			return created{}, false
		}
		base, c, ok := parseMarker(cmds[0])
		if !ok {
			return created{}, false
		}
		cl, _, event, ok := hook.ParseAgentWiring(base)
		if !ok || cl != client || (event == "pre") != ev.pre {
			return created{}, false
		}
		// base is install's command for its wiring, or the one install
		// wrote before the watchdog (hook.Wiring.LegacyAgentPre).
		return c, sameJSON(raw, agentItem(client, ev, base, c.marker()))
	}
}

// findAgentItem returns the first entry under hooks.<event> that runs
// `gitwarrant hook <client>`, hand-written or not, and its command.
func findAgentItem(d *jsonDoc, client, event string) (*jnode, string) {
	hooks, _ := d.root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return nil, ""
	}
	arr, _ := hooks.member(event)
	if arr == nil || arr.kind != '[' {
		return nil, ""
	}
	for _, it := range arr.items {
		for _, c := range itemCommands(d.data[it.val.start:it.val.end]) {
			if strings.Contains(c, "gitwarrant hook "+client) {
				return it.val, c
			}
		}
	}
	return nil, ""
}

// planAgents wires each client's hooks into its file: a missing entry is
// added, one install wrote is brought up to date, and one a person wrote
// is kept (changed only when the wiring was named, as for Claude Code).
func (p *Plan) planAgents(a *AgentHooks) error {
	for _, client := range a.Clients {
		if err := p.planAgentFile(client, a); err != nil {
			return err
		}
	}
	return nil
}

func (p *Plan) planAgentFile(client string, a *AgentHooks) error {
	rel := agentFiles[client]
	d, existed, err := loadJSON(p.Root, rel)
	if err != nil {
		return err
	}
	orig, _, _, _ := fileState(filepath.Join(p.Root, filepath.FromSlash(rel)))
	file := created{file: !existed, empty: existed && len(bytes.TrimSpace(orig)) == 0}
	if client == hook.ClientCursor && !existed {
		// Cursor's file names its format version.
		if d, err = parseJSONDoc(rel, []byte("{\n  \"version\": 1\n}\n")); err != nil {
			return err
		}
	}
	for _, ev := range agentEvents[client] {
		item, text := findAgentItem(d, client, ev.name)
		var out []byte
		switch {
		case item == nil:
			if out, err = addUnderHooks(d, ev.name, file, func(c created) any { return agentItem(client, ev, agentCommand(client, ev, a.Wiring), c.marker()) }); err != nil {
				return err
			}
			file = created{} // the file is created once
		default:
			c, ours := ourAgentItem(client, ev)(d.data[item.start:item.end])
			if !ours && !a.Explicit {
				if base, _, _ := parseMarker(text); !strings.Contains(base, "gitwarrant hook "+client) || base != agentCommand(client, ev, a.Wiring) {
					p.Notices = append(p.Notices, fmt.Sprintf("kept the gitwarrant hook already in %s (%s: %s); pass --loop, --default-loop or --strict to change it", rel, ev.name, text))
				}
				continue
			}
			if !ours {
				p.Notices = append(p.Notices, fmt.Sprintf("replaced your own gitwarrant hook in %s (%s) with install's", rel, ev.name))
			}
			out, _ = d.replaceValue(item, agentItem(client, ev, agentCommand(client, ev, a.Wiring), c.marker()))
		}
		if d, err = parseJSONDoc(rel, out); err != nil {
			return fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", rel, err)
		}
	}
	p.addJSON(rel, orig, existed, d.data)
	return nil
}

func agentCommand(client string, ev agentEvent, w hook.Wiring) string {
	if ev.pre {
		return w.AgentPre(client)
	}
	return w.AgentPrompt(client)
}

// planUnagents removes every entry install wrote from each client's file,
// giving back the original bytes; a file install created and left empty
// (Cursor's: holding only its version) is deleted.
func (p *Plan) planUnagents() error {
	for _, client := range hook.Clients {
		rel := agentFiles[client]
		d, existed, err := loadJSON(p.Root, rel)
		if err != nil || !existed {
			return err
		}
		orig, _, _, _ := fileState(filepath.Join(p.Root, filepath.FromSlash(rel)))
		changed, file := false, created{}
		evs := agentEvents[client]
		for i := len(evs) - 1; i >= 0; i-- {
			var removed bool
			var fc created
			if d, removed, fc, err = removeHookItems(d, evs[i].name, ourAgentItem(client, evs[i])); err != nil {
				return err
			}
			changed = changed || removed
			file.file, file.empty = file.file || fc.file, file.empty || fc.empty
		}
		if !changed {
			continue
		}
		if v, i := d.root.member("version"); client == hook.ClientCursor && file.file && v != nil && len(d.root.items) == 1 && string(d.data[v.start:v.end]) == "1" {
			if d, err = parseJSONDoc(rel, d.removeItem(d.root, i)); err != nil {
				return err
			}
		}
		if file.empty && len(d.root.items) == 0 {
			path := filepath.Join(p.Root, filepath.FromSlash(rel))
			p.add(path, orig, true, modeOf(path), nil)
			continue
		}
		p.dropOrWriteJSON(rel, orig, d, file.file)
	}
	return nil
}

// DetectAgents lists the clients whose folder the repository already has
// (.codex/, .gemini/, .cursor/), or whose own context file holds more than
// gitwarrant's block (AGENTS.md for Codex, GEMINI.md, .cursorrules) — the
// clients install wires when --agents does not name them.
func DetectAgents(root string) []string {
	var out []string
	for _, c := range hook.Clients {
		if ownFolder(filepath.Join(root, "."+c)) {
			out = append(out, c)
			continue
		}
		ctx := map[string]string{hook.ClientCodex: "AGENTS.md", hook.ClientGemini: "GEMINI.md", hook.ClientCursor: ".cursorrules"}[c]
		if data, err := os.ReadFile(filepath.Join(root, ctx)); err == nil && len(bytes.TrimSpace(withoutBlock(data))) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// ownFolder reports whether dir exists and holds more than install's own
// files: .cursor/rules/gitwarrant.mdc is the context file install writes,
// so a .cursor holding only it does not count, and a second install wires
// the same clients as the first.
func ownFolder(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		if !d.IsDir() && filepath.ToSlash(rel) != "rules/gitwarrant.mdc" {
			found = true
		}
		return nil
	})
	fi, err := os.Stat(dir)
	if err == nil && fi.IsDir() && !found {
		entries, _ := os.ReadDir(dir)
		// An empty folder counts: a person made it for the client.
		return len(entries) == 0
	}
	return found
}

// withoutBlock is a context file without gitwarrant's managed block, so a
// file install itself wrote does not count as the client being there.
func withoutBlock(data []byte) []byte {
	s := string(data)
	i := strings.Index(s, "<!-- gitwarrant:begin")
	j := strings.Index(s, "<!-- gitwarrant:end")
	if i < 0 || j < i {
		return data
	}
	end := j + strings.Index(s[j:], "-->") + 3
	return []byte(s[:i] + s[end:])
}

package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// eventSessionStart is the event whose command hook starts the http
// hook's server.
const eventSessionStart = "SessionStart"

// HTTPHook is the http wiring (docs/install.md#the-http-hook): Claude
// Code posts every hook event to the repository's server at Addr, which
// the SessionStart hook starts.
type HTTPHook struct {
	Addr   string
	Wiring hook.Wiring
	// Key is the hook key's secret, written into
	// .claude/settings.local.json ("" leaves that file alone).
	Key string
}

// NewHTTPHookCommands returns the hooks of the http wiring.
func NewHTTPHookCommands(w hook.Wiring, addr, key string, explicit bool) *HookCommands {
	h := NewHookCommands(w, explicit)
	h.HTTP = &HTTPHook{Addr: addr, Wiring: w, Key: key}
	return h
}

// httpHook is one http hook entry. Install writes one, for PreToolUse,
// which blocks on failure — nothing answers when the server is down; an
// entry without onFailure is what earlier installs wrote for PostToolUse,
// UserPromptSubmit and SessionEnd, recognised so that install replaces it
// and uninstall removes it.
func (h HTTPHook) httpHook(block bool) hookCmd {
	c := hookCmd{Type: "http", URL: h.Wiring.URL(h.Addr), Timeout: hook.SettingsTimeout,
		Headers: map[string]string{"Authorization": hook.AuthHeader}, AllowedEnvVars: []string{hook.KeyEnv}}
	if block {
		c.OnFailure = "block"
	}
	return c
}

// groups are the http wiring's hooks: PreToolUse posts to the server;
// PostToolUse, UserPromptSubmit and SessionEnd stay the command hooks of
// the command wiring, because the agent can read the hook key and post
// to the server itself — and a forged prompt would move its session's pin
// to another loop, a forged SessionEnd drop it, a forged PostToolUse
// claim that an asked call ran. The server refuses those events
// (docs/hook-protocol.md#the-http-hook); a PreToolUse post buys the agent
// only the answer its own call would get.
func (h HTTPHook) groups() []eventGroup {
	one := func(c hookCmd) []hookCmd { return []hookCmd{c} }
	cmd := func(c string) []hookCmd {
		return one(hookCmd{Type: "command", Command: c, Timeout: hook.SettingsTimeout})
	}
	return []eventGroup{
		{"PreToolUse", hookGroup{Matcher: hook.Matcher, Hooks: one(h.httpHook(true))}},
		{"PostToolUse", hookGroup{Matcher: hook.Matcher, Hooks: cmd(hook.PostSettingsCommand())}},
		{hook.EventUserPromptSubmit, hookGroup{Hooks: cmd(h.Wiring.Prompt())}},
		{hook.EventSessionEnd, hookGroup{Hooks: cmd(hook.SessionEndCommand())}},
		{eventSessionStart, hookGroup{Hooks: cmd(hook.StartCommand(h.Addr))}},
	}
}

// fragment is install's marker on an http hook's URL.
func (c created) fragment() string {
	return "#" + strings.ReplaceAll(strings.TrimPrefix(c.marker(), " # "), " ", ";")
}

// ourHTTPHook reports whether h (the one hook of a group) is exactly an
// http hook install writes, and what its marker says install created.
func ourHTTPHook(h map[string]json.RawMessage) (created, bool) {
	var u string
	if json.Unmarshal(h["url"], &u) != nil {
		return created{}, false
	}
	base, frag, found := strings.Cut(u, "#")
	if !found {
		return created{}, false
	}
	_, c, ok := parseMarker("x # " + strings.ReplaceAll(frag, ";", " "))
	if !ok {
		return created{}, false
	}
	addr, w, ok := hook.ParseURL(base)
	if !ok {
		return created{}, false
	}
	hh := HTTPHook{Addr: addr, Wiring: w}
	for _, block := range []bool{true, false} {
		want := hh.httpHook(block)
		b, _ := json.Marshal(want)
		var wm map[string]json.RawMessage
		_ = json.Unmarshal(b, &wm)
		wm["url"] = h["url"]
		if sameRaw(h, wm) {
			return c, true
		}
	}
	return created{}, false
}

func sameRaw(a, b map[string]json.RawMessage) bool {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return json.Unmarshal(ja, &x) == nil && json.Unmarshal(jb, &y) == nil && reflect.DeepEqual(x, y)
}

// ourHTTPGroup is ourGroup for the groups only the http wiring writes:
// its http hooks and its SessionStart command.
func ourHTTPGroup(raw []byte) (created, bool) {
	c, ok := ourGroup(raw)
	if !ok {
		return c, false
	}
	var g struct {
		Hooks []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
		} `json:"hooks"`
	}
	_ = json.Unmarshal(raw, &g)
	if g.Hooks[0].Type == "http" {
		return c, true
	}
	base, _, _ := parseMarker(g.Hooks[0].Command)
	_, start := hook.ParseStartCommand(base)
	return c, start
}

// dropHTTPHooks removes the http wiring's groups, so the command hooks
// install is about to write do not run beside them. existed comes back
// false when their marker says install created the file, so the command
// hooks' marker says so in turn.
func dropHTTPHooks(d *jsonDoc, existed bool) (*jsonDoc, bool, error) {
	for _, event := range slices.Backward(hookEvents) {
		var fc created
		var err error
		if d, _, fc, err = removeHookItems(d, event, ourHTTPGroup); err != nil {
			return nil, existed, err
		}
		if fc.file {
			existed = false
		}
	}
	return d, existed, nil
}

// planSettingsHTTP writes the http wiring into .claude/settings.json: for
// each event, install's own group of either wiring is replaced by the
// http one (kept as it is when it already is that one, so a second run
// changes no byte); a gitwarrant hook a person wrote is kept, with a note
// that both will run.
func (p *Plan) planSettingsHTTP(h *HTTPHook) error {
	d, existed, err := loadJSON(p.Root, SettingsPath)
	if err != nil {
		return err
	}
	path := filepath.Join(p.Root, filepath.FromSlash(SettingsPath))
	orig, _, _, _ := fileState(path)
	file := created{file: !existed, empty: existed && len(bytes.TrimSpace(orig)) == 0}
	for _, eg := range h.groups() {
		if hasExactGroup(d, eg) {
			continue
		}
		var fc created
		if d, _, fc, err = removeHookGroups(d, eg.event); err != nil {
			return err
		}
		file.file, file.empty = file.file || fc.file, file.empty || fc.empty
		if g, _, text := existingEntry(d, eg.event, eg.event == "PostToolUse"); g != nil {
			p.Notices = append(p.Notices, fmt.Sprintf("kept your own gitwarrant hook in %s (%s: %s): it runs beside the http hook", SettingsPath, eg.event, text))
		}
		out, err := addHookGroup(d, eg.event, eg.group, file)
		if err != nil {
			return err
		}
		if d, err = parseJSONDoc(SettingsPath, out); err != nil {
			return fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", SettingsPath, err)
		}
	}
	// The guards go with the http wiring as with the command one
	// (planSettings): the hook's transport changes nothing the client
	// itself must refuse.
	if d, _, err = p.editGuards(d, true); err != nil {
		return err
	}
	p.addJSON(SettingsPath, orig, existed, d.data)
	if h.Key != "" {
		return p.planLocalKey(h.Key)
	}
	return nil
}

// CurrentHTTPHook returns the server address and wiring of the http
// PreToolUse hook install wrote into .claude/settings.json, if any, so a
// second install keeps the port the URL names.
func CurrentHTTPHook(root string) (addr string, w hook.Wiring, ok bool) {
	d, existed, err := loadJSON(root, SettingsPath)
	if err != nil || !existed {
		return "", w, false
	}
	hooks, _ := d.root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return "", w, false
	}
	arr, _ := hooks.member("PreToolUse")
	if arr == nil || arr.kind != '[' {
		return "", w, false
	}
	for _, it := range arr.items {
		var g struct {
			Hooks []struct {
				Type string `json:"type"`
				URL  string `json:"url"`
			} `json:"hooks"`
		}
		if json.Unmarshal(d.data[it.val.start:it.val.end], &g) != nil {
			continue
		}
		for _, h := range g.Hooks {
			base, _, _ := strings.Cut(h.URL, "#")
			if a, wi, ok := hook.ParseURL(base); h.Type == "http" && ok {
				return a, wi, true
			}
		}
	}
	return "", w, false
}

// CurrentHookKey returns the hook key in .claude/settings.local.json.
func CurrentHookKey(root string) string {
	d, existed, err := loadJSON(root, LocalSettingsPath)
	if err != nil || !existed {
		return ""
	}
	env, _, _ := d.objectAt(d.root, "env", '{')
	cur, _ := memberOf(env, hook.KeyEnv)
	var v string
	if cur == nil || json.Unmarshal(d.data[cur.start:cur.end], &v) != nil {
		return ""
	}
	return v
}

// hasExactGroup reports whether hooks.<event> holds install's group eg
// already, marker aside.
func hasExactGroup(d *jsonDoc, eg eventGroup) bool {
	hooks, _ := d.root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return false
	}
	arr, _ := hooks.member(eg.event)
	if arr == nil || arr.kind != '[' {
		return false
	}
	for _, it := range arr.items {
		raw := d.data[it.val.start:it.val.end]
		c, ours := ourGroup(raw)
		if !ours {
			continue
		}
		g := eg.group
		g.Hooks = append([]hookCmd(nil), g.Hooks...)
		g.Hooks[0].mark(c)
		if sameJSON(raw, g) {
			return true
		}
	}
	return false
}

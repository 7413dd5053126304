package cli

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/review"
)

// askMapper turns an asked check into the entry that would allow it
// (docs/review.md#what-is-offered): a self-reported check into its own list
// and target; a hook's tool call into the exact typed entry — one literal
// command (Bash), one path (Read, Edit) or one MCP tool. A call that is
// not one plain command has no single entry and is never offered.
func askMapper(e *chain.Entry) (string, string, bool) {
	if !hook.FromHook(e.Via) {
		if _, err := loops.ParseVerb(e.Action); err != nil || strings.TrimSpace(e.Target) == "" {
			return "", "", false
		}
		return e.Action, e.Target, true
	}
	tool, _ := e.Extra["tool"].(string)
	switch {
	case tool == "Bash":
		cmd, ok := plainCommand(e.Target)
		if !ok {
			return "", "", false
		}
		// The record keeps the call's kind as its action
		// (docs/typed-entries.md#kinds): the entry goes in that list, the
		// narrowest that can allow it. A record older than kinds says send.
		list := "send"
		if v, err := loops.ParseVerb(e.Action); err == nil && v != loops.Draft {
			list = string(v)
		}
		return list, "Bash(" + cmd + ")", true
	case tool == "Read" || tool == "Glob" || tool == "Grep" || tool == "LS":
		if !plainPath(e.Target) {
			return "", "", false
		}
		return "read", "Read(" + e.Target + ")", true
	case tool == "Write" || tool == "Edit" || tool == "MultiEdit" || tool == "NotebookEdit":
		if !plainPath(e.Target) {
			return "", "", false
		}
		return "change", "Edit(" + e.Target + ")", true
	case strings.HasPrefix(tool, "mcp__"):
		return "send", tool, true
	}
	return "", "", false
}

// plainCommand accepts a command made only of plain words: no quoting,
// expansion, redirection, globbing or second command, so its typed entry
// names exactly what ran.
func plainCommand(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "'\"\\$`;&|<>()[]{}*?~#!\n\r\t") {
		return "", false
	}
	return strings.Join(strings.Fields(s), " "), true
}

func plainPath(s string) bool {
	return s != "" && !strings.ContainsAny(s, "*?[]{}()\n\r") && !strings.Contains(s, "..")
}

// reviewScreen holds back what must never be offered: anything the loop's
// ask or never lists match, and anything already allowed.
func reviewScreen(app *App, dir string) review.Screen {
	load := loopCache(dir)
	baselines := sync.OnceValue(func() []*loops.Loop {
		ls, _ := loops.LoadDir(dir)
		var out []*loops.Loop
		for _, l := range ls {
			if l.Abstract {
				out = append(out, l)
			}
		}
		return out
	})
	return func(loop, list, pattern string, sample *chain.Entry) string {
		l, err := load(loop)
		if err != nil {
			return "the loop does not load"
		}
		verb, err := loops.ParseVerb(list)
		if err != nil {
			return "" // ask, never, reserved: narrowing lists are not screened
		}
		if why := gateStops(app, dir, loop, pattern); why != "" {
			return why
		}
		target := pattern
		if sample != nil && hook.FromHook(sample.Via) {
			target = sample.Target
		}
		// A baseline's (abstract loop's) ask and never entries bind every
		// loop: what they stop is never offered either.
		for _, b := range baselines() {
			if r := loops.Check(&b.Warrant, verb, target); r.Verdict == loops.Deny || r.List == "ask" {
				return "the baseline " + b.Name + " stops it: " + r.Rule
			}
		}
		res := loops.Check(&l.Warrant, verb, target)
		switch {
		case res.Verdict == loops.Deny:
			return "a never entry matches: " + res.Rule
		case res.List == "ask":
			return "the loop's ask list matches: " + res.Rule
		case res.Verdict == loops.Allow:
			return "already allowed"
		}
		return ""
	}
}

// admitted lists the recorded calls a wider entry would also admit,
// beyond the ones the item answers.
func admitted(wider string, it review.Item, entries []chain.Entry) []string {
	prefix := strings.TrimSuffix(strings.TrimPrefix(wider, "Bash("), " *)")
	seen := map[string]bool{}
	var out []string
	for i := range entries {
		e := &entries[i]
		if e.Kind != chain.KindCheck || !hook.FromHook(e.Via) {
			continue
		}
		if tool, _ := e.Extra["tool"].(string); tool != "Bash" {
			continue
		}
		cmd, ok := plainCommand(e.Target)
		if !ok || "Bash("+cmd+")" == it.Pattern || seen[cmd] {
			continue
		}
		if cmd == prefix || strings.HasPrefix(cmd, prefix+" ") {
			seen[cmd] = true
			out = append(out, cmd)
		}
	}
	return out
}

// loopCache loads each loop once per command: a review screens thousands
// of clusters against a handful of loops.
func loopCache(dir string) func(string) (*loops.Loop, error) {
	type res struct {
		l   *loops.Loop
		err error
	}
	m := map[string]res{}
	return func(name string) (*loops.Loop, error) {
		r, ok := m[name]
		if !ok {
			r.l, r.err = loops.LoadByName(dir, name)
			m[name] = r
		}
		return r.l, r.err
	}
}

// gateStops asks the gate about the concrete call a typed entry names
// (its wildcards dropped): an entry for a call that self-protection or a
// hard stop denies is never offered, though the gate would deny the call
// whatever the loop said.
func gateStops(app *App, dir, loop, pattern string) string {
	tool, arg, ok := strings.Cut(strings.TrimSuffix(pattern, ")"), "(")
	if !ok || !strings.HasSuffix(pattern, ")") {
		return ""
	}
	arg = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(arg, " *"), ":*"), "/**")
	var input map[string]any
	switch tool {
	case "Bash":
		input = map[string]any{"command": arg}
	case "Edit":
		input = map[string]any{"file_path": arg, "old_string": "a", "new_string": "b"}
		tool = "Edit"
	case "Read":
		input = map[string]any{"file_path": arg}
	default:
		return ""
	}
	root := filepath.Dir(filepath.Dir(dir)) // <root>/.gitwarrant/loops
	payload, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": root, "tool_name": tool, "tool_input": input})
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), HookDeadline)
	defer cancel()
	env := GateEnv(app, root, io.Discard)
	a := gate.Decide(ctx, env, gate.Options{Loop: loop, LoopSet: true, NoRecord: true, Dir: filepath.Dir(dir)}, payload, nil)
	if a.Verdict == loops.Deny {
		return "the gate denies it: " + a.Rule
	}
	return ""
}

package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/features"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/protect"
	"gopkg.in/yaml.v3"
)

// The doctor proves each gate live in this clone, or says exactly what is
// wrong and how to fix it (docs/install.md#doctor). This file holds the
// checks of what install wires — git hooks through whichever manager owns
// them, the Claude Code hook, .mcp.json; the command adds the project's own
// (loops, record, signers).

// UnsupportedRepoFix is the doctor's fix for a repository gitwarrant
// refuses (gitx.ErrUnsupported).
const UnsupportedRepoFix = "gitwarrant cannot record here: use it in a repository made by a plain `git init` (SHA-1 objects, files refs)"

// Status is a check's outcome.
type Status string

const (
	Live Status = "live" // the gate runs gitwarrant
	OK   Status = "ok"   // not a gate, and fine
	Warn Status = "warn" // works, but something is off
	Fail Status = "FAIL" // not live, or broken
)

// Check is one line of the doctor's table.
type Check struct {
	Name   string // what is checked: "git pre-commit hook", "Claude Code hook", …
	Status Status
	Detail string // what was found, with the file (and line) it is in
	Fix    string // what to do, when Status is Warn or Fail
	// Gate is set for checks of a gate install wires: install's exit
	// status follows them.
	Gate bool
}

// DoctorEnv is where the checks look.
type DoctorEnv struct {
	Root   string              // the project's root (work tree)
	Getenv func(string) string // PATH and HOME come from here
	// LoopsDir is the project's loops folder, to check the loops the hook
	// wiring names ("" when there is no project).
	LoopsDir string
	// Sandbox is what install writes for this warrant; nil skips the
	// sandbox check (no project).
	Sandbox *Sandbox
}

// lookPath finds name on the PATH of env, like the shell a hook runs in.
func (e DoctorEnv) lookPath(name string) (string, bool) {
	if strings.ContainsRune(name, '/') {
		return name, isExecutable(name)
	}
	for _, dir := range filepath.SplitList(e.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}

// Diagnose runs the checks of what install wires. gitHooks and claude say
// which surfaces to check (install skips the ones it was told to leave).
func Diagnose(env DoctorEnv, gitHooks, claude bool) []Check {
	var out []Check
	if gitHooks {
		out = append(out, diagnoseGitHooks(env)...)
	}
	if claude {
		out = append(out, diagnoseClaude(env)...)
		if env.Sandbox != nil {
			out = append(out, diagnoseSandbox(env, env.Sandbox)...) // sandbox.go
		}
	}
	out = append(out, diagnoseAgents(env)...) // agents_doctor.go
	return append(out, diagnoseMCP(env)...)
}

// GitHook is doctor's row for git's hook of that name ("pre-commit"): live
// when git will run it and it reaches gitwarrant. When the repository
// cannot be read, or a variable in this environment switches the hooks
// off, that row is returned instead. Commands whose promise rests on the
// hook (record restore: the next commit carries the ref's entries) ask it
// before they make that promise.
func GitHook(env DoctorEnv, hook string) Check {
	want := Check{Name: "git " + hook + " hook", Status: Fail, Detail: "not found"}
	var off *Check
	for _, c := range diagnoseGitHooks(env) {
		switch {
		case c.Name == want.Name:
			want = c
		case c.Status == Fail && off == nil && !strings.HasSuffix(c.Name, " hook"):
			off = &c
		}
	}
	if off != nil && want.Status == Live {
		return *off
	}
	return want
}

func diagnoseGitHooks(env DoctorEnv) []Check {
	g, err := resolveGit(env.Root)
	if errors.Is(err, gitx.ErrUnsupported) {
		return []Check{{Name: "repository", Status: Fail, Detail: err.Error(), Fix: UnsupportedRepoFix, Gate: true}}
	}
	if err != nil {
		return []Check{{Name: "git hooks", Status: Fail, Detail: err.Error(), Fix: "run gitwarrant inside a git work tree", Gate: true}}
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(g.workTree, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return p
	}
	var out []Check
	for _, h := range gitHookNames {
		c := Check{Name: "git " + h + " hook", Gate: true}
		c.Status, c.Detail, c.Fix = diagnoseHook(env, g, h, rel)
		out = append(out, c)
	}
	return append(out, diagnoseSwitches(env)...)
}

// hookSwitchNames are the environment variables that can switch a hook
// manager's hooks off (judged by protect.HookSwitch, the list the gate
// denies an agent to set).
var hookSwitchNames = []string{"HUSKY", "HUSKY_SKIP_HOOKS", "LEFTHOOK", "LEFTHOOK_EXCLUDE", "LEFTHOOK_SKIP", "SKIP", "PRE_COMMIT_SKIP", "PRE_COMMIT_ALLOW_NO_CONFIG"}

// diagnoseSwitches fails when this shell's environment switches the hooks
// off: every commit from it skips the gate.
func diagnoseSwitches(env DoctorEnv) []Check {
	var out []Check
	for _, n := range hookSwitchNames {
		v := env.Getenv(n)
		if v == "" {
			continue
		}
		if why, hit := protect.HookSwitch(n, v); hit {
			out = append(out, Check{Name: "hook switches", Status: Fail, Gate: true,
				Detail: n + "=" + v + " is set in this environment: " + why, Fix: "unset " + n})
		}
	}
	return out
}

// diagnoseHook follows what git will run for hook: the script in the
// effective hooks directory (core.hooksPath honoured, as git resolves it),
// then whatever that script hands over to.
func diagnoseHook(env DoctorEnv, g *gitLayout, hook string, rel func(string) string) (Status, string, string) {
	reinstall := "run `gitwarrant install` (it puts the hook back)"
	onPath := func(via string) (Status, string, string) {
		if _, ok := env.lookPath("gitwarrant"); !ok {
			return Fail, via + " runs `gitwarrant` by name, and gitwarrant is not on PATH", "install it (" + InstallHint + ") and put it on PATH"
		}
		return Live, via + " runs gitwarrant", ""
	}
	if hd := g.huskyDir(); hd != "" {
		slot := filepath.Join(g.hooksDir, hook)
		if !isExecutable(slot) || !fileExists(filepath.Join(g.hooksDir, "h")) {
			return Fail, fmt.Sprintf("core.hooksPath is %s but husky's %s is missing", g.hooksPath, rel(slot)), "run `npx husky` (husky's install), then " + reinstall
		}
		script := filepath.Join(hd, hook)
		data, err := os.ReadFile(script)
		if err != nil || !bytes.Contains(data, []byte("gitwarrant hook "+hook)) {
			return Fail, rel(script) + " does not run gitwarrant", reinstall
		}
		if at := huskyInsertAt(data); !bytes.HasPrefix(data[at:], []byte(guarded(hook))) {
			st, d, f := onPath(rel(script))
			if st == Live {
				return Warn, rel(script) + " runs gitwarrant, but not first: an earlier `exit` skips it", reinstall + " to move it first"
			}
			return st, d, f
		}
		return onPath(rel(script))
	}
	path := filepath.Join(g.hooksDir, hook)
	where := rel(path)
	if g.hooksPath != "" {
		where += " (core.hooksPath " + g.hooksPath + ")"
	}
	slot, err := readHookFile(path)
	if err != nil {
		return Fail, err.Error(), reinstall
	}
	if !slot.exists {
		return Fail, "no " + hook + " hook at " + where, reinstall
	}
	if !isExecutable(path) {
		return Fail, where + " is not executable, so git does not run it", "chmod +x " + rel(path)
	}
	switch slotOwner(slot, hook) {
	case "gitwarrant":
		bin := recordedBin(slot.data)
		if bin != "" && isExecutable(bin) {
			return Live, where + " runs " + bin, ""
		}
		gone := "the binary install recorded is gone"
		if bin == "" {
			gone = "install recorded no binary"
		}
		if _, ok := env.lookPath("gitwarrant"); ok {
			return Live, where + " runs gitwarrant from PATH (" + gone + ")", ""
		}
		return Fail, where + " finds no gitwarrant: " + gone + " and none is on PATH", "install gitwarrant (" + InstallHint + "), then " + reinstall
	case "lefthook":
		lf := findLefthook(g.workTree)
		if lf == "" {
			return Fail, where + " is lefthook's, and there is no lefthook config", reinstall
		}
		data, _ := os.ReadFile(lf)
		if !lefthookRuns(data, hook) {
			return Fail, where + " is lefthook's, and " + rel(lf) + " does not run gitwarrant for " + hook, "add gitwarrant's command to " + rel(lf) + ": `gitwarrant install` adds it, or prints the exact lines when it cannot"
		}
		if why := lefthookSkips(g.workTree, hook); why != "" {
			return Fail, where + " → lefthook, but " + why, "remove the skip"
		}
		switch lefthookResolves(env, slot.data, g.workTree) {
		case Fail:
			return Fail, where + " is lefthook's script, and it finds no lefthook (not on PATH, not in node_modules, not where it was installed from): it prints “Can't find lefthook in PATH” and the commit goes through without the gate", "install lefthook (npm install --save-dev lefthook) or put it on PATH"
		case Warn:
			st, d, f := onPath(where + " → lefthook → " + rel(lf))
			if st == Live {
				return Warn, d + ", but lefthook itself is only reachable through a package runner (yarn, pnpm, go tool, …), which doctor does not run", "check that `lefthook version` works in this shell"
			}
			return st, d, f
		}
		return onPath(where + " → lefthook → " + rel(lf))
	case "pre-commit":
		pc := filepath.Join(g.workTree, PreCommitConfig)
		data, _ := os.ReadFile(pc)
		if !preCommitRuns(data)[hook] {
			return Fail, where + " is the pre-commit framework's, and " + PreCommitConfig + " does not run gitwarrant for " + hook, "add gitwarrant's local repo to " + PreCommitConfig + ": `gitwarrant install` adds it, or prints the exact lines when it cannot"
		}
		return onPath(where + " → pre-commit → " + PreCommitConfig)
	}
	if slot.symlink {
		return Fail, where + " is a symlink to a script gitwarrant does not know", reinstall + " (it chains the script)"
	}
	if bytes.Contains(slot.data, []byte("gitwarrant hook "+hook)) {
		return onPath(where + " (hand-written)")
	}
	return Fail, where + " does not run gitwarrant", reinstall + " (it chains this script, which keeps running first)"
}

// lefthookSkips says why lefthook would skip gitwarrant's command for hook
// — a `skip:` on the hook, or on gitwarrant's command or job, in the
// config or in a lefthook-local file merged over it — or "".
func lefthookSkips(workTree, hook string) string {
	files := append(append([]string{}, LefthookFiles...), protect.LefthookLocalFiles...)
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(workTree, name))
		if err != nil {
			continue
		}
		d, err := parseYAML(data)
		if err != nil {
			continue
		}
		_, hv := member(d.root, hook)
		if k, v := member(hv, "skip"); k != nil && !isFalse(v) {
			return fmt.Sprintf("%s:%d skips the whole %s hook", name, k.Line, hook)
		}
		_, cmds := member(hv, "commands")
		_, cmd := member(cmds, PreCommitIDs[hook])
		if k, v := member(cmd, "skip"); k != nil && !isFalse(v) {
			return fmt.Sprintf("%s:%d skips gitwarrant's command", name, k.Line)
		}
		if _, jobs := member(hv, "jobs"); jobs != nil && jobs.Kind == yaml.SequenceNode {
			for _, j := range jobs.Content {
				if _, n := member(j, "name"); n != nil && n.Value == PreCommitIDs[hook] {
					if k, v := member(j, "skip"); k != nil && !isFalse(v) {
						return fmt.Sprintf("%s:%d skips gitwarrant's job", name, k.Line)
					}
				}
			}
		}
	}
	return ""
}

func isFalse(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && (n.Value == "false" || n.Value == "no" || n.Value == "")
}

// lefthookResolves says whether lefthook's hook script will find a lefthook
// binary, trying what the script tries: $LEFTHOOK_BIN, lefthook on PATH, the
// absolute path lefthook 2 writes in, node_modules in the work tree. Live
// when one is there; Warn when only a package runner could provide it;
// Fail when nothing can, and the script lets the commit through.
func lefthookResolves(env DoctorEnv, script []byte, workTree string) Status {
	if b := env.Getenv("LEFTHOOK_BIN"); b != "" && isExecutable(b) {
		return Live
	}
	if _, ok := env.lookPath("lefthook"); ok {
		return Live
	}
	for _, f := range strings.Fields(string(script)) {
		if strings.HasPrefix(f, "/") && strings.HasSuffix(f, "/lefthook") && isExecutable(f) {
			return Live
		}
	}
	for _, pattern := range []string{"node_modules/lefthook-*/bin/lefthook", "node_modules/@evilmartians/lefthook/bin/*/lefthook",
		"node_modules/@evilmartians/lefthook-installer/bin/lefthook", "node_modules/lefthook/bin/index.js"} {
		if m, _ := filepath.Glob(filepath.Join(workTree, pattern)); len(m) > 0 {
			return Live
		}
	}
	for _, runner := range []string{"go", "bundle", "yarn", "pnpm", "swift", "mint", "uv", "composer", "mise", "devbox"} {
		if _, ok := env.lookPath(runner); ok {
			return Warn
		}
	}
	return Fail
}

// recordedBin reads the binary path install recorded in a shim.
func recordedBin(data []byte) string {
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "gitwarrant='"); ok {
			return strings.ReplaceAll(strings.TrimSuffix(v, "'"), `'\''`, "'")
		}
	}
	return ""
}

// claudeSettingsFiles are the settings files Claude Code reads, project
// first (docs/hook-protocol.md#claude-code-hooks).
func claudeSettingsFiles(env DoctorEnv) [][2]string {
	var files [][2]string
	for _, rel := range protect.ClaudeSettingsFiles {
		files = append(files, [2]string{rel, filepath.Join(env.Root, filepath.FromSlash(rel))})
	}
	if home := env.Getenv("HOME"); home != "" {
		files = append(files, [2]string{"~/.claude/settings.json", filepath.Join(home, ".claude", "settings.json")},
			[2]string{"~/.claude/settings.local.json", filepath.Join(home, ".claude", "settings.local.json")})
	}
	return append(files, [2]string{managedSettings(), managedSettings()})
}

// managedSettings is where an organisation's managed Claude Code settings
// live; they win over every other file.
func managedSettings() string {
	if runtime.GOOS == "darwin" {
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	}
	return "/etc/claude-code/managed-settings.json"
}

func diagnoseClaude(env DoctorEnv) []Check {
	var out []Check
	var entry, entryFile, prompt string
	var entryHook map[string]json.RawMessage
	for _, f := range claudeSettingsFiles(env) {
		data, err := os.ReadFile(f[1])
		if err != nil {
			continue
		}
		if len(bytes.TrimSpace(data)) == 0 {
			data = []byte("{}")
		}
		d, err := parseJSONDoc(f[0], data)
		if err != nil {
			out = append(out, Check{Name: "Claude Code settings", Status: Fail, Detail: err.Error(), Fix: "fix the file by hand", Gate: true})
			continue
		}
		if v, _ := d.root.member("disableAllHooks"); v != nil && string(d.data[v.start:v.end]) == "true" {
			out = append(out, Check{Name: "Claude Code hooks enabled", Status: Fail, Gate: true,
				Detail: d.where(v) + `: "disableAllHooks": true — Claude Code runs no hook, so the gate never runs`,
				Fix:    `remove "disableAllHooks" from ` + f[0]})
		}
		if v, _ := d.root.member("allowManagedHooksOnly"); f[0] == managedSettings() && v != nil && string(d.data[v.start:v.end]) == "true" {
			if g, _, _ := existingEntry(d, "PreToolUse", false); g == nil {
				out = append(out, Check{Name: "Claude Code hooks enabled", Status: Fail, Gate: true,
					Detail: d.where(v) + `: "allowManagedHooksOnly": true — Claude Code runs only the managed hooks, and they do not include gitwarrant's`,
					Fix:    "ask whoever manages " + f[0] + " to add gitwarrant's hook there"})
			}
		}
		if prompt == "" {
			_, _, prompt = existingEntry(d, hook.EventUserPromptSubmit, false)
		}
		if entry == "" {
			if g, cmd, text := existingEntry(d, "PreToolUse", false); g != nil {
				entry, entryFile = text, f[0]
				_ = cmd
				var grp struct {
					Hooks []map[string]json.RawMessage `json:"hooks"`
				}
				_ = json.Unmarshal(d.data[g.start:g.end], &grp)
				for _, h := range grp.Hooks {
					var c string
					_ = json.Unmarshal(h["command"], &c)
					if c == text {
						entryHook = h
					}
				}
			}
		}
	}
	if entry == "" {
		if addr, w, ok := CurrentHTTPHook(env.Root); ok {
			return append(out, diagnoseHTTPHook(env, addr, w)...)
		}
	}
	c := Check{Name: "Claude Code hook", Gate: true}
	switch {
	case entry == "":
		c.Status, c.Detail, c.Fix = Fail, "no gitwarrant PreToolUse hook in any Claude Code settings file (.claude/settings.json, .claude/settings.local.json, ~/.claude/, managed)", "run `gitwarrant install`"
	default:
		base, _, _ := parseMarker(entry)
		if _, ok := env.lookPath("gitwarrant"); !ok {
			c.Status, c.Detail = Fail, entryFile+": the hook runs `gitwarrant` by name, and gitwarrant is not on PATH"
			c.Fix = "install it (" + InstallHint + ") and put it on PATH"
			if pinned(base) {
				c.Detail += " (the pinned hook blocks every tool call until it is)"
			}
		} else {
			c.Status, c.Detail = Live, entryFile+": "+summarizeCommand(base)
		}
	}
	out = append(out, c)
	if entry != "" {
		out = append(out, sessionsCheck(env, entryFile, entry, prompt))
	}
	if entry != "" && pinned(entry) && string(entryHook["onFailure"]) != `"block"` {
		out = append(out, Check{Name: "Claude Code hook on failure", Status: Warn,
			Detail: entryFile + `: the pinned hook has no "onFailure": "block", so a hook that crashes or times out lets the call through (Claude Code 2.1.295 and later honour the key)`,
			Fix:    `add "onFailure": "block" next to its command, or run ` + "`gitwarrant install --loop …`/`--strict` again"})
	}
	return out
}

// pinned reports whether a hook command pins the gate (--loop,
// --default-loop, --strict).
func pinned(cmd string) bool {
	_, args, ok := strings.Cut(cmd, "gitwarrant hook claude")
	if !ok {
		return false
	}
	args, _, _ = strings.Cut(args, "||")
	return strings.Contains(args, "--loop") || strings.Contains(args, "--default-loop") || strings.Contains(args, "--strict")
}

// sessionsCheck says which loop each session's calls are decided under
// (docs/sessions.md#how-a-loop-is-chosen): a loop the wiring names must be
// a job loop that loads, and a repository with neither a pin nor a default
// loop is warned that calls no loop speaks of pass silently.
func sessionsCheck(env DoctorEnv, file, pre, prompt string) Check {
	c := Check{Name: "loop for every session", Gate: true}
	w, _, ok := hook.ParseWiring(pre)
	if !ok {
		w = hook.Wiring{Strict: strings.Contains(pre, "--strict")}
	}
	name, how := w.Loop, "pinned: every call is decided under it"
	if name == "" {
		name, how = w.DefaultLoop, "the default for a session no prompt has pinned"
	}
	if name != "" && env.LoopsDir != "" {
		l, err := loops.LoadByName(env.LoopsDir, name)
		switch {
		case err != nil:
			c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("%s: the hook names the loop %q, which does not load: %v — every call asks", file, name, err), "fix the loop, or run `gitwarrant install --default-loop <name>` with a loop `gitwarrant list` shows"
			return c
		case l.Abstract:
			c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("%s: the hook names the loop %q, which is abstract (a baseline, not a job) — every call asks", file, name), "run `gitwarrant install --default-loop <name>` with a job loop"
			return c
		}
	}
	switch {
	case w.Loop != "":
		c.Status, c.Detail = Live, fmt.Sprintf("loop %s (%s)", name, how)
	case w.DefaultLoop != "" && prompt == "":
		c.Status, c.Detail, c.Fix = Warn, fmt.Sprintf("default loop %s, but no UserPromptSubmit hook routes a session's prompt to another loop", name), "run `gitwarrant install` to add it"
	case w.DefaultLoop != "":
		c.Status, c.Detail = Live, fmt.Sprintf("each session under the loop its prompt routes to; default loop %s", name)
	case w.Strict:
		c.Status, c.Detail = Live, "strict: a call no loop covers asks"
	default:
		c.Status, c.Fix = Warn, "run `gitwarrant install --default-loop <name>`"
		c.Detail = "no default loop: a session no prompt routes is screened only by every loop's never and ask entries, and a call no loop speaks of passes to Claude Code's own permissions"
	}
	return c
}

// summarizeCommand is the gitwarrant part of a hook command.
func summarizeCommand(cmd string) string {
	_, args, ok := strings.Cut(cmd, "gitwarrant hook claude")
	if !ok {
		return cmd
	}
	args, _, _ = strings.Cut(args, "||")
	s := "gitwarrant hook claude" + strings.TrimRight(args, " ")
	if !pinned(cmd) {
		s += " (unpinned)"
	}
	return s
}

func diagnoseMCP(env DoctorEnv) []Check {
	data, err := os.ReadFile(filepath.Join(env.Root, MCPPath))
	if err != nil {
		return nil
	}
	d, err := parseJSONDoc(MCPPath, data)
	if err != nil {
		return []Check{{Name: "MCP servers", Status: Fail, Detail: err.Error(), Fix: "fix the file by hand"}}
	}
	servers, _ := d.root.member("mcpServers")
	if servers == nil || servers.kind != '{' {
		return nil
	}
	var out []Check
	for _, it := range servers.items {
		var srv struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		_ = json.Unmarshal(d.data[it.val.start:it.val.end], &srv)
		if srv.Command == "" {
			continue // a remote (url) server: nothing to resolve here
		}
		c := Check{Name: "MCP server " + it.key}
		if filepath.Base(srv.Command) == "gitwarrant" && len(srv.Args) > 0 && srv.Args[0] == "mcp" && !features.MCP {
			c.Status, c.Detail = Fail, d.where(it.val)+": `gitwarrant mcp` does not exist in this version, so Claude Code shows a failing server"
			c.Fix = "remove the server from " + MCPPath + " (`gitwarrant uninstall --no-hook --no-git-hooks` does)"
			out = append(out, c)
			continue
		}
		if path, ok := env.lookPath(srv.Command); ok {
			c.Status, c.Detail = OK, d.where(it.val)+": "+srv.Command+" resolves"
			// Only the gitwarrant on PATH is started: a command path named
			// in a committed .mcp.json is the repository's code, and doctor
			// must not run it.
			if srv.Command == "gitwarrant" && len(srv.Args) > 0 && srv.Args[0] == "mcp" {
				if err := mcpAnswers(env, path, srv.Args); err != nil {
					c.Status, c.Detail = Fail, d.where(it.val)+": `"+strings.Join(append([]string{srv.Command}, srv.Args...), " ")+"` does not answer initialize: "+err.Error()
					c.Fix = "run the command by hand to see why; `gitwarrant install` writes a working entry"
				} else {
					c.Detail += " and answers initialize"
				}
			}
		} else {
			c.Status, c.Detail = Fail, d.where(it.val)+": command "+srv.Command+" is not on PATH, so Claude Code shows a failing server"
			c.Fix = "install " + srv.Command + ", or remove the server from " + MCPPath
		}
		out = append(out, c)
	}
	return out
}

// GateFailures are the gate checks that are not live.
func GateFailures(cs []Check) []Check {
	var out []Check
	for _, c := range cs {
		if c.Gate && c.Status == Fail {
			out = append(out, c)
		}
	}
	return out
}

// mcpAnswers starts the configured MCP server the way a client would and
// checks it answers initialize within a few seconds.
func mcpAnswers(env DoctorEnv, path string, args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = env.Root
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"gitwarrant-doctor","version":"1"}}}` + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return fmt.Errorf("no answer within 5 s")
	}
	if !bytes.Contains(out, []byte(`"serverInfo"`)) {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if msg == "" {
			msg = "no initialize result on stdout"
		}
		return errors.New(firstLine(msg))
	}
	return nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

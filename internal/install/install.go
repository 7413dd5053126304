// Package install wires gitwarrant into a repository and takes it out again
// (docs/design.md#enforcement-surfaces "Install"): the compiled context files, the Claude Code hooks
// in .claude/settings.json, the MCP server in .mcp.json, and the git hooks.
//
// Everything is planned before anything is written: every file is read and
// checked, and a problem anywhere (malformed JSON, an orphaned marker, two
// hook scripts in each other's way) means nothing is written. Every edit is
// the smallest text change, found again by its markers, so a second install
// changes no byte and uninstall — even on a fresh clone, with no install
// state — gives back the original bytes.
package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/gitwarrant/gitwarrant/hooks"
	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/features"
	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// Options say what install wires.
type Options struct {
	// Root is the directory holding the project: context files, .claude/
	// and .mcp.json go here.
	Root string
	// Targets are the context files to compile into, with Block (made by
	// compile.Compile) as the managed block.
	Targets []compile.Target
	Block   string
	// Hook holds the Claude Code hook command lines; nil skips the hook.
	Hook *HookCommands
	// MCP adds gitwarrant's server to .mcp.json; honoured only once the
	// server exists (features.MCP).
	MCP bool
	// GitHooks installs the pre-commit and commit-msg hooks.
	GitHooks bool
	// PrePush also installs the pre-push hook that runs the CI gate
	// (docs/ci.md#locally).
	PrePush bool
	// Bin is the absolute path of the gitwarrant binary, recorded in the
	// per-clone git hooks ("" leaves them to PATH).
	Bin string
	// PreCommitStage is the stage name for the pre-commit framework's
	// pre-commit hooks: "pre-commit" for pre-commit 3.2 and later, "commit"
	// before (and for any version); "" means "commit".
	PreCommitStage string
	// Sandbox is written into the Claude Code settings with the hook
	// (nil: --no-sandbox), docs/install.md#the-sandbox.
	Sandbox *Sandbox
	// Agents are the other clients whose hook files install wires (nil:
	// none), docs/agents.md#install.
	Agents *AgentHooks
}

// PlanInstall reads and checks every file install would touch and returns
// the changes, writing nothing.
func PlanInstall(o Options) (*Plan, error) {
	p := &Plan{Root: o.Root, bin: o.Bin, sandbox: o.Sandbox}
	if err := p.planContext(o.Targets, o.Block); err != nil {
		return nil, err
	}
	if o.Hook != nil {
		if err := p.planSettings(o.Hook); err != nil {
			return nil, err
		}
	}
	if o.Agents != nil {
		if err := p.planAgents(o.Agents); err != nil {
			return nil, err
		}
	}
	if o.MCP && features.MCP {
		if err := p.planMCP(true); err != nil {
			return nil, err
		}
	}
	if o.GitHooks {
		stage := o.PreCommitStage
		if stage == "" {
			stage = "commit"
		}
		if err := p.planGitHooks(stage); err != nil {
			return nil, err
		}
	}
	if o.PrePush {
		if err := p.planPrePush(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// planPrePush wires the optional pre-push hook: husky's script, else the
// per-clone shim (chaining a script already there). A slot lefthook or the
// pre-commit framework owns gets a manual step naming the line to add.
func (p *Plan) planPrePush() error {
	g, err := resolveGit(p.Root)
	if err != nil {
		return err
	}
	const hook = "pre-push"
	if hd := g.huskyDir(); hd != "" {
		return p.planHusky(hd, hook)
	}
	slot, err := readHookFile(filepath.Join(g.hooksDir, hook))
	if err != nil {
		return err
	}
	if owner := slotOwner(slot, hook); owner == "lefthook" || owner == "pre-commit" {
		file := PreCommitConfig
		if owner == "lefthook" {
			file = "lefthook.yml"
		}
		p.manual(hook, file, owner+" runs the pre-push hook in this clone", hookInvocation(hook))
		return nil
	}
	return p.planShim(g.hooksDir, hook)
}

// UninstallOptions say what uninstall removes; the zero value with Root
// set removes everything gitwarrant added.
type UninstallOptions struct {
	Root    string
	Targets []compile.Target
	// Keep… leave one surface alone.
	KeepHook, KeepMCP, KeepGitHooks bool
	// Sandbox is what install would write now: the settings' sandbox
	// object is removed only when it is exactly that.
	Sandbox *Sandbox
}

// PlanUninstall plans removing exactly what install added, found by its
// markers.
func PlanUninstall(o UninstallOptions) (*Plan, error) {
	p := &Plan{Root: o.Root, sandbox: o.Sandbox}
	if err := p.planUncontext(o.Targets); err != nil {
		return nil, err
	}
	if !o.KeepHook {
		if err := p.planUnsettings(); err != nil {
			return nil, err
		}
		if err := p.planUnlocalKey(); err != nil {
			return nil, err
		}
		if err := p.planUnagents(); err != nil {
			return nil, err
		}
	}
	if !o.KeepMCP {
		if err := p.planMCP(false); err != nil {
			return nil, err
		}
	}
	if !o.KeepGitHooks {
		if err := p.planUngitHooks(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// planContext compiles block into each target file. A file reached through
// two targets (CLAUDE.md symlinked to AGENTS.md) is written once.
func (p *Plan) planContext(targets []compile.Target, block string) error {
	seen := map[string]bool{}
	for _, t := range targets {
		tp, err := compile.PlanTarget(p.Root, t, block)
		if err != nil {
			return err
		}
		if seen[tp.Path] || !tp.Changed {
			continue
		}
		seen[tp.Path] = true
		p.add(tp.Path, tp.Old, tp.Exists, tp.Mode, tp.New)
	}
	return nil
}

func (p *Plan) planUncontext(targets []compile.Target) error {
	seen := map[string]bool{}
	for _, t := range targets {
		tp, err := compile.PlanRemoveTarget(p.Root, t)
		if err != nil {
			return err
		}
		if seen[tp.Path] || !tp.Changed {
			continue
		}
		seen[tp.Path] = true
		if tp.Remove {
			p.remove(tp.Path, tp.Old, tp.Mode)
		} else {
			p.add(tp.Path, tp.Old, true, tp.Mode, tp.New)
		}
	}
	return nil
}

// planSettings adds gitwarrant's PreToolUse and PostToolUse groups to
// .claude/settings.json. A gitwarrant entry already there — hand-written,
// pinned, with another timeout — is kept as it is and reported; with
// --loop or --strict (Explicit) the PreToolUse entry is changed: replaced
// when it is install's own, else only its command is rewritten.
func (p *Plan) planSettings(h *HookCommands) error {
	if h.HTTP != nil {
		return p.planSettingsHTTP(h.HTTP)
	}
	d, existed, err := loadJSON(p.Root, SettingsPath)
	if err != nil {
		return err
	}
	orig, _, _, _ := fileState(filepath.Join(p.Root, filepath.FromSlash(SettingsPath)))
	// The http hooks give way to the command hooks (docs/install.md#the-http-hook).
	if d, existed, err = dropHTTPHooks(d, existed); err != nil {
		return err
	}
	for _, eg := range h.groups() {
		post := eg.event == "PostToolUse"
		group, cmdNode, text := existingEntry(d, eg.event, post)
		var out []byte
		switch {
		case group == nil:
			file := created{file: !existed, empty: existed && len(bytes.TrimSpace(orig)) == 0}
			if out, err = addHookGroup(d, eg.event, eg.group, file); err != nil {
				return err
			}
		case post || (!h.Explicit && !(isOurs(d, group) && !pinned(text))):
			if base, _, _ := parseMarker(text); base != eg.group.Hooks[0].Command {
				p.Notices = append(p.Notices, fmt.Sprintf("kept the gitwarrant hook already in %s (%s: %s)%s", SettingsPath, eg.event, text,
					map[bool]string{true: "", false: "; pass --loop or --strict to change it"}[post]))
			}
			continue
		default:
			if c, ours := ourGroup(d.data[group.start:group.end]); ours {
				g := eg.group
				g.Hooks = append([]hookCmd(nil), g.Hooks...)
				g.Hooks[0].mark(c)
				out, _ = d.replaceValue(group, g)
			} else {
				out = d.replaceCommand(cmdNode, eg.group.Hooks[0].Command)
				p.Notices = append(p.Notices, fmt.Sprintf("changed the command of your own gitwarrant hook in %s (%s) to %s; its other settings are kept", SettingsPath, eg.event, eg.group.Hooks[0].Command))
			}
		}
		if d, err = parseJSONDoc(SettingsPath, out); err != nil {
			return fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", SettingsPath, err)
		}
	}
	if d, _, err = p.editGuards(d, true); err != nil {
		return err
	}
	p.addJSON(SettingsPath, orig, existed, d.data)
	return nil
}

// isOurs reports whether group is exactly one install wrote (ourGroup).
// Install brings its own unpinned entries up to date without being asked
// (an older install wrote them before sessions had a default loop); a
// pinned one is a choice, kept unless install is told otherwise.
func isOurs(d *jsonDoc, group *jnode) bool {
	_, ours := ourGroup(d.data[group.start:group.end])
	return ours
}

// CurrentWiring returns the wiring of the gitwarrant PreToolUse hook in
// .claude/settings.json, if there is one install can read.
func CurrentWiring(root string) (hook.Wiring, bool) {
	d, existed, err := loadJSON(root, SettingsPath)
	if err != nil || !existed {
		return hook.Wiring{}, false
	}
	_, _, text := existingEntry(d, "PreToolUse", false)
	w, event, ok := hook.ParseWiring(text)
	return w, ok && event == "pre"
}

// planUnsettings removes the groups install wrote (ourGroup). The file is
// deleted only when a marker says install created it and nothing else is
// left in it; a file that was there before install is never deleted.
func (p *Plan) planUnsettings() error {
	d, existed, err := loadJSON(p.Root, SettingsPath)
	if err != nil || !existed {
		return err
	}
	orig, _, _, _ := fileState(filepath.Join(p.Root, filepath.FromSlash(SettingsPath)))
	d, changed, err := p.editGuards(d, false)
	if err != nil {
		return err
	}
	file := created{}
	for _, event := range slices.Backward(hookEvents) {
		var removed bool
		var fc created
		if d, removed, fc, err = removeHookGroups(d, event); err != nil {
			return err
		}
		changed = changed || removed
		file.file, file.empty = file.file || fc.file, file.empty || fc.empty
	}
	if !changed {
		return nil
	}
	if file.empty && len(d.root.items) == 0 && bytes.HasPrefix(d.data, []byte("{}")) && len(bytes.TrimSpace(d.data[2:])) == 0 {
		// The file held only whitespace, read as {}: it gets that back.
		path := filepath.Join(p.Root, filepath.FromSlash(SettingsPath))
		p.add(path, orig, true, modeOf(path), d.data[2:])
		return nil
	}
	p.dropOrWriteJSON(SettingsPath, orig, d, file.file)
	return nil
}

// planMCP adds (add) or removes gitwarrant's server in .mcp.json.
func (p *Plan) planMCP(add bool) error {
	d, existed, err := loadJSON(p.Root, MCPPath)
	if err != nil || (!add && !existed) {
		return err
	}
	if add {
		srv := MCPServer
		if !existed {
			srv = MCPServerCreated
		}
		out, err := addMCPServer(d, srv)
		if err != nil {
			return err
		}
		p.addJSON(MCPPath, d.data, existed, out)
		return nil
	}
	out, removed, created, err := removeMCPServer(d)
	if err != nil || !removed {
		return err
	}
	nd, err := parseJSONDoc(MCPPath, out)
	if err != nil {
		return err
	}
	p.dropOrWriteJSON(MCPPath, d.data, nd, created)
	return nil
}

// addJSON records a JSON file's new content, keeping its mode.
func (p *Plan) addJSON(rel string, old []byte, existed bool, out []byte) {
	path := filepath.Join(p.Root, filepath.FromSlash(rel))
	if !existed {
		old = nil
	}
	p.add(path, old, existed, modeOf(path), out)
}

// modeOf is a file's permission bits, 0644 when it does not exist.
func modeOf(path string) os.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// dropOrWriteJSON deletes a JSON file install created (created) and that
// is left as an empty object, else writes it back. A file left as "{}"
// that install did not provably create stays, with a note.
func (p *Plan) dropOrWriteJSON(rel string, old []byte, d *jsonDoc, created bool) {
	path := filepath.Join(p.Root, filepath.FromSlash(rel))
	mode := modeOf(path)
	empty := len(d.root.items) == 0
	if empty && created {
		p.remove(path, old, mode)
		return
	}
	if empty && bytes.Equal(bytes.TrimSpace(d.data), []byte("{}")) && !bytes.Equal(bytes.TrimSpace(old), []byte("{}")) {
		p.Notices = append(p.Notices, fmt.Sprintf("left %s holding only {}: nothing shows that install created it; delete it if you do not need it", rel))
	}
	p.add(path, old, true, mode, d.data)
}

// planGitHooks wires pre-commit and commit-msg through whoever owns each
// hook (docs/install.md#git-hooks). husky: gitwarrant's line first in
// .husky/<hook>. lefthook and the pre-commit framework: gitwarrant's
// command in their committed configuration, and — where the manager has
// not installed its own script for a hook in this clone — gitwarrant's
// shim in the slot, so the gate is live now, not after the next `lefthook
// install`. No manager: the shim, chaining a script already there. A gate
// that cannot be wired becomes a manual step with the exact lines to add.
func (p *Plan) planGitHooks(preCommitStage string) error {
	g, err := resolveGit(p.Root)
	if err != nil {
		return err
	}
	if hd := g.huskyDir(); hd != "" {
		for _, hook := range gitHookNames {
			if err := p.planHusky(hd, hook); err != nil {
				return err
			}
		}
		return nil
	}
	configured := map[string]map[string]bool{}
	if lf := findLefthook(g.workTree); lf != "" {
		if configured["lefthook"], err = p.planLefthook(lf); err != nil {
			return err
		}
	}
	if pc := filepath.Join(g.workTree, PreCommitConfig); fileExists(pc) {
		if configured["pre-commit"], err = p.planPreCommit(pc, preCommitStage); err != nil {
			return err
		}
	}
	for _, hook := range gitHookNames {
		slot, err := readHookFile(filepath.Join(g.hooksDir, hook))
		if err != nil {
			return err
		}
		owner := slotOwner(slot, hook)
		if _, ok := configured[owner]; ok {
			continue // the manager runs it: wired above, or a manual step says what to add
		}
		if configured["lefthook"] != nil && p.lefthookChanged {
			p.Notices = append(p.Notices, fmt.Sprintf("lefthook has not installed its %s hook in this clone: gitwarrant's own hook runs until `lefthook install` does", hook))
		}
		if err := p.planShim(g.hooksDir, hook); err != nil {
			return err
		}
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// planUngitHooks removes gitwarrant from every place install may have put
// it, whatever manages the hooks now.
func (p *Plan) planUngitHooks() error {
	g, err := resolveGit(p.Root)
	if err != nil {
		return err
	}
	var lefthookAfter []byte
	if lf := findLefthook(g.workTree); lf != "" {
		if lefthookAfter, err = p.planUnlefthook(lf); err != nil {
			return err
		}
	}
	if err := p.planUnpreCommit(filepath.Join(g.workTree, PreCommitConfig)); err != nil {
		return err
	}
	for _, hook := range append(append([]string(nil), gitHookNames...), hooks.Optional...) {
		hd := g.huskyDir()
		if hd != "" {
			if err := p.planUnhusky(hd, hook); err != nil {
				return err
			}
		}
		if hd == g.hooksDir {
			continue // husky < 9: its scripts are the hooks dir
		}
		runs := func(owner string) bool {
			return owner == "lefthook" && lefthookAfter != nil && lefthookConfigures(lefthookAfter, hook)
		}
		if err := p.planUnshim(g.hooksDir, hook, runs); err != nil {
			return err
		}
	}
	return nil
}

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

	"github.com/gitwarrant/gitwarrant/internal/compile"
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
	// MCP adds gitwarrant's server to .mcp.json.
	MCP bool
	// GitHooks installs the pre-commit and commit-msg hooks.
	GitHooks bool
	// Version is gitwarrant's version, for the pre-commit framework's rev.
	Version string
}

// MCPServer is the .mcp.json entry install writes. Bare "gitwarrant" works
// for anyone who clones the repository with gitwarrant on PATH.
var MCPServer = mcpServer{Command: "gitwarrant", Args: []string{"mcp"}}

// PlanInstall reads and checks every file install would touch and returns
// the changes, writing nothing.
func PlanInstall(o Options) (*Plan, error) {
	p := &Plan{Root: o.Root}
	if err := p.planContext(o.Targets, o.Block); err != nil {
		return nil, err
	}
	if o.Hook != nil {
		if err := p.planSettings(o.Hook); err != nil {
			return nil, err
		}
	}
	if o.MCP {
		if err := p.planMCP(true); err != nil {
			return nil, err
		}
	}
	if o.GitHooks {
		if err := p.planGitHooks(o.Version); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// UninstallOptions say what uninstall removes; the zero value with Root
// set removes everything gitwarrant added.
type UninstallOptions struct {
	Root    string
	Targets []compile.Target
	// Keep… leave one surface alone.
	KeepHook, KeepMCP, KeepGitHooks bool
}

// PlanUninstall plans removing exactly what install added, found by its
// markers.
func PlanUninstall(o UninstallOptions) (*Plan, error) {
	p := &Plan{Root: o.Root}
	if err := p.planUncontext(o.Targets); err != nil {
		return nil, err
	}
	if !o.KeepHook {
		if err := p.planUnsettings(); err != nil {
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

// planSettings adds (or updates in place) gitwarrant's PreToolUse and
// PostToolUse groups in .claude/settings.json.
func (p *Plan) planSettings(h *HookCommands) error {
	d, existed, err := loadJSON(p.Root, SettingsPath)
	if err != nil {
		return err
	}
	orig := d.data
	for _, eg := range h.groups() {
		out, err := addHookGroup(d, eg.event, eg.group)
		if err != nil {
			return err
		}
		if d, err = parseJSONDoc(SettingsPath, out); err != nil {
			return fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", SettingsPath, err)
		}
	}
	p.addJSON(SettingsPath, orig, existed, d.data)
	return nil
}

func (p *Plan) planUnsettings() error {
	d, existed, err := loadJSON(p.Root, SettingsPath)
	if err != nil || !existed {
		return err
	}
	orig := d.data
	changed := false
	for _, event := range []string{"PostToolUse", "PreToolUse"} {
		var removed bool
		if d, removed, err = removeHookGroups(d, event); err != nil {
			return err
		}
		changed = changed || removed
	}
	if changed {
		p.dropOrWriteJSON(SettingsPath, orig, d)
	}
	return nil
}

// planMCP adds (add) or removes gitwarrant's server in .mcp.json.
func (p *Plan) planMCP(add bool) error {
	d, existed, err := loadJSON(p.Root, MCPPath)
	if err != nil || (!add && !existed) {
		return err
	}
	if add {
		out, err := addMCPServer(d, MCPServer)
		if err != nil {
			return err
		}
		p.addJSON(MCPPath, d.data, existed, out)
		return nil
	}
	out, removed, err := removeMCPServer(d)
	if err != nil || !removed {
		return err
	}
	nd, err := parseJSONDoc(MCPPath, out)
	if err != nil {
		return err
	}
	p.dropOrWriteJSON(MCPPath, d.data, nd)
	return nil
}

// addJSON records a JSON file's new content, keeping its mode.
func (p *Plan) addJSON(rel string, old []byte, existed bool, out []byte) {
	path := filepath.Join(p.Root, filepath.FromSlash(rel))
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if !existed {
		old = nil
	}
	p.add(path, old, existed, mode, out)
}

// dropOrWriteJSON deletes a JSON file left as an empty object — install
// created it, or it held only gitwarrant's entries — else writes it back.
func (p *Plan) dropOrWriteJSON(rel string, old []byte, d *jsonDoc) {
	path := filepath.Join(p.Root, filepath.FromSlash(rel))
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if len(d.root.items) == 0 && len(bytes.TrimSpace(d.data)) == 2 {
		p.remove(path, old, mode)
		return
	}
	p.add(path, old, true, mode, d.data)
}

// planGitHooks wires pre-commit and commit-msg through whoever owns the
// hooks: the pre-commit framework (a snippet to add), lefthook (its
// config), husky (its scripts), or else gitwarrant's own shims.
func (p *Plan) planGitHooks(version string) error {
	g, err := resolveGit(p.Root)
	if err != nil {
		return err
	}
	if data, err := os.ReadFile(filepath.Join(g.workTree, preCommitConfig)); err == nil {
		if !bytes.Contains(data, []byte(preCommitIDs["pre-commit"])) {
			p.Snippets = append(p.Snippets, preCommitSnippet(version))
			p.Notices = append(p.Notices, preCommitConfig+" found: the pre-commit framework owns the git hooks, so install left them alone; add the snippet printed on stdout")
		}
		return nil
	}
	if lf := findLefthook(g.workTree); lf != "" {
		p.Notices = append(p.Notices, fmt.Sprintf("%s found: gitwarrant's hooks go through lefthook (run `lefthook install` if commit-msg is new to it)", p.rel(lf)))
		return p.planLefthook(lf, gitHookNames)
	}
	for _, hook := range gitHookNames {
		var err error
		if hd := g.huskyDir(); hd != "" {
			err = p.planHusky(hd, hook)
		} else {
			err = p.planShim(g.hooksDir, hook)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// planUngitHooks removes gitwarrant from every place install may have put
// it, whatever manages the hooks now.
func (p *Plan) planUngitHooks() error {
	g, err := resolveGit(p.Root)
	if err != nil {
		return err
	}
	if lf := findLefthook(g.workTree); lf != "" {
		if err := p.planUnlefthook(lf); err != nil {
			return err
		}
	}
	if data, err := os.ReadFile(filepath.Join(g.workTree, preCommitConfig)); err == nil && bytes.Contains(data, []byte(preCommitIDs["pre-commit"])) {
		p.Notices = append(p.Notices, "remove the gitwarrant repo from "+preCommitConfig+" by hand: uninstall does not edit it")
	}
	for _, hook := range gitHookNames {
		hd := g.huskyDir()
		if hd != "" {
			if err := p.planUnhusky(hd, hook); err != nil {
				return err
			}
		}
		if hd == g.hooksDir {
			continue // husky < 9: its scripts are the hooks dir
		}
		if err := p.planUnshim(g.hooksDir, hook); err != nil {
			return err
		}
	}
	return nil
}

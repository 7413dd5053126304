// Package protect names the places and switches that gitwarrant's
// self-protection guards (docs/threat-model.md#what-the-gate-protects):
// the project directory, Git's directory, the files through which hook
// managers run gitwarrant's git hooks, Claude Code's settings, the
// environment variables and git config keys that switch hooks off or run
// code, and gitwarrant's human-only commands. It is the one list: the gate
// denies writes to these places, and install writes the hook-manager files
// named here. It is a leaf: no I/O.
package protect

import (
	"path"
	"strings"
	"sync"
)

// ProjectDirNames are the directory names of a gitwarrant project (and of
// the docket projects it reads).
var ProjectDirNames = []string{".gitwarrant", ".docket"}

// Lefthook's config files, in its lookup order, and the local override
// files it merges on top (lefthook-local.yml can switch a hook off).
var (
	LefthookFiles      = []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"}
	LefthookLocalFiles = []string{"lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook-local.yaml"}
)

// PreCommitConfig is the pre-commit framework's config file.
const PreCommitConfig = ".pre-commit-config.yaml"

// HuskyDir is husky's directory of hook scripts (v9 keeps its runner in
// .husky/_).
const HuskyDir = ".husky"

// HookManagerFile reports whether a repository-relative or absolute path
// (slash-separated, any case) is a hook manager's configuration: a lefthook
// config or local override, the pre-commit config, or anything under
// .husky/. Writing one can switch gitwarrant's git hooks off as surely as
// editing .git/hooks.
func HookManagerFile(p string) bool {
	comps := Components(p)
	if len(comps) == 0 {
		return false
	}
	base := comps[len(comps)-1]
	for _, f := range LefthookFiles {
		if base == f {
			return true
		}
	}
	for _, f := range LefthookLocalFiles {
		if base == f {
			return true
		}
	}
	if base == PreCommitConfig {
		return true
	}
	for _, c := range comps {
		if c == HuskyDir {
			return true
		}
	}
	return false
}

// HookManagerNames lists every hook-manager file name, for screening a glob
// that could match one.
func HookManagerNames() []string {
	out := append([]string{}, LefthookFiles...)
	out = append(out, LefthookLocalFiles...)
	return append(out, PreCommitConfig, HuskyDir)
}

// HookManagerCommands are the hook managers' own commands; their
// `uninstall` removes every hook they run, gitwarrant's included.
var HookManagerCommands = []string{"pre-commit", "lefthook", "husky"}

// Claude Code's settings files, relative to a project (and to ~), and the
// MCP configuration file.
var (
	ClaudeSettingsFiles = []string{".claude/settings.json", ".claude/settings.local.json"}
	MCPConfigFile       = ".mcp.json"
	// ClaudeDirs hold Claude Code's slash commands, subagents, skills and
	// hook scripts: their `allowed-tools` grant permissions and their
	// scripts run as hooks, so they are guarded like the settings files.
	ClaudeDirs = []string{".claude/commands", ".claude/agents", ".claude/skills", ".claude/hooks"}
	// ClaudeUserConfig is Claude Code's own state in the home directory,
	// which holds each project's allowed tools and MCP servers.
	ClaudeUserConfig = ".claude.json"
)

// AgentHookFiles are the files, relative to a project (and to ~), through
// which the other clients run gitwarrant's hooks (docs/agents.md): Codex's
// hooks.json and config.toml (which holds hooks too, and the switch that
// turns them off), Gemini CLI's settings.json and Cursor's hooks.json.
var AgentHookFiles = []string{".codex/hooks.json", ".codex/config.toml", ".gemini/settings.json", ".cursor/hooks.json"}

// AgentHookFile reports whether a repository-relative or absolute path
// (slash-separated, any case) ends in one of AgentHookFiles.
func AgentHookFile(p string) bool {
	comps := Components(p)
	if len(comps) < 2 {
		return false
	}
	tail := comps[len(comps)-2] + "/" + comps[len(comps)-1]
	for _, f := range AgentHookFiles {
		if tail == f {
			return true
		}
	}
	return false
}

// ClaudeDir reports whether a directory name under .claude is one of
// ClaudeDirs.
func ClaudeDir(name string) bool {
	switch name {
	case "commands", "agents", "skills", "hooks":
		return true
	}
	return false
}

// HumanOnly are gitwarrant's commands that an agent may never run: amends,
// reviews, signatures and keys widen or vouch for a warrant; install,
// uninstall, init and new rewrite the gates or the loops; and the hooks are
// run by Claude Code and git, never by an agent (an agent running `hook
// claude --post` could forge the evidence that a person approved a call).
var HumanOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"amend": true, "bless": true, "review": true, "sign": true, "signers": true, "keys": true, "key": true,
		"install": true, "uninstall": true, "init": true, "new": true, "hook": true, "githooks": true,
		"session": true, // moving a session's loop pin is the person's choice (docs/sessions.md)
	}
})

// AgentSafe are gitwarrant commands an agent is expected to run (the
// compiled context tells it to check, match and note).
var AgentSafe = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"check": true, "match": true, "list": true, "show": true, "version": true,
		"help": true, "record": true, "metrics": true, "compile": true, "templates": true,
		"mcp": true, "serve": true, "verify": true, "demo": true, "ci": true, "lint": true,
		// Proposing changes nothing (a person applies it, signed); reading
		// proposals, explaining a decision and the warrant diff only read.
		"propose": true, "proposals": true, "explain": true, "diff": true,
	}
})

// BinaryName reports whether an executable's base name is gitwarrant's (or
// docket's): `gitwarrant`, `gitwarrant.exe`, `gitwarrant-linux-amd64`,
// `gitwarrant@v1.2.3`.
func BinaryName(base string) bool {
	base = strings.ToLower(path.Base(strings.ReplaceAll(base, `\`, "/")))
	if i := strings.IndexByte(base, '@'); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimSuffix(base, ".exe")
	return base == "gitwarrant" || strings.HasPrefix(base, "gitwarrant-") ||
		base == "docket" || base == "docket-agent"
}

// HookSwitch reports whether a prefix assignment NAME=VALUE switches a git
// hook (or its manager) off, or points git at another config, for the
// command it prefixes. hooks are the git hook names gitwarrant installs
// (for pre-commit's SKIP, which names hook ids).
func HookSwitch(name, value string) (why string, hit bool) {
	n := strings.ToUpper(name)
	switch {
	case n == "HUSKY" && strings.TrimSpace(value) == "0":
		return "HUSKY=0 switches husky's hooks off", true
	case n == "HUSKY_SKIP_HOOKS":
		return n + " switches husky's hooks off", true
	case n == "LEFTHOOK" && (strings.TrimSpace(value) == "0" || strings.EqualFold(strings.TrimSpace(value), "false")):
		return "LEFTHOOK=0 switches lefthook's hooks off", true
	case n == "LEFTHOOK_EXCLUDE", n == "LEFTHOOK_SKIP":
		return n + " skips lefthook's hooks", true
	case n == "SKIP", n == "PRE_COMMIT_SKIP":
		low := strings.ToLower(value)
		if strings.Contains(low, "gitwarrant") || strings.ContainsAny(low, "*$`") {
			return "SKIP= names a gitwarrant hook, which switches it off", true
		}
	case n == "PRE_COMMIT_ALLOW_NO_CONFIG":
		return n + " lets commits through without the pre-commit config", true
	case strings.HasPrefix(n, "GIT_CONFIG"):
		return n + " points git at another config, whose core.hooksPath can switch the hooks off", true
	case n == "GIT_DIR", n == "GIT_COMMON_DIR", n == "GIT_EXEC_PATH", n == "GIT_TEMPLATE_DIR":
		return n + " points git at another repository or program directory", true
	case n == "HOME", n == "XDG_CONFIG_HOME":
		return n + " changes which global git config (and core.hooksPath) git reads", true
	}
	return "", false
}

// PathSwitch reports whether an assignment changes where commands are
// found: the git hook shims skip themselves when gitwarrant is not on PATH.
func PathSwitch(name string) bool {
	return strings.EqualFold(name, "PATH")
}

// HookKey reports whether a git config key (lower-cased) decides which git
// hooks run: writing it can switch the record's anchor off.
func HookKey(key string) bool {
	key = strings.ToLower(key)
	return key == "core.hookspath" || key == "include.path" ||
		(strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")) ||
		key == "core.worktree" || key == "extensions.worktreeconfig"
}

// CodeKey reports whether a git config key (lower-cased) makes git run a
// program or read config from elsewhere: such a key given on a command line
// (`-c`, `--config-env`, GIT_CONFIG_*) or written with `git config` can run
// anything the agent wrote.
func CodeKey(key string) bool {
	key = strings.ToLower(key)
	if HookKey(key) {
		return true
	}
	switch key {
	case "core.sshcommand", "core.fsmonitor", "core.pager", "core.editor", "core.askpass",
		"core.gitproxy", "sequence.editor", "credential.helper", "diff.external",
		"gpg.program", "uploadpack.packobjectshook", "core.alternaterefscommand",
		"sendemail.sendmailcmd", "sendemail.smtpserver", "web.browser", "instaweb.httpd",
		"merge.tool", "diff.tool", "core.sparsecheckout", "receive.procreceiverefs",
		"ssh.variant", "http.proxy", "https.proxy", "core.fsmonitorhookversion":
		return true
	}
	first, last := key, key
	if i := strings.IndexByte(key, '.'); i >= 0 {
		first = key[:i]
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		last = key[i+1:]
	}
	switch first {
	case "alias", "pager", "filter", "protocol", "includeif", "credential", "difftool", "mergetool", "man", "browser", "hook":
		return true
	}
	switch last {
	case "textconv", "command", "driver", "program", "cmd", "receivepack", "uploadpack", "helper", "path", "proxy", "sshcommand", "hookspath", "fsmonitor":
		return true
	}
	return false
}

// RecordRefPrefix is where the record's chains are committed.
const RecordRefPrefix = "refs/gitwarrant/"

// Components splits a cleaned path into lower-cased names with the
// trailing dots and spaces Windows ignores removed, so `.GIT.` is still
// `.git` (clean the path first: `..` and `.` vanish here).
func Components(p string) []string {
	p = strings.ReplaceAll(p, `\`, "/")
	parts := strings.Split(p, "/")
	out := parts[:0:0]
	for _, c := range parts {
		if c = strings.TrimRight(strings.ToLower(c), ". "); c != "" {
			out = append(out, c)
		}
	}
	return out
}

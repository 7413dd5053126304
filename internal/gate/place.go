package gate

import (
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/protect"
)

// Place is where a call happens: the project (nil when there is none) and
// the places self-protection guards, known even without a project so that
// a bare hook still refuses to let an agent plant one.
type Place struct {
	Project    *project.Project
	ProjectErr error
	Root       string // work tree root, else the directory searched from
	ProjectDir string // the project dir, or where `init` would put it
	Repo       *gitx.Repo
	// HooksDirs are every directory git may run hooks from: core.hooksPath
	// from the repository's, the user's and every included config, and
	// <common dir>/hooks.
	HooksDirs []string
	Home      string
	XDGConfig string
}

// FindPlace locates the project for a call. An explicit dir or
// GITWARRANT_DIR/DOCKET_DIR wins (docs/design.md#repository-layout);
// otherwise the first of cwds that finds one: Claude Code's project
// directory, then the payload's cwd, then the process's.
func FindPlace(getenv func(string) string, dir string, cwds ...string) Place {
	var pl Place
	explicit := dir != "" || getenv("GITWARRANT_DIR") != "" || getenv("DOCKET_DIR") != ""
	var first string
	for _, c := range cwds {
		if c == "" {
			continue
		}
		if first == "" {
			first = c
		}
		p, err := project.Find(project.Options{Dir: dir, Env: getenv, Cwd: c})
		if err == nil {
			pl.Project, pl.ProjectErr = p, nil
			break
		}
		if pl.ProjectErr == nil {
			pl.ProjectErr = err
		}
		if explicit {
			break
		}
	}
	pl.Home = getenv("HOME")
	pl.XDGConfig = getenv("XDG_CONFIG_HOME")
	if pl.XDGConfig == "" && pl.Home != "" {
		pl.XDGConfig = filepath.Join(pl.Home, ".config")
	}
	base := first
	if pl.Project != nil {
		base = pl.Project.Root
	}
	pl.Root = base
	if repo, err := gitx.Locate(base); err == nil { // paths only: a refused repository is guarded too
		pl.Repo = repo
		pl.Root = repo.WorkTree
		pl.HooksDirs = pl.hooksDirs()
	}
	if pl.Project != nil {
		pl.ProjectDir = pl.Project.Dir
	} else if pl.Root != "" {
		pl.ProjectDir = filepath.Join(pl.Root, project.DirName)
	}
	return pl
}

// hooksDirs reads core.hooksPath from the config files instead of running
// `git config`: the hook runs before every tool call and a process costs
// more than the whole check. include.path is followed (three levels);
// every value found is guarded, not only the one git would pick.
func (pl Place) hooksDirs() []string {
	out := []string{filepath.Join(pl.Repo.CommonDir, "hooks")}
	files := []string{filepath.Join(pl.Repo.CommonDir, "config"), filepath.Join(pl.Repo.GitDir, "config.worktree")}
	if pl.XDGConfig != "" {
		files = append(files, filepath.Join(pl.XDGConfig, "git", "config"))
	}
	if pl.Home != "" {
		files = append(files, filepath.Join(pl.Home, ".gitconfig"))
	}
	seen := map[string]bool{}
	for depth := 0; depth < 4 && len(files) > 0; depth++ {
		var next []string
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			vs := gitx.ConfigKeys(f, "core.hooksPath", "include.path") // one read of f
			if v := vs[0]; v != "" {
				out = append(out, pl.configPath(v, pl.Root))
			}
			if inc := vs[1]; inc != "" {
				next = append(next, pl.configPath(inc, filepath.Dir(f)))
			}
		}
		files = next
	}
	return out
}

// configPath resolves a path-valued config setting: ~ is home, a relative
// path is relative to base.
func (pl Place) configPath(v, base string) string {
	if strings.HasPrefix(v, "~/") && pl.Home != "" {
		v = filepath.Join(pl.Home, v[2:])
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(base, v)
	}
	return filepath.Clean(v)
}

// guarded is one protected place: an absolute path, and whether only the
// path itself (a file) or everything below it too is protected.
type guarded struct {
	path string
	dir  bool
	why  string
}

// guards lists the protected places of this Place as absolute paths (both
// as written and resolved), for screening globs and deletions of an
// ancestor. The name rules in placeWhy cover the same places wherever they
// appear.
func (pl Place) guards() []guarded {
	var g []guarded
	add := func(p string, dir bool, why string) {
		if p == "" {
			return
		}
		g = append(g, guarded{filepath.Clean(p), dir, why})
		if r := Resolve(p, "", ""); r != filepath.Clean(p) {
			g = append(g, guarded{r, dir, why})
		}
	}
	add(pl.ProjectDir, true, whyProject)
	if pl.Root != "" {
		for _, n := range protect.ProjectDirNames {
			add(filepath.Join(pl.Root, n), true, whyProject)
		}
		add(filepath.Join(pl.Root, ".git"), true, whyGit)
		for _, f := range protect.ClaudeSettingsFiles {
			add(filepath.Join(pl.Root, f), false, whyClaude)
		}
		for _, d := range protect.ClaudeDirs {
			add(filepath.Join(pl.Root, d), true, whyClaudeDir)
		}
		add(filepath.Join(pl.Root, protect.MCPConfigFile), false, whyMCP)
		for _, f := range protect.AgentHookFiles {
			add(filepath.Join(pl.Root, f), false, whyAgentHooks)
		}
		for _, n := range protect.HookManagerNames() {
			add(filepath.Join(pl.Root, n), n == protect.HuskyDir, whyManager)
		}
	}
	if pl.Repo != nil {
		add(pl.Repo.GitDir, true, whyGit)
		add(pl.Repo.CommonDir, true, whyGit)
	}
	for _, h := range pl.HooksDirs {
		add(h, true, whyHooks)
	}
	if pl.Home != "" {
		add(filepath.Join(pl.Home, ".gitconfig"), false, whyGitConfig)
		for _, f := range protect.ClaudeSettingsFiles {
			add(filepath.Join(pl.Home, f), false, whyClaude)
		}
		for _, d := range protect.ClaudeDirs {
			add(filepath.Join(pl.Home, d), true, whyClaudeDir)
		}
		add(filepath.Join(pl.Home, protect.ClaudeUserConfig), false, whyClaude)
		for _, f := range protect.AgentHookFiles {
			add(filepath.Join(pl.Home, f), false, whyAgentHooks)
		}
	}
	if pl.XDGConfig != "" {
		add(filepath.Join(pl.XDGConfig, "git", "config"), false, whyGitConfig)
	}
	return g
}

// Reasons for self-protection denials.
const (
	humanOnlyPrefix = "a human must do this: "
	whyProject      = "it writes into the gitwarrant project directory, where the loops and the record live; an agent must not widen its own warrant (a person edits the loop file and commits it)"
	whyGit          = "it writes into Git's own directory (.git/): hooks, config and refs/gitwarrant live there"
	whyHooks        = "it writes into a git hooks directory, and the hooks anchor the record"
	whyClaude       = "it edits Claude Code's settings, which hold the gitwarrant hook"
	whyClaudeDir    = "it writes Claude Code's commands, agents, skills or hook scripts, whose allowed-tools grant permissions and whose scripts run as hooks"
	whyMCP          = "it edits .mcp.json, which wires gitwarrant's MCP server"
	whyAgentHooks   = "it edits the hook settings of Codex, Gemini CLI or Cursor, which hold the gitwarrant hook"
	whyGitConfig    = "it edits a git config, whose core.hooksPath can switch off the hooks that anchor the record"
	whyManager      = "it edits a hook manager's configuration (lefthook, husky, pre-commit), through which gitwarrant's git hooks run"
)

// placeWhy decides one resolved, absolute path written: inside a
// protected place, or named like one wherever it is.
func (pl Place) placeWhy(p string) (string, bool) {
	if within(p, pl.ProjectDir) {
		return whyProject, true
	}
	for _, h := range pl.HooksDirs {
		if within(p, h) {
			return whyHooks, true
		}
	}
	if pl.Repo != nil && (within(p, pl.Repo.GitDir) || within(p, pl.Repo.CommonDir)) {
		return whyGit, true
	}
	comps := protect.Components(p)
	for i, c := range comps {
		switch c {
		case ".gitwarrant", ".docket":
			return whyProject, true
		case ".git":
			return whyGit, true
		case "settings.json", "settings.local.json":
			if i > 0 && comps[i-1] == ".claude" {
				return whyClaude, true
			}
		case "commands", "agents", "skills", "hooks":
			if i > 0 && comps[i-1] == ".claude" && protect.ClaudeDir(c) {
				return whyClaudeDir, true
			}
		case ".mcp.json":
			return whyMCP, true
		case protect.ClaudeUserConfig:
			return whyClaude, true
		case ".gitconfig":
			return whyGitConfig, true
		case "config", "gitconfig":
			if i > 0 && (comps[i-1] == "git" || comps[i-1] == "etc") {
				return whyGitConfig, true
			}
		}
	}
	if protect.HookManagerFile(p) {
		return whyManager, true
	}
	if protect.AgentHookFile(p) {
		return whyAgentHooks, true
	}
	return "", false
}

// patternWhy decides a glob (a pattern, see globPattern) written or, when
// ancestors is true, deleted or moved away: it is denied when some path it
// could match is protected — or, for a deletion, contains a protected place.
func (pl Place) patternWhy(pat string, ancestors bool) (string, bool) {
	for _, g := range pl.guards() {
		target := literalPattern(g.path)
		if intersect(pat, target) {
			return g.why, true
		}
		if g.dir && intersect(pat, target+"/"+string(starAll)) {
			return g.why, true
		}
		if ancestors && intersect(pat+"/"+string(starAll), target) {
			return g.why, true
		}
	}
	// The name rules, for places outside this work tree: a component that
	// can only be a protected directory's name.
	for _, c := range strings.Split(pat, "/") {
		if !strings.ContainsAny(c, string([]byte{starOne, anyOne, starAll})) || c == string(starOne) || c == string(starAll) {
			continue
		}
		for _, n := range []string{".git", ".gitwarrant", ".docket"} {
			if intersect(c, n) {
				return "it writes where a glob can match " + n + "/", true
			}
		}
	}
	return "", false
}

// ancestorWhy decides the deletion or move of a literal path: denied when
// it is protected or contains a protected place (`rm -rf .`).
func (pl Place) ancestorWhy(p string) (string, bool) {
	if why, hit := pl.placeWhy(p); hit {
		return why, true
	}
	for _, g := range pl.guards() {
		if within(g.path, p) {
			return g.why, true
		}
	}
	return "", false
}

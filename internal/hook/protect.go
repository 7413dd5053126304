package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// humanOnlyPrefix starts every self-protection reason: the call is not
// wrong, it is just not the agent's to make (docs/design.md#what-gitwarrant-is: agents propose,
// only a human amends).
const humanOnlyPrefix = "a human must do this: "

// Protected applies the built-in self-protection of docs/design.md#enforcement-surfaces, whatever the
// loops say: an agent must not widen its own warrant or switch off the gate.
// It denies file-writing tool calls into the project dir, Git's own
// directory, the git hooks directory or the hook and MCP settings; shell
// commands that run gitwarrant's human-only commands, touch
// refs/gitwarrant, or write to those places; and MCP or unknown tools whose
// name says they write and whose arguments name those places.
//
// projectDir is the project directory (or where it would be), repoRoot the
// work tree root, gitHooksDir the effective hooks directory (core.hooksPath
// honoured); any may be empty. Reading any of these places is never denied.
func Protected(p Payload, projectDir, repoRoot, gitHooksDir string) (reason string, denied bool) {
	in, err := parseObject(p.ToolInput)
	if err != nil {
		return "", false // Map reports it; a pinned gate asks
	}
	g := guard{cwd: p.Cwd, projectDir: projectDir, repoRoot: repoRoot, hooksDir: gitHooksDir}
	// Tool names are matched without case, and every duplicate of a key is
	// judged: a `bash` or a second "file_path" must not slip past because
	// some reader of the payload takes another member than this one.
	name := canonicalTool(p.ToolName)
	switch {
	case changeTools[name]:
		for _, path := range in.all("file_path", "notebook_path", "path") {
			if strings.TrimSpace(path) == "" {
				continue
			}
			if why, hit := g.path(path); hit {
				return humanOnlyPrefix + why, true
			}
		}
		return "", false
	case shellTools[name]:
		for _, cmd := range in.all("command") {
			if why, hit := g.shell(cmd); hit {
				return humanOnlyPrefix + why, true
			}
		}
		return "", false
	case readTools[name]:
		return "", false
	}
	why, hit := g.tool(p.ToolName, in)
	return humanOnlyPrefix + why, hit
}

// canonicalTool maps a tool name to the built-in tool it names, ignoring
// case ("bash" → "Bash"); other names are returned as they are.
func canonicalTool(name string) string {
	for _, set := range []map[string]bool{changeTools, shellTools, readTools} {
		for k := range set {
			if strings.EqualFold(k, name) {
				return k
			}
		}
	}
	return name
}

// all returns every string member called one of keys, duplicates included.
func (o object) all(keys ...string) []string {
	var out []string
	for _, f := range o {
		for _, k := range keys {
			if f.key == k {
				var s string
				if json.Unmarshal(f.raw, &s) == nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// guard holds the places self-protection covers.
type guard struct {
	cwd, projectDir, repoRoot, hooksDir string
}

// path decides a file write. The path is cleaned and its existing parents'
// symlinks resolved, so neither `src/../.gitwarrant/x` nor a link pointing
// into .git/hooks slips past; then it is compared, case-insensitively (macOS
// and Windows file systems are), against the protected directories and
// against the protected names wherever they appear.
func (g guard) path(path string) (string, bool) {
	abs := resolve(path, g.cwd)
	plain := cleanAbs(path, g.cwd)
	for _, cand := range []string{abs, plain} {
		if why, hit := g.pathIn(cand); hit {
			return why, true
		}
	}
	return "", false
}

func (g guard) pathIn(p string) (string, bool) {
	if g.projectDir != "" && within(p, resolve(g.projectDir, "")) {
		return "it writes into the gitwarrant project directory, where the loops and the record live; an agent must not widen its own warrant (a person edits the loop file and commits it)", true
	}
	if g.hooksDir != "" && within(p, resolve(g.hooksDir, g.repoRoot)) {
		return "it writes into the git hooks directory (" + g.hooksDir + ") that anchors the record", true
	}
	comps := components(p)
	for i, c := range comps {
		switch c {
		case ".gitwarrant", ".docket":
			return "it writes into a gitwarrant project directory (" + c + "/), where the loops and the record live; an agent must not widen its own warrant (a person edits the loop file and commits it)", true
		case ".git":
			return "it writes into Git's own directory (.git/): hooks, config and refs/gitwarrant live there", true
		case "settings.json", "settings.local.json":
			if i > 0 && comps[i-1] == ".claude" {
				return "it edits Claude Code's settings (.claude/" + c + "), which hold the gitwarrant hook", true
			}
		case ".mcp.json":
			return "it edits .mcp.json, which wires gitwarrant's MCP server", true
		case ".gitconfig":
			return "it edits a git config (" + c + "), whose core.hooksPath can switch off the hooks that anchor the record", true
		case "config", "gitconfig":
			if i > 0 && (comps[i-1] == "git" || comps[i-1] == "etc") {
				return "it edits a git config (" + comps[i-1] + "/" + c + "), whose core.hooksPath can switch off the hooks that anchor the record", true
			}
		}
	}
	return hookManagerConfig(p, comps)
}

// hookManagerFiles are the files through which husky, lefthook and the
// pre-commit framework run gitwarrant's git hooks (internal/install).
var hookManagerFiles = map[string]bool{
	"lefthook.yml": true, "lefthook.yaml": true, ".lefthook.yml": true, ".lefthook.yaml": true,
	".pre-commit-config.yaml": true,
}

// hookManagerConfig denies a write to a hook manager's file that runs
// gitwarrant: deleting that line switches the anchor off as surely as
// editing .git/hooks. Files that do not mention gitwarrant stay the
// agent's to edit (adding a linter to .pre-commit-config.yaml is work).
func hookManagerConfig(p string, comps []string) (string, bool) {
	n := len(comps)
	if n == 0 || !(hookManagerFiles[comps[n-1]] || (n > 1 && comps[n-2] == ".husky")) {
		return "", false
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(strings.ToLower(string(b)), "gitwarrant") {
		return "", false
	}
	return "it edits " + filepath.Base(p) + ", which runs gitwarrant's git hooks through a hook manager", true
}

// cleanAbs makes path absolute against cwd and cleans it.
func cleanAbs(path, cwd string) string {
	if !filepath.IsAbs(path) && cwd != "" {
		path = filepath.Join(cwd, path)
	}
	return filepath.Clean(path)
}

// resolve is cleanAbs followed by resolving symlinks in the longest prefix
// that exists (the file itself may not exist yet).
func resolve(path, cwd string) string {
	p := cleanAbs(path, cwd)
	dir, rest := p, []string(nil)
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
		dir = parent
	}
}

// within reports whether p is dir or inside it, ignoring case.
func within(p, dir string) bool {
	rel, err := filepath.Rel(strings.ToLower(dir), strings.ToLower(p))
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// components splits a path into lower-cased names with the trailing dots
// and spaces Windows ignores removed, so `.GIT.` is still `.git`.
func components(p string) []string {
	p = strings.ReplaceAll(filepath.ToSlash(p), `\`, "/")
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, c := range parts {
		if c = strings.TrimRight(strings.ToLower(c), ". "); c != "" {
			out = append(out, c)
		}
	}
	return out
}

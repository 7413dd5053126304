package typed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// npm, pnpm and yarn (docs/typed-entries.md#kinds): their own subcommands
// by table; a package script (`npm run deploy`, `pnpm build`, `yarn
// test`) by the commands the script runs, read from package.json — which
// the loop must vouch for (Decide), or the script is unreadable.

// nodeGlobals are the options each manager takes before its subcommand:
// which take a value, which select workspace packages (so the script may
// be any package's), and which name the folder it runs in.
type nodeGlobals struct {
	values, flags, selectors, dirs map[string]bool
}

var nodeOpts = sync.OnceValue(func() map[string]nodeGlobals {
	common := []string{"--silent", "-s", "--yes", "-y", "--quiet", "-q", "--verbose", "--if-present", "--offline",
		"--prefer-offline", "--no-color", "--color", "--json", "--parseable", "-d", "--dd", "--ddd", "--help", "-h",
		"--version", "-v", "--frozen-lockfile", "--ignore-scripts", "--legacy-peer-deps", "--no-audit", "--no-fund",
		"--production", "--prod", "--dev", "-D", "-P", "--save-dev", "--save", "--global", "-g", "--foreground-scripts",
		"--stream", "--parallel", "--aggregate-output", "--sort", "--no-sort", "--no-bail", "--bail"}
	return map[string]nodeGlobals{
		"npm": {values: set("--loglevel", "--registry", "--cache", "--userconfig", "--prefix", "-w", "--workspace",
			"--tag", "--access", "--otp", "--script-shell"),
			flags:     set(append(common, "--workspaces", "-ws", "--include-workspace-root", "--no-workspaces")...),
			selectors: set("-w", "--workspace", "--workspaces", "-ws"), dirs: set("--prefix")},
		"pnpm": {values: set("--filter", "-F", "-C", "--dir", "--reporter", "--loglevel", "--registry", "--filter-prod",
			"--test-pattern", "--changed-files-ignore-pattern", "--workspace-concurrency", "--resume-from"),
			flags: set(append(common, "-r", "--recursive", "-w", "--workspace-root", "--include-workspace-root",
				"--fail-if-no-match", "--shamefully-hoist", "--use-stderr", "--no-reporter-hide-prefix")...),
			selectors: set("--filter", "-F", "-r", "--recursive", "--filter-prod"), dirs: set("-C", "--dir")},
		"yarn": {values: set("--cwd", "--registry", "--network-timeout", "--modules-folder", "--cache-folder"),
			flags: set(append(common, "--non-interactive", "--immutable", "--check-files", "--pure-lockfile")...),
			dirs:  set("--cwd")},
	}
})

var nodeTables = sync.OnceValue(func() map[string]*table {
	out := map[string]*table{}
	for _, pm := range []string{"npm", "pnpm", "yarn"} {
		s := map[string]sub{}
		rows(s, rd, "ls", "list", "ll", "la", "view", "info", "show", "v", "search", "s", "se", "find", "outdated",
			"audit", "explain", "why", "doctor", "help", "root", "bin", "prefix", "fund", "ping", "whoami", "query",
			"licenses", "sbom", "diff", "docs", "home", "bugs", "repo", "config get", "config list", "config ls",
			"pkg get", "cache ls", "cache verify", "cache list", "dist-tag ls", "dist-tag list", "owner ls",
			"owner list", "access list", "access get", "token list", "team ls", "team list", "org ls", "hook ls",
			"profile get", "store path", "store status", "env list", "npm info", "npm whoami", "npm audit",
			"workspaces list", "constraints", "versions", "completion")
		rows(s, ch("changes the project's dependencies or files"), "install", "i", "ci", "add", "uninstall", "remove",
			"rm", "r", "un", "unlink", "update", "up", "upgrade", "upgrade-interactive", "link", "ln", "dedupe", "ddp",
			"prune", "rebuild", "rb", "pack", "init", "create", "exec", "x", "dlx", "fetch", "import", "patch",
			"patch-commit", "patch-remove", "setup", "store", "env", "config", "pkg", "cache", "install-test", "it",
			"install-ci-test", "cit", "set", "plugin", "unplug", "autoclean", "check", "generate-lock-entry",
			"global", "version", "deploy", "shrinkwrap", "edit", "explore", "set-script", "audit fix")
		rows(s, sd("sends a package"), "publish", "unpublish", "npm publish")
		rows(s, sd("changes a package on the registry"), "deprecate", "undeprecate", "dist-tag", "owner", "access",
			"star", "unstar", "team", "org", "hook", "profile", "adduser", "add-user", "login", "logout", "token", "tag",
			"npm tag", "npm login", "npm logout")
		out[pm] = &table{widest: sd("may publish a package"), subs: s,
			groups: map[string]sub{"config": ch("changes the configuration"), "pkg": ch("edits package.json"),
				"cache": ch("changes the cache"), "dist-tag": sd("changes a package's tags on the registry"),
				"owner": sd("changes a package's owners"), "access": sd("changes a package's access"),
				"token": sd("changes registry tokens"), "team": sd("changes a registry team"),
				"org": sd("changes a registry organisation"), "hook": sd("changes registry hooks"),
				"profile": sd("changes a registry profile"), "store": ch("changes the package store"),
				"env": ch("installs a Node.js"), "npm": sd("talks to the registry"),
				"workspaces": sd("runs a command in every workspace")}}
	}
	return out
})

// scriptSubs are the subcommands that run a package script: the name is
// the next word, or the subcommand itself for the lifecycle shorthands.
var scriptSubs = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		"npm":  {"run": "", "run-script": "", "rum": "", "urn": "", "test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop", "restart": "restart"},
		"pnpm": {"run": "", "run-script": "", "test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop", "restart": "restart"},
		"yarn": {"run": "", "test": "test", "start": "start", "stop": "stop", "restart": "restart"},
	}
})

func nodeKind(pm string, argv []string, c shell.Clause, env Env, depth int) Kind {
	g := nodeOpts()[pm]
	args := argv[1:]
	dir, selected := "", false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, val, has := strings.Cut(a, "=")
		switch {
		case g.values[name] && !has:
			if i+1 < len(args) {
				val = args[i+1]
			}
			i++
		case g.values[name], g.flags[name]:
		default:
			return Kind{Verb: loops.Send, Cmd: pm, Why: "is given " + a + " before its command, an option the gate does not know"}
		}
		selected = selected || g.selectors[name]
		if g.dirs[name] {
			dir = val
		}
	}
	rest := args[i:]
	if len(rest) == 0 {
		if pm == "yarn" {
			return Kind{Verb: loops.Change, Cmd: pm, Why: "installs the project's dependencies"}
		}
		return Kind{Verb: loops.Read, Cmd: pm}
	}
	base := env.path(filepath.Join(c.Dir, dir)).Abs
	if c.Dir == "" && dir == "" {
		base = env.path(".").Abs
	}
	sub := rest[0]
	if pm == "yarn" && sub == "workspace" && len(rest) >= 3 {
		return scriptsKind(pm, rest[2], rest[2:], manifestsIn(env.Root, base, true), env, depth, true)
	}
	if pm == "yarn" && sub == "workspaces" && len(rest) >= 2 && rest[1] == "foreach" {
		for j := 2; j < len(rest); j++ {
			if !strings.HasPrefix(rest[j], "-") {
				return scriptsKind(pm, rest[j], rest[j:], manifestsIn(env.Root, base, true), env, depth, true)
			}
		}
		return Kind{Verb: loops.Send, Cmd: "yarn workspaces foreach", Why: "runs a command the gate cannot read in every workspace"}
	}
	if script, runs := scriptSubs()[pm][sub]; runs {
		if script == "" {
			j := 1
			for j < len(rest) && strings.HasPrefix(rest[j], "-") {
				j++
			}
			if j >= len(rest) {
				return Kind{Verb: loops.Read, Cmd: pm + " " + sub} // lists the scripts
			}
			script = rest[j]
		}
		return scriptsKind(pm, script, nil, manifestsIn(env.Root, base, selected), env, depth, pm == "yarn")
	}
	t := nodeTables()[pm]
	_, known := t.subs[sub]
	_, group := t.groups[sub]
	if known || group || pm == "npm" {
		return t.kind(pm, rest)
	}
	// `pnpm <name>` and `yarn <name>` run the script of that name, or else
	// the package binary.
	return scriptsKind(pm, sub, nil, manifestsIn(env.Root, base, selected), env, depth, true)
}

// manifestsIn lists the package.json files a script run may read: the
// folder's own, and with a workspace selector every package under
// packages/ and apps/ (the layout `new` reads, docs/typed-entries.md#templates).
func manifestsIn(root, base string, workspaces bool) []string {
	out := []string{filepath.Join(base, "package.json")}
	if !workspaces {
		return out
	}
	top := root
	if top == "" {
		top = base
	}
	for _, group := range []string{"packages", "apps"} {
		found, _ := filepath.Glob(filepath.Join(top, group, "*", "package.json"))
		sort.Strings(found)
		out = append(out, found...)
	}
	return out
}

// scriptsKind is the widest kind of the scripts named script (with their
// pre and post scripts) in the manifests. When none has it, a manager
// that would then run a binary of that name (binFallback) is the widest
// it can be; npm fails.
func scriptsKind(pm, script string, tail []string, manifests []string, env Env, depth int, binFallback bool) Kind {
	cmd := pm + " run " + script
	k := Kind{Cmd: cmd}
	found := false
	for _, m := range manifests {
		scripts, err := readScripts(m)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return Kind{Verb: loops.Send, Cmd: cmd, Why: "runs a package script from " + m + ", which the gate cannot read", Manifests: []loops.FilePath{env.path(m)}}
		}
		for _, name := range []string{"pre" + script, script, "post" + script} {
			text, ok := scripts[name]
			if !ok {
				continue
			}
			found = true
			sk := scriptTextKind(text, filepath.Dir(m), env, depth)
			if sk.Verb != "" {
				sk.Cmd = cmd
				sk.Why = "runs the package script `" + name + "` (" + text + "), which " + strings.TrimSpace(kindPhrase(sk))
			}
			k = Wider(k, sk)
			k.Manifests = appendNew(k.Manifests, env.path(m))
		}
	}
	if !found {
		if tail != nil && len(tail) > 1 {
			// yarn workspace X <command>: a yarn command in that package.
			return nodeKind(pm, append([]string{pm}, tail...), shell.Clause{}, env, depth+1)
		}
		if binFallback {
			return Kind{Verb: loops.Send, Cmd: pm + " " + script, Why: "runs " + script + ", which is no script the gate can read, so it may be any binary or command of " + pm}
		}
		return Kind{Cmd: cmd}
	}
	return k
}

func appendNew(list []loops.FilePath, s loops.FilePath) []loops.FilePath {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// kindPhrase says what a kind does, for a reason that quotes a script.
func kindPhrase(k Kind) string {
	if k.Why != "" {
		return k.Why
	}
	return "reads"
}

// scriptTextKind classifies the command line of a package script, run in
// dir: the widest kind of its clauses and the files they write.
func scriptTextKind(text, dir string, env Env, depth int) Kind {
	if depth >= maxScriptDepth {
		return Kind{Verb: loops.Send, Why: "runs package scripts nested too deep to read"}
	}
	s := shell.Parse(text)
	if s.Opaque {
		return Kind{Verb: loops.Send, Why: "cannot be read as shell"}
	}
	se := env
	se.Cwd = dir
	var k Kind
	for _, c := range s.Clauses {
		ck := clauseKind(c, nil, se, depth+1)
		if ck.Verb != "" && ck.Why == "" && ck.Verb != loops.Read {
			ck.Why = ck.Cmd + " " + string(ck.Verb) + "s"
		}
		if ck.Why != "" && ck.Cmd != "" && !strings.HasPrefix(ck.Why, ck.Cmd) {
			ck.Why = "`" + ck.Cmd + "` " + ck.Why
		}
		k = Wider(k, ck)
		for _, e := range c.Effects() {
			if e.Kind != "read" {
				k = Wider(k, Kind{Verb: loops.Change, Why: "writes " + e.Path.Text})
			}
		}
	}
	return k
}

// readScripts reads the scripts of a package.json.
func readScripts(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// The key is matched exactly, as npm reads it: decoding into a struct
	// would also take "Scripts" or "SCRIPTS", and the last of them would
	// hide the scripts npm runs.
	var pkg map[string]json.RawMessage
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, err
	}
	raw, ok := pkg["scripts"]
	if !ok {
		return nil, nil
	}
	var scripts map[string]string
	if err := json.Unmarshal(raw, &scripts); err != nil {
		return nil, err
	}
	return scripts, nil
}

package typed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

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
			"--tag", "--access", "--otp"),
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
	return nodeKindIn(pm, argv, c.Dir, env, depth, false)
}

// nodeKindIn is nodeKind for a command run in cdir (relative to env's
// folder), every workspace package's manifest read when inWorkspaces
// (`yarn workspace web run build` runs web's build).
func nodeKindIn(pm string, argv []string, cdir string, env Env, depth int, inWorkspaces bool) Kind {
	g := nodeOpts()[pm]
	args := argv[1:]
	dir, selected := "", inWorkspaces
	for _, a := range args {
		if a == "--" {
			break
		}
		if name, _, _ := strings.Cut(a, "="); nodeRunsVia()[name] {
			// npm takes any setting as an option, anywhere: a script
			// shell, node options or a config file the agent may have
			// written run the scripts through a program no table reads.
			return Kind{Verb: loops.Send, Cmd: pm, Why: "is given " + name + ", so its scripts run through a program or settings the gate cannot read"}
		}
	}
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
	base := env.path(filepath.Join(cdir, dir)).Abs
	if cdir == "" && dir == "" {
		base = env.path(".").Abs
	}
	// npm reads its options anywhere before `--` (`npm run build -w web`,
	// `npm run lint --prefix sub`); pnpm and yarn are given the same
	// reading, which can only read more manifests.
	bases := []string{base}
	for j := 1; j < len(rest) && rest[j] != "--"; j++ {
		name, val, has := strings.Cut(rest[j], "=")
		if g.values[name] && !has && j+1 < len(rest) {
			j++
			val = rest[j]
		}
		selected = selected || g.selectors[name]
		if g.dirs[name] {
			bases = append(bases, env.path(filepath.Join(cdir, val)).Abs)
		}
	}
	manifests := func(ws bool) []string {
		var out []string
		for _, b := range bases {
			out = append(out, manifestsIn(env.Root, b, ws)...)
		}
		return out
	}
	sub := rest[0]
	if pm == "yarn" && sub == "workspace" && len(rest) >= 3 {
		return scriptsKind(pm, rest[2], rest[2:], manifests(true), env, depth, true)
	}
	if pm == "yarn" && sub == "workspaces" && len(rest) >= 2 && rest[1] == "foreach" {
		for j := 2; j < len(rest); j++ {
			if !strings.HasPrefix(rest[j], "-") {
				return scriptsKind(pm, rest[j], rest[j:], manifests(true), env, depth, true)
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
		} else if names := lifecycle()[sub]; names != nil {
			return namedScriptsKind(pm+" "+sub, names, manifests(selected), env, depth)
		}
		return scriptsKind(pm, script, nil, manifests(selected), env, depth, pm == "yarn")
	}
	if nodeRunners()[pm][sub] {
		return runnerKind(pm, sub, rest[1:], env, depth)
	}
	t := nodeTables()[pm]
	_, known := t.subs[sub]
	_, group := t.groups[sub]
	if known || group || pm == "npm" {
		k := t.kind(pm, rest)
		if names := lifecycle()[sub]; names != nil && rank(k.Verb) < rank(loops.Send) {
			// `npm version` runs preversion, version and postversion
			// (docs/typed-entries.md#kinds): a postversion that pushes
			// makes it send.
			if sk := namedScriptsKind(pm+" "+sub, names, manifests(selected), env, depth); sk.Verb != "" {
				k = Wider(k, sk)
			}
		}
		return k
	}
	// `pnpm <name>` and `yarn <name>` run the script of that name, or else
	// the package binary.
	return scriptsKind(pm, sub, nil, manifests(selected), env, depth, true)
}

// bunKind reads bun like the other managers: `bun publish` sends, `bun x`
// is as wide as what it runs, and `bun run X` or `bun X` runs the package
// script X (judged by its commands), else a file or a package binary
// named X, which may be anything.
func bunKind(argv []string, c shell.Clause, env Env, depth int) Kind {
	args := argv[1:]
	dir := ""
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		name, val, has := strings.Cut(args[i], "=")
		switch name {
		case "--cwd":
			if !has && i+1 < len(args) {
				i++
				val = args[i]
			}
			dir = val
		case "--silent", "--bun", "-b", "--smol", "--watch", "--hot", "--no-install", "--if-present", "--version", "-v",
			"--help", "-h", "--revision":
		default:
			return Kind{Verb: loops.Send, Cmd: "bun", Why: "is given " + args[i] + " before its command, an option the gate does not know"}
		}
	}
	rest := args[i:]
	if len(rest) == 0 {
		return Kind{Verb: loops.Read, Cmd: "bun"}
	}
	manifests := manifestsIn(env.Root, env.path(filepath.Join(c.Dir, dir)).Abs, slices.Contains(rest, "--filter") || slices.Contains(rest, "-F"))
	switch sub := rest[0]; sub {
	case "publish":
		return Kind{Verb: loops.Send, Cmd: "bun publish", Why: "sends a package"}
	case "x":
		return runnerKind("bun", "x", rest[1:], env, depth)
	case "exec":
		if len(rest) > 1 {
			return runnerKind("bun", "exec", []string{"-c", strings.Join(rest[1:], " ")}, env, depth)
		}
		return Kind{Verb: loops.Read, Cmd: "bun exec"}
	case "info", "why", "outdated", "audit", "help", "completions":
		return Kind{Verb: loops.Read, Cmd: "bun " + sub}
	case "test", "install", "i", "add", "a", "remove", "rm", "update", "link", "unlink", "patch", "patch-commit", "pm",
		"init", "create", "c", "upgrade", "build", "repl":
		return Kind{Verb: loops.Change, Cmd: "bun " + sub, Why: "runs or installs code"}
	case "run":
		j := 1
		for j < len(rest) && strings.HasPrefix(rest[j], "-") {
			j++
		}
		if j >= len(rest) {
			return Kind{Verb: loops.Read, Cmd: "bun run"}
		}
		rest = rest[j:]
	}
	if name := rest[0]; strings.ContainsAny(name, "/\\") || slices.Contains([]string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}, filepath.Ext(name)) {
		return Kind{Cmd: "bun " + name} // a file of the project: the entry's own word
	}
	return scriptsKind("bun", rest[0], nil, manifests, env, depth, true)
}

// nodeRunsVia are the settings that change what runs a package script.
var nodeRunsVia = sync.OnceValue(func() map[string]bool {
	return set("--script-shell", "--node-options", "--userconfig", "--globalconfig", "--shell", "--npm-path",
		"--node-gyp", "--init-module")
})

// nodeRunners are the subcommands that run another command: `npm exec --
// npm publish` is as wide as `npm publish`.
var nodeRunners = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{"npm": set("exec", "x", "explore"), "pnpm": set("exec", "dlx"),
		"yarn": set("exec", "dlx")}
})

// lifecycle are the subcommands that run package scripts of their own
// (npm's docs/cli/using-npm/scripts: "Life Cycle Operation Order"):
// `npm restart` runs stop and start when there is no restart script, and
// `npm install-test` runs test after the install.
var lifecycle = sync.OnceValue(func() map[string][]string {
	test := []string{"pretest", "test", "posttest"}
	return map[string][]string{
		"version": {"preversion", "version", "postversion"},
		"pack":    {"prepack", "prepare", "postpack"},
		"restart": {"prerestart", "restart", "postrestart", "prestop", "stop", "poststop", "prestart", "start", "poststart"},
		"it":      test, "install-test": test, "cit": test, "install-ci-test": test, "sit": test, "clean-install-test": test,
	}
})

// runnerKind is the kind of the command a runner subcommand runs (`npm
// exec -- np`, `pnpm dlx vercel --prod`, `npm explore pkg -- npm publish`,
// `npm exec -c 'npm publish'`): at least change, as the runner installs
// what it runs, and as wide as the command.
func runnerKind(pm, sub string, args []string, env Env, depth int) Kind {
	k := Kind{Verb: loops.Change, Cmd: pm + " " + sub, Why: "runs a package's program"}
	if depth >= maxScriptDepth {
		return Kind{Verb: loops.Send, Cmd: k.Cmd, Why: "runs commands nested too deep to read"}
	}
	var texts []string
	unknown := false
	i := 0
	if sub == "explore" {
		i = 1 // the package explored
		for i < len(args) && args[i] != "--" {
			i++
		}
		if i >= len(args) {
			return k // an interactive shell, which reads nothing here
		}
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, val, has := strings.Cut(a, "=")
		switch name {
		case "-c", "--call", "--shell-mode":
			if !has && i+1 < len(args) {
				i++
				val = args[i]
			}
			texts = append(texts, val)
		case "-p", "--package", "-w", "--workspace", "--filter", "-F", "--dir", "-C", "--prefix":
			if !has {
				i++
			}
		case "-y", "--yes", "--no", "-q", "--quiet", "--silent", "-s", "--workspaces", "-ws", "-r", "--recursive",
			"--include-workspace-root", "--parallel", "--no-bail", "--bail":
		default:
			unknown = true
		}
	}
	if i < len(args) {
		texts = append(texts, joinQuoted(args[i:]))
		if unknown && i+1 < len(args) {
			texts = append(texts, joinQuoted(args[i+1:])) // the unknown option took a value
		}
	}
	for _, text := range texts {
		sk := scriptTextKind(text, env.Cwd, env, depth)
		if rank(sk.Verb) > rank(k.Verb) {
			k = Wider(k, Kind{Verb: sk.Verb, Cmd: k.Cmd, Why: "runs `" + text + "`, which " + strings.TrimSpace(kindPhrase(sk))})
		}
	}
	return k
}

func joinQuoted(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = quoteArg(w, false)
	}
	return strings.Join(q, " ")
}

// manifestsIn lists the package.json files a script run may read: the
// folder's own, and with a workspace selector every package under
// packages/ and apps/ (the layout `new` reads, docs/typed-entries.md#templates)
// and under the folders the root package.json's "workspaces" and
// pnpm-workspace.yaml name.
func manifestsIn(root, base string, workspaces bool) []string {
	out := []string{filepath.Join(base, "package.json")}
	if !workspaces {
		return out
	}
	top := root
	if top == "" {
		top = base
	}
	seen := map[string]bool{out[0]: true}
	for _, pattern := range append([]string{"packages/*", "apps/*"}, workspaceGlobs(top)...) {
		for _, m := range workspaceManifests(top, pattern) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// workspaceGlobs are the workspace folders a monorepo names: package.json's
// "workspaces" (a list, or an object with "packages") and the "packages"
// of pnpm-workspace.yaml. An exclusion (`!x`) is read as the folder it
// names, which can only read more manifests.
func workspaceGlobs(top string) []string {
	var out []string
	if b, err := os.ReadFile(filepath.Join(top, "package.json")); err == nil {
		var pkg map[string]json.RawMessage
		if json.Unmarshal(b, &pkg) == nil {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(pkg["workspaces"], &list) == nil {
				out = append(out, list...)
			} else if json.Unmarshal(pkg["workspaces"], &obj) == nil {
				out = append(out, obj.Packages...)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(top, "pnpm-workspace.yaml")); err == nil {
		var ws struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(b, &ws) == nil {
			out = append(out, ws.Packages...)
		}
	}
	for i, p := range out {
		out[i] = strings.TrimPrefix(strings.TrimPrefix(p, "!"), "./")
	}
	return out
}

// workspaceManifests lists the package.json files of one workspace
// pattern: a glob, or with `**` every package.json below the folder
// before it (node_modules left out).
func workspaceManifests(top, pattern string) []string {
	if pattern == "" || filepath.IsAbs(pattern) || strings.Contains(pattern, "..") {
		return nil
	}
	if before, _, deep := strings.Cut(pattern, "**"); deep {
		var out []string
		_ = filepath.WalkDir(filepath.Join(top, before), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.IsDir() && d.Name() == "package.json" {
				out = append(out, p)
			}
			return nil
		})
		sort.Strings(out)
		return out
	}
	found, _ := filepath.Glob(filepath.Join(top, pattern, "package.json"))
	sort.Strings(found)
	return found
}

// scriptsKind is the widest kind of the scripts named script (with their
// pre and post scripts) in the manifests. When none has it, a manager
// that would then run a binary of that name (binFallback) is the widest
// it can be; npm fails.
func scriptsKind(pm, script string, tail []string, manifests []string, env Env, depth int, binFallback bool) Kind {
	cmd := pm + " run " + script
	k := namedScriptsKind(cmd, []string{"pre" + script, script, "post" + script}, manifests, env, depth)
	found := k.Verb != "" || len(k.Manifests) > 0
	if !found {
		if tail != nil && len(tail) > 1 {
			// yarn workspace X <command>: a yarn command in that package,
			// whose scripts are the workspace packages'.
			return nodeKindIn(pm, append([]string{pm}, tail...), "", env, depth+1, true)
		}
		if binFallback {
			return Kind{Verb: loops.Send, Cmd: pm + " " + script, Why: "runs " + script + ", which is no script the gate can read, so it may be any binary or command of " + pm}
		}
		return Kind{Cmd: cmd}
	}
	return k
}

// namedScriptsKind is the widest kind of the scripts of those names in
// the manifests, for a reason quoting cmd; a Kind with no verb and no
// manifests when none has one.
func namedScriptsKind(cmd string, names, manifests []string, env Env, depth int) Kind {
	k := Kind{Cmd: cmd}
	for _, m := range manifests {
		scripts, err := readScripts(m)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return Kind{Verb: loops.Send, Cmd: cmd, Why: "runs a package script from " + m + ", which the gate cannot read", Manifests: []loops.FilePath{env.path(m)}}
		}
		for _, name := range names {
			text, ok := scripts[name]
			if !ok {
				continue
			}
			sk := scriptTextKind(text, filepath.Dir(m), env, depth)
			if sk.Verb != "" {
				sk.Cmd = cmd
				sk.Why = "runs the package script `" + name + "` (" + text + "), which " + strings.TrimSpace(kindPhrase(sk))
			}
			k = Wider(k, sk)
			k.Manifests = appendNew(k.Manifests, env.path(m))
		}
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
		if c.Opaque && knownTool(c) {
			// A clause of a tool the tables know, with a word built at
			// run time (`npx -y np`, `git $CMD`): the word could be any
			// subcommand.
			ck = Kind{Verb: loops.Send, Cmd: c.Name(), Why: "is built at run time (" + c.Why + ")"}
		}
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

// rewritesManifests reports a clause that may put another package.json or
// .npmrc in the work tree without a file effect an entry sees: git moving
// files in from another commit, `npm pkg set`, `npm config set`, an
// archive or a patch. A package script run after it in the same call
// cannot be read from the file as it is now.
func rewritesManifests(c shell.Clause) bool {
	if c.Opaque || len(c.Argv) == 0 {
		return false
	}
	argv := c.Strings()
	switch name := c.Name(); name {
	case "git":
		g, _ := c.Git()
		if g == nil || g.Opaque {
			return true
		}
		first, _, _ := strings.Cut(g.Sub, " ")
		switch first {
		case "checkout", "switch":
			// a new branch where HEAD is changes no file
			return !(hasOpt(g, "b", "c", "orphan") && len(g.Operands) <= 1)
		case "restore", "reset", "stash", "pull", "merge", "rebase", "am", "apply", "cherry-pick", "revert",
			"read-tree", "checkout-index", "bisect", "mv", "submodule", "sparse-checkout":
			return true
		}
	case "npm", "pnpm", "yarn":
		for i, a := range argv[1:] {
			if strings.HasPrefix(a, "-") {
				continue
			}
			switch a {
			case "pkg", "config":
				next := ""
				if i+2 < len(argv) {
					next = argv[i+2]
				}
				return next != "get" && next != "list" && next != "ls"
			case "set-script", "set", "init", "create":
				return true
			}
			return false
		}
	case "patch", "tar", "unzip", "bsdtar", "7z", "cpio":
		return true
	}
	return false
}

// knownTool reports a clause whose command a kind table knows, or whose
// command is itself built at run time.
func knownTool(c shell.Clause) bool {
	if len(c.Argv) == 0 {
		return false
	}
	if !c.Argv[0].Literal {
		return true
	}
	switch name := c.Name(); name {
	case "git", "npm", "pnpm", "yarn", "corepack":
		return true
	default:
		return toolTable(name) != nil || toolFunc(name) != nil
	}
}

// readScripts reads the scripts of a package.json.
func readScripts(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// Keys as Node reads them: exactly, the last of a repeated key
	// winning. encoding/json matches a struct field's name in any case, so
	// `"Scripts"` after `"scripts"` would replace the scripts npm runs.
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
